//! What the engine and its embedder (the Node-API edge, or a test) say to each other: run
//! ids, the [`Host`] that receives results, binding calls and live logs, and the options a
//! run may ask for. Plain types only; this module uses nothing else in the crate.

pub type RunId = u64;

/// Where results and binding calls go. Called on pool threads.
pub trait Host: Send + Sync + 'static {
  /// The run ended; `result_json` is the whole result object as JSON text.
  fn settled(&self, run: RunId, result_json: String);
  /// The program called binding functions, in this order. Answer each with
  /// [`crate::Engine::settle_call`] or [`crate::Engine::settle_batch`]. Calls are batched per slice (and flushed while a long slice
  /// runs), so the host sees them promptly and in program order.
  fn calls(&self, run: RunId, batch: Vec<HostCall>);
  /// Log entries of a run started with [`RunOptions::live_logs`], in order, as a JSON array
  /// of strings; delivered before the calls of the same slice and before the result. Entries
  /// past the output cap are not delivered.
  fn logs(&self, _run: RunId, _entries_json: String) {}
  /// The longest text the host can take as one event: a `calls` batch counts each call's
  /// argument JSON plus [`CALL_ENVELOPE_BYTES`], and [`BATCH_ENVELOPE_BYTES`] once; a `logs`
  /// batch its entries, a comma each, and the envelope. Batches are split to fit, and a call
  /// whose argument cannot fit even alone rejects in the program instead of reaching the
  /// host. Node's limit is V8's longest string.
  fn max_event_bytes(&self) -> usize {
    usize::MAX
  }
}

/// What one call adds to a `calls` event besides its argument JSON: its call id and function
/// index (up to 10 digits each) and three separators.
pub const CALL_ENVELOPE_BYTES: usize = 24;

/// What a `calls` or `logs` event adds once: its kind, the run id (up to 20 digits) and the
/// brackets and separators around its lists.
pub const BATCH_ENVELOPE_BYTES: usize = 40;

/// The longest argument JSON one binding call may carry to a host whose events are at most
/// `max_event_bytes` long.
pub fn max_argument_bytes(max_event_bytes: usize) -> usize {
  max_event_bytes.saturating_sub(CALL_ENVELOPE_BYTES + BATCH_ENVELOPE_BYTES)
}

/// One binding call on its way to the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostCall {
  /// Unique within the run; the answer names it.
  pub call: u32,
  /// Flat index over the request's namespaces and their members, in order.
  pub function: u32,
  /// The argument as JSON text (what `JSON.stringify` would give).
  pub args_json: String,
}

/// What a run may ask for besides its program, bindings and limits.
#[derive(Debug, Clone, Copy, Default)]
pub struct RunOptions {
  /// Hand each log entry to [`Host::logs`] as the program emits it (besides the result).
  pub live_logs: bool,
}
