//! Node-identical rendering of logged values: Node's own `util.inspect`/`util.format`
//! (vendored as `prelude/inspect.js`, see `scripts/vendor-inspect.mjs`) and the console
//! methods ported from Node on top of it (`prelude/console.js`: `dir`, `table`, `assert`'s
//! formatting), running in a second realm (QuickJS context) of the run's runtime.
//!
//! The separate realm is what makes it trustworthy: its built-ins are pristine whatever the
//! program did to its own (`Array.prototype.join = …` cannot change how a later log looks),
//! and the program has no reference into it but one the engine makes: the argument list of
//! a callable Proxy's `apply` trap is built in the calling realm, so a program's Proxy that
//! the realm calls (as a getter, a `toString`, a comparator) receives an array of the realm.
//! That is why `prelude/console.js` ends by freezing every intrinsic of the realm
//! ([`lockdown`]), and why only exceptions that are not the realm's reach the program. Values cross freely (both realms share one
//! heap), budgets apply (one runtime: the interrupt handler and heap limit cover it), and the
//! realm is created only when a run first logs something other than primitives (or calls
//! `console.dir`/`console.table` on an object), so runs that never do pay nothing. If rendering fails (the heap limit, a throwing getter on a
//! `Symbol.toStringTag`, a budget stop), the caller falls back to [`crate::console::inspect`].

use crate::quickjs::prelude::Prelude;
use crate::quickjs::raw::{self, arg};
use rquickjs::qjs;
use std::cell::RefCell;

pub(crate) static INSPECT: Prelude =
  Prelude::new(c"prelude/inspect.js", include_str!("inspect.js"));
pub(crate) static CONSOLE: Prelude =
  Prelude::new(c"prelude/console.js", include_str!("console.js"));

thread_local! {
  /// The program context whose call into the realm is running on this thread (innermost):
  /// where `callCustom` makes the functions a custom inspect method receives.
  static PROGRAM: std::cell::Cell<*mut qjs::JSContext> = const { std::cell::Cell::new(std::ptr::null_mut()) };
}

/// Marks `program` as the context calling into the realm until dropped (nesting restores
/// the outer one).
struct ProgramScope(*mut qjs::JSContext);

impl ProgramScope {
  fn enter(program: *mut qjs::JSContext) -> ProgramScope {
    ProgramScope(PROGRAM.with(|p| p.replace(program)))
  }
}

impl Drop for ProgramScope {
  fn drop(&mut self) {
    PROGRAM.with(|p| p.set(self.0));
  }
}

/// How a call into the realm ended.
pub enum Outcome {
  Value(raw::Owned),
  /// It threw a value of the program (a primitive, or an object whose prototype chain does
  /// not reach the realm's `Object.prototype`), which the caller may throw again.
  Threw(raw::Owned),
  /// The realm is unavailable, or the call failed inside it.
  Failed,
}

/// Whether `v` is an object made in the realm (its prototype chain reaches the realm's
/// `Object.prototype`; read without running code). The realm makes no Proxies, so a Proxy in
/// the chain is the program's; a chain too long to follow counts as the realm's.
fn of_realm(realm: *mut qjs::JSContext, v: qjs::JSValue, object_proto: usize) -> bool {
  if !raw::is_object(v) {
    return false;
  }
  // SAFETY: JS_DupValue adds the reference the loop's Owned releases.
  let mut cur = unsafe { raw::Owned::new(realm, qjs::JS_DupValue(realm, v)) };
  for _ in 0..10_000 {
    if !raw::is_object(cur.v) || raw::is_proxy(cur.v) {
      return false;
    }
    if raw::ptr(cur.v) == object_proto {
      return true;
    }
    cur = raw::proto(realm, cur.v);
  }
  true
}

/// The functions `prelude/console.js` returns, in its order.
#[derive(Clone, Copy)]
pub enum Api {
  /// `format(...args)`: `util.formatWithOptions` with the console's inspect options.
  Format = 0,
  /// `dir(value, options)`: console.dir's `util.inspect`.
  Dir = 1,
  /// `table(data, properties)`: the entry, or `[message]` for a non-array `properties`.
  Table = 2,
  /// `assertFormat(first, ...rest)`: `format(`Assertion failed: ${first}`, ...rest)`.
  Assert = 3,
}
const API_LEN: usize = 4;

#[derive(Default)]
enum State {
  #[default]
  Unloaded,
  Ready {
    realm: *mut qjs::JSContext,
    api: [qjs::JSValue; API_LEN],
    /// The realm's `Object.prototype` (an intrinsic, alive as long as the realm), by
    /// identity: what tells the realm's objects from the program's.
    object_proto: usize,
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
    self.text(program, Api::Format, args)
  }

  /// Calls `api` and returns its result when that is a string.
  pub fn text(
    &self,
    program: *mut qjs::JSContext,
    api: Api,
    args: &[qjs::JSValue],
  ) -> Option<Vec<u8>> {
    let result = self.call(program, api, args)?;
    if !raw::is_string(result.v) {
      return None;
    }
    raw::string_bytes(result.ctx(), result.v)
  }

  /// Calls `api` with borrowed `args`; `None` when the realm is unavailable or the call
  /// threw (the exception is dropped).
  pub fn call(
    &self,
    program: *mut qjs::JSContext,
    api: Api,
    args: &[qjs::JSValue],
  ) -> Option<raw::Owned> {
    match self.call_outcome(program, api, args) {
      Outcome::Value(v) => Some(v),
      _ => None,
    }
  }

  /// Calls `api` with borrowed `args`, telling apart a value the program threw (a getter or
  /// a Proxy trap the call ran), which the caller may throw on, from failures of the realm.
  pub fn call_outcome(
    &self,
    program: *mut qjs::JSContext,
    api: Api,
    args: &[qjs::JSValue],
  ) -> Outcome {
    let Some((realm, func, object_proto)) = self.ready(program, api) else {
      return Outcome::Failed;
    };
    let mut argv = args.to_vec();
    let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
    let _program = ProgramScope::enter(program);
    // SAFETY: `func` is a live function of `realm` (we hold a reference, released below);
    // the arguments are borrowed live values of the same runtime, which JS_Call does not
    // take. The result and the exception are owned and freed by Owned.
    unsafe {
      let result = raw::Owned::new(
        realm,
        qjs::JS_Call(realm, func, undefined, argv.len() as i32, argv.as_mut_ptr()),
      );
      qjs::JS_FreeValue(realm, func);
      if raw::tag(result.v) != qjs::JS_TAG_EXCEPTION {
        return Outcome::Value(result);
      }
      let thrown = raw::Owned::new(realm, qjs::JS_GetException(realm));
      // An interrupt (the run is being stopped) or anything the realm made stays here: the
      // program must never hold an object of this realm.
      if qjs::JS_IsUncatchableError(thrown.v) || of_realm(realm, thrown.v, object_proto) {
        return Outcome::Failed;
      }
      Outcome::Threw(thrown)
    }
  }

  /// The realm, a new reference to one of its functions and the identity of its
  /// `Object.prototype`, loading them on first use.
  fn ready(
    &self,
    program: *mut qjs::JSContext,
    api: Api,
  ) -> Option<(*mut qjs::JSContext, qjs::JSValue, usize)> {
    // A log from inside a getter that loading runs finds the state borrowed: that nested
    // log uses the fallback renderer.
    let mut state = self.state.try_borrow_mut().ok()?;
    if matches!(*state, State::Unloaded) {
      *state = load(program).unwrap_or(State::Failed);
    }
    match *state {
      // SAFETY: the function is a live value of `realm`; the duplicate is the caller's.
      State::Ready { realm, api: ref fns, object_proto } => {
        Some((realm, unsafe { qjs::JS_DupValue(realm, fns[api as usize]) }, object_proto))
      }
      _ => None,
    }
  }

  /// Frees the realm. Must run before the runtime is freed (`Run`'s drop).
  pub fn free(&self) {
    if let State::Ready { realm, api, .. } =
      std::mem::replace(&mut *self.state.borrow_mut(), State::Failed)
    {
      // SAFETY: we own one reference to each function and the context itself; nothing
      // else holds any of them once the run is being dropped.
      unsafe {
        for f in api {
          qjs::JS_FreeValue(realm, f);
        }
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
    let object_proto = {
      let object = raw::Owned::new(realm, qjs::JS_NewObject(realm));
      if raw::is_object(object.v) {
        raw::proto_ptr(realm, object.v)
      } else {
        0
      }
    };
    match build(realm) {
      Some(api) if object_proto != 0 => Some(State::Ready { realm, api, object_proto }),
      api => {
        for f in api.into_iter().flatten() {
          qjs::JS_FreeValue(realm, f);
        }
        raw::clear_exception(realm);
        qjs::JS_FreeContext(realm);
        None
      }
    }
  }
}

/// Runs both preludes in `realm`: `inspect.js`'s factory makes Node's util module, and
/// `console.js`'s factory, given it, the console functions.
///
/// SAFETY (callers): `realm` is a live context; the functions returned are owned.
unsafe fn build(realm: *mut qjs::JSContext) -> Option<[qjs::JSValue; API_LEN]> {
  let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
  let ok = |v: &raw::Owned| raw::tag(v.v) != qjs::JS_TAG_EXCEPTION;
  let inspect_factory = raw::Owned::new(realm, INSPECT.evaluate(realm));
  if !ok(&inspect_factory) {
    return None;
  }
  let natives = raw::Owned::new(realm, natives(realm));
  if !ok(&natives) {
    return None;
  }
  let mut argv = [natives.v];
  let util =
    raw::Owned::new(realm, qjs::JS_Call(realm, inspect_factory.v, undefined, 1, argv.as_mut_ptr()));
  if !ok(&util) {
    return None;
  }
  let console_factory = raw::Owned::new(realm, CONSOLE.evaluate(realm));
  if !ok(&console_factory) {
    return None;
  }
  let mut argv = [util.v, natives.v];
  let list =
    raw::Owned::new(realm, qjs::JS_Call(realm, console_factory.v, undefined, 2, argv.as_mut_ptr()));
  if !ok(&list) {
    return None;
  }
  // The list is this realm's own array: reading its elements runs no code.
  let mut api = [undefined; API_LEN];
  for (i, slot) in api.iter_mut().enumerate() {
    *slot = qjs::JS_GetPropertyUint32(realm, list.v, i as u32);
  }
  if api.iter().all(|&f| qjs::JS_IsFunction(realm, f)) {
    return Some(api);
  }
  for f in api {
    qjs::JS_FreeValue(realm, f);
  }
  None
}

/// The object of engine natives the preludes use.
///
/// SAFETY (callers): `realm` is a live context; the result is owned (or JS_EXCEPTION).
unsafe fn natives(realm: *mut qjs::JSContext) -> qjs::JSValue {
  let natives = raw::Owned::new(realm, qjs::JS_NewObject(realm));
  let defined = [
    (c"promiseState", promise_state as NativeFn, 1),
    (c"promiseResult", promise_result as NativeFn, 1),
    (c"proxyDetails", proxy_details as NativeFn, 2),
    (c"sameClass", same_class as NativeFn, 2),
    (c"previewEntries", crate::console::previews::preview_entries as NativeFn, 1),
    (c"lockdown", lockdown as NativeFn, 1),
    (c"callCustom", call_custom as NativeFn, 4),
    (c"dataOptions", data_options as NativeFn, 1),
  ]
  .into_iter()
  .all(|(name, f, length)| {
    let func = qjs::JS_NewCFunction2(realm, Some(f), name.as_ptr(), length, 0, 0);
    qjs::JS_SetPropertyStr(realm, natives.v, name.as_ptr(), func) >= 0
  });
  if !defined {
    return qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0);
  }
  qjs::JS_DupValue(realm, natives.v)
}

type NativeFn =
  unsafe extern "C" fn(*mut qjs::JSContext, qjs::JSValue, i32, *mut qjs::JSValue) -> qjs::JSValue;

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
/// `[target, handler]` (nulls for a revoked Proxy). Reads the Proxy's slots; runs no trap.
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
  let with_handler = qjs::JS_ToBool(c, arg(argc, argv, 1)) > 0;
  if raw::tag(target) == qjs::JS_TAG_EXCEPTION {
    // Revoked: V8 reports a null target and handler (Node prints `<Revoked Proxy>`).
    raw::clear_exception(c);
    let null = qjs::JS_MKVAL(qjs::JS_TAG_NULL, 0);
    if !with_handler {
      return null;
    }
    let pair = qjs::JS_NewArray(c);
    qjs::JS_SetPropertyUint32(c, pair, 0, null);
    qjs::JS_SetPropertyUint32(c, pair, 1, null);
    return pair;
  }
  if !with_handler {
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

/// `lockdown(roots)`: freezes every object reachable from the array `roots` through
/// prototypes and own properties (values, getters, setters). Returns whether it succeeded. Called once, by `prelude/console.js`, on the realm's own intrinsics
/// (no Proxies among them; reading them runs no code).
unsafe extern "C" fn lockdown(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: QuickJS passes `argc` live arguments; every value read here is owned by an
  // Owned; JS_FreezeObject on an ordinary object runs no code.
  let roots = arg(argc, argv, 0);
  let done = |ok: bool| qjs::JS_MKVAL(qjs::JS_TAG_BOOL, ok as i32);
  if !raw::is_object(roots) || raw::is_proxy(roots) {
    return done(false);
  }
  let mut todo = Vec::new();
  let Some(keys) = raw::Keys::of(c, roots) else { return done(false) };
  for i in 0..keys.len() {
    if let Some(d) = raw::own_property(c, roots, keys.atom(i)) {
      todo.push(d.value);
    }
  }
  drop(keys);
  let mut seen = std::collections::HashSet::new();
  while let Some(o) = todo.pop() {
    if !raw::is_object(o.v) || raw::is_proxy(o.v) || !seen.insert(raw::ptr(o.v)) {
      continue;
    }
    if qjs::JS_FreezeObject(c, o.v) < 0 {
      raw::clear_exception(c);
      return done(false);
    }
    todo.push(raw::proto(c, o.v));
    let Some(keys) = raw::Keys::of(c, o.v) else { return done(false) };
    for i in 0..keys.len() {
      if let Some(d) = raw::own_property(c, o.v, keys.atom(i)) {
        if d.is_accessor() {
          todo.push(d.getter);
          todo.push(d.setter);
        } else {
          todo.push(d.value);
        }
      }
    }
  }
  done(true)
}

/// `callCustom(method, value, depth, options)`: Node's call of a custom
/// `[nodejs.util.inspect.custom]` method (`method.call(value, depth, options, inspect)`),
/// made in the program's realm: `options` (this realm's null-prototype copy of the inspect
/// options) becomes a null-prototype object of the program's realm holding its primitive
/// entries and a `stylize` that returns its text; `inspect` is a function of the program's
/// realm that renders with this realm's `natives.inspectFor`. Whatever the method throws is
/// the program's and propagates.
unsafe extern "C" fn call_custom(
  c: *mut qjs::JSContext,
  this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: QuickJS passes `argc` live arguments; `this` is the realm's natives object (its
  // own data properties, read below, run no code); every value made here is owned by an
  // Owned or handed to JS_Call's caller.
  let program = PROGRAM.with(|p| p.get());
  if program.is_null() {
    return raw::exception(c, c"no program context");
  }
  let (method, value, depth, options) =
    (arg(argc, argv, 0), arg(argc, argv, 1), arg(argc, argv, 2), arg(argc, argv, 3));
  let copy =
    raw::Owned::new(program, qjs::JS_NewObjectProto(program, qjs::JS_MKVAL(qjs::JS_TAG_NULL, 0)));
  if raw::tag(copy.v) == qjs::JS_TAG_EXCEPTION {
    return qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0);
  }
  if raw::is_object(options) && !raw::is_proxy(options) {
    if let Some(keys) = raw::Keys::of(c, options) {
      for i in 0..keys.len() {
        let atom = keys.atom(i);
        let Some(d) = raw::own_property(c, options, atom) else { continue };
        if d.is_accessor() || raw::is_object(d.value.v) {
          continue;
        }
        let flags = (qjs::JS_PROP_C_W_E) as i32;
        qjs::JS_DefinePropertyValue(
          program,
          copy.v,
          atom,
          qjs::JS_DupValue(program, d.value.v),
          flags,
        );
      }
    }
  }
  let stylize = raw::Owned::new(
    program,
    qjs::JS_NewCFunction2(
      program,
      Some(stylize),
      c"stylize".as_ptr(),
      2,
      qjs::JSCFunctionEnum_JS_CFUNC_generic,
      0,
    ),
  );
  qjs::JS_SetPrototype(program, stylize.v, qjs::JS_MKVAL(qjs::JS_TAG_NULL, 0));
  qjs::JS_DefinePropertyValueStr(
    program,
    copy.v,
    c"stylize".as_ptr(),
    qjs::JS_DupValue(program, stylize.v),
    qjs::JS_PROP_C_W_E as i32,
  );
  let inspect_for = raw::Owned::new(c, qjs::JS_GetPropertyStr(c, this, c"inspectFor".as_ptr()));
  if !qjs::JS_IsFunction(c, inspect_for.v) {
    return raw::exception(c, c"inspectFor missing");
  }
  let mut data = [inspect_for.v];
  let inspect = raw::Owned::new(
    program,
    qjs::JS_NewCFunctionData(program, Some(inspect_bridge), 2, 0, 1, data.as_mut_ptr()),
  );
  if raw::tag(inspect.v) == qjs::JS_TAG_EXCEPTION {
    return qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0);
  }
  let mut args = [depth, copy.v, inspect.v];
  qjs::JS_Call(program, method, value, 3, args.as_mut_ptr())
}

/// The `stylize` a custom inspect method receives: `String(text)` (colors are off).
unsafe extern "C" fn stylize(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: QuickJS passes `argc` live arguments; JS_ToString returns an owned value.
  qjs::JS_ToString(c, arg(argc, argv, 0))
}

/// The `inspect` a custom inspect method receives: `natives.inspectFor(value, options)`.
unsafe extern "C" fn inspect_bridge(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
  _magic: i32,
  data: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: `data` holds the one function it was made with (the realm's inspectFor, alive
  // while the realm is); the arguments are live; the result is owned (a string, or an
  // exception the program threw from a getter inspectFor ran).
  let mut args = [arg(argc, argv, 0), arg(argc, argv, 1)];
  let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
  let _program = ProgramScope::enter(c);
  qjs::JS_Call(c, *data, undefined, 2, args.as_mut_ptr())
}

/// `dataOptions(options)`: this realm's plain object holding the own data properties of a
/// program's options object whose values are primitives (read without running code; a
/// Proxy or a non-object gives an empty object).
unsafe extern "C" fn data_options(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  // SAFETY: QuickJS passes `argc` live arguments; descriptors are read without running code;
  // the returned object is owned by the caller.
  let options = arg(argc, argv, 0);
  let out = qjs::JS_NewObject(c);
  if raw::tag(out) == qjs::JS_TAG_EXCEPTION || !raw::is_object(options) || raw::is_proxy(options) {
    return out;
  }
  if let Some(keys) = raw::Keys::of(c, options) {
    for i in 0..keys.len() {
      let atom = keys.atom(i);
      let Some(d) = raw::own_property(c, options, atom) else { continue };
      if d.is_accessor() || raw::is_object(d.value.v) || raw::tag(d.value.v) == qjs::JS_TAG_SYMBOL {
        continue;
      }
      if raw::tag(atom_value(c, atom).v) == qjs::JS_TAG_SYMBOL {
        continue;
      }
      qjs::JS_DefinePropertyValue(
        c,
        out,
        atom,
        qjs::JS_DupValue(c, d.value.v),
        qjs::JS_PROP_C_W_E as i32,
      );
    }
  }
  out
}

/// An atom's key as an owned value.
fn atom_value(c: *mut qjs::JSContext, atom: qjs::JSAtom) -> raw::Owned {
  // SAFETY: JS_AtomToValue returns a new reference.
  unsafe { raw::Owned::new(c, qjs::JS_AtomToValue(c, atom)) }
}
