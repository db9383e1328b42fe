//! The outbox: binding calls and live log entries on their way to the host, handed over in
//! batches (the first call of a slice at once). Shared with the interrupt handler, which
//! flushes it while a long slice runs.

use crate::host::{self, Host, HostCall, RunId, BATCH_ENVELOPE_BYTES, CALL_ENVELOPE_BYTES};
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

  /// The longest argument JSON a binding call may hand to the host.
  pub fn max_argument_bytes(&self) -> usize {
    host::max_argument_bytes(self.host.max_event_bytes())
  }

  /// Queues one log entry (a JSON string) for the host; it goes with the next flush, or
  /// now with what is queued when together they would be too long for one event.
  pub fn push_log(&self, entry_json: String) {
    let queued = self.logs.lock().unwrap_or_else(|p| p.into_inner()).len();
    let event = queued.saturating_add(entry_json.len()).saturating_add(1 + BATCH_ENVELOPE_BYTES);
    if queued != 0 && event > self.host.max_event_bytes() {
      self.flush();
    }
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
    for part in split_calls(batch, self.host.max_event_bytes()) {
      self.host.calls(self.run_id(), part);
    }
  }
}

/// `batch` in order, as consecutive parts whose events fit in `max_event_bytes` (each call
/// counts its argument JSON and [`CALL_ENVELOPE_BYTES`], each part [`BATCH_ENVELOPE_BYTES`]).
/// A call too long to fit even alone goes alone (`bindings` refuses such calls before they
/// are queued). Usually the batch itself, unsplit.
pub(crate) fn split_calls(batch: Vec<HostCall>, max_event_bytes: usize) -> Vec<Vec<HostCall>> {
  let size = |c: &HostCall| c.args_json.len().saturating_add(CALL_ENVELOPE_BYTES);
  let total = batch.iter().fold(BATCH_ENVELOPE_BYTES, |n, c| n.saturating_add(size(c)));
  if total <= max_event_bytes {
    return vec![batch];
  }
  let mut parts = Vec::new();
  let mut part = Vec::new();
  let mut bytes = BATCH_ENVELOPE_BYTES;
  for call in batch {
    let n = size(&call);
    if !part.is_empty() && bytes.saturating_add(n) > max_event_bytes {
      parts.push(std::mem::take(&mut part));
      bytes = BATCH_ENVELOPE_BYTES;
    }
    bytes = bytes.saturating_add(n);
    part.push(call);
  }
  if !part.is_empty() {
    parts.push(part);
  }
  parts
}

#[cfg(test)]
mod tests {
  use super::*;

  fn call(id: u32, bytes: usize) -> HostCall {
    HostCall { call: id, function: 0, args_json: "x".repeat(bytes) }
  }

  fn ids(parts: &[Vec<HostCall>]) -> Vec<Vec<u32>> {
    parts.iter().map(|p| p.iter().map(|c| c.call).collect()).collect()
  }

  #[test]
  fn a_batch_that_fits_is_one_part() {
    let parts = split_calls(
      vec![call(1, 10), call(2, 10)],
      2 * (10 + CALL_ENVELOPE_BYTES) + BATCH_ENVELOPE_BYTES,
    );
    assert_eq!(ids(&parts), vec![vec![1, 2]]);
  }

  #[test]
  fn a_batch_too_long_for_one_event_splits_in_order_and_every_part_fits() {
    let max = 100 + CALL_ENVELOPE_BYTES + BATCH_ENVELOPE_BYTES;
    let batch: Vec<HostCall> = (0..50).map(|i| call(i, (i as usize * 7) % 101)).collect();
    let parts = split_calls(batch.clone(), max);
    assert!(parts.len() > 1);
    assert_eq!(parts.concat(), batch, "every call once, in order");
    for part in &parts {
      let bytes = BATCH_ENVELOPE_BYTES
        + part.iter().map(|c| c.args_json.len() + CALL_ENVELOPE_BYTES).sum::<usize>();
      assert!(bytes <= max, "a part of {bytes} bytes, over {max}");
    }
    // Greedy: no two neighbouring parts would have fitted together.
    for pair in parts.windows(2) {
      let together = BATCH_ENVELOPE_BYTES
        + pair.iter().flatten().map(|c| c.args_json.len() + CALL_ENVELOPE_BYTES).sum::<usize>();
      assert!(together > max);
    }
  }

  #[test]
  fn a_call_too_long_for_any_event_goes_alone() {
    let parts = split_calls(vec![call(1, 5), call(2, 500), call(3, 5)], 100);
    assert_eq!(ids(&parts), vec![vec![1], vec![2], vec![3]]);
  }

  #[test]
  fn the_longest_argument_fits_in_one_event_alone() {
    let max = 1000;
    let parts = split_calls(vec![call(1, host::max_argument_bytes(max)), call(2, 0)], max);
    assert_eq!(ids(&parts), vec![vec![1], vec![2]]);
    assert_eq!(host::max_argument_bytes(10), 0);
  }
}
