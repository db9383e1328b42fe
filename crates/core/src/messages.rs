//! Every message a user of the runtime can read, in one place.
//!
//! Tests match on these texts, and the contract fixes many of them word for word, so a
//! change of wording must be a one-line diff here.

/// Completion that cannot cross as lossless JSON (`invalid-output`).
pub const COMPLETION_NOT_LOSSLESS: &str = "program completion must be lossless JSON";

/// A binding call whose argument is not lossless JSON.
pub const BINDING_ARGS_NOT_LOSSLESS: &str = "binding arguments must be lossless JSON";

/// A binding call whose argument's JSON is longer than the host can take in one piece.
pub fn binding_args_too_large(max_bytes: usize) -> String {
  format!(
    "binding arguments are too large to hand to the host: their JSON is over {max_bytes} bytes"
  )
}

/// A host resolution that is not lossless JSON.
pub const BINDING_RESOLUTION_NOT_LOSSLESS: &str = "binding resolution must be lossless JSON";

/// `dispose()` ended the run.
pub const RUNTIME_DISPOSED: &str = "runtime disposed";

/// The `abort` message of a session run ended by the session's `dispose()`.
pub const SESSION_CLOSED: &str = "session disposed";

/// The program's promise can never settle: nothing is left that could settle it.
pub const NEVER_SETTLES: &str =
  "Error: the program is waiting on a promise that nothing can settle \
   (no timer, binding call or job is pending)";

/// A thrown value whose string conversion itself threw.
pub const UNPRINTABLE_THROW: &str =
  "the program threw a value that cannot be converted to a string";

/// A Rust panic inside the engine, turned into a failure instead of crossing into Node.
pub fn engine_panicked(detail: &str) -> String {
  format!("the engine failed unexpectedly and the run was stopped: {detail}")
}

/// The engine could not create the run's JavaScript world.
pub fn engine_start_failed(detail: &str) -> String {
  format!("the engine could not start the program: {detail}")
}

/// `computeMs` was used up.
pub fn compute_budget_exhausted(compute_ms: f64) -> String {
  format!("compute budget exhausted ({}ms busy)", number(compute_ms))
}

/// `maxWallMs` passed.
pub fn wall_clock_ceiling(max_wall_ms: f64) -> String {
  format!("wall-clock ceiling reached ({}ms)", number(max_wall_ms))
}

/// `maxHeapMb` was reached (`worker-exit`).
pub fn heap_limit_reached(max_heap_mb: f64) -> String {
  format!(
    "the program exceeded its JavaScript heap limit of {} MB and was stopped",
    number(max_heap_mb)
  )
}

/// The output ledger overflowed (`output-limit`).
pub fn output_exceeded(max_output_bytes: u64) -> String {
  format!("outer output exceeded {max_output_bytes} bytes")
}

/// A number as JavaScript's `String(n)` prints it.
pub fn number(n: f64) -> String {
  let mut buf = ryu_js::Buffer::new();
  buf.format(n).to_owned()
}
