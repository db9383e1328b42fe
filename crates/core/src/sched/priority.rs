//! Keeping spinning programs out of the way of everything else, without starving them.
//!
//! A slice that has used [`HOT_AFTER`] of CPU time is a hot program. Hot slices take turns
//! on the machine's cores ([`Turns`]): hot slices get every core while nothing else runs,
//! every core but one while other work comes and goes, and while more slices want a core
//! than there are — slices not yet hot, jobs queued for a thread, hot
//! slices holding a turn — a hot slice gives its turn up at its next interrupt check and waits, blocked on its own thread, until
//! a core is free and it is first in line; a hot slice that has held its turn for
//! [`QUANTUM`] of CPU while others wait goes to the back of the line. So a fresh run (and
//! Node's main thread, which answers it) finds a core at once behind any number of hot
//! programs, and hot programs share what is left in turn.
//!
//! Nothing here changes an OS priority: a hot program's thread keeps the normal policy and
//! nice value, so on a host whose cores other processes keep busy it still gets its fair
//! share. (Hot threads used to drop to `SCHED_IDLE`, which runs only when nothing else on the
//! machine wants the core: with two busy processes on two cores, a 20 ms program took 5 s.)
//! A run's budget is CPU time, so waiting for a turn costs it nothing but latency.
//!
//! A turn is waited for inside the run's interrupt check, so the run's whole state stays on
//! its thread's stack: nothing in QuickJS needs to be suspended or resumed. The wait ends
//! at once when the run must stop (abort, dispose, wall ceiling), so a waiting run still
//! settles on time.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How much CPU time a slice uses before it counts as a hot program.
pub const HOT_AFTER: Duration = Duration::from_millis(2);

/// How long after other work of the pool (a slice that is not hot) hot slices leave one core
/// free: the host's main thread handles what that work produced (a run's result, its calls)
/// right after it, and would otherwise find every core taken by hot programs.
pub const LEAVE_A_CORE_FOR: Duration = Duration::from_millis(2);

/// How much CPU time a hot slice runs in one turn while other hot slices wait for one.
pub const QUANTUM: Duration = Duration::from_millis(10);

/// How often a waiting slice looks at its run's stop cause (an abort, a dispose or the wall
/// ceiling also wake it at once through [`Turns::wake_all`]).
const RECHECK: Duration = Duration::from_millis(2);

#[repr(align(128))]
#[derive(Default)]
struct Padded<T>(T);

/// One waiting slice.
#[derive(Default)]
struct Waiter {
  wake: Condvar,
}

/// The turns of one pool's hot slices on the machine's cores.
pub struct Turns {
  cores: usize,
  /// When a slice that is not hot last started or ended, in ns since `epoch`.
  other_work_ns: AtomicU64,
  epoch: Instant,
  /// Slices running that are not hot (every job starts as one).
  fresh: Padded<AtomicUsize>,
  /// Hot slices running in their turn.
  active: Padded<AtomicUsize>,
  /// Jobs waiting for a thread (the pool's queue length), readable without the pool's lock.
  queued: Padded<AtomicUsize>,
  /// The pool can start no more threads: queued jobs wait for a thread, not a core, and
  /// hot slices giving up their turn would not let them start.
  at_max: AtomicBool,
  /// Waiting hot slices, first in line first.
  line: Mutex<VecDeque<Arc<Waiter>>>,
  waiting: AtomicUsize,
}

impl Turns {
  /// Turns on `cores` cores: hot slices get every core while nothing else of the pool has
  /// run for [`LEAVE_A_CORE_FOR`], every core but one otherwise (which stays for the fresh
  /// runs and for Node's main thread, which answers them), and none the slices that are not
  /// hot want.
  pub fn new(cores: usize) -> Turns {
    Turns {
      cores: cores.max(1),
      other_work_ns: AtomicU64::new(0),
      epoch: Instant::now(),
      fresh: Default::default(),
      active: Default::default(),
      queued: Default::default(),
      at_max: AtomicBool::new(false),
      line: Mutex::new(VecDeque::new()),
      waiting: AtomicUsize::new(0),
    }
  }

  /// The cores available to the process.
  pub fn machine_cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
  }

  /// The pool's queue length, published under its lock.
  pub(crate) fn set_queued(&self, n: usize) {
    self.queued.0.store(n, Ordering::Release);
  }

  pub(crate) fn queued(&self) -> usize {
    self.queued.0.load(Ordering::Acquire)
  }

  pub(crate) fn set_at_max(&self, at_max: bool) {
    self.at_max.store(at_max, Ordering::Release);
  }

  /// Whether a hot slice holding a turn should give it up: too many hot slices run, or
  /// more slices want a core than there are.
  fn over(&self) -> bool {
    self.active.0.load(Ordering::Acquire) > self.hot_limit() || self.demand() > self.cores
  }

  /// How many hot slices may run now (see [`Turns::new`]).
  fn hot_limit(&self) -> usize {
    let since = self.epoch.elapsed().as_nanos() as u64;
    let quiet = since.saturating_sub(self.other_work_ns.load(Ordering::Acquire))
      >= LEAVE_A_CORE_FOR.as_nanos() as u64;
    if quiet || self.cores == 1 {
      self.cores
    } else {
      self.cores - 1
    }
  }

  fn other_work(&self) {
    self.other_work_ns.store(self.epoch.elapsed().as_nanos() as u64, Ordering::Release);
  }

  /// Whether a waiting hot slice may take a turn.
  fn room(&self) -> bool {
    self.active.0.load(Ordering::Acquire) < self.hot_limit() && self.demand() < self.cores
  }

  /// Slices that want a core now, hot ones waiting for a turn aside.
  fn demand(&self) -> usize {
    let queued =
      if self.at_max.load(Ordering::Acquire) { 0 } else { self.queued.0.load(Ordering::Acquire) };
    self.fresh.0.load(Ordering::Acquire) + self.active.0.load(Ordering::Acquire) + queued
  }

  /// A job starts on a pool thread.
  pub(crate) fn job_started(&self) {
    self.other_work();
    self.fresh.0.fetch_add(1, Ordering::AcqRel);
  }

  /// A job ended on a pool thread (see [`job_ended`]).
  fn ended(&self, held: Held) {
    match held {
      Held::Fresh => {
        self.other_work();
        self.fresh.0.fetch_sub(1, Ordering::AcqRel)
      }
      Held::Turn => self.active.0.fetch_sub(1, Ordering::AcqRel),
      Held::Nothing => 0,
    };
    self.wake_first();
  }

  /// Tells the first waiting slice to look again (a core may be free).
  fn wake_first(&self) {
    if self.waiting.load(Ordering::Acquire) == 0 {
      return;
    }
    let line = self.line.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(first) = line.front() {
      first.wake.notify_one();
    }
  }

  /// Wakes every waiting slice to look at its run's stop cause (an abort, a dispose).
  pub fn wake_all(&self) {
    if self.waiting.load(Ordering::Acquire) == 0 {
      return;
    }
    let line = self.line.lock().unwrap_or_else(|p| p.into_inner());
    line.iter().for_each(|w| w.wake.notify_one());
  }

  /// Gives up the calling slice's turn and waits for the next one, unless (re-checked in
  /// line order) there is no longer a reason to. Returns whether the slice holds a turn
  /// afterwards (false when `must_stop` ended the wait).
  fn wait_for_turn(&self, me: &Arc<Waiter>, rotate: bool, must_stop: &dyn Fn() -> bool) -> bool {
    let mut line = self.line.lock().unwrap_or_else(|p| p.into_inner());
    if !self.over() && !(rotate && !line.is_empty()) {
      return true;
    }
    self.active.0.fetch_sub(1, Ordering::AcqRel);
    line.push_back(me.clone());
    self.waiting.fetch_add(1, Ordering::AcqRel);
    // The first in line may take the core this slice leaves.
    if let Some(first) = line.front() {
      first.wake.notify_one();
    }
    let holds = loop {
      if must_stop() {
        if let Some(i) = line.iter().position(|w| Arc::ptr_eq(w, me)) {
          line.remove(i);
        }
        break false;
      }
      let first = line.front().is_some_and(|w| Arc::ptr_eq(w, me));
      if first && self.room() {
        line.pop_front();
        self.active.0.fetch_add(1, Ordering::AcqRel);
        break true;
      }
      line = me.wake.wait_timeout(line, RECHECK).unwrap_or_else(|p| p.into_inner()).0;
    };
    self.waiting.fetch_sub(1, Ordering::AcqRel);
    // There may be room for the next in line too.
    if let Some(first) = line.front() {
      first.wake.notify_one();
    }
    holds
  }
}

/// What the calling thread's job counts as in its pool's [`Turns`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Held {
  Fresh,
  Turn,
  Nothing,
}

struct Current {
  turns: Arc<Turns>,
  /// Mirrors whether the thread runs a hot slice, for the pool (a waiting hot slice holds
  /// its thread as surely as a running one).
  hot: Arc<AtomicBool>,
  held: Held,
  /// Slice CPU time when the current turn began.
  turn_began_ns: u64,
  waiter: Arc<Waiter>,
}

thread_local! {
  static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// Makes the calling thread a pool worker of `turns`, mirroring its slices' hotness into
/// `hot`.
pub fn watch_current(turns: Arc<Turns>, hot: Arc<AtomicBool>) {
  CURRENT.with(|c| {
    *c.borrow_mut() = Some(Current {
      turns,
      hot,
      held: Held::Nothing,
      turn_began_ns: 0,
      waiter: Default::default(),
    })
  });
}

/// A job starts on the calling worker (after [`Turns::job_started`] was counted).
pub(crate) fn job_started() {
  CURRENT.with(|c| {
    if let Some(c) = c.borrow_mut().as_mut() {
      c.held = Held::Fresh;
    }
  });
}

/// The calling worker's job ended: what it held goes back.
pub(crate) fn job_ended() {
  CURRENT.with(|c| {
    if let Some(c) = c.borrow_mut().as_mut() {
      let held = std::mem::replace(&mut c.held, Held::Nothing);
      c.hot.store(false, Ordering::Release);
      c.turns.ended(held);
    }
  });
}

/// The interrupt check of a slice that has used `slice_cpu_ns` of CPU: a slice turning hot
/// is marked so; a hot one waits for a turn when it should (see the module doc). Returns
/// whether it waited (at once, false, off the pool's threads).
pub fn poll(slice_cpu_ns: u64, must_stop: &dyn Fn() -> bool) -> bool {
  if slice_cpu_ns < HOT_AFTER.as_nanos() as u64 {
    return false;
  }
  // The thread-local is not borrowed across the wait: nothing else on this thread runs
  // meanwhile, but a panic unwinding through a borrow would poison nothing either way.
  let step = CURRENT.with(|c| {
    let mut c = c.borrow_mut();
    let c = c.as_mut()?;
    match c.held {
      Held::Fresh => {
        // Turning hot: the slice keeps the core it has as its turn.
        c.turns.fresh.0.fetch_sub(1, Ordering::AcqRel);
        c.turns.active.0.fetch_add(1, Ordering::AcqRel);
        c.held = Held::Turn;
        c.turn_began_ns = slice_cpu_ns;
        c.hot.store(true, Ordering::Release);
      }
      Held::Turn => {}
      Held::Nothing => return None,
    }
    let turns = &c.turns;
    let rotate = turns.waiting.load(Ordering::Acquire) > 0
      && slice_cpu_ns.saturating_sub(c.turn_began_ns) >= QUANTUM.as_nanos() as u64;
    (rotate || turns.over()).then(|| (turns.clone(), c.waiter.clone(), rotate))
  });
  let Some((turns, waiter, rotate)) = step else {
    return false;
  };
  let holds = turns.wait_for_turn(&waiter, rotate, must_stop);
  CURRENT.with(|c| {
    if let Some(c) = c.borrow_mut().as_mut() {
      c.held = if holds { Held::Turn } else { Held::Nothing };
      c.turn_began_ns = slice_cpu_ns;
    }
  });
  true
}

#[cfg(all(test, unix))]
mod tests {
  use super::*;
  use std::sync::mpsc;
  use std::time::Instant;

  /// The calling thread's CPU time (the test's own reading, not the budget's: no module of
  /// the scheduler uses the limits).
  fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into a timespec we own.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
  }

  fn spin_cpu(d: Duration) {
    let start = thread_cpu_ns();
    while thread_cpu_ns() - start < d.as_nanos() as u64 {
      std::hint::black_box(0u64);
    }
  }

  /// A hot slice that must give up its turn (a fresh job wants the only core) waits until
  /// that job has ended, then continues; told to stop, it stops waiting at once.
  #[test]
  fn a_hot_slice_waits_while_a_fresh_one_needs_the_core_and_stops_when_told() {
    let turns = Arc::new(Turns::new(1));
    let (tx, rx) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let hot = {
      let (turns, stop) = (turns.clone(), stop.clone());
      std::thread::spawn(move || {
        let flag = Arc::new(AtomicBool::new(false));
        watch_current(turns.clone(), flag.clone());
        turns.job_started();
        job_started();
        poll(HOT_AFTER.as_nanos() as u64, &|| false);
        assert!(flag.load(Ordering::Acquire), "marked hot");
        tx.send("hot").unwrap();
        // A fresh job starts beside it: one core, two slices; the hot one waits.
        while turns.fresh.0.load(Ordering::Acquire) == 0 {
          std::thread::yield_now();
        }
        poll(HOT_AFTER.as_nanos() as u64 * 2, &|| false);
        tx.send("resumed").unwrap();
        // Another fresh job, and this time the run is stopped while it waits.
        while turns.fresh.0.load(Ordering::Acquire) == 0 {
          std::thread::yield_now();
        }
        poll(HOT_AFTER.as_nanos() as u64 * 3, &|| stop.load(Ordering::Acquire));
        tx.send("stopped").unwrap();
        job_ended();
      })
    };
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), "hot");
    turns.job_started();
    assert!(rx.recv_timeout(Duration::from_millis(50)).is_err(), "did not wait");
    turns.ended(Held::Fresh);
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), "resumed");
    turns.job_started();
    assert!(rx.recv_timeout(Duration::from_millis(50)).is_err(), "did not wait");
    let asked = Instant::now();
    stop.store(true, Ordering::Release);
    turns.wake_all();
    assert_eq!(rx.recv_timeout(Duration::from_secs(10)).unwrap(), "stopped");
    assert!(asked.elapsed() < Duration::from_secs(1));
    hot.join().unwrap();
    turns.ended(Held::Fresh);
    assert_eq!(turns.demand(), 0);
  }

  /// On two cores two hot slices run while nothing else does; one runs beside a fresh slice
  /// and for a moment after it (the core left for the host), and none once two fresh slices
  /// (or a fresh one and a queued job) want both cores. Queued jobs count only while the pool
  /// can start threads for them.
  #[test]
  fn hot_slices_leave_a_core_for_other_work_and_give_way_to_it() {
    let turns = Turns::new(2);
    std::thread::sleep(LEAVE_A_CORE_FOR);
    turns.active.0.store(2, Ordering::Release);
    assert!(!turns.over(), "two hot slices alone on two cores");
    turns.job_started();
    assert!(turns.over(), "two hot slices and a fresh one");
    turns.active.0.store(1, Ordering::Release);
    assert!(!turns.over(), "one hot and one fresh slice on two cores");
    turns.set_queued(1);
    assert!(turns.over(), "a job waits for a core");
    turns.set_at_max(true);
    assert!(!turns.over(), "a job waits for a thread the pool cannot start");
    turns.set_at_max(false);
    turns.set_queued(0);
    turns.ended(Held::Fresh);
    assert!(!turns.room(), "a second hot slice right after other work");
    std::thread::sleep(LEAVE_A_CORE_FOR);
    assert!(turns.room(), "a second hot slice once the pool was quiet");
  }

  /// Hot slices beyond the cores take turns: each runs about a quantum of CPU, then the one
  /// waiting longest runs, so all of them progress.
  #[test]
  fn hot_slices_beyond_the_cores_take_turns() {
    let turns = Arc::new(Turns::new(1));
    let progress: Arc<Vec<AtomicUsize>> = Arc::new((0..3).map(|_| AtomicUsize::new(0)).collect());
    let stop = Arc::new(AtomicBool::new(false));
    let threads: Vec<_> = (0..3)
      .map(|i| {
        let (turns, progress, stop) = (turns.clone(), progress.clone(), stop.clone());
        std::thread::spawn(move || {
          watch_current(turns.clone(), Arc::new(AtomicBool::new(false)));
          turns.job_started();
          job_started();
          let start = thread_cpu_ns();
          while !stop.load(Ordering::Acquire) {
            spin_cpu(Duration::from_micros(200));
            let cpu = thread_cpu_ns() - start + HOT_AFTER.as_nanos() as u64;
            poll(cpu, &|| stop.load(Ordering::Acquire));
            progress[i].fetch_add(1, Ordering::AcqRel);
          }
          job_ended();
        })
      })
      .collect();
    let deadline = Instant::now() + Duration::from_secs(20);
    while progress.iter().any(|p| p.load(Ordering::Acquire) < 100) && Instant::now() < deadline {
      std::thread::sleep(Duration::from_millis(10));
    }
    stop.store(true, Ordering::Release);
    turns.wake_all();
    threads.into_iter().for_each(|t| t.join().unwrap());
    let seen: Vec<usize> = progress.iter().map(|p| p.load(Ordering::Acquire)).collect();
    assert!(seen.iter().all(|&n| n >= 100), "{seen:?}");
    assert_eq!(turns.demand(), 0);
  }
}
