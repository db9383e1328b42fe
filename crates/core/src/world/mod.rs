//! One run's world, from its program to its ending: `run` makes the QuickJS runtime and
//! context, installs the globals (bindings, console, web), executes slices and decides how
//! the run ends; `shared` is the per-run state the natives of `bridge`, `console` and
//! `timers` reach through their traits; `timers` is the run's own event loop. Uses every
//! layer below it; only the crate root (`lib.rs`, the `Engine`) uses it.

pub mod run;
pub mod shared;
pub mod timers;
