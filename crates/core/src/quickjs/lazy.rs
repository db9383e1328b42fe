//! Globals that load on first use, without a function object per name: QuickJS's
//! auto-init properties (`JS_DefineLazyProperty`, vendored QuickJS, `vendor/README.md`).
//!
//! Each name of a [`LazyGroup`] is defined as an ordinary writable, configurable,
//! non-enumerable data property that has no value yet: one property slot. The first use of
//! any of them — a read, `typeof`, a write, a descriptor, `defineProperty` — calls the
//! group's `load`, which returns an object holding the group's values (running whatever
//! JavaScript it needs); QuickJS then gives every name of the group still awaiting its value
//! the holder's property of the same name. A program cannot tell: the names, their order
//! and attributes are those of plain data properties from the start, a program's own
//! assignment wins before or after the load (a write first loads the group, then
//! replaces that one value), and a deleted or redefined name stays as the program left it,
//! even when the program's code did that while the group was loading.

use rquickjs::{qjs, Ctx, Object};
use std::cell::RefCell;
use std::ffi::CStr;

/// A set of names loaded together. `#[repr(C)]`: QuickJS calls `init` with a pointer to it
/// (`JSLazyGroup`, whose only field is that function), and tells groups apart by address,
/// so a group is a `static`.
#[repr(C)]
pub(crate) struct LazyGroup {
  init: unsafe extern "C" fn(*mut qjs::JSContext, *const LazyGroup) -> qjs::JSValue,
  load: for<'js> fn(&Ctx<'js>) -> rquickjs::Result<Object<'js>>,
  /// The error thrown when `load` fails without an exception of its own.
  what: &'static CStr,
}

impl LazyGroup {
  pub(crate) const fn new(
    load: for<'js> fn(&Ctx<'js>) -> rquickjs::Result<Object<'js>>,
    what: &'static CStr,
  ) -> LazyGroup {
    LazyGroup { init: lazy_group_init, load, what }
  }
}

extern "C" {
  fn JS_DefineLazyProperty(
    ctx: *mut qjs::JSContext,
    obj: qjs::JSValue,
    atom: qjs::JSAtom,
    group: *const std::ffi::c_void,
    flags: std::ffi::c_int,
  ) -> std::ffi::c_int;
  fn JS_SettleLazyProperties(
    ctx: *mut qjs::JSContext,
    obj: qjs::JSValue,
    values: qjs::JSValue,
    group: *const std::ffi::c_void,
  ) -> std::ffi::c_int;
}

/// For a group whose load puts some of its names somewhere else than where they wait (the
/// web group's names on `performance`'s prototype, which become inherited): every name of
/// `obj` still waiting for `group` takes `values`' own data property of the same name, or is
/// deleted where `values` has none. Names a program replaced or deleted stay as it left them.
pub(crate) fn settle(
  ctx: &Ctx<'_>,
  obj: &Object<'_>,
  values: &Object<'_>,
  group: &'static LazyGroup,
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  // SAFETY: borrows both objects for the call; `group` is a static.
  let r = unsafe {
    JS_SettleLazyProperties(c, obj.as_raw(), values.as_raw(), group as *const LazyGroup as *const _)
  };
  if r < 0 {
    return Err(rquickjs::Error::Exception);
  }
  Ok(())
}

/// Defines `names` on `obj` as `group`'s lazy properties (none of them may exist yet).
pub(crate) fn define(
  ctx: &Ctx<'_>,
  obj: &Object<'_>,
  names: &[&str],
  group: &'static LazyGroup,
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  let flags = (qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE) as std::ffi::c_int;
  for name in names {
    // SAFETY: JS_NewAtomLen copies the name; the call borrows `obj` and the atom, which we
    // free; `group` is a static, so the pointer QuickJS keeps stays valid.
    let r = unsafe {
      let atom = qjs::JS_NewAtomLen(c, name.as_ptr() as *const _, name.len() as _);
      let r =
        JS_DefineLazyProperty(c, obj.as_raw(), atom, group as *const LazyGroup as *const _, flags);
      qjs::JS_FreeAtom(c, atom);
      r
    };
    if r < 0 {
      return Err(rquickjs::Error::Exception);
    }
  }
  Ok(())
}

thread_local! {
  /// The (context, group) loads under way on this thread. A load that reaches a name of its
  /// own group (a program's getter it ran) throws instead of loading again; a context runs on
  /// one thread at a time and a load does not cross threads, so the record is the thread's.
  static LOADING: RefCell<Vec<(usize, usize)>> = const { RefCell::new(Vec::new()) };
}

/// QuickJS's call for a group's first use: the holder object (a new reference) or an
/// exception.
unsafe extern "C" fn lazy_group_init(
  c: *mut qjs::JSContext,
  group: *const LazyGroup,
) -> qjs::JSValue {
  // SAFETY: QuickJS passes back the pointer `define` gave it: one of our statics.
  let group = unsafe { &*group };
  let key = (c as usize, group as *const LazyGroup as usize);
  let result = std::panic::catch_unwind(|| {
    let ctx_ptr = std::ptr::NonNull::new(c)?;
    if LOADING.with(|l| l.borrow().contains(&key)) {
      // SAFETY: a live context; the message is NUL-terminated and has no `%`.
      unsafe { qjs::JS_ThrowTypeError(c, c"a global was used while it was loading".as_ptr()) };
      return Some(qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0));
    }
    // SAFETY: QuickJS calls us with a live context, on the thread that runs it.
    let ctx = unsafe { Ctx::from_raw(ctx_ptr) };
    LOADING.with(|l| l.borrow_mut().push(key));
    let loaded = (group.load)(&ctx);
    LOADING.with(|l| l.borrow_mut().retain(|k| *k != key));
    match loaded {
      // SAFETY: a new reference for QuickJS, which frees it after filling the names.
      Ok(holder) => Some(unsafe { qjs::JS_DupValue(c, holder.as_raw()) }),
      Err(_) => None,
    }
  });
  match result {
    Ok(Some(v)) => v,
    _ => {
      LOADING.with(|l| l.borrow_mut().retain(|k| *k != key));
      crate::quickjs::raw::exception(c, group.what)
    }
  }
}
