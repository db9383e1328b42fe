//! One thread that fires deadlines: a run's wall-clock ceiling while it is parked (an
//! executing run notices the ceiling itself, from its interrupt handler).
//!
//! Entries hold the callback only; a callback for a run that already ended finds nothing to
//! do. Finished runs' entries are pruned lazily so the heap stays proportional to the runs
//! in flight.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::Instant;

type Fire = Box<dyn FnOnce() + Send>;

struct Entry {
  at: Instant,
  seq: u64,
  fire: Fire,
  /// False once the owner no longer needs the entry (pruned on the next rebuild).
  live: Arc<dyn Fn() -> bool + Send + Sync>,
}

impl PartialEq for Entry {
  fn eq(&self, o: &Self) -> bool {
    (self.at, self.seq) == (o.at, o.seq)
  }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
  fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
    Some(self.cmp(o))
  }
}
impl Ord for Entry {
  fn cmp(&self, o: &Self) -> std::cmp::Ordering {
    (self.at, self.seq).cmp(&(o.at, o.seq))
  }
}

struct State {
  heap: BinaryHeap<Reverse<Entry>>,
  seq: u64,
  shutdown: bool,
  prune_at: usize,
}

#[derive(Clone)]
pub struct Clock {
  inner: Arc<(Mutex<State>, Condvar)>,
}

impl Default for Clock {
  fn default() -> Self {
    Self::new()
  }
}

impl Clock {
  pub fn new() -> Clock {
    let clock = Clock {
      inner: Arc::new((
        Mutex::new(State { heap: BinaryHeap::new(), seq: 0, shutdown: false, prune_at: 1024 }),
        Condvar::new(),
      )),
    };
    let c = clock.clone();
    let _ = thread::Builder::new().name("code-runtime-clock".into()).spawn(move || c.run());
    clock
  }

  /// Calls `fire` at `at` (on the clock thread), if `live()` still holds then.
  pub fn at(&self, at: Instant, live: Arc<dyn Fn() -> bool + Send + Sync>, fire: Fire) {
    let (lock, cv) = &*self.inner;
    let mut st = lock.lock().unwrap_or_else(|p| p.into_inner());
    st.seq += 1;
    let seq = st.seq;
    if st.heap.len() >= st.prune_at {
      let entries = std::mem::take(&mut st.heap);
      st.heap = entries.into_iter().filter(|Reverse(e)| (e.live)()).collect();
      st.prune_at = (st.heap.len() * 2).max(1024);
    }
    let earliest = st.heap.peek().map(|Reverse(e)| e.at);
    st.heap.push(Reverse(Entry { at, seq, fire, live }));
    if earliest.is_none_or(|e| at < e) {
      cv.notify_one();
    }
  }

  fn run(&self) {
    let (lock, cv) = &*self.inner;
    let mut st = lock.lock().unwrap_or_else(|p| p.into_inner());
    loop {
      if st.shutdown {
        return;
      }
      let now = Instant::now();
      match st.heap.peek().map(|Reverse(e)| e.at) {
        None => st = cv.wait(st).unwrap_or_else(|p| p.into_inner()),
        Some(at) if at <= now => {
          let Reverse(e) = st.heap.pop().expect("peeked");
          drop(st);
          if (e.live)() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(e.fire));
          }
          st = lock.lock().unwrap_or_else(|p| p.into_inner());
        }
        Some(at) => st = cv.wait_timeout(st, at - now).unwrap_or_else(|p| p.into_inner()).0,
      }
    }
  }

  pub fn shutdown(&self) {
    let (lock, cv) = &*self.inner;
    lock.lock().unwrap_or_else(|p| p.into_inner()).shutdown = true;
    cv.notify_all();
  }
}
