//! A run's limits and the one flag that stops it: [`RunControl`].
//!
//! QuickJS polls an interrupt handler every ~10,000 ticks; ours asks [`RunControl::poll`],
//! which returns true once the run must stop and remembers why (`cause`). The handler's
//! interrupt is uncatchable (no `catch`, no `finally`), but an interrupted async function
//! leaves its promise pending forever, so the run decides its ending from `cause`, never from
//! the promise. Aborts and `dispose()` set the cause from other threads; the compute budget,
//! the wall ceiling, the heap and the output cap are detected on the run's own thread.
//!
//! Compute time is the thread's CPU clock summed over the run's execution slices, so time
//! spent parked (waiting on a binding or a timer) costs nothing, and a run that moves between
//! pool threads is still measured exactly.
//!
//! The heap limit is enforced by [`HeapAllocator`] rather than QuickJS's own
//! `set_memory_limit`: quickjs-ng makes out-of-memory a *catchable* error, and the contract
//! wants heap exhaustion to end the run. The allocator refuses the allocation (QuickJS throws
//! its ordinary error) and marks the run, and the next poll stops it for good.
//!
//! The limit covers what the engine holds for the run outside QuickJS's heap too: timers,
//! pending binding calls and their arguments, kept logs, and the buffers a native function
//! makes from a program's value. Those are charged with [`RunControl::charge`] (and given
//! back with [`RunControl::release`]); a charge that would cross the limit is refused the
//! same way an allocation is.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// QuickJS's own stack limit. The pool's threads have a much larger real stack
/// (`sched::pool::THREAD_STACK`), so deep recursion is a catchable `RangeError`, never an overflow.
pub const JS_STACK_LIMIT: usize = 4 * 1024 * 1024;

/// Origin of [`RunControl`]'s clock readings (atomics hold nanoseconds since it).
static EPOCH: std::sync::LazyLock<Instant> = std::sync::LazyLock::new(Instant::now);

/// Why a run must stop. Stored as a `u8`; the first cause set wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum StopCause {
  None = 0,
  Compute = 1,
  Wall = 2,
  Abort = 3,
  Disposed = 4,
  Heap = 5,
  Output = 6,
  /// The run finished on its own; late pollers should just stop.
  Finished = 7,
}

impl StopCause {
  fn from_u8(v: u8) -> StopCause {
    match v {
      1 => StopCause::Compute,
      2 => StopCause::Wall,
      3 => StopCause::Abort,
      4 => StopCause::Disposed,
      5 => StopCause::Heap,
      6 => StopCause::Output,
      7 => StopCause::Finished,
      _ => StopCause::None,
    }
  }
}

/// The numeric limits of one run, already validated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
  pub compute_ms: f64,
  pub max_wall_ms: f64,
  pub max_output_bytes: u64,
  pub max_heap_mb: f64,
}

impl Default for Limits {
  fn default() -> Self {
    Limits {
      compute_ms: 60_000.0,
      max_wall_ms: 600_000.0,
      max_output_bytes: 67_108_864,
      max_heap_mb: 512.0,
    }
  }
}

impl Limits {
  pub fn heap_bytes(&self) -> usize {
    let bytes = self.max_heap_mb * 1024.0 * 1024.0;
    if bytes >= usize::MAX as f64 {
      usize::MAX
    } else {
      bytes as usize
    }
  }
}

/// Shared between the run's thread, its interrupt handler, its allocator and the threads
/// that abort it.
#[derive(Debug)]
pub struct RunControl {
  pub limits: Limits,
  cause: AtomicU8,
  pub abort_reason: Mutex<Option<String>>,
  /// When the run (a session: its current run) started, in ns since [`EPOCH`].
  started_ns: AtomicU64,
  /// The run this control currently governs (a session's runs share one control).
  current: AtomicU64,
  /// CPU nanoseconds used by finished slices.
  cpu_used_ns: AtomicU64,
  /// Thread CPU clock at the start of the current slice (at least 1); 0 when no slice runs.
  slice_start_ns: AtomicU64,
  heap_exhausted: AtomicBool,
  /// Bytes of the run's QuickJS heap (kept by its [`HeapAllocator`]).
  heap_used: AtomicUsize,
  /// Bytes the engine holds for the run outside that heap ([`RunControl::charge`]).
  outside_used: AtomicUsize,
  /// The run's QuickJS runtime while it exists (see [`RunControl::refuse_allocation`]).
  js_runtime: AtomicPtr<rquickjs::qjs::JSRuntime>,
}

impl RunControl {
  pub fn new(limits: Limits) -> Self {
    RunControl {
      limits,
      cause: AtomicU8::new(StopCause::None as u8),
      abort_reason: Mutex::new(None),
      started_ns: AtomicU64::new(EPOCH.elapsed().as_nanos() as u64),
      current: AtomicU64::new(0),
      cpu_used_ns: AtomicU64::new(0),
      slice_start_ns: AtomicU64::new(0),
      heap_exhausted: AtomicBool::new(false),
      heap_used: AtomicUsize::new(0),
      outside_used: AtomicUsize::new(0),
      js_runtime: AtomicPtr::new(std::ptr::null_mut()),
    }
  }

  pub fn started(&self) -> Instant {
    *EPOCH + std::time::Duration::from_nanos(self.started_ns.load(Ordering::Acquire))
  }

  fn since_started(&self) -> std::time::Duration {
    EPOCH
      .elapsed()
      .saturating_sub(std::time::Duration::from_nanos(self.started_ns.load(Ordering::Acquire)))
  }

  /// The next run of a session starts: fresh budgets, no stop cause, under `run`'s id. The
  /// heap stays exhausted once it was (the session is dead). What the last run held outside
  /// the heap (its timers, calls and logs) went with it.
  pub fn restart(&self, run: u64) {
    self.outside_used.store(0, Ordering::Release);
    self.started_ns.store(EPOCH.elapsed().as_nanos() as u64, Ordering::Release);
    self.cpu_used_ns.store(0, Ordering::Release);
    self.slice_start_ns.store(0, Ordering::Release);
    *self.abort_reason.lock().unwrap_or_else(|p| p.into_inner()) = None;
    self.current.store(run, Ordering::Release);
    self.cause.store(StopCause::None as u8, Ordering::Release);
  }

  /// The run governed now (see [`Self::restart`]; 0 for a plain run).
  pub fn current(&self) -> u64 {
    self.current.load(Ordering::Acquire)
  }

  pub fn heap_exhausted(&self) -> bool {
    self.heap_exhausted.load(Ordering::Acquire)
  }

  pub fn cause(&self) -> StopCause {
    StopCause::from_u8(self.cause.load(Ordering::Acquire))
  }

  /// Sets the cause unless one is already set. Returns whether this call set it.
  pub fn stop(&self, cause: StopCause) -> bool {
    self
      .cause
      .compare_exchange(StopCause::None as u8, cause as u8, Ordering::AcqRel, Ordering::Acquire)
      .is_ok()
  }

  /// Stops the run because its signal fired, keeping the reason for the message.
  pub fn abort(&self, cause: StopCause, reason: String) -> bool {
    if let Ok(mut slot) = self.abort_reason.lock() {
      if slot.is_none() {
        *slot = Some(reason);
      }
    }
    self.stop(cause)
  }

  /// A slice starts on this thread: its CPU is counted from the thread's CPU clock now.
  /// Only the clock is read, never wall time: a slice's thread may be preempted (a busy
  /// host, other runs' heap deaths on the same cores) or blocked in the host's callback, and
  /// charging a slice its wall time charged the run for time it did not compute (trivial
  /// runs ended `compute budget exhausted` under load).
  pub fn begin_slice(&self) {
    self.slice_start_ns.store(thread_cpu_ns().max(1), Ordering::Release);
  }

  pub fn end_slice(&self) {
    let cpu_start = self.slice_start_ns.swap(0, Ordering::AcqRel);
    if cpu_start == 0 {
      return;
    }
    self.cpu_used_ns.fetch_add(thread_cpu_ns().saturating_sub(cpu_start), Ordering::AcqRel);
  }

  /// CPU time of the run's finished slices (readable from any thread).
  pub fn cpu_done_ns(&self) -> u64 {
    self.cpu_used_ns.load(Ordering::Acquire)
  }

  /// CPU time this run's JavaScript has used, in nanoseconds. Called on the run's thread.
  pub fn cpu_used_ns(&self) -> u64 {
    self.cpu_done_ns() + self.slice_cpu_ns()
  }

  /// CPU time of the slice in progress (0 between slices). Called on the run's thread.
  fn slice_cpu_ns(&self) -> u64 {
    let cpu_start = self.slice_start_ns.load(Ordering::Acquire);
    if cpu_start == 0 {
      return 0;
    }
    thread_cpu_ns().saturating_sub(cpu_start)
  }

  /// Charges `bytes` the engine holds for the run outside QuickJS's heap against the heap
  /// limit. Refused (false, nothing charged, the run marked as out of memory like a refused
  /// allocation) when QuickJS's heap and the charges would pass the limit.
  pub fn charge(&self, bytes: usize) -> bool {
    let outside = self.outside_used.fetch_add(bytes, Ordering::AcqRel).saturating_add(bytes);
    if self.heap_used.load(Ordering::Acquire).saturating_add(outside) > self.limits.heap_bytes() {
      self.release(bytes);
      self.refuse_allocation();
      return false;
    }
    true
  }

  /// Gives back bytes charged with [`Self::charge`].
  pub fn release(&self, bytes: usize) {
    let _ = self
      .outside_used
      .fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| Some(v.saturating_sub(bytes)));
  }

  /// Bytes charged outside QuickJS's heap now.
  pub fn outside_bytes(&self) -> usize {
    self.outside_used.load(Ordering::Acquire)
  }

  /// Charges `bytes` for as long as the returned guard lives (a native function's
  /// buffers); `None` when refused.
  pub fn reserve(self: &std::sync::Arc<Self>, bytes: usize) -> Option<Reservation> {
    self.charge(bytes).then(|| Reservation { control: self.clone(), bytes })
  }

  /// Names the run's runtime (null to forget it, before it is freed).
  pub fn attach_runtime(&self, rt: *mut rquickjs::qjs::JSRuntime) {
    self.js_runtime.store(rt, Ordering::Release);
  }

  /// An allocation was refused: the run is over, and QuickJS must not collect garbage
  /// before it unwinds. It throws its out-of-memory error from inside operations that have
  /// half-updated an object (`resize_properties` has unlinked the shape it is growing), and
  /// creating that error may start a collection that walks the half-updated object and
  /// crashes the process. Nothing the run still does needs a collection: it is stopped at
  /// its next interrupt check and its runtime freed whole.
  fn refuse_allocation(&self) {
    self.heap_exhausted.store(true, Ordering::Release);
    let rt = self.js_runtime.load(Ordering::Acquire);
    if !rt.is_null() {
      // SAFETY: allocations are refused only on the run's own thread, inside a QuickJS call
      // on this runtime, which `Run` keeps alive (it detaches before freeing it); this
      // only stores the collection threshold.
      unsafe { rquickjs::qjs::JS_SetGCThreshold(rt, rquickjs::qjs::size_t::MAX) };
    }
  }

  /// The interrupt check: true once the run must stop. Called by QuickJS on the run's
  /// thread, and by the engine between units of its own long work.
  pub fn poll(&self) -> bool {
    if self.poll_without_cpu() {
      return true;
    }
    let mut slice_cpu = self.slice_cpu_ns();
    // A hot program is one that keeps a core busy, judged by CPU time: a slice that is
    // merely slow to finish (waiting for a core, or for the kernel to hand it fresh pages
    // during a burst of starting runs) is not hot, or the pool, counting hot slices as
    // holding their threads, starts more threads that make every slice slower. A hot slice
    // may wait here for its turn on a core (`priority`), which costs it no CPU time.
    if crate::sched::priority::poll(slice_cpu, &|| self.poll_without_cpu()) {
      if self.poll_without_cpu() {
        return true;
      }
      slice_cpu = self.slice_cpu_ns();
    }
    self.check_compute_at(self.cpu_done_ns() + slice_cpu)
  }

  /// `poll` minus the CPU clock (a system call on many machines): for the checks the
  /// engine makes between slices, where [`Self::check_compute`] follows `end_slice`.
  pub fn poll_without_cpu(&self) -> bool {
    if self.cause() != StopCause::None {
      return true;
    }
    if self.heap_exhausted.load(Ordering::Acquire) {
      self.stop(StopCause::Heap);
      return true;
    }
    if self.wall_elapsed_ms() >= self.limits.max_wall_ms {
      self.stop(StopCause::Wall);
      return true;
    }
    false
  }

  /// Stops the run once its compute budget is used up.
  pub fn check_compute(&self) -> bool {
    self.check_compute_at(self.cpu_used_ns())
  }

  fn check_compute_at(&self, cpu_used_ns: u64) -> bool {
    if cpu_used_ns as f64 >= self.limits.compute_ms * 1e6 {
      self.stop(StopCause::Compute);
      return true;
    }
    false
  }

  pub fn wall_elapsed_ms(&self) -> f64 {
    self.since_started().as_secs_f64() * 1000.0
  }
}

/// Bytes charged to a run while a native function works ([`RunControl::reserve`]).
pub struct Reservation {
  control: std::sync::Arc<RunControl>,
  bytes: usize,
}

impl Drop for Reservation {
  fn drop(&mut self) {
    self.control.release(self.bytes);
  }
}

/// CPU time consumed by the calling thread, in nanoseconds.
#[cfg(unix)]
pub fn thread_cpu_ns() -> u64 {
  let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
  // SAFETY: clock_gettime writes into the timespec we own; CLOCK_THREAD_CPUTIME_ID is
  // supported on every unix target we build for.
  let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
  if rc != 0 {
    return 0;
  }
  ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Without a per-thread CPU clock, wall time within a slice stands in for it.
#[cfg(not(unix))]
pub fn thread_cpu_ns() -> u64 {
  use std::sync::OnceLock;
  static START: OnceLock<Instant> = OnceLock::new();
  START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// QuickJS's allocator for one run: counts live bytes, refuses past the heap limit, and
/// marks the run when it refuses.
///
/// Blocks come from mimalloc, not the process's `malloc`: QuickJS allocates and frees
/// constantly (4 KiB arenas that come and go with a run's promises; every object of a
/// program), runs move between pool threads, and a run's memory is all freed at once when
/// it ends. glibc answers that pattern with fast-bin consolidation, cross-arena frees and
/// trimming (a measurable share of a binding call); mimalloc's thread-local heaps do not,
/// and the host's own `malloc` stays untouched. Built without transparent huge pages
/// (`no_thp`): mimalloc would otherwise advise them for its regions, and each first touch
/// would then clear 2 MiB at once, a run's slice taking milliseconds of kernel time where
/// fresh memory is slow to hand out (a VM's first touch of a page) and the pool growing
/// threads for slices that only looked hot.
pub struct HeapAllocator {
  limit: usize,
  used: usize,
  control: std::sync::Arc<RunControl>,
}

impl HeapAllocator {
  pub fn new(control: std::sync::Arc<RunControl>) -> Self {
    HeapAllocator { limit: control.limits.heap_bytes(), used: 0, control }
  }

  fn admit(&mut self, add: usize, remove: usize) -> bool {
    let next = self.used.saturating_sub(remove).saturating_add(add);
    if add > remove
      && next.saturating_add(self.control.outside_used.load(Ordering::Relaxed)) > self.limit
    {
      self.control.refuse_allocation();
      return false;
    }
    true
  }

  /// Counts a block mimalloc just returned (or marks the run when it returned none).
  fn counted(&mut self, block: *mut u8) -> *mut u8 {
    if block.is_null() {
      self.control.refuse_allocation();
    } else {
      // SAFETY: `block` is a live mimalloc block.
      self.used += unsafe { mi::mi_usable_size(block as *const _) };
      self.publish();
    }
    block
  }

  /// Tells [`RunControl::charge`] the heap's size.
  fn publish(&self) {
    self.control.heap_used.store(self.used, Ordering::Relaxed);
  }
}

use libmimalloc_sys as mi;

/// mimalloc's `mi_option_purge_delay` (its index in `mi_option_t`, v3; the Rust bindings
/// do not name it).
const MI_OPTION_PURGE_DELAY: mi::mi_option_t = 15;

/// How long memory a finished run freed stays with mimalloc before going back to the
/// system (mimalloc's default: 1 s; jemalloc's dirty-page decay: 10 s). Each run's heap is
/// freed whole when it ends and the next run on the thread takes it again: returned after
/// 1 s, it came back one page fault at a time to every run following a quiet second (a
/// 5,000-call run: ~1,400 faults, 2-3 ms here).
pub const PURGE_DELAY_MS: i64 = 10_000;

/// Sets mimalloc's options for run heaps, once per process, unless the environment set
/// them (`MIMALLOC_PURGE_DELAY`). The mimalloc is this library's own copy.
pub fn configure_allocator() {
  static ONCE: std::sync::Once = std::sync::Once::new();
  ONCE.call_once(|| {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
      // SAFETY: sets one integer option; mimalloc reads options with atomic loads.
      unsafe { mi::mi_option_set(MI_OPTION_PURGE_DELAY, PURGE_DELAY_MS as _) };
    }
  });
}

/// mimalloc's purge delay in effect.
#[allow(clippy::useless_conversion)] // c_long is i32 on Windows
pub fn purge_delay_ms() -> i64 {
  // SAFETY: reads one integer option.
  i64::from(unsafe { mi::mi_option_get(MI_OPTION_PURGE_DELAY) })
}

// SAFETY: every pointer handed out is mimalloc's (16-byte aligned, at least `size` bytes);
// the counters move by `mi_usable_size` of the block both ways, so they balance;
// `dealloc`/`realloc` get only pointers we returned (QuickJS's contract), and mimalloc frees
// blocks from any thread.
unsafe impl rquickjs::allocator::Allocator for HeapAllocator {
  fn alloc(&mut self, size: usize) -> *mut u8 {
    if !self.admit(size, 0) {
      return std::ptr::null_mut();
    }
    // SAFETY: plain allocation; `counted` handles a null result.
    self.counted(unsafe { mi::mi_malloc(size) } as *mut u8)
  }

  fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
    let Some(bytes) = count.checked_mul(size) else {
      return std::ptr::null_mut();
    };
    if !self.admit(bytes, 0) {
      return std::ptr::null_mut();
    }
    // SAFETY: plain zeroed allocation; `counted` handles a null result.
    self.counted(unsafe { mi::mi_zalloc(bytes) } as *mut u8)
  }

  unsafe fn dealloc(&mut self, ptr: *mut u8) {
    if ptr.is_null() {
      return;
    }
    self.used = self.used.saturating_sub(mi::mi_usable_size(ptr as *const _));
    self.publish();
    mi::mi_free(ptr as *mut _);
  }

  unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
    if ptr.is_null() {
      return self.alloc(new_size);
    }
    let old = mi::mi_usable_size(ptr as *const _);
    if !self.admit(new_size, old) {
      return std::ptr::null_mut();
    }
    let block = mi::mi_realloc(ptr as *mut _, new_size) as *mut u8;
    if block.is_null() {
      self.control.refuse_allocation();
      return block;
    }
    self.used = self.used.saturating_sub(old) + mi::mi_usable_size(block as *const _);
    self.publish();
    block
  }

  unsafe fn usable_size(ptr: *mut u8) -> usize {
    if ptr.is_null() {
      return 0;
    }
    mi::mi_usable_size(ptr as *const _)
  }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
  use super::*;
  use std::sync::atomic::AtomicBool;
  use std::sync::Arc;
  use std::time::Duration;

  /// A slice is judged hot by the CPU it uses, not by how long it takes: one that waits
  /// (for a core, for pages) is not hot, one that computes for 2 ms is; its CPU is counted
  /// either way.
  #[test]
  fn a_slice_is_hot_for_the_cpu_it_uses_not_its_wall_time() {
    std::thread::spawn(|| {
      let hot = Arc::new(AtomicBool::new(false));
      let turns = Arc::new(crate::sched::priority::Turns::new(4));
      crate::sched::priority::watch_current(turns.clone(), hot.clone());
      turns.job_started();
      crate::sched::priority::job_started();
      let control = RunControl::new(Limits::default());
      control.begin_slice();
      assert!(!control.poll());
      std::thread::sleep(crate::sched::priority::HOT_AFTER * 3);
      assert!(!control.poll());
      assert!(!hot.load(Ordering::Acquire), "hot for sleeping");
      let cpu_at = thread_cpu_ns();
      while thread_cpu_ns() - cpu_at < (crate::sched::priority::HOT_AFTER * 2).as_nanos() as u64 {
        std::hint::black_box(0u64);
      }
      assert!(!control.poll());
      assert!(hot.load(Ordering::Acquire), "not hot after computing");
      control.end_slice();
      crate::sched::priority::job_ended();
      assert!(!hot.load(Ordering::Acquire));
      assert!(control.cpu_done_ns() >= Duration::from_millis(4).as_nanos() as u64);
      assert!(
        control.cpu_done_ns() < Duration::from_millis(6).as_nanos() as u64,
        "charged the sleep"
      );
    })
    .join()
    .expect("the slice's checks");
  }

  /// Memory a finished run freed stays with mimalloc for PURGE_DELAY_MS (unless the
  /// environment chose otherwise), so the next run after a quiet spell does not fault it
  /// back in page by page.
  #[test]
  fn freed_run_memory_is_kept_for_a_while() {
    configure_allocator();
    let expected = std::env::var("MIMALLOC_PURGE_DELAY")
      .ok()
      .and_then(|v| v.parse::<i64>().ok())
      .unwrap_or(PURGE_DELAY_MS);
    assert_eq!(purge_delay_ms(), expected);
  }

  /// Run heaps come from mimalloc regions that are not advised for transparent huge pages
  /// (`VmFlags` without `hg` in `/proc/self/smaps`).
  #[test]
  fn run_heaps_are_not_advised_for_huge_pages() {
    // SAFETY: a plain allocation, freed below; only its address is read.
    let block = unsafe { mi::mi_malloc(8 << 20) } as usize;
    assert_ne!(block, 0);
    let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps");
    let mut inside = false;
    let mut flags = None;
    for line in smaps.lines() {
      let range = line.split_whitespace().next().and_then(|r| r.split_once('-'));
      if let Some((Ok(start), Ok(end))) =
        range.map(|(a, b)| (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16)))
      {
        inside = (start..end).contains(&block);
      } else if inside && line.starts_with("VmFlags:") {
        flags = Some(line.to_owned());
      }
    }
    // SAFETY: frees the block allocated above.
    unsafe { mi::mi_free(block as *mut _) };
    let flags = flags.expect("the block's mapping in smaps");
    assert!(!flags.split_whitespace().any(|f| f == "hg"), "{flags}");
  }
}

#[cfg(test)]
mod charge_tests {
  use super::*;
  use std::sync::Arc;

  /// Charges outside QuickJS's heap share its limit: one that would pass it is refused,
  /// marks the run out of memory and charges nothing; releases and reservations give back.
  #[test]
  fn charges_share_the_heap_limit() {
    let control = Arc::new(RunControl::new(Limits { max_heap_mb: 1.0, ..Limits::default() }));
    assert!(control.charge(600 * 1024));
    assert_eq!(control.outside_bytes(), 600 * 1024);
    {
      let held = control.reserve(300 * 1024);
      assert!(held.is_some());
      assert_eq!(control.outside_bytes(), 900 * 1024);
    }
    assert_eq!(control.outside_bytes(), 600 * 1024);
    assert!(!control.heap_exhausted());
    assert!(!control.charge(500 * 1024));
    assert_eq!(control.outside_bytes(), 600 * 1024);
    assert!(control.heap_exhausted());
    control.release(600 * 1024);
    control.release(1);
    assert_eq!(control.outside_bytes(), 0);
  }
}
