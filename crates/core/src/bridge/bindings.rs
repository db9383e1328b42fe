//! Host functions as program globals: one null-prototype namespace object per binding, one
//! injected error class per declared `errorClass`, and the table of calls in flight.
//!
//! A call checks its one argument with the JSON bridge (no program code runs; a Proxy, a
//! getter or a cycle is refused before the host hears of it), registers its promise (a
//! pending one with no resolving functions, `raw::pending_promise`) under a fresh call id,
//! and hands the JSON text to the [`Host`]. The host's answer arrives later as an event;
//! [`settle`] fulfills the program's promise with a value parsed by the engine's own
//! `JSON.parse` (intrinsic, so a program that replaced `JSON.parse` or `Object` changes
//! nothing), or rejects it with an error built from the intrinsic `Error` or the injected
//! class. The value is taken as is: nothing of it is read, so an `Object.prototype.then`
//! the program defined does not make it a thenable. Each call settles once: its table entry
//! is taken on the first answer, and answers for unknown ids are dropped.

use crate::bridge::json::{self as bridge, Refusal};
use crate::bridge::outbox::Outbox;
use crate::bridge::parse::{self, Parsed};
use crate::host::HostCall;
use crate::host::RunId;
use crate::limits::budget::RunControl;
use crate::messages;
use crate::quickjs::raw::{self, Owned};
use rquickjs::{qjs, Constructor, Ctx, Function, Object, Persistent, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::Arc;

/// The per-run state binding functions reach from their context (the run implements it).
pub trait BindingsWorld: 'static {
  fn directory(&self) -> &RefCell<Directory>;
  /// The run binding functions belong to (see `world::shared`).
  fn generation(&self) -> &Cell<RunId>;
  fn bindings(&self) -> &RefCell<BindingHandles>;
  fn outbox(&self) -> &Arc<Outbox>;
  fn control(&self) -> &Arc<RunControl>;
  fn shapes(&self) -> &Cell<bridge::Shapes>;
}

/// One namespace as the engine receives it (validated by the caller).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingSpec {
  pub global: String,
  pub members: Vec<String>,
  pub error_class: Option<ErrorClassSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorClassSpec {
  pub name: String,
  pub member_name_property: String,
}

/// A call in flight: its promise and the function's index.
/// (promise, function index, bytes charged to the run's heap limit while it is pending).
type PendingCall = (Persistent<Value<'static>>, u32, usize);

/// What a pending call holds outside QuickJS's heap besides its argument's JSON: its
/// table entry and the host's end of it.
const CALL_BYTES: usize = 128;

/// Call ids are sequential, so the table's hash keeps the id in its low bits, which place
/// the entry: calls made together sit together, and settling thousands of them walks the
/// table in order instead of missing the cache on each. The top seven bits, which the table
/// compares before a key, are mixed from the id.
#[derive(Default)]
struct CallIdHasher(u64);

impl Hasher for CallIdHasher {
  fn finish(&self) -> u64 {
    self.0
  }
  fn write(&mut self, bytes: &[u8]) {
    for &b in bytes {
      self.0 = (self.0 << 8) | u64::from(b);
    }
    self.write_u64(self.0);
  }
  fn write_u32(&mut self, n: u32) {
    self.write_u64(u64::from(n));
  }
  fn write_u64(&mut self, n: u64) {
    self.0 = n ^ (n.wrapping_mul(0x9E37_79B9_7F4A_7C15) & 0xFE00_0000_0000_0000);
  }
}

/// JS handles the bindings keep between slices. Cleared before the context is dropped.

#[derive(Default)]
pub struct BindingHandles {
  /// The intrinsic `Error`, captured before the program runs.
  error: Option<Persistent<Constructor<'static>>>,
  /// Per namespace: its injected error class, if declared.
  classes: Vec<Option<Persistent<Constructor<'static>>>>,
  /// Call id → (promise, function index).
  calls: HashMap<u32, PendingCall, BuildHasherDefault<CallIdHasher>>,
  next_call: u32,
}

impl BindingHandles {
  pub fn in_flight(&self) -> usize {
    self.calls.len()
  }
}

/// Where a flat function index points: (namespace, member name).
pub struct Directory {
  pub specs: Vec<BindingSpec>,
  /// Function index → (namespace index, member index).
  pub functions: Vec<(usize, usize)>,
}

impl Directory {
  pub fn new(specs: Vec<BindingSpec>) -> Directory {
    let functions = specs
      .iter()
      .enumerate()
      .flat_map(|(n, s)| (0..s.members.len()).map(move |m| (n, m)))
      .collect();
    Directory { specs, functions }
  }
}

fn is_identifier(s: &str) -> bool {
  let mut chars = s.chars();
  matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
    && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Installs the namespaces and error classes as globals. Runs before the program.
pub fn install<'js, W: BindingsWorld>(
  ctx: &Ctx<'js>,
  globals: &Object<'js>,
  shared: &Rc<W>,
) -> rquickjs::Result<()> {
  let error: Constructor = globals.get("Error")?;
  let mut classes = Vec::new();
  let specs = shared.directory().borrow().specs.clone();
  for (n, spec) in specs.iter().enumerate() {
    let class = match &spec.error_class {
      Some(ec) if is_identifier(&ec.name) => {
        let name = &ec.name;
        let make: Function = ctx.eval(format!(
          "(Base) => {{ const C = class {name} extends Base {{ constructor(message, options) {{ super(message, options) }} }}; \
           Object.defineProperty(C.prototype, 'name', {{ value: '{name}', writable: true, configurable: true }}); return C }}"
        ))?;
        let ctor: Constructor = make.call((error.clone(),))?;
        raw::define(
          ctx,
          globals,
          name,
          ctor.clone().into_value(),
          qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE,
        )?;
        Some(Persistent::save(ctx, ctor))
      }
      _ => None,
    };
    classes.push(class);

    // SAFETY: JS_NewObjectProto with a null prototype returns a new object reference that
    // Value::from_raw takes over.
    let ns = unsafe {
      Value::from_raw(
        ctx.clone(),
        qjs::JS_NewObjectProto(ctx.as_raw().as_ptr(), qjs::JS_MKVAL(qjs::JS_TAG_NULL, 0)),
      )
    };
    let ns = ns.into_object().ok_or(rquickjs::Error::Exception)?;
    let first =
      shared.directory().borrow().functions.iter().position(|&(ni, _)| ni == n).unwrap_or(0) as u32;
    for (m, member) in spec.members.iter().enumerate() {
      let f = binding_function(ctx, shared, first + m as u32, member)?;
      raw::define(ctx, &ns, member, f, qjs::JS_PROP_C_W_E)?;
    }
    raw::define(
      ctx,
      globals,
      &spec.global,
      ns.into_value(),
      qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE,
    )?;
  }
  let mut handles = shared.bindings().borrow_mut();
  handles.error = Some(Persistent::save(ctx, error));
  handles.classes = classes;
  Ok(())
}

/// One member function: a C function whose `magic` is the flat function index and whose
/// data holds the run it was made for; it finds the run's state with `RunShared::of`
/// (cheaper to create and to call than a boxed closure, and runs start with every member
/// created).
fn binding_function<'js, W: BindingsWorld>(
  ctx: &Ctx<'js>,
  shared: &Rc<W>,
  index: u32,
  name: &str,
) -> rquickjs::Result<Value<'js>> {
  let c = ctx.as_raw().as_ptr();
  let mut data = [qjs::JS_MKVAL(qjs::JS_TAG_INT, shared.generation().get() as u32 as i32)];
  // SAFETY: JS_NewCFunctionData copies the data values; the function reference goes to
  // Value::from_raw. The `name` property is defined on our own fresh function object.
  unsafe {
    let f = Value::from_raw(
      ctx.clone(),
      qjs::JS_NewCFunctionData(c, Some(binding_entry::<W>), 1, index as i32, 1, data.as_mut_ptr()),
    );
    if raw::tag(f.as_raw()) == qjs::JS_TAG_EXCEPTION {
      return Err(rquickjs::Error::Exception);
    }
    let name = rquickjs::String::from_str(ctx.clone(), name)?;
    let fo = f.as_object().ok_or(rquickjs::Error::Exception)?;
    raw::define(ctx, fo, "name", name.into_value(), qjs::JS_PROP_CONFIGURABLE)?;
    Ok(f)
  }
}

const BINDING_FAILED: &std::ffi::CStr = c"the binding call failed inside the engine";
const STALE_BINDING: &std::ffi::CStr =
  c"this binding function belongs to an earlier run of the session; call the current run's bindings";

/// The C entry of every member function.
unsafe extern "C" fn binding_entry<W: BindingsWorld>(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: std::ffi::c_int,
  argv: *mut qjs::JSValue,
  magic: std::ffi::c_int,
  data: *mut qjs::JSValue,
) -> qjs::JSValue {
  let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
    let ctx_ptr = std::ptr::NonNull::new(c)?;
    // SAFETY: QuickJS calls us with a live context (the run's program context, where
    // binding functions are made) on the thread running it; data[0] holds the run the
    // function was made for; argv holds argc values.
    unsafe {
      let ctx = Ctx::from_raw(ctx_ptr);
      let shared = raw::context_state::<W>(c)?;
      let generation = qjs::JS_VALUE_GET_INT(*data) as u32;
      if generation != shared.generation().get() as u32 {
        // Kept from an earlier run of a session: its index names that run's function.
        qjs::JS_ThrowTypeError(c, STALE_BINDING.as_ptr());
        return Some(qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0));
      }
      let args = raw::args(&ctx, argc, argv);
      Some(match call(&ctx, shared, magic as u32, &args) {
        Ok(v) => qjs::JS_DupValue(c, v.as_raw()),
        Err(_) => raw::exception(c, BINDING_FAILED),
      })
    }
  }));
  match outcome {
    Ok(Some(v)) => v,
    _ => raw::exception(c, BINDING_FAILED),
  }
}

/// A program-side call: validate, register, hand to the host, return the promise.
fn call<'js, W: BindingsWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  index: u32,
  args: &[Value<'js>],
) -> rquickjs::Result<Value<'js>> {
  let promise = raw::pending_promise(ctx)?;
  // The host takes each call's argument as part of one text (a V8 string in Node): a longer
  // one rejects here, before anything of it is queued.
  let max_bytes = shared.outbox().max_argument_bytes();
  let json = match args {
    [arg] => bridge::to_json(
      ctx.as_raw().as_ptr(),
      arg.as_raw(),
      shared.shapes().get(),
      &shared.control(),
      u64::try_from(max_bytes).unwrap_or(u64::MAX),
    ),
    _ => Err(Refusal::NotLossless),
  };
  let refused = |message: &str| -> rquickjs::Result<Value<'js>> {
    let e = make_error(ctx, shared, index, message)?;
    raw::settle_promise(ctx, &promise, &e, true);
    Ok(promise.clone())
  };
  let json = match json {
    // The walk looks at the length between values: the last one may have gone past it.
    Ok(Some(json)) if json.len() > max_bytes => {
      return refused(&messages::binding_args_too_large(max_bytes))
    }
    Ok(Some(json)) => json,
    Ok(None) | Err(Refusal::NotLossless) => return refused(messages::BINDING_ARGS_NOT_LOSSLESS),
    Err(Refusal::TooLarge) => return refused(&messages::binding_args_too_large(max_bytes)),
    // The run is being stopped; the promise never settles and the run ends from its cause.
    Err(Refusal::Stopped) => return Ok(promise),
  };
  // The argument's JSON and the call's bookkeeping count against the heap limit while
  // the call is pending; refused, the run ends as out of memory.
  let charged = json.len() + CALL_BYTES;
  if !shared.control().charge(charged) {
    return Ok(promise);
  }
  let id = {
    let mut h = shared.bindings().borrow_mut();
    h.next_call = h.next_call.wrapping_add(1);
    let id = h.next_call;
    h.calls.insert(id, (Persistent::save(ctx, promise.clone()), index, charged));
    id
  };
  shared.outbox().push(HostCall { call: id, function: index, args_json: json });
  Ok(promise)
}

/// The error a rejected call of function `index` rejects with.
fn make_error<'js, W: BindingsWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  index: u32,
  message: &str,
) -> rquickjs::Result<Value<'js>> {
  let (ctor, class_member, member) = {
    let directory = shared.directory().borrow();
    let (n, m) = directory.functions.get(index as usize).copied().unwrap_or((0, 0));
    let member = directory.specs.get(n).and_then(|s| s.members.get(m).cloned()).unwrap_or_default();
    let h = shared.bindings().borrow();
    match h.classes.get(n).and_then(|c| c.clone()) {
      Some(class) => (
        Some(class),
        directory.specs[n].error_class.as_ref().map(|e| e.member_name_property.clone()),
        member,
      ),
      None => (h.error.clone(), None, member),
    }
  };
  let ctor = ctor.ok_or(rquickjs::Error::Exception)?.restore(ctx)?;
  let err: Object = ctor.construct((message,))?;
  if let Some(prop) = class_member {
    let member = rquickjs::String::from_str(ctx.clone(), &member)?;
    raw::define(ctx, &err, &prop, member.into_value(), qjs::JS_PROP_C_W_E)?;
  }
  Ok(err.into_value())
}

/// The host answered call `id`: `Ok(json)` resolves, `Err(message)` rejects.
pub fn settle<W: BindingsWorld>(
  ctx: &Ctx<'_>,
  shared: &W,
  id: u32,
  outcome: Result<String, String>,
) {
  let outcome = match outcome {
    Ok(json) => {
      parse_json(ctx, &json).ok_or_else(|| messages::BINDING_RESOLUTION_NOT_LOSSLESS.to_owned())
    }
    Err(message) => Err(message),
  };
  settle_value(ctx, shared, id, outcome);
}

/// Many answers at once: the resolutions arrive as one JSON array (parsed once), in the
/// order of the calls marked ok; rejection messages in the order of the others.
pub fn settle_batch<W: BindingsWorld>(ctx: &Ctx<'_>, shared: &W, batch: SettleBatch) {
  let values = parse_json(ctx, &batch.values_json);
  let c = ctx.as_raw().as_ptr();
  let (mut next_value, mut messages) = (0u32, batch.messages.into_iter());
  for (id, ok) in batch.calls {
    let outcome = if ok {
      let i = next_value;
      next_value += 1;
      match &values {
        // SAFETY: `values` is an array the engine's JSON.parse just made: its elements are
        // own data properties, so this get runs no program code; the new reference goes to
        // Value::from_raw.
        Some(arr) => {
          Ok(unsafe { Value::from_raw(ctx.clone(), qjs::JS_GetPropertyUint32(c, arr.as_raw(), i)) })
        }
        None => Err(messages::BINDING_RESOLUTION_NOT_LOSSLESS.to_owned()),
      }
    } else {
      Err(messages.next().unwrap_or_default())
    };
    settle_value(ctx, shared, id, outcome);
  }
}

/// Answers from the host for several calls of one run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SettleBatch {
  /// (call id, resolved?) in answer order.
  pub calls: Vec<(u32, bool)>,
  /// JSON array of the resolutions, one per resolved call, in order.
  pub values_json: String,
  /// Rejection messages, one per rejected call, in order.
  pub messages: Vec<String>,
}

fn settle_value<'js, W: BindingsWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  id: u32,
  outcome: Result<Value<'js>, String>,
) {
  let Some((promise, index, charged)) = shared.bindings().borrow_mut().calls.remove(&id) else {
    return;
  };
  shared.control().release(charged);
  let Ok(promise) = promise.restore(ctx) else {
    return;
  };
  match outcome {
    Ok(value) => raw::settle_promise(ctx, &promise, &value, false),
    Err(message) => match make_error(ctx, shared, index, &message) {
      Ok(error) => {
        // Made where no program frame is on the stack: its frames are those of what
        // awaits the call (`at async …`), as V8 shows an awaited rejection.
        raw::capture_await_stack(ctx, &error, &promise);
        raw::settle_promise(ctx, &promise, &error, true)
      }
      Err(_) => raw::clear_exception(ctx.as_raw().as_ptr()),
    },
  }
}

/// JSON text → engine value: [`parse::parse`], or for text it declines, the engine's own
/// `JSON.parse` (never the program's global). That parser recurses once per nesting level,
/// so for the parse the engine's stack limit is raised to most of the worker thread's real
/// stack: values nested far deeper than any program recursion cross (the contract sets no
/// depth limit), and a deeper one is a clean failure, never a stack overflow.
fn parse_json<'js>(ctx: &Ctx<'js>, json: &str) -> Option<Value<'js>> {
  let c = ctx.as_raw().as_ptr();
  match parse::parse(c, json.as_bytes()) {
    // SAFETY: a new reference, which Value::from_raw takes over.
    Parsed::Value(v) => return Some(unsafe { Value::from_raw(ctx.clone(), v) }),
    Parsed::Failed => {
      raw::clear_exception(c);
      return None;
    }
    Parsed::Declined => {}
  }
  let mut text = json.as_bytes().to_vec();
  text.push(0);
  // SAFETY: JS_ParseJSON reads `len` bytes of a NUL-terminated buffer and returns a new
  // value reference or JS_EXCEPTION. The raised stack limit stays below the thread's stack
  // (pool::THREAD_STACK) with room for the frames above, and is restored right after.
  let v = unsafe {
    let rt = qjs::JS_GetRuntime(c);
    qjs::JS_SetMaxStackSize(rt, (crate::sched::pool::THREAD_STACK - 64 * 1024 * 1024) as _);
    let v = qjs::JS_ParseJSON(c, text.as_ptr() as *const _, json.len() as _, c"binding".as_ptr());
    qjs::JS_SetMaxStackSize(rt, crate::limits::budget::JS_STACK_LIMIT as _);
    Owned::new(c, v)
  };
  if raw::tag(v.v) == qjs::JS_TAG_EXCEPTION {
    raw::clear_exception(c);
    return None;
  }
  // SAFETY: dup for Value::from_raw, which takes over that reference; `v` frees its own.
  Some(unsafe { Value::from_raw(ctx.clone(), qjs::JS_DupValue(c, v.v)) })
}

/// Releases every JS handle (before the context goes).
pub fn clear<W: BindingsWorld>(shared: &W) {
  let mut h = shared.bindings().borrow_mut();
  shared.control().release(h.calls.values().map(|c| c.2).sum());
  h.calls.clear();
  h.classes.clear();
  h.error = None;
}
