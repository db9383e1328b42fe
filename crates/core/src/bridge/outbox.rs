//! The outbox: binding calls and live log entries on their way to the host, handed over in
//! batches (the first call of a slice at once). Shared with the interrupt handler, which
//! flushes it while a long slice runs.

use crate::host::{Host, HostCall, RunId};
use std::sync::Arc;

/// Binding calls waiting to be handed to the host. Shared with the interrupt handler, which
/// flushes it while a long slice runs.
pub struct Outbox {
  /// The run the calls and logs belong to (a session's runs share one outbox).
  run_id: std::sync::atomic::AtomicU64,
  host: Arc<dyn Host>,
  calls: std::sync::Mutex<Vec<HostCall>>,
  /// Whether the run asked for live logs.
  live_logs: std::sync::atomic::AtomicBool,
  /// Live log entries not yet handed over, as JSON strings joined by commas.
  logs: std::sync::Mutex<String>,
  /// Whether this slice has handed a call over yet.
  sent: std::sync::atomic::AtomicBool,
}

impl Outbox {
  /// Calls beyond this many in one slice are handed over at once.
  const BATCH: usize = 1024;

  pub(crate) fn new(run_id: RunId, host: Arc<dyn Host>, live_logs: bool) -> Outbox {
    Outbox {
      run_id: run_id.into(),
      host,
      calls: Default::default(),
      live_logs: live_logs.into(),
      logs: Default::default(),
      sent: Default::default(),
    }
  }

  /// The next run of a session: its calls and logs go out under its id.
  pub(crate) fn restart(&self, run_id: RunId, live_logs: bool) {
    self.run_id.store(run_id, std::sync::atomic::Ordering::Relaxed);
    self.live_logs.store(live_logs, std::sync::atomic::Ordering::Relaxed);
  }

  pub(crate) fn run_id(&self) -> RunId {
    self.run_id.load(std::sync::atomic::Ordering::Relaxed)
  }

  pub fn wants_logs(&self) -> bool {
    self.live_logs.load(std::sync::atomic::Ordering::Relaxed)
  }

  /// Queues one log entry (a JSON string) for the host; it goes with the next flush.
  pub fn push_log(&self, entry_json: String) {
    let mut logs = self.logs.lock().unwrap_or_else(|p| p.into_inner());
    if !logs.is_empty() {
      logs.push(',');
    }
    logs.push_str(&entry_json);
  }

  pub fn begin_slice(&self) {
    self.sent.store(false, std::sync::atomic::Ordering::Relaxed);
  }

  /// The first call of a slice goes to the host at once, so the host works on it while the
  /// slice finishes (the common `await tools.x()` case); later ones are batched.
  pub fn push(&self, call: HostCall) {
    let flush_now = {
      let mut calls = self.calls.lock().unwrap_or_else(|p| p.into_inner());
      calls.push(call);
      calls.len() >= Self::BATCH || !self.sent.swap(true, std::sync::atomic::Ordering::Relaxed)
    };
    if flush_now {
      self.flush();
    }
  }

  pub fn flush(&self) {
    let entries = std::mem::take(&mut *self.logs.lock().unwrap_or_else(|p| p.into_inner()));
    if !entries.is_empty() {
      self.host.logs(self.run_id(), format!("[{entries}]"));
    }
    let batch = {
      let mut calls = self.calls.lock().unwrap_or_else(|p| p.into_inner());
      if calls.is_empty() {
        return;
      }
      std::mem::take(&mut *calls)
    };
    self.host.calls(self.run_id(), batch);
  }
}
