//! Logs as Node's console prints them: `methods` (the `console` object), `inspector` (the
//! separate realm running Node's `util.inspect`, `inspect.js` and `console.js`), `inspect`
//! (the native fallback for primitives), `native_inspect` (the common values laid out in
//! Rust as Node lays them out, without the realm), `previews` (Map/Set/iterator entries for the
//! inspector), and `stack` (V8-shaped `error.stack`). The per-run state it needs comes
//! through [`methods::ConsoleWorld`] and [`stack::StacksWorld`], which `world` implements;
//! so `console` never uses `world` or `bridge`.

pub(crate) mod inspect;
pub mod inspector;
pub mod methods;
pub(crate) mod native_inspect;
pub(crate) mod previews;
pub mod stack;
