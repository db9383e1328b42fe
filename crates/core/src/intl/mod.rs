//! `Intl` (ECMA-402) over ICU4X with its CLDR data compiled in, and the built-in methods
//! ECMA-402 redefines (`Number`/`BigInt`/`Date.prototype.toLocale*String`,
//! `String.prototype.localeCompare`/`toLocaleUpperCase`/`toLocaleLowerCase`; `Array` and
//! `%TypedArray%.prototype.toLocaleString` pass their arguments on to their elements').
//!
//! Owns: the lazy `Intl` global, the locale hook the vendored QuickJS calls from those
//! built-in methods, and the JavaScript part (`intl.js`, then one `.js` per service, then
//! `end.js`, concatenated into one prelude) with the natives it calls (one `.rs` per
//! service). May use only `quickjs`, `messages` and `zone` (the run's time zone); knows nothing of runs, and no service
//! file uses this one (`common.rs` holds what they share).
//!
//! Cost model: nothing is loaded until a program uses `Intl` or calls one of the methods
//! above. `install` defines `Intl` as a lazy data property of `globalThis` (`quickjs::lazy`,
//! as the web globals are); the methods are QuickJS's own until called, when
//! the hook loads the prelude (bytecode compiled once per process) into the context and
//! keeps its internals in the context's locale state. ICU4X's formatters are cached per
//! thread by locale and options (`common::Cache`), so later formats skip the data look-up.
//!
//! The default locale is `en-US` (Node's with `LANG=C`/`en_US`); a run never sees the
//! host's locale.
//!
//! Adding a service (one line in each list, no other edits here):
//! - its JavaScript: a `.js` file in this folder, named in [`SOURCE`] before `end.js`; it
//!   defines its constructor with `defineService('Name', Ctor)` (see `intl.js`) and may set
//!   `localeMethods[...]` for the built-in methods it answers;
//! - its natives: a `.rs` file with `pub(crate) fn define(ctx, natives)`, declared below and
//!   called in [`natives`].

mod collator;
mod common;
mod date_time_format;
mod display_names;
mod list_format;
mod locale;
mod number_format;
mod parts;
mod plural_rules;
mod relative_time_format;
mod segmenter;

use crate::quickjs::lazy::{self, LazyGroup};
use crate::quickjs::prelude::Prelude;
use crate::quickjs::raw;
use rquickjs::{qjs, Ctx, Object, Value};

/// The JavaScript part: the core, one file per service, the end (which returns the
/// internals to `load`).
const SOURCE: &str = concat!(
  include_str!("intl.js"),
  include_str!("locale.js"),
  include_str!("number_format.js"),
  include_str!("plural_rules.js"),
  include_str!("collator.js"),
  include_str!("date_time_format.js"),
  include_str!("relative_time_format.js"),
  include_str!("list_format.js"),
  include_str!("duration_format.js"),
  include_str!("segmenter.js"),
  include_str!("display_names.js"),
  include_str!("end.js"),
);

/// `prelude/intl.js`; its completion value is a factory taking the natives. Its functions
/// are built-ins, and print as such.
pub static PRELUDE: Prelude = Prelude::native(c"prelude/intl.js", SOURCE);

/// The natives object handed to the prelude's factory: each service adds its own.
fn natives<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
  // No prototype: the prelude may load after a program put setters on Object.prototype
  // (a setter named like a native would swallow it).
  let n = Object::new(ctx.clone())?;
  n.set_prototype(None)?;
  locale::define(ctx, &n)?;
  number_format::define(ctx, &n)?;
  plural_rules::define(ctx, &n)?;
  collator::define(ctx, &n)?;
  date_time_format::define(ctx, &n)?;
  relative_time_format::define(ctx, &n)?;
  list_format::define(ctx, &n)?;
  segmenter::define(ctx, &n)?;
  display_names::define(ctx, &n)?;
  Ok(n)
}

extern "C" {
  /// The function the built-in locale methods call first (vendored QuickJS).
  fn JS_SetLocaleHook(
    hook: Option<
      unsafe extern "C" fn(
        *mut qjs::JSContext,
        std::ffi::c_int,
        qjs::JSValue,
        std::ffi::c_int,
        *mut qjs::JSValue,
      ) -> qjs::JSValue,
    >,
  );
  /// Sets the context's locale state (takes the reference).
  fn JS_SetLocaleState(ctx: *mut qjs::JSContext, state: qjs::JSValue);
  /// The context's locale state, borrowed.
  fn JS_GetLocaleState(ctx: *mut qjs::JSContext) -> qjs::JSValue;
}

static HOOK: std::sync::Once = std::sync::Once::new();

/// `Intl` loads with the prelude's internals, which hold it.
static GROUP: LazyGroup = LazyGroup::new(internals, c"Intl could not be loaded");

/// Defines the lazy `Intl` global and makes sure the locale hook is set. Runs before the
/// program; costs one property slot (`quickjs::lazy`).
pub fn install<'js>(ctx: &Ctx<'js>, globals: &Object<'js>) -> rquickjs::Result<()> {
  // SAFETY: sets a process-wide function pointer once; the hook only runs on a thread
  // running a context, with QuickJS's arguments.
  HOOK.call_once(|| unsafe { JS_SetLocaleHook(Some(locale_hook)) });
  lazy::define(ctx, globals, &["Intl"], &GROUP)
}

/// What the warm-up formats: the default locale's number, currency and date formats.
const WARM: &str =
  "new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(1);\
  (1.5).toLocaleString(); new Intl.DateTimeFormat().format(0)";

/// Formats once in `ctx`, the engine's throw-away warm-up context (`prelude::warm`, on a
/// pool thread when the process's first engine starts), so the first run that formats finds
/// the prelude's and ICU4X's data paged in and this thread's formatters made: 30-70 µs less
/// for a process's first constructor and format (`bench/intl.mjs`). Nothing a run can
/// observe: the warm-up's context is its own, and the caches hold immutable formatters by
/// locale and options, as any earlier run would have left them.
pub fn warm(ctx: &Ctx<'_>) {
  if install(ctx, &ctx.globals()).is_ok() {
    let _ = ctx.eval::<(), _>(WARM);
  }
}

/// How many number formatters this thread has made and keeps.
#[cfg(test)]
pub(crate) fn cached_number_formats() -> usize {
  number_format::cached()
}

/// Whether this context loaded the prelude (a program used `Intl` or a locale method).
#[cfg(test)]
pub(crate) fn loaded(ctx: &Ctx<'_>) -> bool {
  // SAFETY: reads the context's locale state, borrowed.
  raw::is_object(unsafe { JS_GetLocaleState(ctx.as_raw().as_ptr()) })
}

/// The internals object of this context's prelude, loading it on first use (borrowed from
/// the context's locale state).
fn internals<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
  let c = ctx.as_raw().as_ptr();
  // SAFETY: the state is a value the context keeps alive; we take our own reference.
  let state = unsafe { Value::from_raw(ctx.clone(), qjs::JS_DupValue(c, JS_GetLocaleState(c))) };
  if let Some(o) = state.as_object() {
    return Ok(o.clone());
  }
  // SAFETY: `evaluate` returns an owned value (or JS_EXCEPTION), which Value takes.
  let factory = unsafe { Value::from_raw(ctx.clone(), PRELUDE.evaluate(c)) };
  if raw::tag(factory.as_raw()) == qjs::JS_TAG_EXCEPTION {
    return Err(rquickjs::Error::Exception);
  }
  let factory = factory.into_function().ok_or(rquickjs::Error::Exception)?;
  let made: Object = factory.call((natives(ctx)?,))?;
  // SAFETY: JS_SetLocaleState takes the reference we dup for it.
  unsafe { JS_SetLocaleState(c, qjs::JS_DupValue(c, made.as_raw())) };
  Ok(made)
}

/// The built-in locale methods' hook: the prelude's `localeMethods[method]`, called with
/// the method's receiver and arguments, or `JS_UNINITIALIZED` (the built-in answers) when
/// no service answers that method.
unsafe extern "C" fn locale_hook(
  c: *mut qjs::JSContext,
  method: std::ffi::c_int,
  this: qjs::JSValue,
  argc: std::ffi::c_int,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  let result = std::panic::catch_unwind(|| {
    let ctx_ptr = std::ptr::NonNull::new(c)?;
    // SAFETY: QuickJS calls us with a live context, on the thread that runs it.
    let ctx = unsafe { Ctx::from_raw(ctx_ptr) };
    let Ok(internals) = internals(&ctx) else {
      return Some(qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0));
    };
    let methods: Object = internals.get("localeMethods").ok()?;
    let f: Value = methods.get(method as u32).ok()?;
    let Some(f) = f.as_function() else {
      return Some(qjs::JS_MKVAL(qjs::JS_TAG_UNINITIALIZED, 0));
    };
    // SAFETY: argv holds argc values, borrowed for the call; JS_Call returns a new
    // reference (or JS_EXCEPTION) for our caller.
    Some(unsafe { qjs::JS_Call(c, f.as_raw(), this, argc, argv) })
  });
  match result {
    Ok(Some(v)) => v,
    _ => raw::exception(c, c"Intl could not be loaded"),
  }
}
