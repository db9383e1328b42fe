//! The web globals a run may use (`URL`, `TextEncoder`/`TextDecoder`, `structuredClone`,
//! `atob`/`btoa`, `crypto`, …): `globals` installs them lazily, from `web.js` (compiled once)
//! and the natives it calls (`encoding`: `TextDecoder` over `encoding_rs`; `digest`:
//! `crypto.subtle.digest`; `buffers`: typed arrays as natives read them). Uses only `quickjs` and `messages`; knows nothing of runs.

pub mod buffers;
pub mod digest;
pub mod encoding;
pub mod globals;
