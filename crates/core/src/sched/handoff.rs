//! The queue that carries events (results, batches of binding calls) from pool threads to the
//! host's one consumer thread, with two ways for the consumer to learn of them:
//!
//! - a *doorbell*: the producer is told to ring it (for Node, a threadsafe function call that
//!   wakes the event loop) when the queue gains an event and no ring is outstanding;
//! - a *brief wait*: a consumer that expects an event within microseconds (it just answered a
//!   binding call of a run that calls again at once) spins for it and takes it directly,
//!   skipping the doorbell's wake-up, which costs more than the rest of a call's round trip.
//!
//! The protocol never strands an event: a producer skips the doorbell only while the consumer
//! is waiting, and the consumer takes the queue *after* it stops waiting. Either the
//! consumer's take sees the event, or the producer saw that nobody waits and rang.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

pub struct Handoff<E> {
  queue: Mutex<Vec<E>>,
  /// The queue's length, read without the lock by a waiting consumer.
  queued: AtomicUsize,
  consumer_waiting: AtomicBool,
  doorbell_rung: AtomicBool,
}

impl<E> Default for Handoff<E> {
  fn default() -> Self {
    Handoff {
      queue: Mutex::new(Vec::new()),
      queued: AtomicUsize::new(0),
      consumer_waiting: AtomicBool::new(false),
      doorbell_rung: AtomicBool::new(false),
    }
  }
}

impl<E> Handoff<E> {
  fn queue(&self) -> MutexGuard<'_, Vec<E>> {
    self.queue.lock().unwrap_or_else(|p| p.into_inner())
  }

  /// Queues an event. True when the caller must ring the doorbell.
  #[must_use]
  pub fn push(&self, event: E) -> bool {
    {
      let mut queue = self.queue();
      queue.push(event);
      self.queued.store(queue.len(), Ordering::Release);
    }
    if self.consumer_waiting.load(Ordering::SeqCst) {
      return false;
    }
    !self.doorbell_rung.swap(true, Ordering::SeqCst)
  }

  /// The doorbell was answered: everything queued, in order (possibly nothing, when a
  /// waiting consumer took it first).
  pub fn answer_doorbell(&self) -> Vec<E> {
    self.doorbell_rung.store(false, Ordering::SeqCst);
    self.take()
  }

  /// Waits up to `patience` for an event, then takes everything queued.
  pub fn wait_and_take(&self, patience: Duration) -> Vec<E> {
    self.consumer_waiting.store(true, Ordering::SeqCst);
    crate::sched::spin::until(patience, || self.queued.load(Ordering::Acquire) != 0);
    self.consumer_waiting.store(false, Ordering::SeqCst);
    self.take()
  }

  fn take(&self) -> Vec<E> {
    let mut queue = self.queue();
    self.queued.store(0, Ordering::Release);
    std::mem::take(&mut *queue)
  }
}

#[cfg(test)]
mod tests {
  use super::*;
  use std::sync::Arc;
  use std::time::Instant;

  #[test]
  fn rings_once_until_answered() {
    let h = Handoff::default();
    assert!(h.push(1));
    assert!(!h.push(2));
    assert_eq!(h.answer_doorbell(), vec![1, 2]);
    assert!(h.push(3));
    assert_eq!(h.answer_doorbell(), vec![3]);
    assert_eq!(h.answer_doorbell(), Vec::<i32>::new());
  }

  #[test]
  fn waiting_consumer_takes_without_a_ring() {
    let h = Arc::new(Handoff::default());
    let producer = {
      let h = h.clone();
      std::thread::spawn(move || {
        // Push only once the consumer is waiting (a sleep would race a slow scheduler).
        while !h.consumer_waiting.load(Ordering::SeqCst) {
          std::thread::yield_now();
        }
        h.push(7)
      })
    };
    let got = h.wait_and_take(Duration::from_secs(10));
    let rang = producer.join().unwrap();
    assert_eq!(got, vec![7]);
    assert!(!rang, "the consumer was waiting, so no doorbell was needed");
  }

  #[test]
  fn wait_gives_up_after_its_patience() {
    let h = Handoff::<u8>::default();
    let t0 = Instant::now();
    assert!(h.wait_and_take(Duration::from_millis(2)).is_empty());
    assert!(t0.elapsed() >= Duration::from_millis(2));
    assert!(h.push(1), "after the wait, events ring the doorbell again");
  }

  /// Every event reaches the consumer exactly once, by a wait or after a ring, however the
  /// producer's pushes and the consumer's waits interleave.
  #[test]
  fn no_event_is_stranded_or_duplicated() {
    const N: usize = 20_000;
    let h = Arc::new(Handoff::default());
    let rings = Arc::new(AtomicUsize::new(0));
    let producer = {
      let (h, rings) = (h.clone(), rings.clone());
      std::thread::spawn(move || {
        for i in 0..N {
          if h.push(i) {
            rings.fetch_add(1, Ordering::SeqCst);
          }
          if i % 7 == 0 {
            std::thread::yield_now();
          }
        }
      })
    };
    let mut seen = Vec::with_capacity(N);
    let mut answered = 0;
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.len() < N {
      assert!(Instant::now() < deadline, "stranded after {} events", seen.len());
      if seen.len() % 3 == 0 {
        seen.extend(h.wait_and_take(Duration::from_micros(20)));
      } else if rings.load(Ordering::SeqCst) > answered {
        answered += 1;
        seen.extend(h.answer_doorbell());
      } else {
        std::hint::spin_loop();
      }
    }
    producer.join().unwrap();
    assert_eq!(seen, (0..N).collect::<Vec<_>>());
  }
}
