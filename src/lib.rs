//! The Node-API edge: a thin `NativeEngine` class over `code_runtime_core::Engine`.
//!
//! It only converts: numbers and strings in, result JSON text out through one weak
//! threadsafe function per engine. Everything a user touches (config and request
//! validation, AbortSignal listeners, the result object, keeping the process alive while a
//! run is in flight) lives in the hand-written `index.js`, where it is plain JavaScript.
//! Every export is `catch_unwind`, so a Rust panic becomes a thrown JS error, never an abort.

use code_runtime_core::{
  BindingSpec, Engine, EngineConfig, ErrorClassSpec, Failure, FailureKind, Host, HostCall, Limits,
  RunId, SettleBatch,
};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock, RwLock};

/// `(kind, runId, text)`: kind 0 = the run settled (`text` is the result JSON); kind 1 = the
/// program called bindings (`text` is `[[callId, functionIndex, …], [argument, …]]` in call
/// order: one `JSON.parse` on the main thread, however many calls).
type EventArgs = (u32, f64, String);

/// Weak, so an idle engine never keeps Node alive (`index.js` holds a ref'd handle while
/// runs are in flight). One queue for both kinds keeps calls and results in program order.
type EventFn = ThreadsafeFunction<EventArgs, (), FnArgs<EventArgs>, Status, false, true>;

const EVENT_SETTLED: u32 = 0;
const EVENT_CALLS: u32 = 1;

/// Called once when `dispose()` has finished; strong, so Node waits for it.
type DoneFn = ThreadsafeFunction<(), (), (), Status, false, false>;

struct NodeHost {
  on_event: EventFn,
}

impl Host for NodeHost {
  fn settled(&self, run: RunId, result_json: String) {
    // A closing environment (Node exiting) refuses the call; the result has nobody to go to.
    let event = (EVENT_SETTLED, run as f64, result_json);
    let _ = self.on_event.call(event, ThreadsafeFunctionCallMode::NonBlocking);
  }

  fn calls(&self, run: RunId, batch: Vec<HostCall>) {
    let size = batch.iter().map(|c| c.args_json.len() + 24).sum::<usize>();
    let mut text = String::with_capacity(size + 8);
    text.push_str("[[");
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
    text.push_str("]]");
    let event = (EVENT_CALLS, run as f64, text);
    let _ = self.on_event.call(event, ThreadsafeFunctionCallMode::NonBlocking);
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
static ENGINES: LazyLock<RwLock<HashMap<u32, Arc<Engine>>>> = LazyLock::new(Default::default);
static NEXT_ENGINE: AtomicU32 = AtomicU32::new(1);

fn engine(id: u32) -> Option<Arc<Engine>> {
  ENGINES.read().unwrap_or_else(|p| p.into_inner()).get(&id).cloned()
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
#[napi(catch_unwind)]
pub fn start(
  engine_id: u32,
  program: String,
  bindings: Vec<NativeBinding>,
  compute_ms: f64,
  max_wall_ms: f64,
  max_output_bytes: f64,
  max_heap_mb: f64,
) -> Result<f64> {
  let limits =
    Limits { compute_ms, max_wall_ms, max_output_bytes: max_output_bytes as u64, max_heap_mb };
  let bindings = bindings
    .into_iter()
    .map(|b| BindingSpec {
      global: b.global,
      members: b.members,
      error_class: b.error_class_name.map(|name| ErrorClassSpec {
        name,
        member_name_property: b.member_name_property.unwrap_or_default(),
      }),
    })
    .collect();
  let disposed = || Error::new(Status::GenericFailure, "CodeRuntime.run() called after disposal");
  match engine(engine_id).ok_or_else(disposed)?.start(program, bindings, limits) {
    Ok(id) => Ok(id as f64),
    Err(_) => Err(disposed()),
  }
}

/// The host's answer to one binding call (the common case of `settleCalls`, without the
/// arrays).
#[napi(catch_unwind)]
pub fn settle_call(engine_id: u32, run_id: f64, call_id: u32, ok: bool, text: String) {
  if let Some(engine) = engine(engine_id) {
    let outcome = if ok { Ok(text) } else { Err(text) };
    engine.settle_call(run_id as RunId, call_id, outcome);
  }
}

/// The host's answers to binding calls, in one crossing: `oks[i]` says whether call
/// `callIds[i]` resolved; the resolutions are the elements of `valuesJson` (a JSON array)
/// in order, the rejection messages those of `messages`.
#[napi(catch_unwind)]
pub fn settle_calls(
  engine_id: u32,
  run_id: f64,
  call_ids: Uint32Array,
  oks: Uint8Array,
  values_json: String,
  messages: Vec<String>,
) {
  if let Some(engine) = engine(engine_id) {
    let calls = call_ids.iter().zip(oks.iter()).map(|(&id, &ok)| (id, ok != 0)).collect();
    engine.settle_batch(run_id as RunId, SettleBatch { calls, values_json, messages });
  }
}

/// Ends a run as `abort` with `reason` as its message.
#[napi(catch_unwind)]
pub fn abort(engine_id: u32, run_id: f64, reason: String) {
  if let Some(engine) = engine(engine_id) {
    engine.abort(run_id as RunId, reason);
  }
}

#[napi]
impl NativeEngine {
  /// `threads`: pool threads kept ready; `onEvent(kind, runId, text)` receives every result
  /// (kind 0) and batch of binding calls (kind 1).
  #[napi(constructor, catch_unwind)]
  pub fn new(threads: u32, on_event: Function<FnArgs<EventArgs>, ()>) -> Result<Self> {
    let on_event: EventFn = on_event
      .build_threadsafe_function::<EventArgs>()
      .weak::<true>()
      .build_callback(|ctx| Ok(FnArgs::from(ctx.value)))?;
    let host = Arc::new(NodeHost { on_event });
    let engine = Arc::new(Engine::new(EngineConfig { threads: threads as usize }, host));
    let id = NEXT_ENGINE.fetch_add(1, Ordering::Relaxed);
    ENGINES.write().unwrap_or_else(|p| p.into_inner()).insert(id, engine.clone());
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
