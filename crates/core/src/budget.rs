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

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Instant;

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
  started: Instant,
  /// CPU nanoseconds used by finished slices.
  cpu_used_ns: AtomicU64,
  /// Thread CPU clock at the start of the current slice (0 until first read in the slice).
  slice_start_ns: AtomicU64,
  /// Wall clock (ns since `started`, plus one) at the start of the current slice; 0 when no
  /// slice runs.
  slice_wall_start_ns: AtomicU64,
  heap_exhausted: AtomicBool,
}

impl RunControl {
  pub fn new(limits: Limits) -> Self {
    RunControl {
      limits,
      cause: AtomicU8::new(StopCause::None as u8),
      abort_reason: Mutex::new(None),
      started: Instant::now(),
      cpu_used_ns: AtomicU64::new(0),
      slice_start_ns: AtomicU64::new(0),
      slice_wall_start_ns: AtomicU64::new(0),
      heap_exhausted: AtomicBool::new(false),
    }
  }

  pub fn started(&self) -> Instant {
    self.started
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

  /// A slice starts on this thread. Reading the thread CPU clock is a system call, so it is
  /// deferred until the first budget check inside the slice: a slice too short to reach one
  /// (the common case: settle a call, run to the next `await`) is charged its wall time,
  /// which on a running thread is its CPU time; a long slice is charged exact CPU time.
  pub fn begin_slice(&self) {
    self.slice_wall_start_ns.store(self.started.elapsed().as_nanos() as u64 + 1, Ordering::Release);
    self.slice_start_ns.store(0, Ordering::Release);
  }

  pub fn end_slice(&self) {
    let wall_start = self.slice_wall_start_ns.swap(0, Ordering::AcqRel);
    if wall_start == 0 {
      return;
    }
    let cpu_start = self.slice_start_ns.swap(0, Ordering::AcqRel);
    let used = if cpu_start != 0 {
      thread_cpu_ns().saturating_sub(cpu_start)
    } else {
      (self.started.elapsed().as_nanos() as u64 + 1).saturating_sub(wall_start)
    };
    self.cpu_used_ns.fetch_add(used, Ordering::AcqRel);
  }

  /// CPU time this run's JavaScript has used, in nanoseconds. Called on the run's thread.
  pub fn cpu_used_ns(&self) -> u64 {
    let done = self.cpu_used_ns.load(Ordering::Acquire);
    let wall_start = self.slice_wall_start_ns.load(Ordering::Acquire);
    if wall_start == 0 {
      return done;
    }
    let now = thread_cpu_ns();
    let mut cpu_start = self.slice_start_ns.load(Ordering::Acquire);
    if cpu_start == 0 {
      // First check in this slice: count the slice so far as on-CPU.
      let so_far = (self.started.elapsed().as_nanos() as u64 + 1).saturating_sub(wall_start);
      cpu_start = now.saturating_sub(so_far).max(1);
      self.slice_start_ns.store(cpu_start, Ordering::Release);
    }
    done + now.saturating_sub(cpu_start)
  }

  pub fn mark_heap_exhausted(&self) {
    self.heap_exhausted.store(true, Ordering::Release);
  }

  /// The interrupt check: true once the run must stop. Called by QuickJS on the run's
  /// thread, and by the engine between units of its own long work.
  pub fn poll(&self) -> bool {
    if self.poll_without_cpu() {
      return true;
    }
    self.demote_if_hot();
    self.check_compute()
  }

  /// A slice running longer than `priority::DEMOTE_AFTER` is a hot program.
  fn demote_if_hot(&self) {
    let wall_start = self.slice_wall_start_ns.load(Ordering::Acquire);
    if wall_start == 0 {
      return;
    }
    let in_slice = (self.started.elapsed().as_nanos() as u64 + 1).saturating_sub(wall_start);
    if in_slice >= crate::priority::DEMOTE_AFTER.as_nanos() as u64 {
      crate::priority::demote_current();
    }
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
    if self.cpu_used_ns() as f64 >= self.limits.compute_ms * 1e6 {
      self.stop(StopCause::Compute);
      return true;
    }
    false
  }

  pub fn wall_elapsed_ms(&self) -> f64 {
    self.started.elapsed().as_secs_f64() * 1000.0
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
pub struct HeapAllocator {
  limit: usize,
  used: usize,
  control: std::sync::Arc<RunControl>,
}

/// Every block carries its size in a header this large (keeps 16-byte alignment).
const HEADER: usize = 16;

impl HeapAllocator {
  pub fn new(control: std::sync::Arc<RunControl>) -> Self {
    HeapAllocator { limit: control.limits.heap_bytes(), used: 0, control }
  }

  fn admit(&mut self, add: usize, remove: usize) -> bool {
    let next = self.used.saturating_sub(remove).saturating_add(add);
    if next > self.limit && add > remove {
      self.control.mark_heap_exhausted();
      return false;
    }
    true
  }

  /// SAFETY (callers): `block` came from `libc::malloc`/`realloc` with a header.
  unsafe fn size_of(user: *mut u8) -> usize {
    *(user.sub(HEADER) as *const usize)
  }
}

// SAFETY: every pointer handed out is `malloc`'s (16-byte aligned on our targets) plus a
// 16-byte header, so it is aligned to `usize` and at least `size` bytes long; `usable_size`
// reads back the size we stored in the header; `dealloc`/`realloc` get only pointers we
// returned (QuickJS's contract).
unsafe impl rquickjs::allocator::Allocator for HeapAllocator {
  fn alloc(&mut self, size: usize) -> *mut u8 {
    if !self.admit(size, 0) {
      return std::ptr::null_mut();
    }
    // SAFETY: plain malloc; the header write stays inside the block we asked for.
    unsafe {
      let Some(total) = size.checked_add(HEADER) else {
        return std::ptr::null_mut();
      };
      let block = libc::malloc(total) as *mut u8;
      if block.is_null() {
        self.control.mark_heap_exhausted();
        return block;
      }
      *(block as *mut usize) = size;
      self.used += size;
      block.add(HEADER)
    }
  }

  fn calloc(&mut self, count: usize, size: usize) -> *mut u8 {
    let Some(bytes) = count.checked_mul(size) else {
      return std::ptr::null_mut();
    };
    let p = self.alloc(bytes);
    if !p.is_null() {
      // SAFETY: `p` points at `bytes` writable bytes just allocated.
      unsafe { std::ptr::write_bytes(p, 0, bytes) };
    }
    p
  }

  unsafe fn dealloc(&mut self, ptr: *mut u8) {
    if ptr.is_null() {
      return;
    }
    let size = Self::size_of(ptr);
    self.used = self.used.saturating_sub(size);
    libc::free(ptr.sub(HEADER) as *mut libc::c_void);
  }

  unsafe fn realloc(&mut self, ptr: *mut u8, new_size: usize) -> *mut u8 {
    if ptr.is_null() {
      return self.alloc(new_size);
    }
    let old = Self::size_of(ptr);
    if !self.admit(new_size, old) {
      return std::ptr::null_mut();
    }
    let Some(total) = new_size.checked_add(HEADER) else {
      return std::ptr::null_mut();
    };
    let block = libc::realloc(ptr.sub(HEADER) as *mut libc::c_void, total) as *mut u8;
    if block.is_null() {
      self.control.mark_heap_exhausted();
      return block;
    }
    *(block as *mut usize) = new_size;
    self.used = self.used.saturating_sub(old) + new_size;
    block.add(HEADER)
  }

  unsafe fn usable_size(ptr: *mut u8) -> usize {
    if ptr.is_null() {
      return 0;
    }
    Self::size_of(ptr)
  }
}
