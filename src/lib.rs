//! The Node-API edge: a thin `NativeEngine` class over `code_runtime_core::Engine`.
//!
//! It only converts: numbers and strings in; events (results, batches of binding calls) out
//! as JSON texts, through one weak threadsafe function per engine or taken directly by a
//! `settleCall` that waits for them. Everything a user touches (config and request
//! validation, AbortSignal listeners, the result object, keeping the process alive while a
//! run is in flight) lives in the hand-written `index.js`, where it is plain JavaScript.
//! Every export is `catch_unwind`, so a Rust panic becomes a thrown JS error, never an abort.

use code_runtime_core::sched::handoff::Handoff;
use code_runtime_core::test_hooks;
use code_runtime_core::zone::Zone;
use code_runtime_core::{
  BindingSpec, Engine, EngineConfig, EngineError, ErrorClassSpec, Failure, FailureKind, Host,
  HostCall, Limits, RunId, RunOptions, SettleBatch,
};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, RwLock};
use std::time::Duration;

/// Every event a run sends to Node, as one JSON text: `[0, runId, result]` when the run
/// settled, `[1, runId, [[callId, functionIndex, …], [argument, …]]]` when the program
/// called bindings (in call order), `[2, runId, [entry, …]]` for live log entries, and
/// `[3, runId, kind, bytes]` in place of an event too long to become a string (see
/// [`EventTexts`]). One `JSON.parse` on the main thread per event, however many calls it
/// carries; batches are split so that each fits in one V8 string. Events wait in a [`Handoff`]; the doorbell below wakes Node for
/// them unless the main thread is already waiting (see `settleCall`).
type Events = Handoff<String>;

/// Weak, so an idle engine never keeps Node alive (`index.js` holds a ref'd handle while
/// runs are in flight). Its callback takes every queued event and passes them to JS as one
/// array, in order.
type DoorbellFn = ThreadsafeFunction<(), (), EventTexts, Status, false, true>;

/// Called once when `dispose()` has finished; strong, so Node waits for it.
type DoneFn = ThreadsafeFunction<(), (), (), Status, false, false>;

struct NodeHost {
  events: Arc<Events>,
  doorbell: DoorbellFn,
  /// [`V8_MAX_STRING_BYTES`], or less under a test hook.
  max_event_bytes: usize,
}

/// V8's longest string (`v8::String::kMaxLength` on 64-bit platforms), in characters and so
/// in UTF-8 bytes: a text of at most this many bytes always becomes a string (it has no more
/// UTF-16 units than bytes), and V8 refuses a longer one without looking at it.
const V8_MAX_STRING_BYTES: usize = (1 << 29) - 24;

/// Events on their way to JavaScript, as one array of strings. An event that cannot become a
/// string (too long for V8; binding calls are split and refused so that theirs always fit, so
/// only a result or log batch past `maxOutputBytes` of more than 512 MiB) is replaced by
/// `[3, runId, kind, bytes]`, on which `lib/runtime.js` ends that run: the other events still
/// arrive, and nothing throws on the main thread (a conversion error in the doorbell's
/// callback would be an uncaught exception).
pub struct EventTexts {
  texts: Vec<String>,
  /// The longest text that may become a string ([`V8_MAX_STRING_BYTES`], or less under a
  /// test hook).
  max_bytes: usize,
}

impl ToNapiValue for EventTexts {
  unsafe fn to_napi_value(env: sys::napi_env, val: Self) -> Result<sys::napi_value> {
    let mut array = std::ptr::null_mut();
    // SAFETY: napi-rs calls us on the environment's thread with its live env.
    check_status!(unsafe { sys::napi_create_array_with_length(env, val.texts.len(), &mut array) })?;
    for (i, text) in val.texts.iter().enumerate() {
      // SAFETY: as above; `text` is valid UTF-8 for the length given.
      let value = match unsafe { js_string(env, text, val.max_bytes) } {
        Some(value) => value,
        None => unsafe { js_string(env, &lost_event(text), usize::MAX) }
          .ok_or_else(|| Error::from_reason("an event could not be handed to JavaScript"))?,
      };
      // SAFETY: `array` and `value` are live values of this env.
      check_status!(unsafe { sys::napi_set_element(env, array, i as u32, value) })?;
    }
    Ok(array)
  }
}

impl TypeName for EventTexts {
  fn type_name() -> &'static str {
    "Array<string>"
  }

  fn value_type() -> ValueType {
    ValueType::Object
  }
}

/// `text` as a JavaScript string, or `None` when it is over `max_bytes` or V8 cannot hold it
/// (any exception the attempt left pending is cleared).
///
/// # Safety
/// `env` is a live environment, used on its thread.
unsafe fn js_string(env: sys::napi_env, text: &str, max_bytes: usize) -> Option<sys::napi_value> {
  if text.len() > max_bytes.min(V8_MAX_STRING_BYTES) {
    return None;
  }
  let mut value = std::ptr::null_mut();
  // SAFETY: the caller's env; the pointer and length describe `text`'s bytes.
  let status = unsafe {
    sys::napi_create_string_utf8(env, text.as_ptr().cast(), text.len() as isize, &mut value)
  };
  if status == sys::Status::napi_ok {
    return Some(value);
  }
  let mut pending = false;
  // SAFETY: the caller's env; `pending` and `exception` are written by Node-API.
  unsafe {
    sys::napi_is_exception_pending(env, &mut pending);
    if pending {
      let mut exception = std::ptr::null_mut();
      sys::napi_get_and_clear_last_exception(env, &mut exception);
    }
  }
  None
}

/// `[3, runId, kind, bytes]` for an event of `kind` that could not become a string: the
/// kind and run id are the first two fields of every event's text (0, which no run has, if
/// the id cannot be read).
fn lost_event(text: &str) -> String {
  let mut fields = text.get(1..).unwrap_or_default().splitn(3, ',');
  let kind = fields.next().and_then(|k| k.parse::<u8>().ok()).unwrap_or(0);
  let run = fields.next().and_then(|r| r.parse::<u64>().ok()).unwrap_or(0);
  format!("[3,{run},{kind},{}]", text.len())
}

impl NodeHost {
  /// Sends `[kind, run, payload]`, the payload already JSON. The envelope goes into the
  /// payload's own buffer: a result can be megabytes, and copying it would write them into
  /// fresh memory again.
  fn send_event(&self, kind: u8, run: RunId, mut payload_json: String) {
    payload_json.insert_str(0, &format!("[{kind},{run},"));
    payload_json.push(']');
    self.send(payload_json);
  }

  fn send(&self, event: String) {
    if self.events.push(event) {
      // A closing environment (Node exiting) refuses the call; nobody is left to read it.
      let _ = self.doorbell.call((), ThreadsafeFunctionCallMode::NonBlocking);
    }
  }
}

impl Host for NodeHost {
  fn max_event_bytes(&self) -> usize {
    self.max_event_bytes
  }

  fn logs(&self, run: RunId, entries_json: String) {
    self.send_event(2, run, entries_json);
  }

  fn settled(&self, run: RunId, result_json: String) {
    self.send_event(0, run, result_json);
  }

  fn calls(&self, run: RunId, batch: Vec<HostCall>) {
    let size = batch.iter().map(|c| c.args_json.len() + 24).sum::<usize>();
    let mut text = String::with_capacity(size + 40);
    text.push_str("[1,");
    text.push_str(&run.to_string());
    text.push_str(",[[");
    for (i, c) in batch.iter().enumerate() {
      if i > 0 {
        text.push(',');
      }
      text.push_str(&c.call.to_string());
      text.push(',');
      text.push_str(&c.function.to_string());
    }
    text.push_str("],[");
    for (i, c) in batch.iter().enumerate() {
      if i > 0 {
        text.push(',');
      }
      text.push_str(&c.args_json);
    }
    text.push_str("]]]");
    self.send(text);
  }
}

/// One binding namespace, validated by `index.js`.
#[napi(object)]
pub struct NativeBinding {
  pub global: String,
  pub members: Vec<String>,
  pub error_class_name: Option<String>,
  pub member_name_property: Option<String>,
}

/// Engines by id. The per-call entry points below are plain functions that look the engine
/// up here: napi-rs class methods pay for `this` unwrapping and borrow tracking on every
/// call, a measurable share of a binding call's cost.
static ENGINES: LazyLock<RwLock<HashMap<u32, Registered>>> = LazyLock::new(Default::default);
static NEXT_ENGINE: AtomicU32 = AtomicU32::new(1);

#[derive(Clone)]
struct Registered {
  engine: Arc<Engine>,
  events: Arc<Events>,
  max_event_bytes: usize,
}

fn registered(id: u32) -> Option<Registered> {
  ENGINES.read().unwrap_or_else(|p| p.into_inner()).get(&id).cloned()
}

fn engine(id: u32) -> Option<Arc<Engine>> {
  registered(id).map(|r| r.engine)
}

/// Events that arrive within `wait_micros` of now, taken directly (none when it is 0). The
/// caller just answered a run that usually calls again within microseconds: waiting for
/// that call here is cheaper than letting it ring the doorbell and waking the event loop.
fn take_soon(r: &Registered, wait_micros: u32) -> Option<EventTexts> {
  if wait_micros == 0 {
    return None;
  }
  let taken = r.events.wait_and_take(Duration::from_micros(u64::from(wait_micros.min(1_000))));
  (!taken.is_empty()).then_some(EventTexts { texts: taken, max_bytes: r.max_event_bytes })
}

/// The native engine behind `CodeRuntime`. Not part of the public API.
#[napi]
pub struct NativeEngine {
  id: u32,
  engine: Arc<Engine>,
}

impl Drop for NativeEngine {
  fn drop(&mut self) {
    ENGINES.write().unwrap_or_else(|p| p.into_inner()).remove(&self.id);
  }
}

/// Starts a run on engine `engineId` and returns its id. Limits arrive validated from
/// `index.js`.
// Flat arguments: one crossing with no object to read property by property on the hot path.
#[allow(clippy::too_many_arguments)]
#[napi(catch_unwind)]
pub fn start(
  engine_id: u32,
  program: String,
  bindings: Vec<NativeBinding>,
  compute_ms: f64,
  max_wall_ms: f64,
  max_output_bytes: f64,
  max_heap_mb: f64,
  live_logs: bool,
) -> Result<f64> {
  test_hooks::panic_if_asked(&program, test_hooks::EDGE_PANIC, "start");
  let limits =
    Limits { compute_ms, max_wall_ms, max_output_bytes: max_output_bytes as u64, max_heap_mb };
  let bindings = binding_specs(bindings);
  let disposed = || Error::new(Status::GenericFailure, "CodeRuntime.run() called after disposal");
  match engine(engine_id).ok_or_else(disposed)?.start_with(
    program,
    bindings,
    limits,
    RunOptions { live_logs },
  ) {
    Ok(id) => Ok(id as f64),
    Err(_) => Err(disposed()),
  }
}

/// `@cloudflare/codemode`'s `normalizeCode(code)`, deciding on the code as TypeScript, after
/// undoing that function's fallback wrap of TypeScript it could not parse (see
/// `code_runtime_core::codemode`). For `codemode.js`.
#[napi(catch_unwind)]
pub fn normalize_code(code: String) -> String {
  code_runtime_core::codemode::normalize_for_executor(code)
}

/// The database's spelling of time zone `name` (`UTC` for UTC's aliases), or `null` when
/// the time zone database compiled in has no such zone. For the config's validation.
#[napi(catch_unwind)]
pub fn canonical_time_zone(name: String) -> Option<String> {
  Zone::get(&name).map(|zone| zone.name().to_string())
}

/// Opens a session (see `Engine::open_session`) and returns its id.
#[napi(catch_unwind)]
pub fn open_session(
  engine_id: u32,
  compute_ms: f64,
  max_wall_ms: f64,
  max_output_bytes: f64,
  max_heap_mb: f64,
) -> Result<f64> {
  let limits =
    Limits { compute_ms, max_wall_ms, max_output_bytes: max_output_bytes as u64, max_heap_mb };
  let disposed =
    || Error::new(Status::GenericFailure, "CodeRuntime.openSession() called after disposal");
  match engine(engine_id).ok_or_else(disposed)?.open_session(limits) {
    Ok(id) => Ok(id as f64),
    Err(_) => Err(disposed()),
  }
}

/// Starts the next run of session `sessionId`; returns the run's id, or -1 when the
/// session is gone (closed or dead).
#[napi(catch_unwind)]
pub fn start_in_session(
  engine_id: u32,
  session_id: f64,
  program: String,
  bindings: Vec<NativeBinding>,
  live_logs: bool,
) -> Result<f64> {
  test_hooks::panic_if_asked(&program, test_hooks::EDGE_PANIC, "startInSession");
  let disposed = || Error::new(Status::GenericFailure, "CodeSession.run() called after disposal");
  let engine = engine(engine_id).ok_or_else(disposed)?;
  match engine.start_in_session(
    session_id as RunId,
    program,
    binding_specs(bindings),
    RunOptions { live_logs },
  ) {
    Ok(id) => Ok(id as f64),
    Err(EngineError::SessionGone) => Ok(-1.0),
    Err(EngineError::Disposed) => Err(disposed()),
  }
}

/// Closes session `sessionId`: its run in progress ends as `abort` with `reason`.
#[napi(catch_unwind)]
pub fn close_session(engine_id: u32, session_id: f64, reason: String) {
  if let Some(engine) = engine(engine_id) {
    engine.close_session(session_id as RunId, reason);
  }
}

fn binding_specs(bindings: Vec<NativeBinding>) -> Vec<BindingSpec> {
  bindings
    .into_iter()
    .map(|b| BindingSpec {
      global: b.global,
      members: b.members,
      error_class: b.error_class_name.map(|name| ErrorClassSpec {
        name,
        member_name_property: b.member_name_property.unwrap_or_default(),
      }),
    })
    .collect()
}

/// The host's answer to one binding call (the common case of `settleCalls`, without the
/// arrays). Returns the events that arrived within `waitMicros` (see [`take_soon`]).
#[napi(catch_unwind, ts_return_type = "Array<string> | null")]
pub fn settle_call(
  engine_id: u32,
  run_id: f64,
  call_id: u32,
  ok: bool,
  text: String,
  wait_micros: u32,
) -> Option<EventTexts> {
  test_hooks::panic_if_asked(&text, test_hooks::EDGE_PANIC, "settleCall");
  let r = registered(engine_id)?;
  let outcome = if ok { Ok(text) } else { Err(text) };
  r.engine.settle_call(run_id as RunId, call_id, outcome);
  take_soon(&r, wait_micros)
}

/// The host's answers to binding calls, in one crossing: `oks[i]` says whether call
/// `callIds[i]` resolved; the resolutions are the elements of `valuesJson` (a JSON array)
/// in order, the rejection messages those of `messages`. Returns the events that arrived
/// within `waitMicros`.
#[napi(catch_unwind, ts_return_type = "Array<string> | null")]
pub fn settle_calls(
  engine_id: u32,
  run_id: f64,
  call_ids: Uint32Array,
  oks: Uint8Array,
  values_json: String,
  messages: Vec<String>,
  wait_micros: u32,
) -> Option<EventTexts> {
  test_hooks::panic_if_asked(&values_json, test_hooks::EDGE_PANIC, "settleCalls");
  messages
    .iter()
    .for_each(|m| test_hooks::panic_if_asked(m, test_hooks::EDGE_PANIC, "settleCalls"));
  let r = registered(engine_id)?;
  let calls = call_ids.iter().zip(oks.iter()).map(|(&id, &ok)| (id, ok != 0)).collect();
  r.engine.settle_batch(run_id as RunId, SettleBatch { calls, values_json, messages });
  take_soon(&r, wait_micros)
}

/// Ends a run as `abort` with `reason` as its message.
#[napi(catch_unwind)]
pub fn abort(engine_id: u32, run_id: f64, reason: String) {
  test_hooks::panic_if_asked(&reason, test_hooks::EDGE_PANIC, "abort");
  if let Some(engine) = engine(engine_id) {
    engine.abort(run_id as RunId, reason);
  }
}

#[napi]
impl NativeEngine {
  /// `threads`: pool threads kept ready; `timeZone`: the zone runs see (a name
  /// `canonicalTimeZone` returned); `onEvents(events)` receives queued events (see
  /// [`Events`]) when they were not taken by `settleCall`/`settleCalls`.
  #[napi(
    constructor,
    catch_unwind,
    ts_args_type = "threads: number, timeZone: string, onEvents: (arg: Array<string>) => void"
  )]
  pub fn new(threads: u32, time_zone: String, on_events: Function<EventTexts, ()>) -> Result<Self> {
    let time_zone = Zone::get(&time_zone)
      .ok_or_else(|| Error::new(Status::InvalidArg, format!("unknown time zone {time_zone:?}")))?;
    let events = Arc::new(Events::default());
    let for_doorbell = events.clone();
    let max_event_bytes = test_hooks::max_event_bytes().unwrap_or(V8_MAX_STRING_BYTES);
    let doorbell: DoorbellFn =
      on_events.build_threadsafe_function::<()>().weak::<true>().build_callback(move |_| {
        Ok(EventTexts { texts: for_doorbell.answer_doorbell(), max_bytes: max_event_bytes })
      })?;
    let host = Arc::new(NodeHost { events: events.clone(), doorbell, max_event_bytes });
    let config = EngineConfig { threads: threads as usize, time_zone: Some(time_zone) };
    let engine = Arc::new(Engine::new(config, host));
    let id = NEXT_ENGINE.fetch_add(1, Ordering::Relaxed);
    let entry = Registered { engine: engine.clone(), events, max_event_bytes };
    ENGINES.write().unwrap_or_else(|p| p.into_inner()).insert(id, entry);
    Ok(NativeEngine { id, engine })
  }

  /// The id the module functions take.
  #[napi(getter, catch_unwind)]
  pub fn id(&self) -> u32 {
    self.id
  }

  /// Ends every run and stops the threads; `done()` is called once all are idle.
  #[napi(catch_unwind)]
  pub fn dispose(&self, done: Function<(), ()>) -> Result<()> {
    let done: DoneFn = done.build_threadsafe_function::<()>().build_callback(|_| Ok(()))?;
    self.engine.dispose(Box::new(move || {
      let _ = done.call((), ThreadsafeFunctionCallMode::NonBlocking);
    }));
    Ok(())
  }

  /// Runs in flight (for tests and metrics).
  #[napi(getter, catch_unwind)]
  pub fn in_flight(&self) -> u32 {
    self.engine.in_flight() as u32
  }

  /// Pool threads alive (for tests and metrics).
  #[napi(getter, catch_unwind)]
  pub fn threads(&self) -> u32 {
    self.engine.threads() as u32
  }

  /// `[threads, ready threads, queued slices, runs in flight, CPU ms]` for `metrics()`.
  #[napi(catch_unwind)]
  pub fn metrics(&self) -> Vec<f64> {
    let m = self.engine.metrics();
    vec![m.threads as f64, m.ready as f64, m.queued as f64, m.in_flight as f64, m.cpu_ms]
  }
}

/// The result JSON of a run that ends before its program starts (an already-aborted
/// signal), measured by the output ledger like any other result.
#[napi(catch_unwind)]
pub fn result_without_running(kind: String, message: String, max_output_bytes: f64) -> String {
  let kind = match kind.as_str() {
    "abort" => FailureKind::Abort,
    "timeout" => FailureKind::Timeout,
    "worker-exit" => FailureKind::WorkerExit,
    _ => FailureKind::Exception,
  };
  code_runtime_core::result_without_running(Failure::new(kind, message), max_output_bytes as u64)
}
