//! The per-run state a run's host functions (console, bindings, timers, stacks) share with
//! the run, behind the program context's opaque pointer. It implements the small traits
//! through which `bridge`, `console` and `timers` reach it, so none of them uses `world`.

use crate::bridge::bindings::{BindingHandles, BindingsWorld, Directory};
use crate::bridge::json::Shapes;
use crate::bridge::outbox::Outbox;
use crate::console::inspector::Inspector;
use crate::console::methods::{ConsoleState, ConsoleWorld};
use crate::console::stack::{Stacks, StacksWorld};
use crate::host::RunId;
use crate::limits::budget::{RunControl, StopCause};
use crate::limits::ledger::Ledger;
use crate::world::timers::{Timers, TimersWorld, WakeAt};
use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// State the run's host functions (console, bindings, timers) share with the run.
pub struct RunShared {
  pub ledger: RefCell<Ledger>,
  pub control: Arc<RunControl>,
  pub outbox: Arc<Outbox>,
  /// The current run's bindings (a session's runs each bring their own).
  pub directory: RefCell<Directory>,
  /// The run binding functions belong to: a function kept from an earlier run of a session
  /// refuses to call (its index names another run's function).
  pub generation: Cell<RunId>,
  pub bindings: RefCell<BindingHandles>,
  pub timers: RefCell<Timers>,
  pub wake_at: WakeAt,
  /// The intrinsic object and array shapes, for the JSON bridge.
  pub shapes: Cell<Shapes>,
  /// The realm that renders logged values (created on first use).
  pub inspector: Inspector,
  /// V8-shaped `error.stack` texts.
  pub stacks: Stacks,
  /// Console groups, counters and timers.
  pub console: ConsoleState,
}

impl RunShared {
  /// Host calls and timers that may still settle the program's promise.
  pub fn pending(&self) -> usize {
    self.bindings.borrow().in_flight() + self.timers.borrow().pending()
  }

  /// Records a log entry; once the output cap is crossed the run is stopped.
  pub fn log(&self, entry: Vec<u8>) {
    let Ok(mut ledger) = self.ledger.try_borrow_mut() else {
      return;
    };
    // A kept entry counts against the heap limit until the run ends; refused, the run
    // ends as out of memory.
    if !self.control.charge(entry.len() + LOG_ENTRY_BYTES) {
      return;
    }
    let live = self.outbox.wants_logs().then(|| {
      let mut json = String::new();
      crate::limits::ledger::write_json_string(&mut json, &entry);
      json
    });
    if !ledger.push(entry) {
      self.control.stop(StopCause::Output);
      return;
    }
    // Delivered live only once the ledger has kept it within the cap.
    if let Some(json) = live {
      self.outbox.push_log(json);
    }
  }
}

/// What a kept log entry holds besides its text: its slot in the ledger (with the vector's
/// growth slack) and the allocator's rounding.
const LOG_ENTRY_BYTES: usize = 2 * std::mem::size_of::<String>() + 16;

impl BindingsWorld for RunShared {
  fn directory(&self) -> &RefCell<Directory> {
    &self.directory
  }
  fn generation(&self) -> &Cell<RunId> {
    &self.generation
  }
  fn bindings(&self) -> &RefCell<BindingHandles> {
    &self.bindings
  }
  fn outbox(&self) -> &Arc<Outbox> {
    &self.outbox
  }
  fn control(&self) -> &Arc<RunControl> {
    &self.control
  }
  fn shapes(&self) -> &Cell<Shapes> {
    &self.shapes
  }
}

impl StacksWorld for RunShared {
  fn stacks(&self) -> &Stacks {
    &self.stacks
  }
}

impl ConsoleWorld for RunShared {
  fn console(&self) -> &ConsoleState {
    &self.console
  }
  fn inspector(&self) -> &Inspector {
    &self.inspector
  }
  fn ledger(&self) -> &RefCell<Ledger> {
    &self.ledger
  }
  fn log(&self, entry: Vec<u8>) {
    RunShared::log(self, entry)
  }
}

impl TimersWorld for RunShared {
  fn timers(&self) -> &RefCell<Timers> {
    &self.timers
  }
  fn control(&self) -> &Arc<RunControl> {
    &self.control
  }
  fn wake_at(&self) -> &WakeAt {
    &self.wake_at
  }
}
