//! Keeping spinning programs out of the way of everything else.
//!
//! A slice that has used [`DEMOTE_AFTER`] of CPU time is a hot program: its thread drops to the
//! lowest scheduling priority (`SCHED_IDLE`, or nice 19 where that is refused) until the
//! slice ends, so a fresh run (and Node's main thread) preempts it instead of queueing
//! behind it on a machine with fewer cores than hot programs.
//! Its compute budget is CPU time, so the program loses nothing but latency it was not
//! owed. Raising a priority back needs privileges many processes lack; a thread that cannot
//! be restored retires after its job and the pool starts a fresh one when needed.
//! Linux only (per-thread scheduling policy and nice value); elsewhere this is a no-op.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How much CPU time a slice uses before its thread is demoted.
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
  lower();
}

/// Restores normal priority after a demoted slice. False when the thread could not be
/// restored and should retire.
pub fn restore_current() -> bool {
  if !DEMOTED.with(Cell::get) {
    return true;
  }
  let ok = raise();
  if ok {
    DEMOTED.with(|d| d.set(false));
  }
  publish(false);
  ok
}

/// `SCHED_IDLE`, not just nice 19: the scheduler preempts an idle-policy thread as soon as
/// a normal one wakes on its core, and places waking threads on such a core as if it were
/// free, so Node's main thread and fresh runs do not wait out a hot program's time slice
/// (nice 19 left trivial runs behind four hot loops waiting up to ~9 ms on two cores).
#[cfg(target_os = "linux")]
fn lower() {
  let param = libc::sched_param { sched_priority: 0 };
  // SAFETY: sched_setscheduler/setpriority on our own thread id only change this thread's
  // scheduling; `param` outlives the call.
  unsafe {
    if libc::sched_setscheduler(libc::gettid(), libc::SCHED_IDLE, &param) != 0 {
      libc::setpriority(libc::PRIO_PROCESS as _, libc::gettid() as _, 19);
    }
  }
}

#[cfg(target_os = "linux")]
fn raise() -> bool {
  let param = libc::sched_param { sched_priority: 0 };
  // SAFETY: as in `lower`.
  unsafe {
    libc::sched_setscheduler(libc::gettid(), libc::SCHED_OTHER, &param) == 0
      && libc::setpriority(libc::PRIO_PROCESS as _, libc::gettid() as _, 0) == 0
  }
}

#[cfg(not(target_os = "linux"))]
fn lower() {}

#[cfg(not(target_os = "linux"))]
fn raise() -> bool {
  true
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
  use super::*;

  fn policy() -> i32 {
    // SAFETY: reads the calling thread's own policy.
    unsafe { libc::sched_getscheduler(libc::gettid()) }
  }

  /// A demoted thread runs under `SCHED_IDLE` (which the scheduler preempts at once for any
  /// normal thread), is seen as demoted by the pool, and is back to `SCHED_OTHER` at nice 0
  /// once restored (where the process may raise priorities; otherwise it reports that the
  /// thread must retire).
  #[test]
  fn demotion_is_the_idle_policy_and_restoring_undoes_it() {
    std::thread::spawn(|| {
      let flag = Arc::new(AtomicBool::new(false));
      watch_current(flag.clone());
      assert_eq!(policy(), libc::SCHED_OTHER);
      demote_current();
      assert_eq!(policy(), libc::SCHED_IDLE);
      assert!(flag.load(Ordering::Acquire));
      if restore_current() {
        assert_eq!(policy(), libc::SCHED_OTHER);
        // SAFETY: reads the calling thread's own nice value.
        assert_eq!(unsafe { libc::getpriority(libc::PRIO_PROCESS as _, libc::gettid() as _) }, 0);
        assert!(!flag.load(Ordering::Acquire));
      }
    })
    .join()
    .expect("the demoted thread's checks");
  }
}
