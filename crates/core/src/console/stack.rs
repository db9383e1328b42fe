//! V8-shaped `error.stack`: `Name: message` then `    at …` frames whose positions are in
//! the program as written, our wrapper's and preludes' frames removed.
//!
//! QuickJS calls `Error.prepareStackTrace` (its V8-compatible hook) with the error and
//! its call sites whenever it records a stack. Ours (hidden: the program sees the property
//! as V8's `undefined` until it sets its own, which then takes over as in V8) formats the
//! frames at once, in V8's layout, and gives the error an own `stack` accessor. Like V8, the
//! text is completed on first read — so a `name` set in a subclass constructor, or a
//! `message` changed before anyone looked, both show — and then kept as the error's own
//! non-enumerable data property, which the program can overwrite or delete (after which it
//! reads `undefined`, as in V8). The frames wait in a `WeakMap` of the program's realm that
//! only the engine can reach, so they die with their error.
//!
//! The exception message of a failed run is built from the same pieces without running
//! program code ([`Stacks::of_thrown`]).

use crate::quickjs::raw;
use code_runtime_transpile::{PositionMap, PROGRAM_FILE};
use rquickjs::function::{Constructor, Rest, This};
use rquickjs::{qjs, Ctx, Function, Object, Persistent, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// The per-run state `error.stack` reaches (the run implements it).
pub trait StacksWorld: 'static {
  fn stacks(&self) -> &Stacks;
}

/// One run's stack formatting state.
#[derive(Default)]
pub struct Stacks {
  positions: RefCell<PositionMap>,
  engine: RefCell<Option<Engine>>,
  /// The binding namespaces: a native frame called on one of them is the host's, which
  /// the program never sees (held so that their addresses stay theirs).
  host_receivers: RefCell<Vec<(usize, Persistent<Object<'static>>)>>,
  /// `Function.prototype.call`/`apply` and `Reflect.apply` of the realm: V8 shows no frame
  /// for them (held, as above).
  transparent: RefCell<Vec<(usize, Persistent<Object<'static>>)>>,
}

/// What the hook needs from the program's realm, taken while it was pristine.
struct Engine {
  /// error → its frames text.
  frames: Persistent<Object<'static>>,
  weak_get: Persistent<Function<'static>>,
  weak_set: Persistent<Function<'static>>,
  /// The own `stack` accessor every fresh error gets.
  getter: Persistent<Function<'static>>,
  /// The getter's object address (kept alive by `getter`), to recognise it.
  getter_ptr: usize,
  setter: Persistent<Function<'static>>,
  /// What the program assigned to `Error.prepareStackTrace`, if anything.
  program_prepare: Option<Persistent<Value<'static>>>,
}

/// Mirror of QuickJS's `JSCallSiteData` (quickjs.c of rquickjs-sys 0.14.0, pinned by
/// Cargo.lock); the engine test `call_sites_are_read_as_quickjs_writes_them` checks it.
#[repr(C)]
struct CallSiteData {
  filename: qjs::JSValue,
  func: qjs::JSValue,
  func_name: qjs::JSValue,
  native: bool,
  constructor: bool,
  line_num: i32,
  col_num: i32,
  /// The frame's receiver (ours, `code-runtime-quickjs` in vendor/README.md).
  this_val: qjs::JSValue,
  /// An async frame: an async function awaiting further up a promise chain.
  is_async: bool,
  /// For an async `Promise.all`/`allSettled` frame, the element's index; else -1.
  promise_index: i32,
}

impl Stacks {
  /// The program's positions, once it is transpiled (a session: its current run's).
  pub fn set_positions(&self, positions: PositionMap) {
    *self.positions.borrow_mut() = positions;
  }

  /// Releases the engine values held here. Must run before the context is freed.
  pub fn clear(&self) {
    self.engine.borrow_mut().take();
    self.host_receivers.borrow_mut().clear();
    self.transparent.borrow_mut().clear();
  }

  /// Native frames of functions called on `receiver` (a binding namespace) are the host's:
  /// no stack shows them.
  pub fn hide_native_frames_of<'js>(&self, ctx: &Ctx<'js>, receiver: Object<'js>) {
    let ptr = raw::ptr(receiver.as_raw());
    self.host_receivers.borrow_mut().push((ptr, Persistent::save(ctx, receiver)));
  }

  fn host_receiver_ptrs(&self) -> Vec<usize> {
    self.host_receivers.borrow().iter().map(|(p, _)| *p).collect()
  }

  fn transparent_ptrs(&self) -> Vec<usize> {
    self.transparent.borrow().iter().map(|(p, _)| *p).collect()
  }

  /// The frames recorded for `error`, read without running program code.
  fn frames_of<'js>(&self, ctx: &Ctx<'js>, error: &Value<'js>) -> Option<String> {
    let (map, get) = {
      let engine = self.engine.borrow();
      let e = engine.as_ref()?;
      (e.frames.clone(), e.weak_get.clone())
    };
    let map = map.restore(ctx).ok()?;
    let text: Value = get.restore(ctx).ok()?.call((This(map), error.clone())).ok()?;
    text.as_string().and_then(|s| s.to_string().ok())
  }

  /// The frames of the current call stack, innermost first, as `error.stack` shows them
  /// (a host function calling this has no frame of its own); empty if the program took over
  /// `Error.prepareStackTrace`.
  pub fn current_frames<'js>(&self, ctx: &Ctx<'js>) -> String {
    let c = ctx.as_raw().as_ptr();
    // SAFETY: JS_NewError returns a new reference (or JS_EXCEPTION) that Value::from_raw
    // takes over; QuickJS records the stack through our hook while making it.
    let error = unsafe { Value::from_raw(ctx.clone(), qjs::JS_NewError(c)) };
    if raw::tag(error.as_raw()) == qjs::JS_TAG_EXCEPTION {
      raw::clear_exception(c);
      return String::new();
    }
    self.frames_of(ctx, &error).unwrap_or_default()
  }

  fn is_our_getter(&self, v: qjs::JSValue) -> bool {
    let engine = self.engine.borrow();
    let Some(e) = engine.as_ref() else {
      return false;
    };
    raw::is_object(v) && raw::ptr(v) == e.getter_ptr
  }

  /// The `exception` message text of a thrown Error, read without running program code: its
  /// own `stack` data property when it has one (already read, or the program's own text),
  /// else `Name: message` from data properties and the recorded frames.
  pub fn of_thrown<'js>(&self, ctx: &Ctx<'js>, error: &Value<'js>) -> String {
    let c = ctx.as_raw().as_ptr();
    let v = error.as_raw();
    let atom = raw::Atom::new(c, c"stack");
    if let Some(d) = raw::own_property(c, v, atom.atom) {
      if !d.is_accessor() && raw::is_string(d.value.v) {
        return lossy(raw::string_bytes(c, d.value.v));
      }
      if d.is_accessor() && self.is_our_getter(d.getter.v) {
        let frames = self.frames_of(ctx, error).unwrap_or_default();
        return join(safe_header(c, v), &frames);
      }
    }
    safe_header(c, v)
  }
}

fn lossy(bytes: Option<Vec<u8>>) -> String {
  String::from_utf8_lossy(&bytes.unwrap_or_default()).into_owned()
}

fn join(header: String, frames: &str) -> String {
  if frames.is_empty() {
    header
  } else {
    format!("{header}\n{frames}")
  }
}

/// V8's header (`ErrorUtils::ToString`) from data properties only.
fn safe_header(c: *mut qjs::JSContext, v: qjs::JSValue) -> String {
  let header = header_bytes(raw::data_string(c, v, c"name"), raw::data_string(c, v, c"message"));
  String::from_utf8_lossy(&header).into_owned()
}

/// `ErrorUtils::ToString`'s joining of a (WTF-8) name and message.
fn header_bytes(name: Option<Vec<u8>>, message: Option<Vec<u8>>) -> Vec<u8> {
  let name = name.unwrap_or_else(|| b"Error".to_vec());
  let message = message.unwrap_or_default();
  match (name.is_empty(), message.is_empty()) {
    (_, true) => name,
    (true, false) => message,
    (false, false) => [name.as_slice(), b": ", &message].concat(),
  }
}

/// V8's header with ordinary `[[Get]]`s and `String()`: the program is reading its own
/// error's `stack`, so its getters may run. As in V8, a `name` or `message` that cannot
/// become a string (a getter that throws, a null-prototype object, a Symbol) makes the read
/// of `stack` throw that error, and the stack stays unformatted until a read succeeds.
fn program_header<'js>(this: &Object<'js>) -> rquickjs::Result<Vec<u8>> {
  let read = |key: &str| -> rquickjs::Result<Option<Vec<u8>>> {
    let v: Value = this.get(key)?;
    if v.is_undefined() {
      return Ok(None);
    }
    let s: rquickjs::convert::Coerced<rquickjs::String> = v.get()?;
    // WTF-8: a lone surrogate in the name or message stays one in the stack.
    Ok(Some(raw::string_bytes(this.ctx().as_raw().as_ptr(), s.0.as_raw()).unwrap_or_default()))
  };
  Ok(header_bytes(read("name")?, read("message")?))
}

/// Whether Node's `inspect` would show this error as its stack alone: own keys only `stack`
/// and `message`, and a constructor whose name is the error's `name` (else Node writes
/// `Sub [Error]`). Read without running program code; `false` when unsure.
pub(crate) fn shows_only_its_stack(c: *mut qjs::JSContext, v: qjs::JSValue) -> bool {
  let Some(keys) = raw::Keys::of(c, v) else {
    return false;
  };
  for i in 0..keys.len() {
    match raw::atom_key(c, keys.atom(i)) {
      Some(raw::Key::String(k)) if k == b"stack" || k == b"message" => {}
      _ => return false,
    }
  }
  let Some(constructor) = raw::data_property(c, v, c"constructor") else {
    return false;
  };
  if !raw::is_object(constructor.v) || raw::is_proxy(constructor.v) {
    return false;
  }
  let ctor_name = raw::data_string(c, constructor.v, c"name");
  ctor_name.is_some() && ctor_name == raw::data_string(c, v, c"name")
}

/// Gives `error` the own `stack` data property `text` (replacing our accessor, never a
/// program's own data property).
pub(crate) fn keep_stack<'js>(ctx: &Ctx<'js>, error: &Value<'js>, text: &str) {
  let c = ctx.as_raw().as_ptr();
  let atom = raw::Atom::new(c, c"stack");
  if let Some(d) = raw::own_property(c, error.as_raw(), atom.atom) {
    if !d.is_accessor() {
      return;
    }
  }
  let (Some(obj), Ok(value)) = (error.as_object(), rquickjs::String::from_str(ctx.clone(), text))
  else {
    return;
  };
  if define_stack(ctx, obj, value.into_value()).is_err() {
    raw::clear_exception(c);
  }
}

fn define_stack<'js>(ctx: &Ctx<'js>, obj: &Object<'js>, value: Value<'js>) -> rquickjs::Result<()> {
  raw::define(ctx, obj, "stack", value, qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE)
}

/// Call sites → V8's frame lines: `    at name (program.ts:L:C)` with positions mapped into
/// the program, named as V8 names them (`Svc.run` for a method called on an instance of
/// `Svc`, `Object.f [as g]`, `new Foo`, `get x`, `async outer` for an async function
/// awaiting further up the chain, `async Promise.all (index 0)`), a bare location for
/// anonymous functions, `(<anonymous>)` for native ones; our wrapper's `<eval>` frame,
/// prelude frames and the host's (binding functions) dropped.
fn format_call_sites(
  c: *mut qjs::JSContext,
  sites: qjs::JSValue,
  positions: &PositionMap,
  hidden: &[usize],
  transparent: &[usize],
) -> String {
  let mut out = String::new();
  if !raw::is_object(sites) || raw::is_proxy(sites) {
    return out;
  }
  // SAFETY: JS_GetGlobalObject returns a new reference, which Owned frees.
  let global = unsafe { raw::Owned::new(c, qjs::JS_GetGlobalObject(c)) };
  for i in 0..64u32 {
    let atom = raw::Atom::index(c, i);
    let Some(d) = raw::own_property(c, sites, atom.atom) else {
      break;
    };
    let site = d.value.v;
    if !raw::is_object(site) {
      break;
    }
    // SAFETY: JS_GetOpaque returns the object's opaque pointer only when its class is the
    // one asked for (the object's own class here); call sites carry a JSCallSiteData, which
    // `CallSiteData` mirrors, alive as long as the object (held through `d`).
    let data = unsafe { qjs::JS_GetOpaque(site, raw::class_id(site)) as *const CallSiteData };
    if data.is_null() {
      break;
    }
    // SAFETY: see above; the fields are read, not kept.
    let data = unsafe { &*data };
    let text = |v: qjs::JSValue| raw::is_string(v).then(|| lossy(raw::string_bytes(c, v)));
    let name = text(data.func_name).filter(|n| !n.is_empty());
    let file = text(data.filename);
    let in_program = file.as_deref() == Some(PROGRAM_FILE);
    // Our wrapper, preludes, the engine's own evaluated helpers (binding error classes,
    // `eval_script`) and the JSON parser's position in its text (`<input>`): frames V8
    // would not show. A binding function's frame is the host's.
    if (in_program && name.as_deref() == Some("<eval>"))
      || file.as_deref().is_some_and(|f| f.starts_with("prelude/") || f == ENGINE_EVAL_FILE)
      || (file.as_deref() == Some(JSON_INPUT_FILE) && name.is_none())
      || (data.native && raw::is_object(data.this_val) && hidden.contains(&raw::ptr(data.this_val)))
      || (data.native && raw::is_object(data.func) && transparent.contains(&raw::ptr(data.func)))
    {
      continue;
    }
    let location = if data.native {
      "<anonymous>".to_owned()
    } else {
      let file = file.unwrap_or_else(|| "<anonymous>".to_owned());
      match (data.line_num, data.col_num) {
        (l, c) if l > 0 && c > 0 => {
          let (l, c) = (l as u32, c as u32);
          let (l, c) = if in_program { positions.original(l, c).unwrap_or((l, c)) } else { (l, c) };
          format!("{file}:{l}:{c}")
        }
        _ => file,
      }
    };
    if !out.is_empty() {
      out.push('\n');
    }
    out.push_str("    at ");
    if data.is_async {
      out.push_str("async ");
      if data.promise_index >= 0 {
        let combinator = name.as_deref().unwrap_or("Promise.all");
        out.push_str(&format!("{combinator} (index {})", data.promise_index));
        continue;
      }
    }
    let top_level = !raw::is_object(data.this_val) && is_nullish(data.this_val)
      || (raw::is_object(data.this_val) && raw::ptr(data.this_val) == raw::ptr(global.v));
    if data.constructor {
      out.push_str("new ");
      out.push_str(name.as_deref().unwrap_or("<anonymous>"));
      out.push_str(&format!(" ({location})"));
      continue;
    }
    let native_owner =
      if data.native { name.as_deref().and_then(|n| native_owner(c, data.func, n)) } else { None };
    match (native_owner, name) {
      (Some(owner), Some(name)) => out.push_str(&format!("{owner}.{name} ({location})")),
      (None, name) if !top_level => {
        out.push_str(&method_call(c, data.this_val, data.func, name.as_deref()));
        out.push_str(&format!(" ({location})"));
      }
      (_, Some(name)) => out.push_str(&format!("{name} ({location})")),
      (_, None) => out.push_str(&location),
    }
  }
  out
}

fn is_nullish(v: qjs::JSValue) -> bool {
  let t = raw::tag(v);
  t == qjs::JS_TAG_UNDEFINED || t == qjs::JS_TAG_NULL
}

/// V8's `AppendMethodCall`: `Type.name`, `Type.name [as key]` when the function was found
/// under another key, `Type.key` or `Type.<anonymous>` for a nameless function. A name V8
/// shows alone — an accessor's (`get x`), a private method's (`#x`), a symbol-keyed one's
/// (`[s]`) — stays alone.
fn method_call(
  c: *mut qjs::JSContext,
  this: qjs::JSValue,
  func: qjs::JSValue,
  name: Option<&str>,
) -> String {
  if let Some(name) = name {
    if name.starts_with("get ") || name.starts_with("set ") || name.starts_with(['#', '[']) {
      return name.to_owned();
    }
  }
  let type_name = type_name(c, this);
  let method = method_name(c, this, func, name.unwrap_or(""));
  let mut out = String::new();
  match name {
    Some(name) => {
      if let Some(t) = type_name.as_deref().filter(|t| !name.starts_with(*t)) {
        out.push_str(t);
        out.push('.');
      }
      out.push_str(name);
      if let Some(m) = method.filter(|m| !ends_with_method_name(name, m)) {
        out.push_str(&format!(" [as {m}]"));
      }
    }
    None => {
      if let Some(t) = type_name {
        out.push_str(&t);
        out.push('.');
      }
      out.push_str(method.as_deref().unwrap_or("<anonymous>"));
    }
  }
  out
}

fn ends_with_method_name(subject: &str, method: &str) -> bool {
  subject == method || subject.strip_suffix(method).is_some_and(|rest| rest.ends_with('.'))
}

/// How many prototypes the name searches look at, and how many own properties an object
/// may have for its keys to be searched: the receiver is the program's, and this runs for
/// every frame of every error.
const CHAIN_LIMIT: usize = 32;
const KEYS_LIMIT: u32 = 256;
/// `JS_CLASS_OBJECT` in quickjs.c's class enum.
const JS_CLASS_OBJECT: u32 = 1;

/// V8's `GetTypeName` read without running program code: a function receiver's own name,
/// `Proxy`, a primitive's wrapper name, else the name of the first `constructor` (a data
/// property holding a named function other than `Object`) up the receiver's prototype
/// chain, else `Object`/`Array`/`Function` by its class.
fn type_name(c: *mut qjs::JSContext, this: qjs::JSValue) -> Option<String> {
  let t = raw::tag(this);
  if !raw::is_object(this) {
    return match t {
      qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => Some("String".into()),
      qjs::JS_TAG_INT | qjs::JS_TAG_FLOAT64 => Some("Number".into()),
      qjs::JS_TAG_BOOL => Some("Boolean".into()),
      qjs::JS_TAG_SYMBOL => Some("Symbol".into()),
      qjs::JS_TAG_BIG_INT | qjs::JS_TAG_SHORT_BIG_INT => Some("BigInt".into()),
      _ => None,
    };
  }
  if raw::is_proxy(this) {
    return Some("Proxy".into());
  }
  // SAFETY: JS_IsFunction inspects the class only.
  if unsafe { qjs::JS_IsFunction(c, this) } {
    if let Some(n) = raw::data_string(c, this, c"name").filter(|n| !n.is_empty()) {
      return Some(String::from_utf8_lossy(&n).into_owned());
    }
  }
  let constructor = raw::Atom::new(c, c"constructor");
  let mut cur = raw::proto(c, this);
  for _ in 0..CHAIN_LIMIT {
    if !raw::is_object(cur.v) || raw::is_proxy(cur.v) {
      break;
    }
    if let Some(d) = raw::own_property(c, cur.v, constructor.atom).filter(|d| !d.is_accessor()) {
      // SAFETY: as above.
      if raw::is_object(d.value.v) && unsafe { qjs::JS_IsFunction(c, d.value.v) } {
        if let Some(n) = raw::data_string(c, d.value.v, c"name") {
          if !n.is_empty() && n != b"Object" {
            return Some(String::from_utf8_lossy(&n).into_owned());
          }
        }
      }
    }
    cur = raw::proto(c, cur.v);
  }
  // SAFETY: as above.
  Some(if unsafe { qjs::JS_IsArray(this) } {
    "Array".into()
  } else if unsafe { qjs::JS_IsFunction(c, this) } {
    "Function".into()
  } else {
    "Object".into()
  })
}

/// V8's `GetMethodName`: the key under which the receiver (or its prototype chain) holds
/// the function, as a data property or an accessor's half: the function's own name if that
/// key holds it, else the one key found holding it (none when several do).
fn method_name(
  c: *mut qjs::JSContext,
  this: qjs::JSValue,
  func: qjs::JSValue,
  name: &str,
) -> Option<String> {
  if !raw::is_object(func) {
    return None;
  }
  let target = raw::ptr(func);
  let holds = |d: &raw::Descriptor| {
    let is = |v: qjs::JSValue| raw::is_object(v) && raw::ptr(v) == target;
    if d.is_accessor() {
      is(d.getter.v) || is(d.setter.v)
    } else {
      is(d.value.v)
    }
  };
  // The chain: the receiver itself (a primitive's is its wrapper's prototype).
  // SAFETY: JS_DupValue adds the reference Owned releases.
  let first = if raw::is_object(this) {
    unsafe { raw::Owned::new(c, qjs::JS_DupValue(c, this)) }
  } else {
    raw::proto(c, this)
  };
  let mut chain = Vec::new();
  let mut cur = first;
  for _ in 0..CHAIN_LIMIT {
    if !raw::is_object(cur.v) || raw::is_proxy(cur.v) {
      break;
    }
    let next = raw::proto(c, cur.v);
    chain.push(cur);
    cur = next;
  }
  if !name.is_empty() {
    if let Ok(key) = std::ffi::CString::new(name) {
      let atom = raw::Atom::new(c, &key);
      for holder in &chain {
        if let Some(d) = raw::own_property(c, holder.v, atom.atom) {
          if holds(&d) {
            return Some(name.to_owned());
          }
          break;
        }
      }
    }
  }
  let mut found: Option<Vec<u8>> = None;
  for holder in &chain {
    // Only ordinary objects of a few keys: listing an array's (or a typed array's, or a
    // huge object's) keys would cost the program's size on every frame.
    let small_object = raw::class_id(holder.v) == JS_CLASS_OBJECT
      && raw::object_shape(holder.v).is_some_and(|(_, _, slots)| slots <= KEYS_LIMIT);
    if !small_object {
      continue;
    }
    let Some(keys) = raw::Keys::of(c, holder.v) else {
      continue;
    };
    for k in 0..keys.len() {
      let Some(d) = raw::own_property(c, holder.v, keys.atom(k)) else {
        continue;
      };
      if !holds(&d) {
        continue;
      }
      let Some(raw::Key::String(key)) = raw::atom_key(c, keys.atom(k)) else {
        continue;
      };
      match &found {
        Some(f) if *f != key => return None,
        _ => found = Some(key),
      }
    }
  }
  found.map(|k| String::from_utf8_lossy(&k).into_owned())
}

/// The file name rquickjs gives code evaluated without one: the engine's own helpers.
const ENGINE_EVAL_FILE: &str = "eval_script";
/// The file of QuickJS's nameless frame for a position in the text `JSON.parse` reads (code
/// run by `eval` has that file too, in frames named `<eval>`).
const JSON_INPUT_FILE: &str = "<input>";

/// V8 names a built-in method by its receiver's type: `Array.map`, `String.replace`,
/// `JSON.parse`. A native frame's function is looked up, by identity and without running
/// code (own data properties only), among the methods of `Array.prototype`,
/// `String.prototype` and `JSON` of the realm.
fn native_owner(c: *mut qjs::JSContext, func: qjs::JSValue, name: &str) -> Option<&'static str> {
  if !raw::is_object(func) {
    return None;
  }
  let key = std::ffi::CString::new(name).ok()?;
  let atom = raw::Atom::new(c, &key);
  let holds = |holder: qjs::JSValue| {
    raw::is_object(holder)
      && !raw::is_proxy(holder)
      && raw::own_property(c, holder, atom.atom).is_some_and(|d| {
        !d.is_accessor() && raw::is_object(d.value.v) && raw::ptr(d.value.v) == raw::ptr(func)
      })
  };
  // JS_CLASS_ARRAY and JS_CLASS_STRING in quickjs.c's class enum.
  for (class, owner) in [(2, "Array"), (5, "String")] {
    // SAFETY: JS_GetClassProto returns a new reference to the realm's prototype of a class.
    let proto = unsafe { raw::Owned::new(c, qjs::JS_GetClassProto(c, class)) };
    if holds(proto.v) {
      return Some(owner);
    }
  }
  // SAFETY: JS_GetGlobalObject returns a new reference.
  let global = unsafe { raw::Owned::new(c, qjs::JS_GetGlobalObject(c)) };
  let json = raw::Atom::new(c, c"JSON");
  let json = raw::own_property(c, global.v, json.atom).filter(|d| !d.is_accessor())?;
  holds(json.value.v).then_some("JSON")
}

/// Installs the hook in the program's realm (before the program runs, while its built-ins
/// are the engine's own).
pub fn install<'js, W: StacksWorld>(
  ctx: &Ctx<'js>,
  globals: &Object<'js>,
  shared: &Rc<W>,
) -> rquickjs::Result<()> {
  let weak_map: Constructor = globals.get("WeakMap")?;
  let weak_proto: Object = weak_map.get("prototype")?;
  let frames: Object = weak_map.construct(())?;
  let weak_get: Function = weak_proto.get("get")?;
  let weak_set: Function = weak_proto.get("set")?;

  let s = shared.clone();
  let getter = Function::new(ctx.clone(), move |ctx: Ctx<'js>, this: This<Value<'js>>| {
    read_stack(&ctx, &*s, this.0)
  })?
  .with_name("stack")?;
  let setter = Function::new(
    ctx.clone(),
    move |ctx: Ctx<'js>, this: This<Value<'js>>, value: Rest<Value<'js>>| -> rquickjs::Result<()> {
      let value = value.0.into_iter().next().unwrap_or_else(|| Value::new_undefined(ctx.clone()));
      match this.0.as_object() {
        Some(obj) if !raw::is_proxy(obj.as_raw()) => define_stack(&ctx, obj, value),
        _ => Ok(()),
      }
    },
  )?
  .with_name("stack")?;
  let getter_ptr = raw::ptr(getter.as_raw());
  let function_ctor: Object = globals.get("Function")?;
  let function_proto: Object = function_ctor.get("prototype")?;
  let reflect: Object = globals.get("Reflect")?;
  let mut transparent = Vec::new();
  for f in [function_proto.get("call")?, function_proto.get("apply")?, reflect.get("apply")?] {
    let f: Object = f;
    transparent.push((raw::ptr(f.as_raw()), Persistent::save(ctx, f)));
  }
  *shared.stacks().transparent.borrow_mut() = transparent;
  *shared.stacks().engine.borrow_mut() = Some(Engine {
    frames: Persistent::save(ctx, frames),
    weak_get: Persistent::save(ctx, weak_get),
    weak_set: Persistent::save(ctx, weak_set),
    getter: Persistent::save(ctx, getter),
    getter_ptr,
    setter: Persistent::save(ctx, setter),
    program_prepare: None,
  });

  let s = shared.clone();
  let prepare = Function::new(
    ctx.clone(),
    move |ctx: Ctx<'js>, error: Value<'js>, sites: Value<'js>| -> rquickjs::Result<Value<'js>> {
      prepare_stack(&ctx, &*s, error, sites)
    },
  )?
  .with_name("prepareStackTrace")?;
  let error_ctor: Object = globals.get("Error")?;
  // QuickJS's own setter stores the hook in the context.
  error_ctor.set("prepareStackTrace", prepare)?;
  // The program sees V8's default (`undefined`) and may install its own, which ours defers to.
  let s = shared.clone();
  let get_prepare =
    Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> rquickjs::Result<Value<'js>> {
      let engine = s.stacks().engine.borrow();
      match engine.as_ref().and_then(|e| e.program_prepare.clone()) {
        Some(p) => p.restore(&ctx),
        None => Ok(Value::new_undefined(ctx.clone())),
      }
    })?
    .with_name("prepareStackTrace")?;
  let s = shared.clone();
  let set_prepare = Function::new(
    ctx.clone(),
    move |ctx: Ctx<'js>, value: Rest<Value<'js>>| -> rquickjs::Result<()> {
      let value = value.0.into_iter().next().filter(|v| !v.is_undefined());
      if let Some(e) = s.stacks().engine.borrow_mut().as_mut() {
        e.program_prepare = value.map(|v| Persistent::save(&ctx, v));
      }
      Ok(())
    },
  )?
  .with_name("prepareStackTrace")?;
  let c = ctx.as_raw().as_ptr();
  let atom = raw::Atom::new(c, c"prepareStackTrace");
  // SAFETY: both functions are live values of this context; JS_DefinePropertyGetSet takes
  // the references we dup for it.
  unsafe {
    let r = qjs::JS_DefinePropertyGetSet(
      c,
      error_ctor.as_raw(),
      atom.atom,
      qjs::JS_DupValue(c, get_prepare.as_raw()),
      qjs::JS_DupValue(c, set_prepare.as_raw()),
      qjs::JS_PROP_CONFIGURABLE as i32,
    );
    if r < 0 {
      return Err(rquickjs::Error::Exception);
    }
  }
  Ok(())
}

/// QuickJS recorded a stack for `error`: keep its frames and give it the own accessor.
/// Returns the whole text, which QuickJS keeps only for `Error.captureStackTrace`.
fn prepare_stack<'js, W: StacksWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  error: Value<'js>,
  sites: Value<'js>,
) -> rquickjs::Result<Value<'js>> {
  let program_prepare =
    shared.stacks().engine.borrow().as_ref().and_then(|e| e.program_prepare.clone());
  if let Some(p) = program_prepare {
    let p = p.restore(ctx)?;
    return match p.as_function() {
      Some(f) => f.call((error, sites)),
      None => Ok(Value::new_undefined(ctx.clone())),
    };
  }
  // QuickJS records a stack for every value thrown across a call, primitives included;
  // only objects keep one.
  let Some(obj) = error.as_object().filter(|o| !raw::is_proxy(o.as_raw())) else {
    return Ok(Value::new_undefined(ctx.clone()));
  };
  let c = ctx.as_raw().as_ptr();
  let hidden = shared.stacks().host_receiver_ptrs();
  let transparent = shared.stacks().transparent_ptrs();
  let frames = format_call_sites(
    c,
    sites.as_raw(),
    &shared.stacks().positions.borrow(),
    &hidden,
    &transparent,
  );
  let whole = join(safe_header(c, obj.as_raw()), &frames);
  let (map, set, getter, setter) = {
    let engine = shared.stacks().engine.borrow();
    let Some(e) = engine.as_ref() else {
      return Ok(Value::new_undefined(ctx.clone()));
    };
    (e.frames.clone(), e.weak_set.clone(), e.getter.clone(), e.setter.clone())
  };
  let frames_value = rquickjs::String::from_str(ctx.clone(), &frames)?;
  let _: Value = set.restore(ctx)?.call((This(map.restore(ctx)?), obj.clone(), frames_value))?;
  let (getter, setter) = (getter.restore(ctx)?, setter.restore(ctx)?);
  let atom = raw::Atom::new(c, c"stack");
  // SAFETY: the getter and setter are live functions of this context; JS_DefinePropertyGetSet
  // takes the references we dup for it. `obj` is an ordinary object (not a Proxy), so
  // defining runs no program code.
  unsafe {
    qjs::JS_DefinePropertyGetSet(
      c,
      obj.as_raw(),
      atom.atom,
      qjs::JS_DupValue(c, getter.as_raw()),
      qjs::JS_DupValue(c, setter.as_raw()),
      qjs::JS_PROP_CONFIGURABLE as i32,
    );
  }
  Ok(rquickjs::String::from_str(ctx.clone(), &whole)?.into_value())
}

/// The program read an error's `stack` for the first time: complete it, keep it.
fn read_stack<'js, W: StacksWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  this: Value<'js>,
) -> rquickjs::Result<Value<'js>> {
  let Some(obj) = this.as_object().filter(|o| !raw::is_proxy(o.as_raw())) else {
    return Ok(Value::new_undefined(ctx.clone()));
  };
  let Some(frames) = shared.stacks().frames_of(ctx, &this) else {
    return Ok(Value::new_undefined(ctx.clone()));
  };
  let mut text = program_header(obj)?;
  if !frames.is_empty() {
    text.push(b'\n');
    text.extend_from_slice(frames.as_bytes());
  }
  let c = ctx.as_raw().as_ptr();
  // SAFETY: JS_NewStringLen copies the WTF-8 bytes into a new string (lone surrogates
  // decode to themselves) and returns an owned reference or JS_EXCEPTION (out of memory,
  // then pending), which `Value::from_raw` takes over.
  let raw_text = unsafe { qjs::JS_NewStringLen(c, text.as_ptr().cast(), text.len() as _) };
  if raw::tag(raw_text) == qjs::JS_TAG_EXCEPTION {
    return Err(rquickjs::Error::Exception);
  }
  // SAFETY: an owned, non-exception value of this context.
  let value = unsafe { Value::from_raw(ctx.clone(), raw_text) };
  // A frozen error keeps nothing; its next read formats again.
  if define_stack(ctx, obj, value.clone()).is_err() {
    raw::clear_exception(ctx.as_raw().as_ptr());
  }
  Ok(value)
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn header_follows_error_to_string() {
    let h = |n: Option<&str>, m: Option<&str>| {
      header_bytes(n.map(|s| s.as_bytes().to_vec()), m.map(|s| s.as_bytes().to_vec()))
    };
    assert_eq!(h(None, None), b"Error");
    assert_eq!(h(Some("TypeError"), Some("x")), b"TypeError: x");
    assert_eq!(h(Some(""), Some("x")), b"x");
    assert_eq!(h(Some("E"), Some("")), b"E");
  }
}
