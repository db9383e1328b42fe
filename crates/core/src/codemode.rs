//! Code Mode's code normalization (see `code_runtime_transpile::normalize`), run on a thread
//! with a stack as large as the pool's: swc's parser recurses once per nesting level, and the
//! caller's thread (Node's main thread, or a worker's 4 MiB one) is not sized for it.

use code_runtime_transpile::normalize::{normalize_code, unwrap_fallback};

/// The pool threads' stack size (reserved, not committed), which swc's parser is sized for.
const THREAD_STACK: usize = 256 * 1024 * 1024;

/// The async arrow function `@cloudflare/codemode`'s executors would run for `code`, deciding
/// on the code as TypeScript: the package's `normalizeCode`, after undoing its fallback wrap
/// of code that was TypeScript. `code` unchanged if no thread can be started.
pub fn normalize_for_executor(code: String) -> String {
  let spawned = std::thread::Builder::new()
    .name("code-runtime-normalize".into())
    .stack_size(THREAD_STACK)
    .spawn({
      let code = code.clone();
      move || normalize_code(&unwrap_fallback(&code))
    });
  match spawned.map(|thread| thread.join()) {
    Ok(Ok(normalized)) => normalized,
    _ => code,
  }
}
