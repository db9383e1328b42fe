//! `setTimeout`/`setInterval`/`clearTimeout`/`clearInterval` on the run's own event loop.
//!
//! Timers live in the run; the engine's clock only wakes the run when the earliest one is
//! due, so a run waiting on a timer holds no thread and accrues wall time only. A slice
//! fires every timer due at the slice's start, earliest first and in creation order for
//! equal due times (Node's order), draining microtasks after each callback, as Node does.
//! Timers created during the batch wait for a later slice, even at 0 ms. Delays follow
//! Node: anything not in `[1, 2^31-1]` becomes 1 ms. Timers still pending when the program
//! settles are dropped with the run. Each pending timer counts against the run's heap limit
//! ([`TIMER_BYTES`] plus its arguments), so a program cannot grow the host by making millions.

/// What one pending timer holds outside QuickJS's heap: its record, its map and ordered-set
/// entries, with their growth slack and the allocator's rounding (~380 bytes of RSS per
/// timer measured with a million pending; the records themselves are ~150).
pub const TIMER_BYTES: usize = 320;
/// Per extra argument kept for the callback.
const TIMER_ARG_BYTES: usize = std::mem::size_of::<Persistent<Value<'static>>>();

use crate::limits::budget::RunControl;
use crate::quickjs::raw;
use rquickjs::function::Rest;
use rquickjs::{qjs, Ctx, Function, Object, Persistent, Value};
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The per-run state timers reach (the run implements it).
pub trait TimersWorld: 'static {
  fn timers(&self) -> &RefCell<Timers>;
  fn control(&self) -> &Arc<RunControl>;
  fn wake_at(&self) -> &WakeAt;
}

/// Registers a wake-up (`Event::Timers`) at the given instant.
pub type WakeAt = Arc<dyn Fn(Instant) + Send + Sync>;

const TIMEOUT_MAX: f64 = 2147483647.0;

struct Timer {
  callback: Persistent<Function<'static>>,
  args: Vec<Persistent<Value<'static>>>,
  interval: Option<Duration>,
  due: Instant,
  /// Bytes charged to the run's heap limit for it.
  charged: usize,
}

/// The run's timers. Cleared before the context is dropped.
///
/// Ordered by (due, id), so the next timer is found in O(log n) (a program may create
/// hundreds of thousands); the clock is armed only for the earliest due time.
#[derive(Default)]
pub struct Timers {
  by_id: HashMap<u32, Timer>,
  by_due: BTreeSet<(Instant, u32)>,
  next_id: u32,
  /// The wake-up already asked of the clock, if any.
  armed: Option<Instant>,
  /// Bytes charged for the pending timers (given back as they go).
  charged: usize,
}

impl Timers {
  pub fn pending(&self) -> usize {
    self.by_id.len()
  }

  fn next_due(&self, before: Instant) -> Option<u32> {
    self.by_due.first().filter(|(due, _)| *due <= before).map(|&(_, id)| id)
  }

  fn insert(&mut self, id: u32, timer: Timer) {
    self.charged += timer.charged;
    self.by_due.insert((timer.due, id));
    self.by_id.insert(id, timer);
  }

  fn remove(&mut self, id: u32) -> Option<Timer> {
    let timer = self.by_id.remove(&id)?;
    self.by_due.remove(&(timer.due, id));
    self.charged -= timer.charged;
    Some(timer)
  }

  /// The instant the clock should next wake the run, if it is not armed for it already.
  fn rearm(&mut self) -> Option<Instant> {
    let first = self.by_due.first().map(|&(due, _)| due)?;
    if self.armed.is_some_and(|armed| armed <= first) {
      return None;
    }
    self.armed = Some(first);
    Some(first)
  }

  /// Drops every timer; returns the bytes they had charged.
  pub fn clear(&mut self) -> usize {
    self.by_id.clear();
    self.by_due.clear();
    std::mem::take(&mut self.charged)
  }
}

fn delay_of(ctx: &Ctx<'_>, v: Option<&Value<'_>>) -> Duration {
  let ms = match v {
    None => 1.0,
    Some(v) => {
      let mut n = f64::NAN;
      // SAFETY: JS_ToFloat64 converts like Number(v) (it may run the program's valueOf, as
      // Node's own coercion would) and writes into `n`.
      if unsafe { qjs::JS_ToFloat64(ctx.as_raw().as_ptr(), &mut n, v.as_raw()) } < 0 {
        raw::clear_exception(ctx.as_raw().as_ptr());
      }
      n
    }
  };
  let ms = if (1.0..=TIMEOUT_MAX).contains(&ms) { ms.trunc() } else { 1.0 };
  Duration::from_millis(ms as u64)
}

fn schedule<'js, W: TimersWorld>(
  ctx: &Ctx<'js>,
  shared: &Rc<W>,
  args: Vec<Value<'js>>,
  repeat: bool,
) -> rquickjs::Result<u32> {
  let mut it = args.into_iter();
  let Some(callback) = it.next().and_then(|v| v.into_function()) else {
    return Err(rquickjs::Exception::throw_type(
      ctx,
      "The \"callback\" argument must be of type function",
    ));
  };
  let delay = delay_of(ctx, it.next().as_ref());
  let rest: Vec<Persistent<Value<'static>>> = it.map(|v| Persistent::save(ctx, v)).collect();
  let charged = TIMER_BYTES + rest.len() * TIMER_ARG_BYTES;
  if !shared.control().charge(charged) {
    return Err(rquickjs::Error::Allocation);
  }
  let due = Instant::now() + delay;
  let id = {
    let mut timers = shared.timers().borrow_mut();
    timers.next_id = timers.next_id.wrapping_add(1).max(1);
    let id = timers.next_id;
    let callback = Persistent::save(ctx, callback);
    timers
      .insert(id, Timer { callback, args: rest, interval: repeat.then_some(delay), due, charged });
    id
  };
  arm(&**shared);
  Ok(id)
}

fn cancel<W: TimersWorld>(shared: &W, id: Option<&Value<'_>>) {
  let Some(id) = id.and_then(|v| v.as_number()) else {
    return;
  };
  if id >= 1.0 && id <= u32::MAX as f64 && id.fract() == 0.0 {
    // Take it out first: dropping a Persistent must not happen under the borrow if it
    // could re-enter (it cannot, but keep the borrow short anyway).
    let removed = shared.timers().borrow_mut().remove(id as u32);
    if let Some(timer) = &removed {
      shared.control().release(timer.charged);
    }
    drop(removed);
  }
}

pub fn install<'js, W: TimersWorld>(
  ctx: &Ctx<'js>,
  globals: &Object<'js>,
  shared: &Rc<W>,
) -> rquickjs::Result<()> {
  for (name, repeat) in [("setTimeout", false), ("setInterval", true)] {
    let s = shared.clone();
    let f = Function::new(ctx.clone(), move |ctx: Ctx<'js>, args: Rest<Value<'js>>| {
      schedule(&ctx, &s, args.0, repeat)
    })?
    .with_name(name)?;
    globals.set(name, f)?;
  }
  for name in ["clearTimeout", "clearInterval"] {
    let s = shared.clone();
    let f = Function::new(ctx.clone(), move |args: Rest<Value<'js>>| cancel(&*s, args.0.first()))?
      .with_name(name)?;
    globals.set(name, f)?;
  }
  Ok(())
}

/// Fires the timers due now. `drain` runs the microtasks after each callback and returns
/// false when the run must stop. A callback's uncaught throw ends the batch with the thrown
/// value (in Node it would be an uncaught exception).
/// Asks the clock to wake the run for its earliest timer, unless it already will.
fn arm<W: TimersWorld>(shared: &W) {
  let at = shared.timers().borrow_mut().rearm();
  if let Some(at) = at {
    (shared.wake_at())(at);
  }
}

pub fn fire_due<'js, W: TimersWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  mut drain: impl FnMut() -> bool,
) -> Result<(), Value<'js>> {
  let now = Instant::now();
  shared.timers().borrow_mut().armed = None;
  let outcome = fire_until(ctx, shared, now, &mut drain);
  arm(shared);
  outcome
}

fn fire_until<'js, W: TimersWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  now: Instant,
  drain: &mut impl FnMut() -> bool,
) -> Result<(), Value<'js>> {
  loop {
    let (callback, args) = {
      let mut timers = shared.timers().borrow_mut();
      let Some(id) = timers.next_due(now) else {
        break;
      };
      let Some(mut t) = timers.remove(id) else { break };
      let callback = t.callback.clone();
      let args = t.args.clone();
      if let Some(every) = t.interval {
        t.due = now + every;
        timers.insert(id, t);
      } else {
        shared.control().release(t.charged);
      }
      (callback, args)
    };
    let Ok(callback) = callback.restore(ctx) else {
      continue;
    };
    let args: Vec<Value> = args.into_iter().filter_map(|a| a.restore(ctx).ok()).collect();
    let mut call_args = rquickjs::function::Args::new(ctx.clone(), args.len());
    for a in args {
      let _ = call_args.push_arg(a);
    }
    if let Err(rquickjs::Error::Exception) = call_args.apply::<()>(&callback) {
      let thrown = ctx.catch();
      if shared.control().cause() != crate::limits::budget::StopCause::None {
        return Ok(());
      }
      return Err(thrown);
    }
    if !drain() {
      return Ok(());
    }
  }
  Ok(())
}
