//! Forced panics for the tests that prove a Rust panic never crosses into Node, and a
//! smaller event size for the tests that split call batches.
//!
//! Off unless the process starts with `CODE_RUNTIME_TEST_HOOKS=1` (read once). When on, a
//! text handed to the engine that contains [`EDGE_PANIC`] — a program, a binding's answer,
//! an abort reason — makes the Node-API function that receives it panic; a program that
//! contains [`ENGINE_PANIC`] panics on its pool thread; [`max_event_bytes`] may lower the
//! edge's event size. Nothing else changes; the check costs one cached boolean.

use std::sync::LazyLock;

/// Asks the Node-API function receiving the text to panic.
pub const EDGE_PANIC: &str = "@@code-runtime-test-panic:edge@@";
/// Asks the pool thread starting the program to panic.
pub const ENGINE_PANIC: &str = "@@code-runtime-test-panic:engine@@";

static ENABLED: LazyLock<bool> =
  LazyLock::new(|| std::env::var("CODE_RUNTIME_TEST_HOOKS").is_ok_and(|v| v == "1"));

/// Panics if hooks are on and `text` contains `marker`.
pub fn panic_if_asked(text: &str, marker: &str, place: &str) {
  if *ENABLED && text.contains(marker) {
    panic!("test hook: forced panic in {place}");
  }
}

/// With hooks on, `CODE_RUNTIME_TEST_MAX_EVENT_BYTES=<n>` makes the Node-API edge take events
/// of at most `n` bytes instead of V8's longest string, so tests can split batches and refuse
/// calls at sizes that do not need gigabytes (read once).
pub fn max_event_bytes() -> Option<usize> {
  static MAX: LazyLock<Option<usize>> = LazyLock::new(|| {
    if !*ENABLED {
      return None;
    }
    std::env::var("CODE_RUNTIME_TEST_MAX_EVENT_BYTES").ok()?.parse().ok()
  });
  *MAX
}
