//! The web globals a run may use (`URL`, `TextEncoder`/`TextDecoder`, `structuredClone`,
//! `atob`/`btoa`, `crypto`, …): `globals` installs them lazily, from `web.js` (compiled once)
//! and the natives it calls. Uses only `quickjs` and `messages`; knows nothing of runs.

pub mod globals;
