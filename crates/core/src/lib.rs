//! The engine behind `code-runtime-quickjs`, free of Node-API types so `cargo test` drives
//! it directly. Its folders are its layers; each may use the ones listed after it, never
//! one before it, and none uses this file (`tests/layering.rs` fails when two modules use
//! each other):
//!
//! - this file: the [`Engine`], where a run starts ([`Engine::start`]) and where its result
//!   leaves (to the [`Host`]); the mailbox of each run and the slice loop that drives it.
//! - [`world`]: one run's world: the QuickJS runtime and context, its event loop (timers),
//!   its shared per-run state, and how it ends (completion, failure, budgets spent).
//! - [`console`]: rendering logs as Node's console does (the inspector realm, `util.inspect`,
//!   V8-shaped stacks).
//! - [`web`]: the lazily loaded web globals (`URL`, `TextEncoder`, `structuredClone`, …).
//! - [`intl`]: the lazily loaded `Intl` (ECMA-402 over ICU4X) and the locale-sensitive
//!   built-in methods.
//! - [`bridge`]: what crosses between a program and its host: values as lossless JSON, the
//!   binding functions and their calls, the outbox the host drains.
//! - [`quickjs`]: our layer over QuickJS's C API: reading values without running program
//!   code, and engine JavaScript compiled to bytecode once.
//! - [`limits`]: what a run may spend: compute, wall clock, heap (the stop flag and the
//!   allocator), and output (the ledger).
//! - [`sched`]: threads: the pool, hot-program demotion, the clock, the hand-off to the host.
//! - [`host`], [`messages`], [`test_hooks`]: plain types, every user-visible text, test knobs.
//! - [`zone`]: the time zone runs see (`Date`'s local time), from the database compiled in.
//!
//! `transpile` (a separate crate) turns TypeScript into the wrapped JavaScript `world` runs.
//!
//! An [`Engine`] owns a thread pool and a clock. [`Engine::start`] turns a program into a
//! [`Run`] (a fresh QuickJS runtime + context) inside a cell with a mailbox; posting an event
//! to a parked run schedules one slice of it on the pool. When the run ends, the engine hands
//! its result — the contract's `{ logs, value? , error? }` as JSON text, already measured by
//! the output ledger — to the [`Host`], drops the run, and forgets it. Nothing about a run
//! outlives it but that text.

pub mod bridge;
pub mod codemode;
pub mod console;
pub mod host;
pub mod intl;
pub mod limits;
pub mod messages;
pub(crate) mod quickjs;
pub mod sched;
pub mod test_hooks;
pub mod web;
pub mod world;
pub mod zone;

pub use bridge::bindings::{BindingSpec, ErrorClassSpec, SettleBatch};
pub use host::{Host, HostCall, RunId, RunOptions};
pub use limits::budget::{Limits, StopCause};
pub use limits::ledger::{Completion, Failure, FailureKind};

use crate::console::inspector;
use crate::limits::budget::{self, RunControl};
use crate::limits::ledger::Ledger;
use crate::quickjs::prelude::{self, Prelude};
use crate::sched::clock::Clock;
use crate::sched::pool::Pool;
use crate::world::run::{self, Event, Run, RunSpec};
use crate::world::timers::WakeAt;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub struct EngineConfig {
  /// Threads kept ready.
  pub threads: usize,
  /// The time zone every run of the engine sees (`None`: UTC).
  pub time_zone: Option<&'static zone::Zone>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
  Disposed,
  /// The session was closed, or died (its heap was exhausted).
  SessionGone,
}

struct Mailbox {
  events: Vec<Event>,
  scheduled: bool,
  finished: bool,
}

struct RunCell {
  id: RunId,
  control: Arc<RunControl>,
  mailbox: Mutex<Mailbox>,
  run: Mutex<Option<Run>>,
  /// A session's kernel is to be freed once its current run (if any) has ended.
  closing: AtomicBool,
}

struct Inner {
  pool: Pool,
  clock: Clock,
  runs: Mutex<HashMap<RunId, Arc<RunCell>>>,
  /// Signalled when `runs` becomes empty.
  drained: Condvar,
  next_id: AtomicU64,
  host: Arc<dyn Host>,
  zone: &'static zone::Zone,
  disposed: AtomicBool,
  /// CPU time of the runs that have ended.
  cpu_ended_ns: AtomicU64,
  /// Runs (session kernels included) whose `Run` has not been dropped yet.
  worlds: AtomicUsize,
}

/// A snapshot for `runtime.metrics()`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineMetrics {
  pub threads: usize,
  /// Threads waiting for work.
  pub ready: usize,
  /// Slices waiting for a thread.
  pub queued: usize,
  pub in_flight: usize,
  /// CPU time spent running programs, ended and in-flight runs (finished slices).
  pub cpu_ms: f64,
}

pub struct Engine {
  inner: Arc<Inner>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
  m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Engine {
  pub fn new(config: EngineConfig, host: Arc<dyn Host>) -> Engine {
    budget::configure_allocator();
    let core = config.threads.max(1);
    let engine = Engine {
      inner: Arc::new(Inner {
        pool: Pool::new(core, (core * 4).max(core + 64)),
        clock: Clock::new(),
        runs: Mutex::new(HashMap::new()),
        drained: Condvar::new(),
        next_id: AtomicU64::new(1),
        host,
        zone: config.time_zone.unwrap_or_else(zone::Zone::utc),
        disposed: AtomicBool::new(false),
        cpu_ended_ns: AtomicU64::new(0),
        worlds: AtomicUsize::new(0),
      }),
    };
    if !prelude::is_warm(&preludes()) {
      engine.inner.pool.submit(Box::new(|| prelude::warm(&preludes(), intl::warm)));
    }
    engine
  }

  /// Starts a run. Its result arrives through [`Host::settled`].
  pub fn start(
    &self,
    program: String,
    bindings: Vec<BindingSpec>,
    limits: Limits,
  ) -> Result<RunId, EngineError> {
    self.start_with(program, bindings, limits, RunOptions::default())
  }

  /// [`Engine::start`] with options beyond the contract's request.
  pub fn start_with(
    &self,
    program: String,
    bindings: Vec<BindingSpec>,
    limits: Limits,
    options: RunOptions,
  ) -> Result<RunId, EngineError> {
    if self.inner.disposed.load(Ordering::Acquire) {
      return Err(EngineError::Disposed);
    }
    let (id, cell) = self.new_cell(limits, |id, control, wake_at| {
      let spec = RunSpec { id, program, bindings, live_logs: options.live_logs };
      Run::new(spec, control, self.inner.host.clone(), wake_at, self.inner.zone)
    });
    let control = cell.control.clone();
    lock(&self.inner.runs).insert(id, cell.clone());
    if self.inner.disposed.load(Ordering::Acquire) {
      control.stop(StopCause::Disposed);
    }
    self.wall_ceiling(&cell, id, control.started());
    post(&self.inner, &cell, Event::Start);
    Ok(id)
  }

  /// A cell for a new run (or session kernel) made by `make`, under a fresh id.
  fn new_cell(
    &self,
    limits: Limits,
    make: impl FnOnce(RunId, Arc<RunControl>, WakeAt) -> Run,
  ) -> (RunId, Arc<RunCell>) {
    let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
    let control = Arc::new(RunControl::new(limits));
    self.inner.worlds.fetch_add(1, Ordering::AcqRel);
    let cell = Arc::new_cyclic(|weak_cell: &Weak<RunCell>| RunCell {
      id,
      control: control.clone(),
      mailbox: Mutex::new(Mailbox { events: Vec::new(), scheduled: false, finished: false }),
      run: Mutex::new(Some(make(id, control.clone(), wake_at(&self.inner, weak_cell.clone())))),
      closing: AtomicBool::new(false),
    });
    (id, cell)
  }

  /// Stops run `id` (of `cell`) at its wall-clock ceiling, unless the cell has moved on to
  /// another run by then (a session).
  fn wall_ceiling(&self, cell: &Arc<RunCell>, id: RunId, started: Instant) {
    let ceiling = started + Duration::from_secs_f64(cell.control.limits.max_wall_ms / 1000.0);
    let weak_cell = Arc::downgrade(cell);
    let weak_inner = Arc::downgrade(&self.inner);
    let session = cell.id != id;
    self.inner.clock.at(
      ceiling,
      live(weak_cell.clone()),
      Box::new(move || {
        if let (Some(cell), Some(inner)) = (weak_cell.upgrade(), weak_inner.upgrade()) {
          if session && cell.control.current() != id {
            return;
          }
          cell.control.stop(StopCause::Wall);
          inner.pool.turns().wake_all();
          post(&inner, &cell, Event::Wake);
        }
      }),
    );
  }

  /// Opens a session: a JavaScript world whose runs ([`Engine::start_in_session`]) execute
  /// one after another, keeping globals between them. `limits` apply to each run, the heap
  /// limit to the session.
  pub fn open_session(&self, limits: Limits) -> Result<RunId, EngineError> {
    if self.inner.disposed.load(Ordering::Acquire) {
      return Err(EngineError::Disposed);
    }
    let (id, cell) = self.new_cell(limits, |id, control, wake_at| {
      Run::session(id, control, self.inner.host.clone(), wake_at, self.inner.zone)
    });
    lock(&self.inner.runs).insert(id, cell);
    Ok(id)
  }

  /// Starts the next run of `session`. The caller runs a session's runs one at a time (a
  /// second while one is in progress waits behind it in the kernel's mailbox). Fails when
  /// the session is closed, dead (the kernel is gone) or the engine disposed.
  pub fn start_in_session(
    &self,
    session: RunId,
    program: String,
    bindings: Vec<BindingSpec>,
    options: RunOptions,
  ) -> Result<RunId, EngineError> {
    if self.inner.disposed.load(Ordering::Acquire) {
      return Err(EngineError::Disposed);
    }
    let cell = self.cell(session).filter(|c| !c.closing.load(Ordering::Acquire));
    let Some(cell) = cell else {
      return Err(EngineError::SessionGone);
    };
    let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
    lock(&self.inner.runs).insert(id, cell.clone());
    self.wall_ceiling(&cell, id, Instant::now());
    let spec = RunSpec { id, program, bindings, live_logs: options.live_logs };
    post(&self.inner, &cell, Event::StartInSession(spec));
    Ok(id)
  }

  /// Closes a session: a run in progress ends as `abort` with `reason`, and the world is
  /// freed after it.
  pub fn close_session(&self, session: RunId, reason: String) {
    let Some(cell) = self.cell(session) else {
      return;
    };
    if cell.closing.swap(true, Ordering::AcqRel) {
      return;
    }
    if cell.control.current() != 0 {
      self.abort(cell.control.current(), reason);
    }
    post(&self.inner, &cell, Event::Wake);
  }

  /// Many answers in one batch (see [`SettleBatch`]).
  pub fn settle_batch(&self, id: RunId, batch: SettleBatch) {
    if let Some(cell) = self.cell(id) {
      post(&self.inner, &cell, Event::SettleBatch(batch));
    }
  }

  /// The host's answer to one binding call: `Ok(resolution json)` or `Err(rejection
  /// message)`. Answers for finished runs or unknown calls are dropped.
  pub fn settle_call(&self, id: RunId, call: u32, outcome: Result<String, String>) {
    if let Some(cell) = self.cell(id) {
      post(&self.inner, &cell, Event::Settle { call, outcome });
    }
  }

  /// The run's cell while it is in flight.
  fn cell(&self, id: RunId) -> Option<Arc<RunCell>> {
    lock(&self.inner.runs).get(&id).cloned()
  }

  /// Stops a run because its signal fired. Unknown or finished runs are ignored.
  pub fn abort(&self, id: RunId, reason: String) {
    if let Some(cell) = self.cell(id) {
      cell.control.abort(StopCause::Abort, reason);
      self.inner.pool.turns().wake_all();
      post(&self.inner, &cell, Event::Wake);
    }
  }

  /// Ends every run with `runtime disposed`, then stops the threads; `done` runs once no
  /// program is executing and every thread has exited. Idempotent: later calls just wait.
  pub fn dispose(&self, done: Box<dyn FnOnce() + Send>) {
    self.inner.disposed.store(true, Ordering::Release);
    let cells: Vec<Arc<RunCell>> = lock(&self.inner.runs).values().cloned().collect();
    for cell in cells {
      cell.closing.store(true, Ordering::Release);
      cell.control.stop(StopCause::Disposed);
      post(&self.inner, &cell, Event::Wake);
    }
    self.inner.pool.turns().wake_all();
    let inner = self.inner.clone();
    let waiter = move || {
      let mut runs = lock(&inner.runs);
      while !runs.is_empty() {
        runs = inner.drained.wait(runs).unwrap_or_else(|p| p.into_inner());
      }
      drop(runs);
      inner.pool.shutdown_and_wait();
      inner.clock.shutdown();
      done();
    };
    if std::thread::Builder::new().name("code-runtime-dispose".into()).spawn(waiter).is_err() {
      // Without a thread to wait on, report at once rather than never.
      self.inner.pool.shutdown();
    }
  }

  /// Runs in flight.
  pub fn in_flight(&self) -> usize {
    self.metrics().in_flight
  }

  /// Counters for `runtime.metrics()`: two short lock holds, no allocation.
  pub fn metrics(&self) -> EngineMetrics {
    self.inner.metrics()
  }

  /// Runs whose QuickJS world has not been freed yet: those in flight, and ended ones whose
  /// world a pool thread is still dropping (a run leaves [`Engine::in_flight`] as its result
  /// goes, before that). For tests and the fuzz harness, which check for leaks only once no
  /// world is left.
  pub fn worlds(&self) -> usize {
    self.inner.worlds.load(Ordering::Acquire)
  }

  /// Pool threads alive.
  pub fn threads(&self) -> usize {
    self.inner.pool.threads()
  }
}

impl Inner {
  fn metrics(&self) -> EngineMetrics {
    let pool = self.pool.stats();
    let (in_flight, cpu_ns) = {
      let runs = lock(&self.runs);
      // A session's kernel is listed under its own id and its current run's: each run is
      // counted once, under the id its control governs (a kernel between runs under none).
      let live = runs.iter().filter(|(&id, c)| match c.control.current() {
        0 => id == c.id,
        current => id == current,
      });
      // Ended runs' CPU is read under the same lock `drive` moves a run's CPU there under.
      let ended_ns = self.cpu_ended_ns.load(Ordering::Relaxed);
      live.fold((0, ended_ns), |(n, ns), (_, c)| (n + 1, ns + c.control.cpu_done_ns()))
    };
    EngineMetrics {
      threads: pool.threads,
      ready: pool.ready,
      queued: pool.queued,
      in_flight,
      cpu_ms: cpu_ns as f64 / 1e6,
    }
  }
}

impl Drop for Engine {
  fn drop(&mut self) {
    self.inner.disposed.store(true, Ordering::Release);
    let cells: Vec<Arc<RunCell>> = lock(&self.inner.runs).values().cloned().collect();
    for cell in cells {
      cell.closing.store(true, Ordering::Release);
      cell.control.stop(StopCause::Disposed);
      post(&self.inner, &cell, Event::Wake);
    }
    self.inner.pool.shutdown();
    self.inner.clock.shutdown();
  }
}

/// Every prelude, compiled ahead of the first run that needs it (see [`prelude::warm`]).
fn preludes() -> [&'static Prelude; 4] {
  [&web::globals::PRELUDE, &inspector::INSPECT, &inspector::CONSOLE, &intl::PRELUDE]
}

/// The result of a run that ends before its program starts (e.g. an already-aborted
/// signal), measured by the ledger like any other.
pub fn result_without_running(failure: Failure, max_output_bytes: u64) -> String {
  Ledger::new(max_output_bytes).finish(Completion::Failed(failure))
}

/// True while the run has not finished (clock entries of finished runs are skipped).
fn live(cell: Weak<RunCell>) -> Arc<dyn Fn() -> bool + Send + Sync> {
  Arc::new(move || cell.upgrade().is_some_and(|c| !lock(&c.mailbox).finished))
}

/// The run's timer wake-ups: a clock entry that posts `Event::Timers`.
fn wake_at(inner: &Arc<Inner>, cell: Weak<RunCell>) -> WakeAt {
  let weak_inner = Arc::downgrade(inner);
  Arc::new(move |at: Instant| {
    let Some(inner) = weak_inner.upgrade() else {
      return;
    };
    let (cell_for_fire, inner_for_fire) = (cell.clone(), weak_inner.clone());
    inner.clock.at(
      at,
      live(cell.clone()),
      Box::new(move || {
        if let (Some(cell), Some(inner)) = (cell_for_fire.upgrade(), inner_for_fire.upgrade()) {
          post(&inner, &cell, Event::Timers);
        }
      }),
    );
  })
}

fn post(inner: &Arc<Inner>, cell: &Arc<RunCell>, event: Event) {
  let mut mb = lock(&cell.mailbox);
  if mb.finished {
    return;
  }
  mb.events.push(event);
  if mb.scheduled {
    return;
  }
  mb.scheduled = true;
  drop(mb);
  let (inner2, cell2) = (Arc::downgrade(inner), cell.clone());
  inner.pool.submit(Box::new(move || drive(&inner2, &cell2)));
}

/// Runs slices of one run until its mailbox is empty or it ends.
fn drive(inner: &Weak<Inner>, cell: &Arc<RunCell>) {
  let mut slot = lock(&cell.run);
  loop {
    let events = {
      let mut mb = lock(&cell.mailbox);
      if mb.events.is_empty() || slot.is_none() {
        mb.scheduled = false;
        mb.events.clear();
        return;
      }
      std::mem::take(&mut mb.events)
    };
    let Some(run) = slot.as_mut() else { continue };
    // A closed session starts no further run: what waits for it ends below, as `abort`.
    let closed_between_runs = run.idle() && cell.closing.load(Ordering::Acquire);
    let step = || if closed_between_runs { None } else { run.step(events) };
    let ended = match catch_unwind(AssertUnwindSafe(step)) {
      Ok(ended) => ended,
      Err(panic) => {
        let failure = run::failure_of_panic(&*panic);
        let id = run.current_id();
        let json =
          catch_unwind(AssertUnwindSafe(|| run.finish(Completion::Failed(failure.clone()))))
            .unwrap_or_else(|_| {
              result_without_running(failure, cell.control.limits.max_output_bytes)
            });
        // An engine that panicked mid-run is not trusted with another run.
        cell.closing.store(true, Ordering::Release);
        Some((id, json))
      }
    };
    let inner = inner.upgrade();
    let run_ended = ended.is_some();
    if let Some((id, json)) = ended {
      if let Some(inner) = &inner {
        {
          // Under the lock `metrics` reads both under, and before the result goes: once the
          // host has it, the run counts as ended, once (the thread may not run again soon:
          // a busy host's other processes may hold the core).
          let mut runs = lock(&inner.runs);
          inner.cpu_ended_ns.fetch_add(cell.control.cpu_done_ns(), Ordering::Relaxed);
          runs.remove(&id);
        }
        inner.host.settled(id, json);
      }
    }
    let drop_run = match slot.as_ref() {
      None => true,
      // A session's kernel goes when it is closed or dead, between runs.
      Some(run) if run.is_session() => {
        run.idle() && (cell.closing.load(Ordering::Acquire) || !run.takes_more_runs())
      }
      Some(_) => run_ended,
    };
    if !drop_run {
      continue;
    }
    {
      let mut mb = lock(&cell.mailbox);
      mb.finished = true;
      mb.events.clear();
    }
    let finished = slot.take();
    if catch_unwind(AssertUnwindSafe(move || drop(finished))).is_err() {
      // The engine's memory for this run is lost, but the process lives on.
    }
    if let Some(inner) = &inner {
      inner.worlds.fetch_sub(1, Ordering::AcqRel);
      // Session runs that were still waiting for this kernel end now.
      let orphans: Vec<RunId> = lock(&inner.runs)
        .iter()
        .filter(|(&id, c)| id != cell.id && Arc::ptr_eq(c, cell))
        .map(|(&id, _)| id)
        .collect();
      for id in orphans {
        lock(&inner.runs).remove(&id);
        let failure = Failure::new(FailureKind::Abort, messages::SESSION_CLOSED);
        inner
          .host
          .settled(id, result_without_running(failure, cell.control.limits.max_output_bytes));
      }
      let mut runs = lock(&inner.runs);
      runs.remove(&cell.id);
      if runs.is_empty() {
        inner.drained.notify_all();
      }
    }
  }
}

#[cfg(test)]
mod tests;
