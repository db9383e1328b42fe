//! Our layer over QuickJS's C API, below everything that touches program values: `raw`
//! reads values without running program code (no getter, no trap, no `toJSON`), `prelude`
//! compiles the engine's own JavaScript to bytecode once per process, `lazy` defines globals
//! that load on first use. Uses only `messages`;
//! knows nothing of runs, budgets or the host.

pub(crate) mod lazy;
pub(crate) mod prelude;
pub(crate) mod raw;
