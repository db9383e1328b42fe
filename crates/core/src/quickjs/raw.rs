//! Reading engine values without running program code.
//!
//! rquickjs's `get`/`own_props` perform ordinary `[[Get]]`s, which run getters and Proxy
//! traps. Everything that reads a program's values on the engine's behalf (the JSON bridge,
//! log rendering, exception messages) goes through these wrappers instead: they look at own
//! property *descriptors* and prototypes only, and refuse Proxies before touching them.
//!
//! All functions take a raw context and borrowed (not owned) values; every value they
//! return is owned by the caller and released by [`Owned`]'s `Drop`, except the result
//! walk's direct reads (`dense_array_element`, `object_slot_value`), which lend values the
//! caller's object holds. The binding calls' promises (`pending_promise`, `settle_promise`)
//! are rquickjs values: they live in the call table between slices.

use rquickjs::{qjs, Ctx, Value};
use std::ffi::c_void;

/// An owned engine value, freed on drop.
pub struct Owned {
  ctx: *mut qjs::JSContext,
  pub v: qjs::JSValue,
}

impl Owned {
  /// SAFETY (callers): `v` is a value the caller owns a reference to, in `ctx`'s runtime.
  pub(crate) unsafe fn new(ctx: *mut qjs::JSContext, v: qjs::JSValue) -> Self {
    Owned { ctx, v }
  }

  /// The context the value is released in.
  pub(crate) fn ctx(&self) -> *mut qjs::JSContext {
    self.ctx
  }
}

impl Drop for Owned {
  fn drop(&mut self) {
    // SAFETY: we own exactly one reference to `v`, created in `ctx`, which outlives us
    // (Owned values never leave the `ctx.with` call that made them).
    unsafe { qjs::JS_FreeValue(self.ctx, self.v) }
  }
}

// Our additions to the vendored QuickJS (`vendor/README.md`); rquickjs-sys's pregenerated
// bindings do not list them.
extern "C" {
  /// Defines `Date`, the typed arrays and `DOMException` as globals added on first read.
  pub(crate) fn JS_AddLazyIntrinsics(ctx: *mut qjs::JSContext) -> std::ffi::c_int;
  /// Seeds `Math.random` (QuickJS seeds it from the time of day in microseconds).
  pub(crate) fn JS_SetRandomSeed(ctx: *mut qjs::JSContext, seed: u64);
  fn JS_GetDenseArray(obj: qjs::JSValue, len: *mut u32, proto: *mut *mut c_void) -> bool;
  /// Charges native work to the interrupt counter; -1 (interrupted, pending) to stop.
  fn JS_PollWork(ctx: *mut qjs::JSContext, units: i64) -> std::ffi::c_int;
  /// Records `error`'s stack as the async frames of whatever awaits `promise`.
  fn JS_CaptureAwaitStack(ctx: *mut qjs::JSContext, error: qjs::JSValue, promise: qjs::JSValue);
  fn JS_GetStringLength(v: qjs::JSValue) -> i64;
  fn JS_GetDenseArrayElement(obj: qjs::JSValue, i: u32) -> qjs::JSValue;
  fn JS_GetObjectShape(
    obj: qjs::JSValue,
    proto: *mut *mut c_void,
    slots: *mut u32,
  ) -> *const c_void;
  fn JS_GetObjectSlotName(
    ctx: *mut qjs::JSContext,
    obj: qjs::JSValue,
    i: u32,
    atom: *mut qjs::JSAtom,
  ) -> std::ffi::c_int;
  fn JS_GetObjectSlotValue(obj: qjs::JSValue, i: u32) -> qjs::JSValue;
  fn JS_GetLatin1String(v: qjs::JSValue, len: *mut u32) -> *const u8;
  fn JS_GetDateValue(v: qjs::JSValue, time: *mut f64) -> bool;
  /// An ordinary object with `tmpl`'s shape holding `values` (taken); JS_UNINITIALIZED
  /// (values untouched) when `tmpl` is not an object of `count` plain data properties.
  pub(crate) fn JS_NewObjectLike(
    ctx: *mut qjs::JSContext,
    tmpl: qjs::JSValue,
    count: u32,
    values: *mut qjs::JSValue,
  ) -> qjs::JSValue;
  fn JS_NewPendingPromise(ctx: *mut qjs::JSContext) -> qjs::JSValue;
  fn JS_SettlePromise(
    ctx: *mut qjs::JSContext,
    promise: qjs::JSValue,
    value: qjs::JSValue,
    is_reject: bool,
  ) -> bool;
}

/// A pending promise with no resolving functions; [`settle_promise`] settles it.
pub(crate) fn pending_promise<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Value<'js>> {
  // SAFETY: returns a new reference (or JS_EXCEPTION), which Value::from_raw takes over.
  let v = unsafe { Value::from_raw(ctx.clone(), JS_NewPendingPromise(ctx.as_raw().as_ptr())) };
  if tag(v.as_raw()) == qjs::JS_TAG_EXCEPTION {
    return Err(rquickjs::Error::Exception);
  }
  Ok(v)
}

/// Fulfills (or rejects) a promise from [`pending_promise`] with `value` as it is: no
/// thenable is adopted, so nothing of `value` is read and no program code runs. Reactions
/// are queued as jobs. A promise already settled is left alone.
pub(crate) fn settle_promise<'js>(
  ctx: &Ctx<'js>,
  promise: &Value<'js>,
  value: &Value<'js>,
  reject: bool,
) {
  // SAFETY: both values are live references in `ctx`; the call borrows them (it takes its
  // own reference to `value` when it keeps it).
  unsafe { JS_SettlePromise(ctx.as_raw().as_ptr(), promise.as_raw(), value.as_raw(), reject) };
}

/// Gives `error` (an object) the stack of whatever awaits `promise`: V8's `at async …`
/// frames of the async functions up that promise's chain, recorded through the engine's
/// `Error.prepareStackTrace` like any stack. Runs no program code.
pub(crate) fn capture_await_stack<'js>(ctx: &Ctx<'js>, error: &Value<'js>, promise: &Value<'js>) {
  // SAFETY: both values are live references in `ctx`; the call borrows them.
  unsafe { JS_CaptureAwaitStack(ctx.as_raw().as_ptr(), error.as_raw(), promise.as_raw()) };
}

// The result walk's direct reads (`bridge.rs`). Values come back borrowed: valid while the
// caller holds its reference to `obj` and runs no code that could change it.

/// An Array whose elements all sit in its array part and whose only other own property is
/// `length`: its length and its prototype's identity (0 for `null`).
pub(crate) fn dense_array(obj: qjs::JSValue) -> Option<(u32, usize)> {
  let (mut len, mut proto) = (0u32, std::ptr::null_mut());
  // SAFETY: reads the tag, class and (for an Array) its fields; writes only our locals.
  unsafe { JS_GetDenseArray(obj, &mut len, &mut proto) }.then_some((len, proto as usize))
}

/// Element `i` of a [`dense_array`], borrowed; `None` if it stopped being one.
pub(crate) fn dense_array_element(obj: qjs::JSValue, i: u32) -> Option<qjs::JSValue> {
  // SAFETY: bounds and class are checked in C; the value is borrowed from `obj`.
  let v = unsafe { JS_GetDenseArrayElement(obj, i) };
  (tag(v) != qjs::JS_TAG_UNINITIALIZED).then_some(v)
}

/// A Date's time value (NaN for an invalid date); `None` for anything else.
pub(crate) fn date_value(v: qjs::JSValue) -> Option<f64> {
  let mut time = 0.0;
  // SAFETY: reads the tag, class and (for a Date) its time value; writes only our local.
  unsafe { JS_GetDateValue(v, &mut time) }.then_some(time)
}

/// An ordinary object's shape (identity), prototype identity (0 for `null`) and slot count.
pub(crate) fn object_shape(obj: qjs::JSValue) -> Option<(usize, usize, u32)> {
  let (mut proto, mut slots) = (std::ptr::null_mut(), 0u32);
  // SAFETY: reads the tag, class and shape header; writes only our locals.
  let shape = unsafe { JS_GetObjectShape(obj, &mut proto, &mut slots) };
  (!shape.is_null()).then_some((shape as usize, proto as usize, slots))
}

/// Slot `i`'s name (`JS_ATOM_NULL` when deleted), if the slot is deleted or an enumerable
/// data property named by a string that is not an array index; `None` otherwise.
pub(crate) fn object_slot_name(
  ctx: *mut qjs::JSContext,
  obj: qjs::JSValue,
  i: u32,
) -> Option<qjs::JSAtom> {
  let mut atom = 0;
  // SAFETY: bounds and class are checked in C; the atom is borrowed from the shape.
  (unsafe { JS_GetObjectSlotName(ctx, obj, i, &mut atom) } == 1).then_some(atom)
}

/// Slot `i`'s value if it holds a data property, borrowed.
pub(crate) fn object_slot_value(obj: qjs::JSValue, i: u32) -> Option<qjs::JSValue> {
  // SAFETY: bounds, class and slot kind are checked in C; the value is borrowed.
  let v = unsafe { JS_GetObjectSlotValue(obj, i) };
  (tag(v) != qjs::JS_TAG_UNINITIALIZED).then_some(v)
}

/// Lends the characters of a flat one-byte (Latin-1) string to `read`; `None` for any other
/// value (ropes, two-byte strings).
pub(crate) fn with_latin1_chars<R>(v: qjs::JSValue, read: impl FnOnce(&[u8]) -> R) -> Option<R> {
  let mut len = 0u32;
  // SAFETY: NULL unless `v` is a flat one-byte string, whose `len` characters stay put
  // while the caller's reference to it lives (strings are immutable); the slice does not
  // outlive `read`.
  unsafe {
    let p = JS_GetLatin1String(v, &mut len);
    (!p.is_null()).then(|| read(std::slice::from_raw_parts(p, len as usize)))
  }
}

/// A C function's arguments as values of their own (each takes a new reference).
///
/// # Safety
/// `argv` holds `argc` values QuickJS passed to a C function called in `ctx`.
pub(crate) unsafe fn args<'js>(
  ctx: &rquickjs::Ctx<'js>,
  argc: std::ffi::c_int,
  argv: *const qjs::JSValue,
) -> Vec<rquickjs::Value<'js>> {
  let c = ctx.as_raw().as_ptr();
  (0..usize::try_from(argc).unwrap_or(0))
    // SAFETY: i < argc; the dup is the reference the Value releases.
    .map(|i| unsafe { rquickjs::Value::from_raw(ctx.clone(), qjs::JS_DupValue(c, *argv.add(i))) })
    .collect()
}

pub(crate) fn tag(v: qjs::JSValue) -> i32 {
  // SAFETY: reading the tag of a JSValue is a plain field read.
  unsafe { qjs::JS_VALUE_GET_TAG(v) }
}

pub(crate) fn is_object(v: qjs::JSValue) -> bool {
  tag(v) == qjs::JS_TAG_OBJECT
}

pub(crate) fn is_string(v: qjs::JSValue) -> bool {
  let t = tag(v);
  t == qjs::JS_TAG_STRING || t == qjs::JS_TAG_STRING_ROPE
}

/// The object's identity, for cycle detection.
pub(crate) fn ptr(v: qjs::JSValue) -> usize {
  // SAFETY: only called on object values, whose payload is a pointer.
  unsafe { qjs::JS_VALUE_GET_PTR(v) as usize }
}

pub(crate) fn is_proxy(v: qjs::JSValue) -> bool {
  // SAFETY: JS_IsProxy only inspects the value's tag and class id.
  is_object(v) && unsafe { qjs::JS_IsProxy(v) }
}

pub(crate) fn class_id(v: qjs::JSValue) -> u32 {
  // SAFETY: JS_GetClassID reads the class id of an object, 0 for non-objects.
  unsafe { qjs::JS_GetClassID(v) }
}

/// The prototype's identity (0 for `null`). Must not be called on a Proxy (it would run the
/// `getPrototypeOf` trap).
pub(crate) fn proto_ptr(ctx: *mut qjs::JSContext, v: qjs::JSValue) -> usize {
  debug_assert!(!is_proxy(v));
  // SAFETY: for a non-Proxy object JS_GetPrototype reads the shape's prototype and returns a
  // new reference, which Owned frees.
  let proto = unsafe { Owned::new(ctx, qjs::JS_GetPrototype(ctx, v)) };
  if is_object(proto.v) {
    ptr(proto.v)
  } else {
    0
  }
}

/// The prototype as an owned value (non-Proxy objects only).
pub(crate) fn proto(ctx: *mut qjs::JSContext, v: qjs::JSValue) -> Owned {
  debug_assert!(!is_proxy(v));
  // SAFETY: as in proto_ptr.
  unsafe { Owned::new(ctx, qjs::JS_GetPrototype(ctx, v)) }
}

/// The string's contents as WTF-8 bytes (lone surrogates kept as 3-byte sequences).
pub(crate) fn string_bytes(ctx: *mut qjs::JSContext, v: qjs::JSValue) -> Option<Vec<u8>> {
  with_string_bytes(ctx, v, <[u8]>::to_vec)
}

/// Lends the string's WTF-8 bytes to `read` without copying them out.
pub(crate) fn with_string_bytes<R>(
  ctx: *mut qjs::JSContext,
  v: qjs::JSValue,
  read: impl FnOnce(&[u8]) -> R,
) -> Option<R> {
  let mut len: qjs::size_t = 0;
  // SAFETY: v is a string (callers check), so no conversion code runs; the returned buffer
  // is valid for `len` bytes until JS_FreeCString, which runs after `read` is done with it.
  unsafe {
    let p = qjs::JS_ToCStringLen2(ctx, &mut len, v, false);
    if p.is_null() {
      clear_exception(ctx);
      return None;
    }
    let result = read(std::slice::from_raw_parts(p as *const u8, len as usize));
    qjs::JS_FreeCString(ctx, p);
    Some(result)
  }
}

/// A native function's work on the program's behalf: `units` poll points (~10-15 ns of
/// work each) charged to the run's interrupt counter, consulting its budget when that runs
/// out. `Err` (the uncatchable interruption pending) once the run must stop.
pub(crate) fn poll_work(ctx: *mut qjs::JSContext, units: usize) -> rquickjs::Result<()> {
  // SAFETY: `ctx` is the live context the native function was called with.
  match unsafe { JS_PollWork(ctx, units.min(i64::MAX as usize) as i64) } {
    0 => Ok(()),
    _ => Err(rquickjs::Error::Exception),
  }
}

/// `bytes` of the run's heap held, never touched (so it takes address space, not memory),
/// while a native function makes buffers of about that size outside it: they count against
/// the heap limit the same way. Freed on drop.
pub(crate) struct HeapHold {
  ctx: *mut qjs::JSContext,
  block: *mut std::ffi::c_void,
}

/// Holds `bytes` against the run's heap limit; `None` (QuickJS's out-of-memory error
/// pending, the run marked out of memory by its allocator) when the limit refuses them.
pub(crate) fn hold_heap(ctx: *mut qjs::JSContext, bytes: usize) -> Option<HeapHold> {
  // SAFETY: `ctx` is the live context the native function was called with; js_malloc
  // throws and returns null when the allocation is refused.
  let block = unsafe { qjs::js_malloc(ctx, bytes as _) };
  (!block.is_null()).then_some(HeapHold { ctx, block })
}

impl Drop for HeapHold {
  fn drop(&mut self) {
    // SAFETY: `block` came from js_malloc on `ctx`, which outlives the native call that
    // holds this guard.
    unsafe { qjs::js_free(self.ctx, self.block) }
  }
}

/// A string's length in UTF-16 code units without copying it; `None` for other values.
pub(crate) fn string_length(v: qjs::JSValue) -> Option<usize> {
  // SAFETY: reads the tag and, for a string, its length field; nothing runs.
  usize::try_from(unsafe { JS_GetStringLength(v) }).ok()
}

/// Drops the pending exception, if any (used after an engine call failed for want of
/// memory: the run is ending anyway and the exception must not leak into the program).
pub(crate) fn clear_exception(ctx: *mut qjs::JSContext) {
  // SAFETY: JS_GetException transfers the pending exception (or JS_UNINITIALIZED) to us.
  unsafe {
    let e = qjs::JS_GetException(ctx);
    qjs::JS_FreeValue(ctx, e);
  }
}

/// One own property descriptor, owned.
pub struct Descriptor {
  pub flags: i32,
  pub value: Owned,
  pub getter: Owned,
  pub setter: Owned,
}

impl Descriptor {
  pub(crate) fn is_accessor(&self) -> bool {
    self.flags & qjs::JS_PROP_GETSET as i32 != 0
  }
  pub(crate) fn is_enumerable(&self) -> bool {
    self.flags & qjs::JS_PROP_ENUMERABLE as i32 != 0
  }
}

/// The own property `atom` of a non-Proxy object, without running getters.
pub(crate) fn own_property(
  ctx: *mut qjs::JSContext,
  obj: qjs::JSValue,
  atom: qjs::JSAtom,
) -> Option<Descriptor> {
  debug_assert!(!is_proxy(obj));
  let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
  let mut desc =
    qjs::JSPropertyDescriptor { flags: 0, value: undefined, getter: undefined, setter: undefined };
  // SAFETY: for ordinary (non-Proxy) objects JS_GetOwnProperty reads the shape and returns
  // new references in `desc`, which we wrap so they are freed. Exotic classes that compute
  // properties natively (arrays, strings, typed arrays) run no program code either.
  unsafe {
    let r = qjs::JS_GetOwnProperty(ctx, &mut desc, obj, atom);
    if r < 0 {
      clear_exception(ctx);
      return None;
    }
    if r == 0 {
      return None;
    }
    Some(Descriptor {
      flags: desc.flags,
      value: Owned::new(ctx, desc.value),
      getter: Owned::new(ctx, desc.getter),
      setter: Owned::new(ctx, desc.setter),
    })
  }
}

/// The own property keys of a non-Proxy object (strings and symbols), in
/// `OrdinaryOwnPropertyKeys` order. The atoms are owned by the returned list.
pub struct Keys {
  ctx: *mut qjs::JSContext,
  tab: *mut qjs::JSPropertyEnum,
  len: u32,
}

impl Keys {
  pub(crate) fn of(ctx: *mut qjs::JSContext, obj: qjs::JSValue) -> Option<Keys> {
    debug_assert!(!is_proxy(obj));
    let mut tab: *mut qjs::JSPropertyEnum = std::ptr::null_mut();
    let mut len: u32 = 0;
    let flags = (qjs::JS_GPN_STRING_MASK | qjs::JS_GPN_SYMBOL_MASK) as i32;
    // SAFETY: JS_GetOwnPropertyNames allocates `tab` with `len` entries (or fails with an
    // exception and leaves tab null); Keys frees it.
    let r = unsafe { qjs::JS_GetOwnPropertyNames(ctx, &mut tab, &mut len, obj, flags) };
    if r < 0 {
      clear_exception(ctx);
      return None;
    }
    Some(Keys { ctx, tab, len })
  }

  pub(crate) fn len(&self) -> u32 {
    self.len
  }

  pub(crate) fn atom(&self, i: u32) -> qjs::JSAtom {
    assert!(i < self.len);
    // SAFETY: i < len, and tab holds len entries.
    unsafe { (*self.tab.add(i as usize)).atom }
  }
}

impl Drop for Keys {
  fn drop(&mut self) {
    if !self.tab.is_null() {
      // SAFETY: tab/len came from JS_GetOwnPropertyNames on this context.
      unsafe { qjs::JS_FreePropertyEnum(self.ctx, self.tab, self.len) }
    }
  }
}

/// What a property key is.
pub enum Key {
  String(Vec<u8>),
  Symbol,
}

pub(crate) fn atom_key(ctx: *mut qjs::JSContext, atom: qjs::JSAtom) -> Option<Key> {
  // SAFETY: JS_AtomToValue returns a new reference to the key as a string or symbol.
  let v = unsafe { Owned::new(ctx, qjs::JS_AtomToValue(ctx, atom)) };
  if tag(v.v) == qjs::JS_TAG_SYMBOL {
    return Some(Key::Symbol);
  }
  string_bytes(ctx, v.v).map(Key::String)
}

/// Interns a static name as an atom, released on drop.
pub struct Atom {
  pub(crate) ctx: *mut qjs::JSContext,
  pub atom: qjs::JSAtom,
}

impl Atom {
  pub(crate) fn new(ctx: *mut qjs::JSContext, name: &std::ffi::CStr) -> Atom {
    // SAFETY: JS_NewAtom copies the NUL-terminated name.
    Atom { ctx, atom: unsafe { qjs::JS_NewAtom(ctx, name.as_ptr()) } }
  }
  pub(crate) fn index(ctx: *mut qjs::JSContext, i: u32) -> Atom {
    // SAFETY: JS_NewAtomUInt32 makes (or tags) the atom for an array index.
    Atom { ctx, atom: unsafe { qjs::JS_NewAtomUInt32(ctx, i) } }
  }
}

impl Drop for Atom {
  fn drop(&mut self) {
    // SAFETY: we own one reference to the atom.
    unsafe { qjs::JS_FreeAtom(self.ctx, self.atom) }
  }
}

/// Reads a data property along the prototype chain without running code: accessors and
/// Proxies end the search. Used for `name`/`message` of thrown errors.
pub(crate) fn data_property(
  ctx: *mut qjs::JSContext,
  obj: qjs::JSValue,
  name: &std::ffi::CStr,
) -> Option<Owned> {
  let atom = Atom::new(ctx, name);
  // SAFETY: JS_DupValue adds the reference the loop's Owned releases.
  let mut cur = unsafe { Owned::new(ctx, qjs::JS_DupValue(ctx, obj)) };
  for _ in 0..10_000 {
    if !is_object(cur.v) || is_proxy(cur.v) {
      return None;
    }
    if let Some(d) = own_property(ctx, cur.v, atom.atom) {
      if d.is_accessor() {
        return None;
      }
      return Some(d.value);
    }
    cur = proto(ctx, cur.v);
  }
  None
}

/// A string data property along the prototype chain (see [`data_property`]), as WTF-8
/// bytes; `None` for anything else. Used for `name`/`message`/`constructor.name`.
pub(crate) fn data_string(
  ctx: *mut qjs::JSContext,
  obj: qjs::JSValue,
  name: &std::ffi::CStr,
) -> Option<Vec<u8>> {
  data_property(ctx, obj, name).filter(|s| is_string(s.v)).and_then(|s| string_bytes(ctx, s.v))
}

/// What a C function hands back to QuickJS when it failed: `JS_EXCEPTION`, with the pending
/// exception if there is one, else a new `InternalError` carrying `message`.
pub(crate) fn exception(ctx: *mut qjs::JSContext, message: &std::ffi::CStr) -> qjs::JSValue {
  // SAFETY: `ctx` is the live context QuickJS called us with.
  unsafe {
    if !qjs::JS_HasException(ctx) {
      qjs::JS_ThrowInternalError(ctx, message.as_ptr());
    }
  }
  qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0)
}

/// Defines `value` as an own data property named `key` (no setters run, `__proto__` is an
/// ordinary key).
pub(crate) fn define(
  ctx: &rquickjs::Ctx<'_>,
  obj: &rquickjs::Object<'_>,
  key: &str,
  value: rquickjs::Value<'_>,
  flags: u32,
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  // SAFETY: JS_NewAtomLen copies `key`; JS_DefinePropertyValue takes ownership of the value
  // reference we dup for it; the atom is freed after.
  unsafe {
    let atom = qjs::JS_NewAtomLen(c, key.as_ptr() as *const _, key.len() as _);
    let v = qjs::JS_DupValue(c, value.as_raw());
    let r = qjs::JS_DefinePropertyValue(c, obj.as_raw(), atom, v, flags as i32);
    qjs::JS_FreeAtom(c, atom);
    if r < 0 {
      return Err(rquickjs::Error::Exception);
    }
  }
  Ok(())
}

/// The per-run state behind a program context's opaque pointer (set when the run installs
/// its globals), as the type `S` the calling native was instantiated with.
///
/// # Safety
/// `c` is a live context, on the thread running it, whose opaque pointer is null or points
/// at a live `S` that outlives the returned reference.
pub(crate) unsafe fn context_state<'a, S>(c: *mut qjs::JSContext) -> Option<&'a S> {
  // SAFETY: the caller's: the opaque pointer is null or a live `S`.
  unsafe { (qjs::JS_GetContextOpaque(c) as *const S).as_ref() }
}

/// Argument `i` of a C function's call, or undefined.
///
/// SAFETY (callers): `argv` holds `argc` values (QuickJS's calling convention).
pub(crate) unsafe fn arg(argc: i32, argv: *mut qjs::JSValue, i: i32) -> qjs::JSValue {
  if i < argc {
    // SAFETY: the caller's: `i` is within the `argc` values of `argv`.
    unsafe { *argv.add(i as usize) }
  } else {
    qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0)
  }
}

/// Bytes in front of a SharedArrayBuffer's memory: its reference count.
const SAB_HEADER: usize = 16;

/// QuickJS's SharedArrayBuffer allocator hooks, which growable SharedArrayBuffers need (it
/// commits their maximum size up front): the memory comes from the runtime's own allocator,
/// so it counts against the run's heap limit, with a reference count in front for the
/// engine's `sab_dup`/`sab_free`. A runtime is used by one thread at a time, so the count
/// needs no atomics.
pub(crate) fn install_sab_allocator(rt: *mut qjs::JSRuntime) {
  let funcs = qjs::JSSharedArrayBufferFunctions {
    sab_alloc: Some(sab_alloc),
    sab_free: Some(sab_free),
    sab_dup: Some(sab_dup),
    sab_opaque: rt as *mut std::ffi::c_void,
  };
  // SAFETY: `rt` is a live runtime; QuickJS copies the struct.
  unsafe { qjs::JS_SetSharedArrayBufferFunctions(rt, &funcs) }
}

unsafe extern "C" fn sab_alloc(
  opaque: *mut std::ffi::c_void,
  size: qjs::size_t,
) -> *mut std::ffi::c_void {
  let Some(total) = (size as usize).checked_add(SAB_HEADER) else { return std::ptr::null_mut() };
  // SAFETY: `opaque` is the runtime the hooks were installed on; js_malloc_rt returns null
  // or at least `total` bytes, aligned for any scalar.
  unsafe {
    let base = qjs::js_malloc_rt(opaque as *mut qjs::JSRuntime, total as _) as *mut u8;
    if base.is_null() {
      return std::ptr::null_mut();
    }
    (base as *mut usize).write(1);
    base.add(SAB_HEADER) as *mut std::ffi::c_void
  }
}

unsafe extern "C" fn sab_dup(_opaque: *mut std::ffi::c_void, ptr: *mut std::ffi::c_void) {
  // SAFETY: `ptr` came from sab_alloc, so its count is SAB_HEADER bytes before it.
  unsafe {
    let count = (ptr as *mut u8).sub(SAB_HEADER) as *mut usize;
    *count += 1;
  }
}

unsafe extern "C" fn sab_free(opaque: *mut std::ffi::c_void, ptr: *mut std::ffi::c_void) {
  // SAFETY: as in sab_dup; the block is freed with the allocator that made it once its last
  // holder lets it go.
  unsafe {
    let base = (ptr as *mut u8).sub(SAB_HEADER);
    let count = base as *mut usize;
    *count -= 1;
    if *count == 0 {
      qjs::js_free_rt(opaque as *mut qjs::JSRuntime, base as *mut std::ffi::c_void);
    }
  }
}
