//! What a run may spend, and the flag that stops it: compute time, the wall clock, the heap
//! (`budget`: [`budget::RunControl`], the allocator) and output (`ledger`: the bytes of logs
//! and result, and the result's JSON text). Uses only `sched` (demotion) and `messages`;
//! knows nothing of a run's QuickJS world.

pub mod budget;
pub mod ledger;
