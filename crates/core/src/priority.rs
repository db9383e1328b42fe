//! Keeping spinning programs out of the way of everything else.
//!
//! A slice that has run for [`DEMOTE_AFTER`] is a hot program: its thread drops to the
//! lowest scheduling priority until the slice ends, so a fresh run (and Node's main thread)
//! preempts it instead of queueing behind it on a machine with fewer cores than hot programs.
//! Its compute budget is CPU time, so the program loses nothing but latency it was not
//! owed. Raising a priority back needs privileges many processes lack; a thread that cannot
//! be restored retires after its job and the pool starts a fresh one when needed.
//! Linux only (per-thread nice values); elsewhere this is a no-op.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long a slice runs before its thread is demoted.
pub const DEMOTE_AFTER: Duration = Duration::from_millis(2);

thread_local! {
  static DEMOTED: Cell<bool> = const { Cell::new(false) };
  /// Where the pool reads this thread's state (see [`watch_current`]).
  static WATCHED: std::cell::RefCell<Option<Arc<AtomicBool>>> = const { std::cell::RefCell::new(None) };
}

/// Mirrors the calling thread's demotion into `flag`, which other threads can read: the pool
/// counts a demoted slice as holding its thread (at the lowest priority it gets too little
/// CPU for its clock to say so).
pub fn watch_current(flag: Arc<AtomicBool>) {
  WATCHED.with(|w| *w.borrow_mut() = Some(flag));
}

fn publish(demoted: bool) {
  WATCHED.with(|w| {
    if let Some(flag) = w.borrow().as_ref() {
      flag.store(demoted, Ordering::Release);
    }
  });
}

/// Lowers the calling thread's priority (once per slice).
pub fn demote_current() {
  if DEMOTED.with(Cell::get) {
    return;
  }
  DEMOTED.with(|d| d.set(true));
  publish(true);
  set_nice(19);
}

/// Restores normal priority after a demoted slice. False when the thread could not be
/// restored and should retire.
pub fn restore_current() -> bool {
  if !DEMOTED.with(Cell::get) {
    return true;
  }
  let ok = set_nice(0);
  if ok {
    DEMOTED.with(|d| d.set(false));
  }
  publish(false);
  ok
}

#[cfg(target_os = "linux")]
fn set_nice(nice: i32) -> bool {
  // SAFETY: setpriority on our own thread id only changes this thread's nice value.
  unsafe { libc::setpriority(libc::PRIO_PROCESS as _, libc::gettid() as _, nice) == 0 }
}

#[cfg(not(target_os = "linux"))]
fn set_nice(_nice: i32) -> bool {
  true
}
