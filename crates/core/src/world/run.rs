//! One run: a fresh QuickJS runtime and context, driven in slices until it settles.
//!
//! A run is a state machine, never a thread: each slice handles the events that woke it
//! (start, a host call settling, a timer, a stop), drains the job queue, and then either
//! finishes (the program's promise settled, or a stop cause is set) or parks holding no
//! thread. Slices of one run may execute on different pool threads, never on two at once
//! (the cell's `scheduled` flag in `lib.rs` guarantees that).
//!
//! Invariants that keep the host process alive:
//! - every JS handle kept in Rust (`Persistent`) is dropped before the context and the
//!   runtime (`Drop` below spells the order out);
//! - the ending is decided from [`RunControl`]'s cause first: an interrupted async function
//!   leaves its promise pending forever, so the promise alone would lie;
//! - values read on the engine's behalf go through `raw`, `bridge` and `inspect`, which run
//!   no program code; only a thrown non-Error's `String(value)` runs program code, and it does
//!   so as part of the program, under its budgets.

use crate::bridge::bindings::{self, BindingHandles, BindingSpec, Directory, SettleBatch};
use crate::bridge::json as bridge;
use crate::bridge::outbox::Outbox;
use crate::console::inspector::Inspector;
use crate::console::methods as console;
use crate::console::stack::{self, Stacks};
use crate::host::{Host, RunId};
use crate::intl;
use crate::limits::budget::JS_STACK_LIMIT;
use crate::limits::budget::{HeapAllocator, RunControl, StopCause};
use crate::limits::ledger::{Completion, Failure, FailureKind, Ledger};
use crate::messages;
use crate::quickjs::raw;
use crate::web::globals as web;
use crate::world::shared::RunShared;
use crate::world::timers::{self, Timers, WakeAt};
use crate::zone::Zone;
use code_runtime_transpile::{transpile, transpile_session, PROGRAM_FILE};
use rquickjs::context::intrinsic;
use rquickjs::promise::PromiseState;
use rquickjs::{qjs, Context, Ctx, Object, Persistent, Promise, Runtime, Value};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// The built-ins every context gets at once (besides the base objects); the rest of
/// `JS_NewContext`'s set is lazy (`raw::JS_AddLazyIntrinsics`).
type Eager = (
  intrinsic::Eval,
  intrinsic::RegExpCompiler,
  intrinsic::Json,
  intrinsic::Promise,
  intrinsic::Performance,
);

/// A context with every built-in of QuickJS's full one, but `Date`, the typed arrays,
/// `DOMException`, `Map` and `Set`, `WeakRef` with `FinalizationRegistry`, `RegExp`, `Proxy`,
/// `DisposableStack` with `AsyncDisposableStack`, `Error.prepareStackTrace`'s call sites and
/// the generator prototypes are added on first use (`vendor/README.md`): most programs never touch most of them, and they
/// are over a third of a context's memory and of its start-up time.
pub(crate) fn new_context(rt: &Runtime) -> rquickjs::Result<Context> {
  let ctx = Context::custom::<Eager>(rt)?;
  ctx.with(|ctx| {
    // SAFETY: a fresh context with its base objects, used on the thread that owns it.
    if unsafe { raw::JS_AddLazyIntrinsics(ctx.as_raw().as_ptr()) } < 0 {
      return Err(rquickjs::Error::Allocation);
    }
    Ok(())
  })?;
  Ok(ctx)
}

/// Heap size at which QuickJS first runs its cycle collector (then at 1.5 times the heap
/// it leaves). Reference counting frees all but cyclic garbage at once, so a collection
/// mostly walks live objects: a program building 50,000 records spent 2.3 of its 15 ms in
/// the one it got at 8 MiB. At most this much cyclic garbage waits (a quarter of a smaller
/// heap limit).
pub const GC_THRESHOLD: usize = 16 * 1024 * 1024;

/// Wakes a run.
#[derive(Debug)]
pub enum Event {
  Start,
  /// Something set the stop cause (abort, wall ceiling, dispose): look at it.
  Wake,
  /// The host answered binding call `call`: `Ok(json)` or `Err(rejection message)`.
  Settle {
    call: u32,
    outcome: Result<String, String>,
  },
  /// The host answered several binding calls.
  SettleBatch(SettleBatch),
  /// A timer may be due.
  Timers,
  /// The next run of a session (see [`Run::session`]).
  StartInSession(RunSpec),
}

pub struct Run {
  program: Option<String>,
  /// An uncaught throw from a timer callback: the run's ending.
  fatal: Option<String>,
  control: Arc<RunControl>,
  shared: Rc<RunShared>,
  /// The time zone of the world's `Date` (the runtime's `timeZone`).
  zone: &'static Zone,
  /// A session's kernel: its world outlives each of its runs.
  session: bool,
  /// A session run is in progress.
  running: bool,
  /// Why a session cannot run any more (its heap was exhausted), once it cannot.
  dead: Option<String>,
  // Engine handles, released in `Drop` in this order.
  promise: Option<Persistent<Promise<'static>>>,
  ctx: Option<Context>,
  rt: Option<Runtime>,
}

// SAFETY: a Run is only ever touched by the one pool thread that holds its cell's
// `scheduled` token and state mutex, so its `Rc`s and `Persistent`s are never used from two
// threads at once; rquickjs's `parallel` feature re-anchors the engine's stack limit on
// whichever thread takes the runtime lock.
unsafe impl Send for Run {}

impl Drop for Run {
  fn drop(&mut self) {
    self.end_run_state();
    self.free_world();
  }
}

impl Run {
  pub fn new(
    spec: RunSpec,
    control: Arc<RunControl>,
    host: Arc<dyn Host>,
    wake_at: WakeAt,
    zone: &'static Zone,
  ) -> Run {
    let ledger = Ledger::new(control.limits.max_output_bytes);
    Run {
      program: Some(spec.program),
      fatal: None,
      shared: Rc::new(RunShared {
        ledger: RefCell::new(ledger),
        control: control.clone(),
        outbox: Arc::new(Outbox::new(spec.id, host, spec.live_logs)),
        directory: RefCell::new(Directory::new(spec.bindings)),
        generation: std::cell::Cell::new(spec.id),
        bindings: RefCell::new(BindingHandles::default()),
        timers: RefCell::new(Timers::default()),
        wake_at,
        shapes: Default::default(),
        inspector: Inspector::default(),
        stacks: Stacks::default(),
        console: Default::default(),
      }),
      control,
      zone,
      session: false,
      running: false,
      dead: None,
      promise: None,
      ctx: None,
      rt: None,
    }
  }

  /// A session's kernel: one JavaScript world in which the session's runs execute one after
  /// another ([`Event::StartInSession`]), each with fresh budgets, ledger and bindings under
  /// its own id, while globals and top-level declarations persist. Idle until the first.
  pub fn session(
    id: RunId,
    control: Arc<RunControl>,
    host: Arc<dyn Host>,
    wake_at: WakeAt,
    zone: &'static Zone,
  ) -> Run {
    let spec = RunSpec { id, program: String::new(), bindings: Vec::new(), live_logs: false };
    let mut run = Run::new(spec, control, host, wake_at, zone);
    run.program = None;
    run.session = true;
    run
  }

  /// Whether this kernel takes more runs (false for a plain run, a dead or freed session).
  pub fn takes_more_runs(&self) -> bool {
    self.session && self.dead.is_none()
  }

  pub fn is_session(&self) -> bool {
    self.session
  }

  /// No run in progress (a session's kernel between runs).
  pub fn idle(&self) -> bool {
    self.session && !self.running
  }

  /// The state of one run: its calls, timers and promise.
  fn end_run_state(&mut self) {
    bindings::clear(&*self.shared);
    let timers = self.shared.timers.borrow_mut().clear();
    self.shared.control.release(timers);
    self.promise.take();
  }

  /// Frees the JavaScript world (every handle into it first).
  fn free_world(&mut self) {
    self.shared.stacks.clear();
    self.shared.inspector.free();
    self.ctx.take();
    self.shared.control.attach_runtime(std::ptr::null_mut());
    self.rt.take();
  }

  /// A session run begins: fresh budgets and ledger, its bindings, its id.
  fn begin_session_run(&mut self, spec: RunSpec) {
    self.control.restart(spec.id);
    self.shared.outbox.restart(spec.id, spec.live_logs);
    self.shared.generation.set(spec.id);
    *self.shared.directory.borrow_mut() = Directory::new(spec.bindings);
    *self.shared.ledger.borrow_mut() = Ledger::new(self.control.limits.max_output_bytes);
    self.fatal = None;
    self.program = Some(spec.program);
    self.running = true;
  }

  /// A session run ended: its state goes; the world stays unless the heap was exhausted.
  fn end_session_run(&mut self) {
    self.running = false;
    self.end_run_state();
    if self.control.heap_exhausted() {
      self.dead = Some(messages::heap_limit_reached(self.control.limits.max_heap_mb));
      self.free_world();
    }
  }

  /// Handles the events, runs what is runnable, and returns the run's id and result JSON
  /// once it has ended (a session: once its current run has).
  pub fn step(&mut self, mut events: Vec<Event>) -> Option<(RunId, String)> {
    if self.idle() {
      let next = events.iter().position(|e| matches!(e, Event::StartInSession(_)))?;
      let Event::StartInSession(spec) = events.remove(next) else { unreachable!() };
      // What came before it was for the previous run.
      events.drain(..next);
      self.begin_session_run(spec);
      events.insert(0, Event::Start);
    }
    self.control.begin_slice();
    self.shared.outbox.begin_slice();
    let mut completion = self.step_inner(events);
    self.control.end_slice();
    // Natives the interrupt cannot reach (a huge `JSON.stringify`) may overrun the budget
    // within one slice: the budget is checked once more now the slice's time is known.
    if self.control.cause() == StopCause::None && self.control.check_compute() {
      completion = self.stopped();
    }
    // Calls made in this slice reach the host before the result does.
    self.shared.outbox.flush();
    let id = self.current_id();
    completion.map(|c| (id, self.finish(c)))
  }

  /// The result for a run that ends without running (or after the engine failed).
  pub fn finish(&mut self, completion: Completion) -> String {
    let ledger = std::mem::replace(&mut *self.shared.ledger.borrow_mut(), Ledger::new(0));
    self.control.stop(StopCause::Finished);
    let json = ledger.finish(completion);
    if self.session {
      self.end_session_run();
    }
    json
  }

  /// The id of the run in progress (a plain run's own).
  pub fn current_id(&self) -> RunId {
    self.shared.generation.get()
  }

  fn step_inner(&mut self, events: Vec<Event>) -> Option<Completion> {
    if let Some(c) = self.stopped() {
      return Some(c);
    }
    let starting = events.iter().any(|e| matches!(e, Event::Start)) && self.program.is_some();
    if starting {
      if let Err(c) = self.start() {
        return Some(c);
      }
    }
    let ctx = self.ctx.clone()?;
    ctx.with(|ctx| {
      self.drain(&ctx);
      for event in events {
        if self.control.cause() != StopCause::None || self.fatal.is_some() {
          break;
        }
        match event {
          Event::Settle { call, outcome } => {
            bindings::settle(&ctx, &*self.shared, call, outcome);
            self.drain(&ctx);
          }
          Event::SettleBatch(batch) => {
            bindings::settle_batch(&ctx, &*self.shared, batch);
            self.drain(&ctx);
          }
          Event::Timers => {
            let control = self.control.clone();
            let mut job_threw = None;
            let fired = timers::fire_due(&ctx, &*self.shared, || {
              if let Err(thrown) = drain_jobs(&ctx, &control) {
                job_threw = Some(thrown);
                return false;
              }
              control.cause() == StopCause::None
            });
            if let Some(thrown) = fired.err().or(job_threw) {
              self.fatal = Some(self.describe_thrown(&ctx, &thrown));
            }
          }
          Event::Start | Event::Wake | Event::StartInSession(_) => {}
        }
      }
      self.decide(&ctx)
    })
  }

  /// Transforms the program, creates the engine, installs globals and evaluates.
  fn start(&mut self) -> Result<(), Completion> {
    let program = self.program.take().unwrap_or_default();
    crate::test_hooks::panic_if_asked(
      &program,
      crate::test_hooks::ENGINE_PANIC,
      "a run on a pool thread",
    );
    let transformed = if self.session { transpile_session(&program) } else { transpile(&program) };
    let code = match transformed {
      Ok(t) => {
        self.shared.stacks.set_positions(t.positions);
        t.code
      }
      Err(e) => {
        return Err(Completion::Failed(Failure::new(FailureKind::Exception, e.display())));
      }
    };
    drop(program);

    // Setup runs JavaScript (error classes), which an abort, a dispose or the heap limit can
    // interrupt: then the run ends for that cause, not as an engine failure.
    let control = self.control.clone();
    let start_failed = |e: rquickjs::Error| {
      control.poll_without_cpu();
      stopped_by(&control).unwrap_or_else(|| {
        Completion::Failed(Failure::new(
          FailureKind::WorkerExit,
          messages::engine_start_failed(&e.to_string()),
        ))
      })
    };
    let ctx = match self.ctx.clone() {
      None => self.create_world(&start_failed)?,
      Some(ctx) => {
        // A session's next run: the world is there; only the bindings are this run's.
        ctx
          .with(|ctx| {
            raw::clear_exception(ctx.as_raw().as_ptr());
            bindings::install(&ctx, &ctx.globals(), &self.shared)
          })
          .map_err(start_failed)?;
        ctx
      }
    };
    ctx.with(|ctx| -> Result<(), Completion> {
      match eval_program(&ctx, code) {
        Ok(v) => match v.into_promise() {
          Some(p) => self.promise = Some(Persistent::save(&ctx, p)),
          None => {
            return Err(Completion::Failed(Failure::new(
              FailureKind::WorkerExit,
              messages::engine_start_failed("the program did not evaluate to a promise"),
            )))
          }
        },
        Err(caught) => {
          // Interrupted before the first `await` (`decide` reads the cause), or the program
          // did not compile: an early error swc does not report (`const a = 1; const a = 2`).
          // A program's own throw rejects the promise instead.
          if self.control.cause() == StopCause::None {
            self.control.poll();
          }
          if self.control.cause() == StopCause::None {
            let message = self.compile_error(&ctx, &caught);
            return Err(Completion::Failed(Failure::new(FailureKind::Exception, message)));
          }
        }
      }
      Ok(())
    })
  }

  /// Creates the run's QuickJS runtime and context and installs the globals.
  fn create_world(
    &mut self,
    start_failed: &dyn Fn(rquickjs::Error) -> Completion,
  ) -> Result<Context, Completion> {
    let rt =
      Runtime::new_with_alloc(HeapAllocator::new(self.control.clone())).map_err(start_failed)?;
    rt.set_max_stack_size(JS_STACK_LIMIT);
    // QuickJS starts collecting at 256 KiB of heap and then often; most runs never reach a
    // few MiB, and the ones that do spend less time in the collector with a higher start.
    rt.set_gc_threshold(GC_THRESHOLD.min(self.control.limits.heap_bytes() / 4));
    let control = self.control.clone();
    let outbox = self.shared.outbox.clone();
    rt.set_interrupt_handler(Some(Box::new(move || {
      outbox.flush();
      control.poll()
    })));
    let ctx = new_context(&rt).map_err(start_failed)?;
    // SAFETY: the context is alive; this only reads its runtime pointer.
    let raw_rt = ctx.with(|ctx| unsafe { qjs::JS_GetRuntime(ctx.as_raw().as_ptr()) });
    self.control.attach_runtime(raw_rt);
    raw::install_sab_allocator(raw_rt);
    self.rt = Some(rt);
    self.ctx = Some(ctx.clone());

    ctx.with(|ctx| self.install(&ctx)).map_err(start_failed)?;
    Ok(ctx)
  }

  /// Globals the program sees besides the ECMAScript built-ins.
  fn install(&mut self, ctx: &Ctx<'_>) -> rquickjs::Result<()> {
    let globals = ctx.globals();
    let c = ctx.as_raw().as_ptr();
    self.zone.install(c);
    // SAFETY: `quickjs::raw::context_state` reads this back; the `Rc` outlives the context (`Drop for Run`
    // frees the world first), and a session keeps both for all its runs.
    unsafe { qjs::JS_SetContextOpaque(c, Rc::as_ptr(&self.shared) as *mut std::ffi::c_void) };
    self.shared.shapes.set(bridge::Shapes::of(c));
    console::install(ctx, &globals, &self.shared)?;
    bindings::install(ctx, &globals, &self.shared)?;
    // Binding functions' frames are the host's.
    let namespaces: Vec<String> =
      self.shared.directory.borrow().specs.iter().map(|s| s.global.clone()).collect();
    for global in namespaces {
      if let Ok(ns) = globals.get::<_, Object>(global.as_str()) {
        self.shared.stacks.hide_native_frames_of(ctx, ns);
      }
    }
    timers::install(ctx, &globals, &self.shared)?;
    web::install(ctx, &globals)?;
    intl::install(ctx, &globals)?;
    stack::install(ctx, &globals, &self.shared)?;
    Ok(())
  }

  fn drain(&mut self, ctx: &Ctx<'_>) {
    if let Err(thrown) = drain_jobs(ctx, &self.control) {
      if self.fatal.is_none() {
        self.fatal = Some(self.describe_thrown(ctx, &thrown));
      }
    }
  }

  /// A stop cause, if one is set, as the run's ending.
  fn stopped(&self) -> Option<Completion> {
    stopped_by(&self.control)
  }

  /// After a slice: finished, failed, or parked (`None`).
  fn decide(&mut self, ctx: &Ctx<'_>) -> Option<Completion> {
    self.control.poll_without_cpu();
    if let Some(c) = self.stopped() {
      return Some(c);
    }
    if let Some(message) = self.fatal.take() {
      return Some(Completion::Failed(Failure::new(FailureKind::Exception, message)));
    }
    let promise = self.promise.clone()?.restore(ctx).ok()?;
    let state = promise.state();
    if state == PromiseState::Pending {
      if self.shared.pending() > 0 {
        return None;
      }
      return Some(Completion::Failed(Failure::new(
        FailureKind::Exception,
        messages::NEVER_SETTLES,
      )));
    }
    let c = ctx.as_raw().as_ptr();
    // SAFETY: JS_PromiseResult returns a new reference to the settled value, which
    // Value::from_raw takes over.
    let result =
      unsafe { Value::from_raw(ctx.clone(), qjs::JS_PromiseResult(c, promise.as_raw())) };
    if state == PromiseState::Resolved {
      let budget = self.shared.ledger.borrow().remaining();
      return match bridge::to_json(
        c,
        result.as_raw(),
        self.shared.shapes.get(),
        &self.control,
        budget,
      ) {
        Ok(json) => Some(Completion::Value(json)),
        Err(bridge::Refusal::NotLossless) => Some(Completion::Failed(Failure::new(
          FailureKind::InvalidOutput,
          messages::COMPLETION_NOT_LOSSLESS,
        ))),
        Err(bridge::Refusal::TooLarge) => {
          Some(Completion::Failed(Failure::new(FailureKind::OutputLimit, String::new())))
        }
        Err(bridge::Refusal::Stopped) => self.stopped(),
      };
    }
    let message = self.describe_thrown(ctx, &result);
    self.control.poll();
    if let Some(c) = self.stopped() {
      return Some(c);
    }
    Some(Completion::Failed(Failure::new(FailureKind::Exception, message)))
  }

  /// A compile error of the emitted JavaScript as the program's syntax error:
  /// `SyntaxError: <message> (line:column)` in the program as written, like swc's.
  fn compile_error<'js>(&self, ctx: &Ctx<'js>, error: &Value<'js>) -> String {
    let text = self.describe_thrown(ctx, error);
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let position = lines
      .next()
      .and_then(|frame| frame.trim().strip_prefix("at "))
      .and_then(|location| location.strip_prefix(PROGRAM_FILE))
      .and_then(|rest| rest.strip_prefix(':'));
    match position {
      Some(line_column) if header.starts_with("SyntaxError") => format!("{header} ({line_column})"),
      _ => text,
    }
  }

  /// The `exception` message for a thrown value: an Error's stack (`Name: message` then
  /// frames in the program's own positions), or `String(value)` for anything else.
  fn describe_thrown<'js>(&self, ctx: &Ctx<'js>, reason: &Value<'js>) -> String {
    let c = ctx.as_raw().as_ptr();
    let v = reason.as_raw();
    // SAFETY: JS_IsError inspects the class only.
    if raw::is_object(v) && !raw::is_proxy(v) && unsafe { qjs::JS_IsError(v) } {
      let text = self.shared.stacks.of_thrown(ctx, reason);
      if !stack::shows_only_its_stack(c, v) {
        // A `cause`, an AggregateError's `errors`, extra properties or a subclass: Node's
        // inspect shows them around the stack. Its realm reads the stack we computed.
        stack::keep_stack(ctx, reason, &text);
        if let Some(inspected) = self.shared.inspector.format(c, &[v]) {
          return String::from_utf8_lossy(&inspected).into_owned();
        }
      }
      return text;
    }
    match raw::tag(v) {
      qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => {
        String::from_utf8_lossy(&raw::string_bytes(c, v).unwrap_or_default()).into_owned()
      }
      qjs::JS_TAG_SYMBOL => {
        String::from_utf8_lossy(&crate::console::inspect::symbol_text(c, v)).into_owned()
      }
      _ => {
        // String(value): may run the program's own toString, as part of the program.
        // SAFETY: JS_ToString returns a new reference or JS_EXCEPTION (then pending).
        let s = unsafe { raw::Owned::new(c, qjs::JS_ToString(c, v)) };
        if raw::is_string(s.v) {
          String::from_utf8_lossy(&raw::string_bytes(c, s.v).unwrap_or_default()).into_owned()
        } else {
          raw::clear_exception(c);
          messages::UNPRINTABLE_THROW.to_owned()
        }
      }
    }
  }
}

/// The run's ending for the stop cause set on `control`, if any.
fn stopped_by(control: &RunControl) -> Option<Completion> {
  let limits = &control.limits;
  let failure = match control.cause() {
    StopCause::None | StopCause::Finished => return None,
    StopCause::Compute => {
      Failure::new(FailureKind::Timeout, messages::compute_budget_exhausted(limits.compute_ms))
    }
    StopCause::Wall => {
      Failure::new(FailureKind::Timeout, messages::wall_clock_ceiling(limits.max_wall_ms))
    }
    StopCause::Abort => {
      let reason = control.abort_reason.lock().ok().and_then(|r| r.clone()).unwrap_or_default();
      Failure::new(FailureKind::Abort, reason)
    }
    StopCause::Disposed => Failure::new(FailureKind::Abort, messages::RUNTIME_DISPOSED),
    StopCause::Heap => {
      Failure::new(FailureKind::WorkerExit, messages::heap_limit_reached(limits.max_heap_mb))
    }
    StopCause::Output => Failure::new(FailureKind::OutputLimit, String::new()),
  };
  Some(Completion::Failed(failure))
}

/// Runs queued jobs until none is left or the run must stop.
/// Runs the queued jobs until none is left or the run must stop. `Err(thrown)`: a job threw
/// (a `queueMicrotask` callback; promise jobs settle promises instead), which ends the run as
/// an uncaught throw from a timer callback does, as in Node.
fn drain_jobs<'js>(ctx: &Ctx<'js>, control: &RunControl) -> Result<(), Value<'js>> {
  // SAFETY: the context is alive; this only reads its runtime pointer.
  let rt = unsafe { qjs::JS_GetRuntime(ctx.as_raw().as_ptr()) };
  let mut n: u32 = 0;
  while control.cause() == StopCause::None {
    let mut job_ctx: *mut qjs::JSContext = std::ptr::null_mut();
    // SAFETY: the runtime is alive and used on this thread; `job_ctx` receives the context
    // of the job that ran.
    let ran = unsafe { qjs::JS_ExecutePendingJob(rt, &mut job_ctx) };
    if ran == 0 {
      break;
    }
    if ran < 0 && !job_ctx.is_null() {
      // SAFETY: JS_GetException hands over the pending exception of the job's context (a
      // context of this runtime, so the value is usable from `ctx`), which Value takes.
      let thrown = unsafe { Value::from_raw(ctx.clone(), qjs::JS_GetException(job_ctx)) };
      if control.cause() != StopCause::None {
        break;
      }
      return Err(thrown);
    }
    n = n.wrapping_add(1);
    if n.is_multiple_of(256) && control.poll() {
      break;
    }
  }
  Ok(())
}

/// What a run is asked to do.
#[derive(Debug)]
pub struct RunSpec {
  pub id: RunId,
  pub program: String,
  pub bindings: Vec<BindingSpec>,
  /// See [`crate::host::RunOptions::live_logs`].
  pub live_logs: bool,
}

pub(crate) fn failure_of_panic(payload: &(dyn std::any::Any + Send)) -> Failure {
  let detail = payload
    .downcast_ref::<&str>()
    .map(|s| (*s).to_owned())
    .or_else(|| payload.downcast_ref::<String>().cloned())
    .unwrap_or_else(|| "panic".to_owned());
  Failure::new(FailureKind::WorkerExit, messages::engine_panicked(&detail))
}

/// Evaluates the transformed program as a strict global script named [`PROGRAM_FILE`]: its
/// value (the wrapper's promise), or what evaluating threw. QuickJS reads the text by its
/// length, so a U+0000 in the program (in a string or a comment) is part of it, as in V8;
/// rquickjs's own `eval` makes a C string of the text and refuses it.
fn eval_program<'js>(ctx: &Ctx<'js>, code: String) -> Result<Value<'js>, Value<'js>> {
  let c = ctx.as_raw().as_ptr();
  let len = code.len();
  let mut text = code.into_bytes();
  text.push(0);
  let file = std::ffi::CString::new(PROGRAM_FILE).unwrap_or_default();
  let flags = (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_STRICT) as i32;
  // SAFETY: `text` holds `len` bytes followed by the NUL QuickJS's tokenizer expects at the
  // end; `file` is a C string; both outlive the call. JS_Eval returns a new reference (or
  // JS_EXCEPTION with the exception pending), which Value::from_raw takes over.
  let value = unsafe {
    qjs::JS_UpdateStackTop(qjs::JS_GetRuntime(c));
    Value::from_raw(
      ctx.clone(),
      qjs::JS_Eval(c, text.as_ptr().cast(), len as _, file.as_ptr(), flags),
    )
  };
  if raw::tag(value.as_raw()) == qjs::JS_TAG_EXCEPTION {
    return Err(ctx.catch());
  }
  Ok(value)
}
