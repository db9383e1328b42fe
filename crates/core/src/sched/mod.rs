//! Threads: the pool that executes run slices, the demotion of hot programs, the one clock
//! thread that fires deadlines, and the hand-off queue that carries events to the host's
//! thread. Knows nothing of QuickJS or of runs: jobs are closures, deadlines callbacks.
//! Uses nothing else in the crate.

pub mod clock;
pub mod handoff;
pub mod pool;
pub mod priority;
pub(crate) mod spin;
