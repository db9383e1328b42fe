//! JavaScript that ships inside the engine (`web/web.js`, `console/inspect.js`,
//! `console/console.js`, named `prelude/*.js` in stack traces), compiled to QuickJS bytecode
//! once per process and read into each context that needs it: reading bytecode costs a
//! fraction of parsing the source in every run.

use crate::quickjs::raw::{self, Owned};
use rquickjs::qjs;
use std::sync::OnceLock;

/// Compiles `all` ahead of the first run that needs them (on a pool thread, when an engine
/// starts): compiling `prelude/inspect.js` takes milliseconds, which would otherwise land on
/// the compute budget of the first run that logs an object. `then` runs in the same
/// throw-away context afterwards (for warm-ups of the caller's own).
pub fn warm(all: &[&Prelude], then: impl FnOnce(&rquickjs::Ctx<'_>)) {
  let Ok(rt) = rquickjs::Runtime::new() else { return };
  let Ok(ctx) = rquickjs::Context::full(&rt) else { return };
  ctx.with(|ctx| {
    let c = ctx.as_raw().as_ptr();
    for prelude in all {
      if prelude.bytecode(c).is_none() {
        raw::clear_exception(c);
      }
    }
    then(&ctx);
    raw::clear_exception(c);
  });
}

/// Whether every one of `all` is compiled already.
pub fn is_warm(all: &[&Prelude]) -> bool {
  all.iter().all(|p| p.bytecode.get().is_some())
}

pub struct Prelude {
  name: &'static std::ffi::CStr,
  source: &'static str,
  /// Whether the bytecode leaves the source out, so its functions print as the engine's own
  /// (`function format() { [native code] }`), as built-ins do.
  native: bool,
  bytecode: OnceLock<Vec<u8>>,
}

impl Prelude {
  pub const fn new(name: &'static std::ffi::CStr, source: &'static str) -> Prelude {
    Prelude { name, source, native: false, bytecode: OnceLock::new() }
  }

  /// A prelude that defines ECMAScript built-ins (`Intl`): `Function.prototype.toString` of
  /// its functions gives the native form the specification requires of built-ins, not the
  /// prelude's source.
  pub const fn native(name: &'static std::ffi::CStr, source: &'static str) -> Prelude {
    Prelude { name, source, native: true, bytecode: OnceLock::new() }
  }

  /// The bytecode, compiled in context `c` the first time.
  pub fn bytecode(&self, c: *mut qjs::JSContext) -> Option<&[u8]> {
    if let Some(b) = self.bytecode.get() {
      return Some(b);
    }
    // No lock: a thread never waits for another's compile. A run compiling goes through its
    // interrupt checks, where a hot slice may wait for a core, and a second run blocked on a
    // lock meanwhile would keep its core, so both would wait for ever (two first uses of
    // Intl on a 2-thread pool did). A thread that finds no bytecode compiles a copy of its
    // own (the warm-up makes that rare); the first copy stays.
    let mut src = self.source.as_bytes().to_vec();
    src.push(0);
    let flags =
      (qjs::JS_EVAL_TYPE_GLOBAL | qjs::JS_EVAL_FLAG_STRICT | qjs::JS_EVAL_FLAG_COMPILE_ONLY) as i32;
    // SAFETY: JS_Eval reads the NUL-terminated source; with COMPILE_ONLY it returns the
    // compiled function object (owned) or an exception. JS_WriteObject serialises it into a
    // buffer we copy and free with js_free.
    unsafe {
      let func = Owned::new(
        c,
        qjs::JS_Eval(
          c,
          src.as_ptr() as *const _,
          self.source.len() as _,
          self.name.as_ptr(),
          flags,
        ),
      );
      if raw::tag(func.v) == qjs::JS_TAG_EXCEPTION {
        return None;
      }
      let mut size: qjs::size_t = 0;
      let strip = if self.native { qjs::JS_WRITE_OBJ_STRIP_SOURCE } else { 0 };
      let buf =
        qjs::JS_WriteObject(c, &mut size, func.v, (qjs::JS_WRITE_OBJ_BYTECODE | strip) as i32);
      if buf.is_null() {
        return None;
      }
      let bytes = std::slice::from_raw_parts(buf, size as usize).to_vec();
      qjs::js_free(c, buf as *mut _);
      Some(self.bytecode.get_or_init(|| bytes))
    }
  }

  /// Runs the prelude in context `c` and returns its completion value (owned), or
  /// `JS_EXCEPTION` with the exception pending.
  pub fn evaluate(&self, c: *mut qjs::JSContext) -> qjs::JSValue {
    let Some(code) = self.bytecode(c) else {
      return qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0);
    };
    // SAFETY: the bytecode was written by JS_WriteObject of this same engine build (never
    // from outside the process); JS_ReadObject returns the function object, which
    // JS_EvalFunction takes, returning the script's completion value.
    unsafe {
      let func =
        qjs::JS_ReadObject(c, code.as_ptr(), code.len() as _, qjs::JS_READ_OBJ_BYTECODE as i32);
      if raw::tag(func) == qjs::JS_TAG_EXCEPTION {
        return func;
      }
      qjs::JS_EvalFunction(c, func)
    }
  }
}
