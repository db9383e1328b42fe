//! The threads that execute run slices.
//!
//! `core` threads are kept ready. A slice normally takes microseconds, but a hot program
//! holds its thread until a budget stops it, so when every thread is busy and a job has
//! waited longer than [`GROW_AFTER`], the supervisor starts another thread (up to `max`);
//! threads beyond `core` exit after [`KEEP_ALIVE`] without work. It does so only while every
//! busy thread's current slice has itself run longer than [`STUCK_AFTER`] (hot programs hold
//! them): a long queue of short slices — a burst of thousands of runs starting — drains
//! faster on the threads there are than with more threads fighting for the same cores (and
//! the Node main thread, which submits them). Once every thread holds a hot slice, the
//! supervisor starts a spare thread before anything waits, so the next run starts at once
//! (a thread started on demand made that run wait for the judgement, the spawn and the new
//! thread's first touches of memory: up to ~7 ms behind four hot loops on two cores). So a
//! spinning program never delays another run by more than about a millisecond, and bursts
//! of short slices do not spawn threads.
//! On Linux "run" means CPU time (the thread's own clock, read by the supervisor): a short
//! slice that waited for a core, or for the kernel to hand it fresh pages, is not hot, and
//! judging it by wall time let a burst of 3,000 starting runs grow the pool to 44 threads on
//! 2 cores, each new thread making the next slices slower still.
//!
//! Every thread has an explicit [`THREAD_STACK`], far above QuickJS's own stack limit
//! (`limits::budget::JS_STACK_LIMIT`) and roomy enough for swc's recursive parser, so deep recursion
//! is a catchable error rather than a process abort. Jobs run inside `catch_unwind`.

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant};

pub const THREAD_STACK: usize = 256 * 1024 * 1024;
pub const GROW_AFTER: Duration = Duration::from_millis(1);
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// A slice that has run this long (CPU time where it can be read) holds its thread: a hot
/// program, a long native call. Well above a run's first slice (transpile + context,
/// ~0.3 ms of CPU).
pub const STUCK_AFTER: Duration = Duration::from_millis(2);
/// CPU a stuck slice has used since the supervisor first saw it (Linux).
pub const STUCK_CPU: Duration = Duration::from_millis(1);
/// How long one idle worker polls for new work before sleeping. A run answering a host
/// call is usually back within tens of microseconds; catching it without a futex wake-up
/// halves the cost of a sequential binding call. Only one worker spins at a time, yielding
/// its core as it does (`spin::until`). Long enough to outlast the main thread's own trip
/// through the event loop when that turn is slow, so the next call does not find the worker
/// asleep and pay a wake-up (~60-120 µs here).
pub const SPIN: Duration = Duration::from_micros(250);

pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// One job running on a worker.
struct Slice {
  started: Instant,
  /// The worker's CPU clock, where the platform lets another thread read it.
  clock: Option<cpu_clock::Clock>,
  /// The worker runs a hot program, or one waiting for its turn on a core (`priority`).
  hot: Arc<AtomicBool>,
  /// The worker's CPU time when the supervisor first looked at this slice (read there, so
  /// the workers' hot path reads no clock).
  cpu_when_seen: Option<Duration>,
}

impl Slice {
  /// Has this slice run for [`STUCK_AFTER`], and has it kept a core busy — a hot program
  /// (running or waiting for its turn), or (where CPU time can be read) [`STUCK_CPU`] of CPU since the supervisor
  /// first saw it — rather than waited for one?
  fn is_stuck(&self) -> bool {
    if self.started.elapsed() < STUCK_AFTER {
      return false;
    }
    if self.clock.is_none() || self.hot.load(Ordering::Acquire) {
      return true;
    }
    match (self.cpu_when_seen, cpu_clock::read(self.clock)) {
      (Some(seen), Some(now)) => now.saturating_sub(seen) >= STUCK_CPU,
      _ => false,
    }
  }

  /// Takes the first CPU reading (see `cpu_when_seen`).
  fn observe(&mut self) {
    if self.cpu_when_seen.is_none() {
      self.cpu_when_seen = cpu_clock::read(self.clock);
    }
  }
}

/// Per-thread CPU clocks another thread can read (Linux); elsewhere wall time stands in.
mod cpu_clock {
  use std::time::Duration;

  #[cfg(target_os = "linux")]
  pub type Clock = libc::clockid_t;
  #[cfg(not(target_os = "linux"))]
  pub type Clock = ();

  #[cfg(target_os = "linux")]
  pub fn of_current_thread() -> Option<Clock> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: pthread_self is the calling thread, alive for the call; the id is written
    // into a local we own.
    let rc = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) };
    (rc == 0).then_some(clock)
  }

  #[cfg(not(target_os = "linux"))]
  pub fn of_current_thread() -> Option<Clock> {
    None
  }

  /// CPU time the clock's thread has used; `None` if it cannot be read (the thread is gone).
  #[cfg(target_os = "linux")]
  pub fn read(clock: Option<Clock>) -> Option<Duration> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes into a timespec we own; a clock of a thread that has
    // exited makes it fail (EINVAL), never fault.
    let rc = unsafe { libc::clock_gettime(clock?, &mut ts) };
    (rc == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
  }

  #[cfg(not(target_os = "linux"))]
  pub fn read(_clock: Option<Clock>) -> Option<Duration> {
    None
  }
}

/// A worker asleep for lack of work, woken only by name.
#[derive(Default)]
struct Sleeper {
  wake: Condvar,
  /// Set (under the state lock) by the `submit` that chose this worker.
  chosen: AtomicBool,
}

struct State {
  queue: VecDeque<(Instant, Job)>,
  threads: usize,
  /// Workers asleep (chosen or not).
  idle: usize,
  /// The sleepers no `submit` has chosen yet, the most recently idle last. A job wakes the
  /// last: a shared condition variable wakes the one asleep longest, so after a quiet spell
  /// runs went round every thread in turn, each time to memory its allocator had handed
  /// back to the system (a 5,000-call run took ~1,300 page faults).
  sleepers: Vec<Arc<Sleeper>>,
  /// A worker is polling `queued` instead of sleeping.
  spinning: bool,
  /// The slices now running (one entry per busy worker, unordered).
  running: Vec<Slice>,
  shutdown: bool,
}

impl State {
  /// Sleepers `submit` has chosen and that are not yet awake: each will take a job.
  fn woken(&self) -> usize {
    self.idle.saturating_sub(self.sleepers.len())
  }

  /// Threads started that have not yet reached the queue (not running, idle or spinning).
  fn starting(&self) -> usize {
    self.threads.saturating_sub(self.running.len() + self.idle + usize::from(self.spinning))
  }
}

struct Inner {
  state: Mutex<State>,
  /// Hot slices' turns on the cores. Its `queued` is the number of jobs queued, readable
  /// without the lock (for the spinning worker and hot slices), on its own cache line.
  turns: Arc<crate::sched::priority::Turns>,
  /// The supervisor waits here for a backlog; shutdown waiters for the last thread.
  watch: Condvar,
  core: usize,
  max: usize,
}

/// A snapshot of the pool (see [`Pool::stats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolStats {
  pub threads: usize,
  pub ready: usize,
  pub queued: usize,
}

#[derive(Clone)]
pub struct Pool {
  inner: Arc<Inner>,
}

impl Pool {
  pub fn new(core: usize, max: usize) -> Pool {
    let inner = Arc::new(Inner {
      state: Mutex::new(State {
        queue: VecDeque::new(),
        threads: 0,
        idle: 0,
        sleepers: Vec::new(),
        spinning: false,
        running: Vec::new(),
        shutdown: false,
      }),
      turns: Arc::new(crate::sched::priority::Turns::new(
        crate::sched::priority::Turns::machine_cores(),
      )),
      watch: Condvar::new(),
      core: core.max(1),
      max: max.max(core.max(1)),
    });
    let pool = Pool { inner };
    let sup = pool.clone();
    let _ =
      thread::Builder::new().name("code-runtime-supervisor".into()).spawn(move || sup.supervise());
    pool
  }

  fn lock(&self) -> MutexGuard<'_, State> {
    self.inner.state.lock().unwrap_or_else(|p| p.into_inner())
  }

  pub fn submit(&self, job: Job) {
    let mut st = self.lock();
    st.queue.push_back((Instant::now(), job));
    // Published under the lock: the spinner re-checks the queue under it anyway.
    self.inner.turns.set_queued(st.queue.len());
    // Workers that will look at the queue without being told: the spinning one, those
    // already woken, and those still starting. A job beyond them must wake someone — a
    // sleeping worker, a new core thread, or the supervisor, which would otherwise sleep
    // through a backlog that formed behind a spinning worker (queued hot loops then waited
    // for the next unrelated submit: tens of milliseconds).
    let on_their_way = usize::from(st.spinning) + st.woken() + st.starting();
    if st.queue.len() <= on_their_way {
      return;
    }
    if let Some(sleeper) = st.sleepers.pop() {
      sleeper.chosen.store(true, Ordering::Relaxed);
      sleeper.wake.notify_one();
    } else if st.threads < self.inner.core {
      self.spawn(&mut st);
    } else {
      self.inner.watch.notify_all();
    }
  }

  fn spawn(&self, st: &mut State) {
    st.threads += 1;
    self.inner.turns.set_at_max(st.threads >= self.inner.max);
    let pool = self.clone();
    let spawned = thread::Builder::new()
      .name("code-runtime-worker".into())
      .stack_size(THREAD_STACK)
      .spawn(move || pool.work());
    if spawned.is_err() {
      st.threads -= 1;
      self.inner.turns.set_at_max(false);
    }
  }

  fn work(&self) {
    let sleeper = Arc::new(Sleeper::default());
    let clock = cpu_clock::of_current_thread();
    let hot = Arc::new(AtomicBool::new(false));
    crate::sched::priority::watch_current(self.inner.turns.clone(), hot.clone());
    let mut st = self.lock();
    loop {
      if let Some((_, job)) = st.queue.pop_front() {
        self.inner.turns.job_started();
        self.inner.turns.set_queued(st.queue.len());
        crate::sched::priority::job_started();
        let started = Instant::now();
        st.running.push(Slice { started, clock, hot: hot.clone(), cpu_when_seen: None });
        drop(st);
        // A panicking job has already turned itself into a failure where it could; never
        // let it take the thread (or the process) down.
        let _ = catch_unwind(AssertUnwindSafe(job));
        crate::sched::priority::job_ended();
        st = self.lock();
        if let Some(i) = st.running.iter().position(|s| Arc::ptr_eq(&s.hot, &hot)) {
          st.running.swap_remove(i);
        }
        continue;
      }
      if st.shutdown {
        break;
      }
      if !st.spinning {
        st.spinning = true;
        drop(st);
        // Whatever it saw, the queue is looked at again under the lock.
        crate::sched::spin::until(SPIN, || self.inner.turns.queued() != 0);
        st = self.lock();
        st.spinning = false;
        if !st.queue.is_empty() || st.shutdown {
          continue;
        }
      }
      st.idle += 1;
      sleeper.chosen.store(false, Ordering::Relaxed);
      st.sleepers.push(sleeper.clone());
      let extra = st.threads > self.inner.core;
      let deadline = Instant::now() + KEEP_ALIVE;
      let mut timed_out = false;
      while !sleeper.chosen.load(Ordering::Relaxed) && !st.shutdown {
        if extra {
          let left = deadline.saturating_duration_since(Instant::now());
          if left.is_zero() {
            timed_out = true;
            break;
          }
          st = sleeper.wake.wait_timeout(st, left).unwrap_or_else(|p| p.into_inner()).0;
        } else {
          st = sleeper.wake.wait(st).unwrap_or_else(|p| p.into_inner());
        }
      }
      st.idle -= 1;
      if !sleeper.chosen.load(Ordering::Relaxed) {
        if let Some(i) = st.sleepers.iter().position(|s| Arc::ptr_eq(s, &sleeper)) {
          st.sleepers.remove(i);
        }
      }
      if timed_out && st.queue.is_empty() && st.threads > self.inner.core {
        break;
      }
    }
    st.threads -= 1;
    self.inner.turns.set_at_max(false);
    self.inner.watch.notify_all();
  }

  fn supervise(&self) {
    let mut st = self.lock();
    loop {
      if st.shutdown {
        return;
      }
      let waited = st.queue.front().map(|(t, _)| t.elapsed());
      // Every thread is in a slice (not idle, spinning, or still starting).
      let all_busy = !st.running.is_empty() && st.running.len() >= st.threads;
      if waited.is_some() || all_busy {
        st.running.iter_mut().for_each(Slice::observe);
      }
      match waited {
        // Every thread is in a slice and nothing waits yet. Once every slice is hot, start a
        // spare, so the next run starts at once rather than after waiting to be judged stuck
        // behind them; look again once slices could have turned hot.
        None if all_busy => {
          if st.threads < self.inner.max && st.running.iter().all(Slice::is_stuck) {
            self.spawn(&mut st);
          }
          st = self.inner.watch.wait_timeout(st, STUCK_AFTER).unwrap_or_else(|p| p.into_inner()).0;
        }
        None => st = self.inner.watch.wait(st).unwrap_or_else(|p| p.into_inner()),
        // (A thread still starting will take a job: an empty `running` is not "all stuck".)
        Some(w)
          if st.idle == 0
            && st.starting() == 0
            && w >= GROW_AFTER
            && st.threads < self.inner.max
            && st.running.iter().all(Slice::is_stuck) =>
        {
          self.spawn(&mut st);
          // Give the new thread a moment to take the job before judging again.
          st = self.inner.watch.wait_timeout(st, GROW_AFTER).unwrap_or_else(|p| p.into_inner()).0;
        }
        Some(w) => {
          let pause = GROW_AFTER.saturating_sub(w).max(Duration::from_micros(200));
          st = self.inner.watch.wait_timeout(st, pause).unwrap_or_else(|p| p.into_inner()).0;
        }
      }
    }
  }

  /// Hot slices' turns on the cores (see `priority`).
  pub fn turns(&self) -> &crate::sched::priority::Turns {
    &self.inner.turns
  }

  /// Number of threads alive now.
  pub fn threads(&self) -> usize {
    self.lock().threads
  }

  /// Threads alive, threads waiting for work, and jobs waiting for a thread.
  pub fn stats(&self) -> PoolStats {
    let st = self.lock();
    let ready = (st.idle + usize::from(st.spinning)).min(st.threads);
    PoolStats { threads: st.threads, ready, queued: st.queue.len() }
  }

  /// Lets every thread finish its queue and exit; returns once none is left.
  pub fn shutdown_and_wait(&self) {
    let mut st = self.lock();
    st.shutdown = true;
    st.sleepers.iter().for_each(|s| s.wake.notify_one());
    self.inner.watch.notify_all();
    while st.threads > 0 {
      st = self.inner.watch.wait(st).unwrap_or_else(|p| p.into_inner());
    }
  }

  /// Tells threads to exit once idle, without waiting (used when the engine is dropped).
  pub fn shutdown(&self) {
    let mut st = self.lock();
    st.shutdown = true;
    st.sleepers.iter().for_each(|s| s.wake.notify_one());
    self.inner.watch.notify_all();
  }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
  use super::*;
  use std::sync::atomic::AtomicUsize;

  /// Threads that are still starting will take the jobs waiting for them: the supervisor
  /// does not start more because no thread is running yet (an empty set of running slices
  /// used to count as "all stuck", so a slow thread start grew the pool).
  #[test]
  fn threads_still_starting_are_not_taken_for_stuck_ones() {
    let pool = Pool::new(2, 8);
    let ran = Arc::new(AtomicUsize::new(0));
    {
      // Two jobs that have waited a while, and two threads counted but not yet started.
      let mut st = pool.lock();
      for _ in 0..2 {
        let ran = ran.clone();
        let waited_since = Instant::now() - GROW_AFTER * 10;
        st.queue
          .push_back((waited_since, Box::new(move || _ = ran.fetch_add(1, Ordering::AcqRel))));
      }
      st.threads = 2;
      pool.inner.watch.notify_all();
    }
    thread::sleep(STUCK_AFTER * 10);
    let grown = pool.lock().threads;
    {
      // Now start them for real.
      let mut st = pool.lock();
      st.threads = 0;
      pool.spawn(&mut st);
      pool.spawn(&mut st);
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while ran.load(Ordering::Acquire) < 2 && Instant::now() < deadline {
      thread::sleep(Duration::from_millis(1));
    }
    pool.shutdown_and_wait();
    assert_eq!(grown, 2, "threads while two were starting");
    assert_eq!(ran.load(Ordering::Acquire), 2);
  }

  /// A job wakes the worker that went to sleep last, whose memory and caches are the
  /// warmest. (A shared condition variable woke the one asleep longest: after a quiet
  /// spell, runs went round every thread in turn.)
  #[test]
  fn the_most_recently_idle_worker_takes_the_next_job() {
    let pool = Pool::new(3, 8);
    // Until `n` workers sleep and none spins.
    let asleep = |n: usize| {
      let deadline = Instant::now() + Duration::from_secs(10);
      loop {
        let st = pool.lock();
        if st.idle == n && !st.spinning || Instant::now() > deadline {
          return;
        }
        drop(st);
        thread::sleep(SPIN);
      }
    };
    // Jobs that block (not spin: hot ones would get a spare thread started beside them).
    let (tx, rx) = std::sync::mpsc::channel();
    let mut gates = Vec::new();
    for _ in 0..3 {
      let (gate, wait) = std::sync::mpsc::channel::<()>();
      gates.push(gate);
      let tx = tx.clone();
      pool.submit(Box::new(move || {
        let _ = wait.recv();
        let _ = tx.send(thread::current().id());
      }));
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while pool.lock().running.len() < 3 && Instant::now() < deadline {
      thread::sleep(SPIN);
    }
    // Three threads, done and asleep one after the other.
    let mut order = Vec::new();
    for gate in &gates {
      let _ = gate.send(());
      order.push(rx.recv_timeout(Duration::from_secs(10)).expect("a gated job"));
      asleep(order.len());
    }
    let mut took = Vec::new();
    for _ in 0..3 {
      let tx = tx.clone();
      pool.submit(Box::new(move || _ = tx.send(thread::current().id())));
      took.push(rx.recv_timeout(Duration::from_secs(10)).expect("a job"));
      asleep(3);
    }
    pool.shutdown_and_wait();
    assert_eq!(order.iter().collect::<std::collections::HashSet<_>>().len(), 3, "{order:?}");
    assert_eq!(took, vec![order[2]; 3], "went to sleep in the order {order:?}");
  }

  /// Jobs submitted while a worker spins for work all start: the spinner takes one and the
  /// supervisor hears of the rest. (It used to sleep through them: two hot loops queued
  /// behind a spinning worker waited until some later submit woke it.)
  #[test]
  fn jobs_queued_behind_the_spinning_worker_all_start() {
    let pool = Pool::new(1, 8);
    let started = Arc::new(AtomicUsize::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let hot = |started: &Arc<AtomicUsize>, stop: &Arc<AtomicBool>| -> Job {
      let (started, stop) = (started.clone(), stop.clone());
      Box::new(move || {
        started.fetch_add(1, Ordering::AcqRel);
        while !stop.load(Ordering::Acquire) {
          std::hint::spin_loop();
        }
      })
    };
    // Catch the worker spinning (it does for SPIN after each job) while the supervisor
    // sleeps (nothing has run for a while), then queue two.
    let mut caught = false;
    for _ in 0..200 {
      thread::sleep(STUCK_AFTER * 5);
      let done = Arc::new(AtomicBool::new(false));
      let flag = done.clone();
      pool.submit(Box::new(move || flag.store(true, Ordering::Release)));
      while !done.load(Ordering::Acquire) {
        std::hint::spin_loop();
      }
      let until = Instant::now() + Duration::from_millis(1);
      while !pool.lock().spinning && Instant::now() < until {}
      if pool.lock().spinning {
        pool.submit(hot(&started, &stop));
        pool.submit(hot(&started, &stop));
        caught = true;
        break;
      }
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while started.load(Ordering::Acquire) < 2 && Instant::now() < deadline {
      thread::sleep(Duration::from_millis(5));
    }
    let n = started.load(Ordering::Acquire);
    stop.store(true, Ordering::Release);
    pool.shutdown_and_wait();
    assert!(caught, "never caught the worker spinning");
    assert_eq!(n, 2, "jobs started");
  }

  /// While every thread runs a hot slice and nothing waits yet, the pool starts one more
  /// thread and keeps it ready: the next job starts at once instead of first waiting to be
  /// judged stuck behind the hot ones.
  #[test]
  fn a_spare_thread_is_ready_while_every_thread_is_hot() {
    let pool = Pool::new(2, 8);
    let stop = Arc::new(AtomicBool::new(false));
    for _ in 0..2 {
      let stop = stop.clone();
      pool.submit(Box::new(move || {
        while !stop.load(Ordering::Acquire) {
          std::hint::spin_loop();
        }
      }));
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut stats = pool.stats();
    while !(stats.threads == 3 && stats.ready == 1) && Instant::now() < deadline {
      thread::sleep(Duration::from_millis(5));
      stats = pool.stats();
    }
    stop.store(true, Ordering::Release);
    pool.shutdown_and_wait();
    assert_eq!((stats.threads, stats.ready), (3, 1), "{stats:?}");
  }
}
