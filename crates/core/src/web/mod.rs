//! The web globals a run may use (`URL`, `TextEncoder`/`TextDecoder`, `structuredClone`,
//! `atob`/`btoa`, `crypto`, …): `globals` installs them lazily, from `web.js` (compiled once)
//! and the natives it calls (`encoding`: `TextDecoder` over `encoding_rs`; `buffers`: typed
//! arrays as natives read them). Uses only `quickjs` and `messages`; knows nothing of runs.

pub mod buffers;
pub mod encoding;
pub mod globals;
