//! Shared pieces of the fuzz targets: one engine with a fake host for the whole fuzzing
//! process, a strict iterative reader of result JSON, and the value generator of the
//! `bridge` target.
//!
//! Nothing here recurses over data a program controls: result JSON is read with an explicit
//! bracket stack, and the generator's recursion is bounded by [`gen::MAX_DEPTH`] (deep
//! values are built by a loop in the generated program, not by the generator).

pub mod gen;
pub mod result;

use code_runtime_core::{Engine, EngineConfig, Host, HostCall, Limits, RunId};
use std::collections::HashSet;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// What the fake host saw.
pub enum Event {
  Calls(RunId, Vec<HostCall>),
  Settled(RunId, String),
}

struct FakeHost {
  events: Mutex<Sender<Event>>,
  settled: Mutex<HashSet<RunId>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
  m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Host for FakeHost {
  fn settled(&self, run: RunId, result_json: String) {
    if !lock(&self.settled).insert(run) {
      // A run settling twice is the bug this harness exists to find; make it a crash the
      // fuzzer records (a panic here would unwind into the engine's own pool thread).
      eprintln!("run {run} settled a second time: {result_json}");
      std::process::abort();
    }
    let _ = lock(&self.events).send(Event::Settled(run, result_json));
  }
  fn calls(&self, run: RunId, batch: Vec<HostCall>) {
    let _ = lock(&self.events).send(Event::Calls(run, batch));
  }
}

pub struct Harness {
  pub engine: Engine,
  events: Mutex<Receiver<Event>>,
}

/// The process-wide engine (2 threads), created on first use and never dropped.
pub fn harness() -> &'static Harness {
  static H: OnceLock<Harness> = OnceLock::new();
  H.get_or_init(|| {
    let (tx, rx) = channel();
    let host = Arc::new(FakeHost { events: Mutex::new(tx), settled: Mutex::new(HashSet::new()) });
    Harness { engine: Engine::new(EngineConfig { threads: 2 }, host), events: Mutex::new(rx) }
  })
}

/// Longest a run may take before the harness calls it a hang (the fuzz targets' budgets are
/// far below this; the slack is for a sanitizer build on a busy machine).
pub const HANG: Duration = Duration::from_secs(20);

/// One run driven to its end. `answer` is asked about every binding call of this run and
/// returns `Some(outcome)` to answer at once, `None` to hold the call (held calls are
/// answered with `late` after the run settled, which the engine must drop).
pub struct Finished {
  pub result: String,
  pub calls: Vec<HostCall>,
  pub elapsed: Duration,
}

impl Harness {
  pub fn run(
    &self,
    program: String,
    bindings: Vec<code_runtime_core::BindingSpec>,
    limits: Limits,
    mut answer: impl FnMut(&HostCall) -> Option<Result<String, String>>,
  ) -> Finished {
    // One run at a time: the receiver lock serializes callers.
    let events = lock(&self.events);
    let started = Instant::now();
    let id = self.engine.start(program, bindings, limits).expect("engine not disposed");
    let mut calls = Vec::new();
    let mut held = Vec::new();
    loop {
      let left = HANG.saturating_sub(started.elapsed());
      match events.recv_timeout(left) {
        Ok(Event::Calls(run, batch)) if run == id => {
          for call in batch {
            match answer(&call) {
              Some(outcome) => self.engine.settle_call(id, call.call, outcome),
              None => held.push(call.call),
            }
            calls.push(call);
          }
        }
        Ok(Event::Settled(run, result)) if run == id => {
          let elapsed = started.elapsed();
          for call in held {
            self.engine.settle_call(id, call, Ok("\"late\"".into()));
          }
          // An abort after the end must be ignored too.
          self.engine.abort(id, "late abort".into());
          // The engine drops the run right after reporting it. Wait for that, so the run's
          // memory is freed before the input ends: LeakSanitizer cannot see pointers held in
          // QuickJS's heap (mimalloc pages), so a live run would read as leaked Rust boxes,
          // while anything still allocated after this is a real leak. (`in_flight` is 0 as
          // soon as the result goes, before the world is dropped.)
          while self.engine.worlds() > 0 {
            if started.elapsed() > HANG {
              eprintln!("run {id} settled but was never dropped");
              std::process::abort();
            }
            std::thread::sleep(Duration::from_micros(50));
          }
          return Finished { result, calls, elapsed };
        }
        Ok(_) => {} // an earlier run's late event
        Err(RecvTimeoutError::Timeout) => {
          eprintln!("run {id} did not settle within {HANG:?}");
          std::process::abort();
        }
        Err(RecvTimeoutError::Disconnected) => unreachable!("the host lives as long as the engine"),
      }
    }
  }
}
