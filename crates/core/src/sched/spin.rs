//! Brief busy-waits for work another thread is about to hand over (a pool worker waiting
//! for a run's next slice, the Node main thread waiting for a run's next call): catching it
//! without a futex wake-up is most of the cost of a sequential binding call.

use std::time::{Duration, Instant};

/// Spins until `ready()` or until `patience` has passed; true if ready. Every 64 spins it
/// reads the clock (which costs more than a spin) and yields its core: the thread that will
/// hand the work over may be waiting for this very core (the scheduler sometimes keeps the
/// two together), and a spinner that kept it made that hand-over wait out the whole spin
/// (sequential calls after a pause: ~17 µs each instead of ~6). The yield returns at once
/// when nothing else is runnable there.
pub fn until(patience: Duration, ready: impl Fn() -> bool) -> bool {
  if ready() {
    return true;
  }
  let deadline = Instant::now() + patience;
  let mut spins = 0u32;
  while !ready() {
    std::hint::spin_loop();
    spins = spins.wrapping_add(1);
    if spins.is_multiple_of(64) {
      if Instant::now() >= deadline {
        return false;
      }
      std::thread::yield_now();
    }
  }
  true
}
