//! Node-identical rendering of logged values: Node's own `util.inspect`/`util.format`
//! (vendored as `prelude/inspect.js`, see `scripts/vendor-inspect.mjs`), running in a second
//! realm (QuickJS context) of the run's runtime.
//!
//! The separate realm is what makes it trustworthy: its built-ins are pristine whatever the
//! program did to its own (`Array.prototype.join = …` cannot change how a later log looks),
//! and the program has no reference into it. Values cross freely (both realms share one
//! heap), budgets apply (one runtime: the interrupt handler and heap limit cover it), and the
//! realm is created only when a run first logs something other than plain strings, so runs
//! that never do pay nothing. If rendering fails (the heap limit, a throwing getter on a
//! `Symbol.toStringTag`, a budget stop), the caller falls back to [`crate::inspect`].

use crate::prelude::Prelude;
use crate::raw;
use rquickjs::qjs;
use std::cell::RefCell;

pub(crate) static INSPECT: Prelude =
  Prelude::new(c"prelude/inspect.js", include_str!("prelude/inspect.js"));

#[derive(Default)]
enum State {
  #[default]
  Unloaded,
  Ready {
    realm: *mut qjs::JSContext,
    format: qjs::JSValue,
  },
  Failed,
}

/// One run's inspector realm (created on first use).
#[derive(Default)]
pub struct Inspector {
  state: RefCell<State>,
}

impl Inspector {
  /// `util.format(...args)` with console.log's inspect options, or `None` when it cannot
  /// be rendered here.
  pub fn format(&self, program: *mut qjs::JSContext, args: &[qjs::JSValue]) -> Option<Vec<u8>> {
    let (realm, format) = self.ready(program)?;
    let mut argv = args.to_vec();
    let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
    // SAFETY: `format` is a live function of `realm` (we hold a reference, released below);
    // the arguments are borrowed live values of the same runtime, which JS_Call does not
    // take. The result is owned and freed by Owned.
    unsafe {
      let result = raw::Owned::new(
        realm,
        qjs::JS_Call(realm, format, undefined, argv.len() as i32, argv.as_mut_ptr()),
      );
      qjs::JS_FreeValue(realm, format);
      if raw::tag(result.v) == qjs::JS_TAG_EXCEPTION {
        raw::clear_exception(realm);
        return None;
      }
      if !raw::is_string(result.v) {
        return None;
      }
      raw::string_bytes(realm, result.v)
    }
  }

  /// The realm and a new reference to its `format`, loading them on first use.
  fn ready(&self, program: *mut qjs::JSContext) -> Option<(*mut qjs::JSContext, qjs::JSValue)> {
    // A log from inside a getter that `format` is running finds the state borrowed: that
    // nested log uses the fallback renderer.
    let mut state = self.state.try_borrow_mut().ok()?;
    if matches!(*state, State::Unloaded) {
      *state = load(program).unwrap_or(State::Failed);
    }
    match *state {
      // SAFETY: `format` is a live value of `realm`; the duplicate is the caller's.
      State::Ready { realm, format } => Some((realm, unsafe { qjs::JS_DupValue(realm, format) })),
      _ => None,
    }
  }

  /// Frees the realm. Must run before the runtime is freed (`Run`'s drop).
  pub fn free(&self) {
    if let State::Ready { realm, format } =
      std::mem::replace(&mut *self.state.borrow_mut(), State::Failed)
    {
      // SAFETY: we own one reference to `format` and the context itself; nothing else holds
      // either once the run is being dropped.
      unsafe {
        qjs::JS_FreeValue(realm, format);
        qjs::JS_FreeContext(realm);
      }
    }
  }
}

fn load(program: *mut qjs::JSContext) -> Option<State> {
  // SAFETY: a new context in the program's runtime (freed by `Inspector::free`, or here on
  // failure); every value made here is owned and released by Owned or handed to State.
  unsafe {
    let realm = qjs::JS_NewContext(qjs::JS_GetRuntime(program));
    if realm.is_null() {
      return None;
    }
    let fail = || {
      raw::clear_exception(realm);
      qjs::JS_FreeContext(realm);
      None
    };
    let factory = raw::Owned::new(realm, INSPECT.evaluate(realm));
    if raw::tag(factory.v) == qjs::JS_TAG_EXCEPTION {
      drop(factory);
      return fail();
    }
    let natives = raw::Owned::new(realm, qjs::JS_NewObject(realm));
    let defined = [
      (c"promiseState", promise_state as NativeFn, 1),
      (c"promiseResult", promise_result as NativeFn, 1),
      (c"proxyDetails", proxy_details as NativeFn, 2),
      (c"sameClass", same_class as NativeFn, 2),
    ]
    .into_iter()
    .all(|(name, f, length)| {
      let func = qjs::JS_NewCFunction2(realm, Some(f), name.as_ptr(), length, 0, 0);
      qjs::JS_SetPropertyStr(realm, natives.v, name.as_ptr(), func) >= 0
    });
    if !defined {
      drop((factory, natives));
      return fail();
    }
    let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
    let mut argv = [natives.v];
    let format = qjs::JS_Call(realm, factory.v, undefined, 1, argv.as_mut_ptr());
    drop((factory, natives));
    if raw::tag(format) == qjs::JS_TAG_EXCEPTION {
      return fail();
    }
    Some(State::Ready { realm, format })
  }
}

type NativeFn =
  unsafe extern "C" fn(*mut qjs::JSContext, qjs::JSValue, i32, *mut qjs::JSValue) -> qjs::JSValue;

/// The first argument, or undefined.
///
/// SAFETY (callers): `argv` holds `argc` values (QuickJS's calling convention).
unsafe fn arg(argc: i32, argv: *mut qjs::JSValue, i: i32) -> qjs::JSValue {
  if i < argc {
    *argv.add(i as usize)
  } else {
    qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0)
  }
}

/// `promiseState(p)`: 0 pending, 1 fulfilled, 2 rejected, -1 not a promise.
unsafe extern "C" fn promise_state(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: QuickJS passes `argc` live arguments; JS_PromiseState only reads the object.
  let v = arg(argc, argv, 0);
  let state = if raw::is_object(v) { qjs::JS_PromiseState(c, v) } else { -1 };
  qjs::JS_MKVAL(qjs::JS_TAG_INT, state)
}

/// `promiseResult(p)`: the settled promise's value or reason.
unsafe extern "C" fn promise_result(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: as above; JS_PromiseResult returns a new reference, which we return.
  let v = arg(argc, argv, 0);
  if raw::is_object(v) && qjs::JS_PromiseState(c, v) >= 0 {
    qjs::JS_PromiseResult(c, v)
  } else {
    qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0)
  }
}

/// `proxyDetails(value, withHandler)`: undefined for a non-Proxy; else the target, or
/// `[target, handler]`. Reads the Proxy's slots; runs no trap.
unsafe extern "C" fn proxy_details(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: as above; JS_GetProxyTarget/Handler return new references, which either go
  // into the returned array (JS_SetPropertyUint32 takes them) or are returned.
  let v = arg(argc, argv, 0);
  if !raw::is_proxy(v) {
    return qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
  }
  let target = qjs::JS_GetProxyTarget(c, v);
  if qjs::JS_ToBool(c, arg(argc, argv, 1)) <= 0 {
    return target;
  }
  let pair = qjs::JS_NewArray(c);
  qjs::JS_SetPropertyUint32(c, pair, 0, target);
  qjs::JS_SetPropertyUint32(c, pair, 1, qjs::JS_GetProxyHandler(c, v));
  pair
}

/// `sameClass(a, b)`: both are objects of the same engine class (realm-independent, unlike
/// `instanceof`, and blind to what a program did to prototypes or `Symbol.toStringTag`).
unsafe extern "C" fn same_class(
  _c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: QuickJS passes `argc` live arguments; class ids are read from the objects only.
  let (a, b) = (arg(argc, argv, 0), arg(argc, argv, 1));
  let same = raw::is_object(a) && raw::is_object(b) && raw::class_id(a) == raw::class_id(b);
  qjs::JS_MKVAL(qjs::JS_TAG_BOOL, same as i32)
}
