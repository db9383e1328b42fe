//! The Node-API edge: a thin `NativeEngine` class over `code_runtime_core::Engine`.
//!
//! It only converts: numbers and strings in, result JSON text out through one weak
//! threadsafe function per engine. Everything a user touches (config and request
//! validation, AbortSignal listeners, the result object, keeping the process alive while a
//! run is in flight) lives in the hand-written `index.js`, where it is plain JavaScript.
//! Every export is `catch_unwind`, so a Rust panic becomes a thrown JS error, never an abort.

use code_runtime_core::{Engine, EngineConfig, Failure, FailureKind, Host, Limits, RunId};
use napi::bindgen_prelude::*;
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi_derive::napi;
use std::sync::Arc;

/// `(runId, resultJson)`; weak, so an idle engine never keeps Node alive (`index.js` holds a
/// ref'd handle while runs are in flight).
type SettleFn = ThreadsafeFunction<(f64, String), (), FnArgs<(f64, String)>, Status, false, true>;

/// Called once when `dispose()` has finished; strong, so Node waits for it.
type DoneFn = ThreadsafeFunction<(), (), (), Status, false, false>;

struct NodeHost {
  on_settled: SettleFn,
}

impl Host for NodeHost {
  fn settled(&self, run: RunId, result_json: String) {
    // A closing environment (Node exiting) refuses the call; the result has nobody to go to.
    let _ = self.on_settled.call(
      (run as f64, result_json),
      ThreadsafeFunctionCallMode::NonBlocking,
    );
  }
}

/// The native engine behind `CodeRuntime`. Not part of the public API.
#[napi]
pub struct NativeEngine {
  engine: Engine,
}

#[napi]
impl NativeEngine {
  /// `threads`: pool threads kept ready; `onSettled(runId, resultJson)` receives every result.
  #[napi(constructor, catch_unwind)]
  pub fn new(threads: u32, on_settled: Function<FnArgs<(f64, String)>, ()>) -> Result<Self> {
    let on_settled: SettleFn = on_settled
      .build_threadsafe_function::<(f64, String)>()
      .weak::<true>()
      .build_callback(|ctx| Ok(FnArgs::from(ctx.value)))?;
    let host = Arc::new(NodeHost { on_settled });
    Ok(NativeEngine {
      engine: Engine::new(
        EngineConfig {
          threads: threads as usize,
        },
        host,
      ),
    })
  }

  /// Starts a run and returns its id. Limits arrive validated from `index.js`.
  #[napi(catch_unwind)]
  pub fn start(
    &self,
    program: String,
    compute_ms: f64,
    max_wall_ms: f64,
    max_output_bytes: f64,
    max_heap_mb: f64,
  ) -> Result<f64> {
    let limits = Limits {
      compute_ms,
      max_wall_ms,
      max_output_bytes: max_output_bytes as u64,
      max_heap_mb,
    };
    match self.engine.start(program, limits) {
      Ok(id) => Ok(id as f64),
      Err(_) => Err(Error::new(
        Status::GenericFailure,
        "CodeRuntime.run() called after disposal",
      )),
    }
  }

  /// Ends a run as `abort` with `reason` as its message.
  #[napi(catch_unwind)]
  pub fn abort(&self, run_id: f64, reason: String) {
    self.engine.abort(run_id as RunId, reason);
  }

  /// Ends every run and stops the threads; `done()` is called once all are idle.
  #[napi(catch_unwind)]
  pub fn dispose(&self, done: Function<(), ()>) -> Result<()> {
    let done: DoneFn = done
      .build_threadsafe_function::<()>()
      .build_callback(|_| Ok(()))?;
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
