//! The program's `console`: each call becomes (at most) one `logs` entry in the run's ledger.
//!
//! It behaves as Node 20's `new Console({ stdout, stderr, groupIndentation: 2, inspectOptions:
//! { depth: 4, maxArrayLength: 100, maxStringLength: 10000 } })` with both streams going to
//! `logs` (one entry per call, multi-line allowed):
//! - `trace(...args)` prints `Trace: <args as log formats them>` and the caller's stack, in
//!   V8's layout with the program's own positions ([`crate::console::stack`]);
//! - `log`/`info`/`debug`/`dirxml`/`warn`/`error` print their
//!   arguments as `util.format` does: plain primitives here, anything else through Node's
//!   own `util.format` in the inspector realm ([`crate::console::inspector`]), and through the
//!   engine's own safe renderer ([`crate::console::inspect`]) when that realm cannot render them;
//! - `dir(value, options)` prints `util.inspect(value, { customInspect: false,
//!   ...defaults, ...options })`, taking only `util.inspect`'s documented options from
//!   `options` (`colors` and `customInspect` stay off; `getters` and a `sorted` comparator
//!   are honoured: they run the program's own functions, as part of its call);
//! - `table(data, properties)` prints Node's box-drawing table (`prelude/console.js`); a
//!   `properties` that is not an array throws Node's `TypeError` (`ERR_INVALID_ARG_TYPE`);
//! - what the program's own code throws while `dir` or `table` runs it (a getter, a Proxy
//!   trap, a `sorted` comparator) reaches the program, as in Node; anything else failing in
//!   the inspector realm falls back to the engine's renderer, so nothing of the realm leaks;
//! - `group(...label)`/`groupCollapsed` print the label like `log` (if any), then indent
//!   every line of every later entry by two more spaces; `groupEnd` takes two away;
//! - `time`/`timeLog`/`timeEnd` print `label: 1.234ms` (Node's `formatTime`), measured on
//!   the monotonic clock; `count`/`countReset` print `label: N`; `assert(cond, ...data)`
//!   prints `Assertion failed[: data]` when `cond` is falsy;
//! - Node's process warnings for labels (`No such label 'x' for console.timeEnd()`, ...)
//!   become entries `Warning: <Node's text>` (no `(node:PID)` prefix, no group indentation,
//!   emitted in place rather than on the next tick).
//!
//! The state (group depth, counters, timers) lives here in Rust, never in an object the
//! program can reach, and none of these functions looks anything up on `console` or on
//! `this`: replacing or deleting methods changes nothing for the others (unlike Node, where
//! `count` and `group` call whatever `console.log` currently is). Labels are converted with
//! `String(label)` (program code may run, as part of the program's call; a symbol throws a
//! `TypeError`). At most [`MAX_LABELS`] count labels and as many timer labels are kept at a
//! time; a new label beyond that is refused with a `Warning:` entry, so a program cannot grow
//! host memory outside its heap limit. Labels are kept as 128-bit hashes, not text.

use crate::console::inspect;
use crate::console::inspector::Inspector;
use crate::console::inspector::{Api, Outcome};
use crate::console::native_inspect;
use crate::console::stack::StacksWorld;
use crate::limits::ledger::Ledger;
use crate::quickjs::raw::{self, Owned};
use rquickjs::function::Rest;
use rquickjs::{qjs, Ctx, Function, Object, Value};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::Hasher;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The per-run state the console reaches from its context (the run implements it).
pub trait ConsoleWorld: StacksWorld {
  fn console(&self) -> &ConsoleState;
  fn inspector(&self) -> &Inspector;
  fn ledger(&self) -> &RefCell<Ledger>;
  /// Records a log entry (see the output ledger).
  fn log(&self, entry: Vec<u8>);
}

/// Distinct labels kept at a time, for `count` and for `time` each.
pub const MAX_LABELS: usize = 10_000;

/// Spaces added per `console.group()`.
const GROUP_INDENT: usize = 2;

type LabelKey = (u64, u64);

/// One run's console state.
#[derive(Default)]
pub struct ConsoleState {
  /// Open `console.group()`s.
  groups: Cell<usize>,
  counts: RefCell<HashMap<LabelKey, u64>>,
  timers: RefCell<HashMap<LabelKey, Instant>>,
}

/// The methods besides `trace`, in the order `console` lists them (`trace` comes after the
/// first [`PRINTING`]): `(name, method)`.
/// They are plain QuickJS C functions defined through a function list, which QuickJS
/// creates on first use (a property slot each until then): most runs call one or two of
/// them, and 18 closures were ~4 KiB of every run's heap. `trace` stays a closure: QuickJS
/// lists C functions as stack frames, and its output starts at the caller.
const fn methods<W: ConsoleWorld>() -> [(&'static std::ffi::CStr, MethodFn<W>); METHOD_COUNT] {
  [
    (c"log", log),
    (c"info", log),
    (c"warn", log),
    (c"error", log),
    (c"debug", log),
    (c"dirxml", log),
    (c"dir", dir),
    (c"table", table),
    (c"group", group),
    (c"groupCollapsed", group),
    (c"groupEnd", group_end),
    (c"time", time),
    (c"timeLog", time_log),
    (c"timeEnd", time_end),
    (c"count", count),
    (c"countReset", count_reset),
    (c"assert", assert),
    (c"clear", clear),
  ]
}

const METHOD_COUNT: usize = 18;

/// Node clears only a terminal; `logs` is not one.
fn clear<W: ConsoleWorld>(_: &Ctx<'_>, _: &W, _: &[Value<'_>]) -> rquickjs::Result<()> {
  Ok(())
}

/// How many of [`methods`] print their arguments as one entry (`log` and its aliases).
const PRINTING: usize = 6;

type MethodFn<W> = for<'js> fn(&Ctx<'js>, &W, &[Value<'js>]) -> rquickjs::Result<()>;

/// The methods and their function list for one kind of run state `W`, as constants: the
/// list is promoted to a `'static`, as QuickJS requires (it keeps pointers to the entries).
struct Methods<W>(std::marker::PhantomData<W>);

impl<W: ConsoleWorld> Methods<W> {
  const METHODS: [(&'static std::ffi::CStr, MethodFn<W>); METHOD_COUNT] = methods::<W>();
  const LIST: [qjs::JSCFunctionListEntry; METHOD_COUNT] = function_list::<W>();
}

const fn function_list<W: ConsoleWorld>() -> [qjs::JSCFunctionListEntry; METHOD_COUNT] {
  let methods = methods::<W>();
  let mut list = [entry::<W>(c"", 0); METHOD_COUNT];
  let mut i = 0;
  while i < METHOD_COUNT {
    list[i] = entry::<W>(methods[i].0, i as i16);
    i += 1;
  }
  list
}

/// What `JS_CFUNC_MAGIC_DEF(name, 0, call_method, magic)` makes, enumerable like Node's.
const fn entry<W: ConsoleWorld>(
  name: &'static std::ffi::CStr,
  magic: i16,
) -> qjs::JSCFunctionListEntry {
  qjs::JSCFunctionListEntry {
    name: name.as_ptr(),
    prop_flags: (qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE | qjs::JS_PROP_ENUMERABLE) as u8,
    def_type: qjs::JS_DEF_CFUNC as u8,
    magic,
    u: qjs::JSCFunctionListEntry__bindgen_ty_1 {
      func: qjs::JSCFunctionListEntry__bindgen_ty_1__bindgen_ty_1 {
        length: 0,
        cproto: qjs::JSCFunctionEnum_JS_CFUNC_generic_magic as u8,
        cfunc: qjs::JSCFunctionType { generic_magic: Some(call_method::<W>) },
      },
    },
  }
}

/// Defines `console`. The methods find the run's state `W` behind the context's opaque pointer.
pub fn install<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  globals: &Object<'js>,
  shared: &Rc<W>,
) -> rquickjs::Result<()> {
  let console = Object::new(ctx.clone())?;
  let list: &'static [qjs::JSCFunctionListEntry; METHOD_COUNT] = &Methods::<W>::LIST;
  let (printing, rest) = list.split_at(PRINTING);
  define_methods(ctx, &console, printing)?;
  let trace_shared = shared.clone();
  let trace = Function::new(ctx.clone(), move |ctx: Ctx<'js>, args: Rest<Value<'js>>| {
    trace(&ctx, &*trace_shared, &args.0)
  })?
  .with_name("trace")?;
  console.set("trace", trace)?;
  define_methods(ctx, &console, rest)?;
  globals.set("console", console)?;
  Ok(())
}

fn define_methods(
  ctx: &Ctx<'_>,
  console: &Object<'_>,
  list: &'static [qjs::JSCFunctionListEntry],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  // SAFETY: the entries are static, as QuickJS requires (each property points at its entry
  // until first use); the object is alive.
  if unsafe { qjs::JS_SetPropertyFunctionList(c, console.as_raw(), list.as_ptr(), list.len() as _) }
    < 0
  {
    return Err(rquickjs::Error::Exception);
  }
  Ok(())
}

/// The C function behind every method of [`methods`]: `magic` is its index.
unsafe extern "C" fn call_method<W: ConsoleWorld>(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: std::ffi::c_int,
  argv: *mut qjs::JSValue,
  magic: std::ffi::c_int,
) -> qjs::JSValue {
  let outcome = std::panic::catch_unwind(|| {
    let ctx_ptr = std::ptr::NonNull::new(c)?;
    // SAFETY: QuickJS calls us with a live context, on the thread that runs it.
    let ctx = unsafe { Ctx::from_raw(ctx_ptr) };
    // SAFETY: our methods live in the run's program context; argv holds argc values.
    let (shared, args) = unsafe { (raw::context_state::<W>(c)?, raw::args(&ctx, argc, argv)) };
    let (_, method) = Methods::<W>::METHODS.get(usize::try_from(magic).ok()?)?;
    Some(match method(&ctx, shared, &args) {
      Ok(()) => qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0),
      Err(rquickjs::Error::Exception) => qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0),
      Err(other) => {
        let _ = rquickjs::Exception::throw_internal(&ctx, &other.to_string());
        qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0)
      }
    })
  });
  match outcome {
    Ok(Some(v)) => v,
    _ => raw::exception(c, c"console failed"),
  }
}

/// Node's `trace`: `{ name: 'Trace', message: format(args) }` with the caller's stack.
fn trace<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let message = format_args(ctx, shared, args)?;
  let mut entry = b"Trace".to_vec();
  if !message.is_empty() {
    entry.extend_from_slice(b": ");
    entry.extend_from_slice(&message);
  }
  // Our host functions are class objects QuickJS calls without a stack frame of their own,
  // so the frames start at the program's caller.
  let frames = shared.stacks().current_frames(ctx);
  if !frames.is_empty() {
    entry.push(b'\n');
    entry.extend_from_slice(frames.as_bytes());
  }
  emit(shared, entry);
  Ok(())
}

fn log<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let entry = format_args(ctx, shared, args)?;
  emit(shared, entry);
  Ok(())
}

/// Records one printed entry, every line indented by the open groups (Node's kGroupIndent).
pub fn emit<W: ConsoleWorld>(shared: &W, entry: Vec<u8>) {
  let width = shared.console().groups.get().saturating_mul(GROUP_INDENT);
  if width == 0 {
    shared.log(entry);
    return;
  }
  // An entry longer than the bytes left crosses the output cap whatever its length, so a
  // deep indentation is never built beyond that (a few bytes over, to still cross it).
  let Ok(left) = shared.ledger().try_borrow().map(|l| l.remaining()) else {
    return;
  };
  let limit = usize::try_from(left).unwrap_or(usize::MAX).saturating_add(8);
  shared.log(indent(&entry, width, limit));
}

/// `entry` with `width` spaces before it and after each `\n`, cut once longer than `limit`
/// (at a character boundary, still longer than `limit - 4`).
fn indent(entry: &[u8], width: usize, limit: usize) -> Vec<u8> {
  let newlines = entry.iter().filter(|&&b| b == b'\n').count();
  let full = newlines.saturating_add(1).saturating_mul(width).saturating_add(entry.len());
  let mut out = Vec::with_capacity(full.min(limit.saturating_add(width.min(limit))));
  let spaces = |out: &mut Vec<u8>| {
    let room = limit.saturating_sub(out.len()).saturating_add(1);
    out.resize(out.len() + width.min(room), b' ');
  };
  spaces(&mut out);
  for &b in entry {
    if out.len() > limit {
      break;
    }
    out.push(b);
    if b == b'\n' {
      spaces(&mut out);
    }
  }
  if out.len() > limit {
    out.truncate(limit + 1);
    while out.last().is_some_and(|&b| (0x80..0xC0).contains(&b)) {
      out.pop();
    }
    if out.last().is_some_and(|&b| b >= 0xC0) {
      out.pop();
    }
  }
  out
}

/// Node's process warning, as an entry of its own (not indented: Node writes it to stderr
/// outside the console).
fn warning<W: ConsoleWorld>(shared: &W, message: &[&[u8]]) {
  let mut entry = b"Warning: ".to_vec();
  for part in message {
    entry.extend_from_slice(part);
  }
  shared.log(entry);
}

/// Renders and joins `console.log`'s arguments (`Err` with an exception pending when the
/// formatting throws, as Node's does: a `%j` of a bigint, a program's throwing `toString`).
pub fn format_args<W: ConsoleWorld>(
  ctx: &Ctx<'_>,
  shared: &W,
  args: &[Value<'_>],
) -> rquickjs::Result<Vec<u8>> {
  let c = ctx.as_raw().as_ptr();
  // Primitives print as Node prints them without the inspector realm (strings raw, the rest
  // as `util.inspect` shows them, which the engine's renderer does exactly for primitives),
  // unless a first string holds format specifiers for later arguments to fill.
  let plain = all_primitive(args)
    && (args.len() < 2
      || !args[0].is_string()
      || !raw::string_bytes(c, args[0].as_raw()).unwrap_or_default().contains(&b'%'));
  if !plain {
    let raw_args: Vec<_> = args.iter().map(|a| a.as_raw()).collect();
    if let Some(text) = native_inspect::format(c, &raw_args) {
      return Ok(text);
    }
    if let Some(text) = realm_text(c, shared.inspector().call_outcome(c, Api::Format, &raw_args))? {
      return Ok(text);
    }
  }
  Ok(render_rest(c, args))
}

/// The text a formatting call into the realm returned, `None` when the realm failed (the
/// caller renders without it), or the error it ended with, thrown in the program: the
/// program's own, or (`[name, message]`) one the formatting itself raised.
fn realm_text(c: *mut qjs::JSContext, outcome: Outcome) -> rquickjs::Result<Option<Vec<u8>>> {
  match outcome {
    Outcome::Value(text) if raw::is_string(text.v) => Ok(raw::string_bytes(text.ctx(), text.v)),
    // SAFETY: JS_IsArray reads the class; the realm's own array's elements are plain data.
    Outcome::Value(pair) if unsafe { qjs::JS_IsArray(pair.v) } => {
      let (realm, v) = (pair.ctx(), pair.v);
      // SAFETY: JS_GetPropertyUint32 returns owned values, freed by Owned.
      let (name, message) = unsafe {
        (
          Owned::new(realm, qjs::JS_GetPropertyUint32(realm, v, 0)),
          Owned::new(realm, qjs::JS_GetPropertyUint32(realm, v, 1)),
        )
      };
      let name = raw::string_bytes(realm, name.v).unwrap_or_default();
      if !raw::is_string(message.v) {
        return Ok(None);
      }
      Err(throw_error(c, &name, message.v))
    }
    Outcome::Value(_) | Outcome::Failed => Ok(None),
    Outcome::Threw(thrown) => Err(rethrow(c, thrown)),
  }
}

/// Throws an intrinsic `TypeError` (or `RangeError`, by `name`) of the program's realm with
/// `message` (a string of the runtime).
fn throw_error(c: *mut qjs::JSContext, name: &[u8], message: qjs::JSValue) -> rquickjs::Error {
  // SAFETY: JS_Throw*Error makes an intrinsic error (whatever the program did to its
  // globals) and leaves it pending; we take it, define its own message (no setter runs on a
  // new error) and throw it again.
  unsafe {
    if name == b"RangeError" {
      qjs::JS_ThrowRangeError(c, c"%s".as_ptr(), c"".as_ptr());
    } else {
      qjs::JS_ThrowTypeError(c, c"%s".as_ptr(), c"".as_ptr());
    }
    let err = qjs::JS_GetException(c);
    let flags = (qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE) as i32;
    qjs::JS_DefinePropertyValueStr(
      c,
      err,
      c"message".as_ptr(),
      qjs::JS_DupValue(c, message),
      flags,
    );
    qjs::JS_Throw(c, err);
  }
  rquickjs::Error::Exception
}

fn all_primitive(args: &[Value<'_>]) -> bool {
  args.iter().all(|a| !raw::is_object(a.as_raw()))
}

/// The arguments joined by spaces, strings raw and the rest inspected (what `util.format`
/// does with arguments after the format string), rendered without the inspector realm.
fn render_rest(c: *mut qjs::JSContext, args: &[Value<'_>]) -> Vec<u8> {
  let mut out = Vec::new();
  for (i, a) in args.iter().enumerate() {
    if i > 0 {
      out.push(b' ');
    }
    out.extend_from_slice(&inspect::render(c, a.as_raw()));
  }
  out
}

/// `head` followed by the arguments as `util.format('%s', head, ...rest)` prints them
/// (`realm` does it when some argument is not a primitive).
fn with_rest(
  c: *mut qjs::JSContext,
  mut head: Vec<u8>,
  rest: &[Value<'_>],
  realm: impl FnOnce() -> Option<Vec<u8>>,
) -> Vec<u8> {
  if rest.is_empty() {
    return head;
  }
  if !all_primitive(rest) {
    if let Some(text) = realm() {
      return text;
    }
  }
  head.push(b' ');
  head.extend_from_slice(&render_rest(c, rest));
  head
}

fn dir<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
  let value = args.first().map_or(undefined, |v| v.as_raw());
  let options = args.get(1).map_or(undefined, |v| v.as_raw());
  // Only an object's own keys can change how a primitive prints (`numericSeparator`, ...).
  let entry = if !raw::is_object(value) && !raw::is_string(value) && !raw::is_object(options) {
    inspect::render(c, value)
  } else {
    match shared.inspector().call_outcome(c, Api::Dir, &[value, options]) {
      Outcome::Value(text) if raw::is_string(text.v) => {
        raw::string_bytes(text.ctx(), text.v).unwrap_or_default()
      }
      Outcome::Threw(thrown) => return Err(rethrow(c, thrown)),
      _ => inspect::render_inspected(c, value),
    }
  };
  emit(shared, entry);
  Ok(())
}

fn table<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
  let data = args.first().map_or(undefined, |v| v.as_raw());
  let properties = args.get(1).map_or(undefined, |v| v.as_raw());
  // Not an object (a function included): Node logs it.
  // SAFETY: JS_IsFunction reads the class only.
  if raw::tag(properties) == qjs::JS_TAG_UNDEFINED
    && (!raw::is_object(data) || unsafe { qjs::JS_IsFunction(c, data) })
  {
    let data = args.first().cloned().unwrap_or_else(|| Value::new_undefined(ctx.clone()));
    return log(ctx, shared, &[data]);
  }
  let result = match shared.inspector().call_outcome(c, Api::Table, &[data, properties]) {
    Outcome::Value(result) => result,
    Outcome::Threw(thrown) => return Err(rethrow(c, thrown)),
    Outcome::Failed => {
      emit(shared, inspect::render(c, data));
      return Ok(());
    }
  };
  if raw::is_string(result.v) {
    emit(shared, raw::string_bytes(result.ctx(), result.v).unwrap_or_default());
    return Ok(());
  }
  // `[message]`: `properties` is not an array. The realm's own array: reading runs no code.
  // SAFETY: JS_GetPropertyUint32 returns an owned value, which Owned frees.
  let message =
    unsafe { Owned::new(result.ctx(), qjs::JS_GetPropertyUint32(result.ctx(), result.v, 0)) };
  if !raw::is_string(message.v) {
    emit(shared, inspect::render(c, data));
    return Ok(());
  }
  Err(throw_type_error(c, message.v, c"ERR_INVALID_ARG_TYPE"))
}

/// Throws again, in the program, a value the program threw inside the inspector realm (a
/// getter or Proxy trap that `dir` or `table` ran): Node's console throws it too.
fn rethrow(c: *mut qjs::JSContext, thrown: Owned) -> rquickjs::Error {
  // SAFETY: JS_Throw takes the new reference we make; exceptions belong to the runtime.
  unsafe {
    qjs::JS_Throw(c, qjs::JS_DupValue(c, thrown.v));
  }
  rquickjs::Error::Exception
}

/// Throws a `TypeError` of the program's realm with `message` (a string) and Node's `code`.
fn throw_type_error(
  c: *mut qjs::JSContext,
  message: qjs::JSValue,
  code: &std::ffi::CStr,
) -> rquickjs::Error {
  // SAFETY: JS_ThrowTypeError makes an intrinsic TypeError (whatever the program did to
  // its globals) and leaves it pending; we take it, define own data properties on it (no
  // setters run on a new error) and throw it again. Strings belong to the runtime, so the
  // message string may come from the inspector realm.
  unsafe {
    qjs::JS_ThrowTypeError(c, c"%s".as_ptr(), c"".as_ptr());
    let err = qjs::JS_GetException(c);
    let flags = (qjs::JS_PROP_WRITABLE | qjs::JS_PROP_CONFIGURABLE) as i32;
    qjs::JS_DefinePropertyValueStr(
      c,
      err,
      c"message".as_ptr(),
      qjs::JS_DupValue(c, message),
      flags,
    );
    qjs::JS_DefinePropertyValueStr(
      c,
      err,
      c"code".as_ptr(),
      qjs::JS_NewStringLen(c, code.as_ptr(), code.count_bytes() as _),
      flags | qjs::JS_PROP_ENUMERABLE as i32,
    );
    qjs::JS_Throw(c, err);
  }
  rquickjs::Error::Exception
}

fn group<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  if !args.is_empty() {
    log(ctx, shared, args)?;
  }
  let groups = &shared.console().groups;
  groups.set(groups.get().saturating_add(1));
  Ok(())
}

fn group_end<'js, W: ConsoleWorld>(
  _: &Ctx<'js>,
  shared: &W,
  _: &[Value<'js>],
) -> rquickjs::Result<()> {
  let groups = &shared.console().groups;
  groups.set(groups.get().saturating_sub(1));
  Ok(())
}

fn assert<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  // SAFETY: ToBoolean runs no program code.
  if args.first().is_some_and(|v| unsafe { qjs::JS_ToBool(c, v.as_raw()) } > 0) {
    return Ok(());
  }
  let data = &args[args.len().min(1)..];
  let Some(first) = data.first() else {
    emit(shared, b"Assertion failed".to_vec());
    return Ok(());
  };
  // Node 24: a first datum that is not a string follows `'Assertion failed'` as an argument.
  if !first.is_string() {
    let mut all = vec![rquickjs::String::from_str(ctx.clone(), "Assertion failed")?.into_value()];
    all.extend(data.iter().cloned());
    let entry = format_args(ctx, shared, &all)?;
    emit(shared, entry);
    return Ok(());
  }
  // `Assertion failed: ${data[0]}` becomes the format string for the rest.
  let first = to_string(c, first.as_raw())?;
  let mut head = b"Assertion failed: ".to_vec();
  head.extend_from_slice(&raw::string_bytes(c, first.v).unwrap_or_default());
  let rest = &data[1..];
  let entry = if !rest.is_empty() && head.contains(&b'%') {
    let mut argv = vec![first.v];
    argv.extend(rest.iter().map(|v| v.as_raw()));
    match realm_text(c, shared.inspector().call_outcome(c, Api::Assert, &argv))? {
      Some(text) => text,
      None => with_rest(c, head, rest, || None),
    }
  } else {
    with_rest(c, head, rest, || {
      let mut argv = vec![first.v];
      argv.extend(rest.iter().map(|v| v.as_raw()));
      shared.inspector().text(c, Api::Assert, &argv)
    })
  };
  emit(shared, entry);
  Ok(())
}

/// `String(v)` in the program's realm (`Err` with the exception pending if it throws).
fn to_string(c: *mut qjs::JSContext, v: qjs::JSValue) -> rquickjs::Result<Owned> {
  // SAFETY: JS_ToString returns an owned string or JS_EXCEPTION (nothing to free then).
  let s = unsafe { Owned::new(c, qjs::JS_ToString(c, v)) };
  if raw::tag(s.v) == qjs::JS_TAG_EXCEPTION {
    return Err(rquickjs::Error::Exception);
  }
  Ok(s)
}

/// A label argument as Node reads it: `label = 'default'`, then `${label}`.
fn label(c: *mut qjs::JSContext, v: Option<&Value<'_>>) -> rquickjs::Result<(Owned, Vec<u8>)> {
  let s = match v.filter(|v| !v.is_undefined()) {
    Some(v) => to_string(c, v.as_raw())?,
    // SAFETY: JS_NewStringLen copies the bytes into a new owned string.
    None => unsafe { Owned::new(c, qjs::JS_NewStringLen(c, c"default".as_ptr(), 7)) },
  };
  if raw::tag(s.v) == qjs::JS_TAG_EXCEPTION {
    return Err(rquickjs::Error::Exception);
  }
  let bytes = raw::string_bytes(c, s.v).unwrap_or_default();
  Ok((s, bytes))
}

fn key(label: &[u8]) -> LabelKey {
  let mut a = std::hash::DefaultHasher::new();
  a.write(label);
  let mut b = std::hash::DefaultHasher::new();
  b.write_u8(0xA5);
  b.write(label);
  (a.finish(), b.finish())
}

fn count<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  let (_, text) = label(c, args.first())?;
  let n = {
    let mut counts = shared.console().counts.borrow_mut();
    let full = counts.len() >= MAX_LABELS;
    match counts.get_mut(&key(&text)) {
      Some(n) => {
        *n += 1;
        Some(*n)
      }
      None if full => None,
      None => {
        counts.insert(key(&text), 1);
        Some(1)
      }
    }
  };
  match n {
    Some(n) => {
      let mut entry = text;
      entry.extend_from_slice(format!(": {n}").as_bytes());
      emit(shared, entry);
    }
    None => too_many(shared, "count", &text),
  }
  Ok(())
}

fn too_many<W: ConsoleWorld>(shared: &W, method: &str, label: &[u8]) {
  let what = if method == "count" { "counted" } else { "timed" };
  warning(
    shared,
    &[
      format!("console.{method}() keeps at most {MAX_LABELS} labels; '").as_bytes(),
      label,
      format!("' is not {what}").as_bytes(),
    ],
  );
}

fn count_reset<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  let (_, text) = label(c, args.first())?;
  // Node looks the label up before converting it, so a label that is not a string (after
  // the default) is never found.
  let as_given = args.first().is_none_or(|v| v.is_undefined() || v.is_string());
  let found = as_given && shared.console().counts.borrow_mut().remove(&key(&text)).is_some();
  if !found {
    warning(shared, &[b"Count for '", &text, b"' does not exist"]);
  }
  Ok(())
}

fn time<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  let (_, text) = label(c, args.first())?;
  let mut timers = shared.console().timers.borrow_mut();
  let k = key(&text);
  if timers.contains_key(&k) {
    drop(timers);
    warning(shared, &[b"Label '", &text, b"' already exists for console.time()"]);
  } else if timers.len() >= MAX_LABELS {
    drop(timers);
    too_many(shared, "time", &text);
  } else {
    timers.insert(k, Instant::now());
  }
  Ok(())
}

fn time_end<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  time_log_impl(ctx, shared, "timeEnd", args.first(), &[])
}

fn time_log<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  args: &[Value<'js>],
) -> rquickjs::Result<()> {
  time_log_impl(ctx, shared, "timeLog", args.first(), args.get(1..).unwrap_or_default())
}

fn time_log_impl<'js, W: ConsoleWorld>(
  ctx: &Ctx<'js>,
  shared: &W,
  method: &str,
  label_arg: Option<&Value<'js>>,
  data: &[Value<'js>],
) -> rquickjs::Result<()> {
  let c = ctx.as_raw().as_ptr();
  let (label_js, text) = label(c, label_arg)?;
  let k = key(&text);
  let started = {
    let mut timers = shared.console().timers.borrow_mut();
    if method == "timeEnd" {
      timers.remove(&k)
    } else {
      timers.get(&k).copied()
    }
  };
  let Some(started) = started else {
    warning(shared, &[b"No such label '", &text, format!("' for console.{method}()").as_bytes()]);
    return Ok(());
  };
  let formatted = format_time(started.elapsed());
  // log('%s: %s', label, formatted, ...data)
  let mut head = text;
  head.extend_from_slice(b": ");
  head.extend_from_slice(formatted.as_bytes());
  let entry = with_rest(c, head, data, || {
    // SAFETY: JS_NewStringLen copies the bytes into new owned strings.
    let (fmt, time) = unsafe {
      (
        Owned::new(c, qjs::JS_NewStringLen(c, c"%s: %s".as_ptr(), 6)),
        Owned::new(c, qjs::JS_NewStringLen(c, formatted.as_ptr().cast(), formatted.len() as _)),
      )
    };
    let mut argv = vec![fmt.v, label_js.v, time.v];
    argv.extend(data.iter().map(|v| v.as_raw()));
    shared.inspector().format(c, &argv)
  });
  emit(shared, entry);
  Ok(())
}

/// Node's `formatTime` (lib/internal/console/constructor.js), from the exact duration:
/// `1.234ms`, `1.234s`, `1:02.345 (m:ss.mmm)`, `1:02:03.456 (h:mm:ss.mmm)`. Rounding is
/// `toFixed(3)`'s (half up) applied to the exact nanoseconds.
pub fn format_time(elapsed: Duration) -> String {
  const SECOND: u128 = 1_000_000_000;
  const MINUTE: u128 = 60 * SECOND;
  const HOUR: u128 = 60 * MINUTE;
  let ns = elapsed.as_nanos();
  // toFixed(x, 3) of `ns` nanoseconds counted in `unit`-nanosecond units.
  let fixed = |ns: u128, unit: u128| {
    let thousandths = (ns * 1000 + unit / 2) / unit;
    (thousandths / 1000, thousandths % 1000)
  };
  if ns >= MINUTE {
    let hours = ns / HOUR;
    let minutes = (ns % HOUR) / MINUTE;
    let (seconds, millis) = fixed(ns % MINUTE, SECOND);
    let res = if hours != 0 { format!("{hours}:{minutes:02}") } else { minutes.to_string() };
    let unit = if hours != 0 { "h:m" } else { "" };
    return format!("{res}:{seconds:02}.{millis:03} ({unit}m:ss.mmm)");
  }
  if ns >= SECOND {
    let (seconds, millis) = fixed(ns, SECOND);
    return format!("{seconds}.{millis:03}s");
  }
  // Number(ms.toFixed(3)): trailing zeros dropped.
  let (ms, frac) = fixed(ns, 1_000_000);
  if frac == 0 {
    format!("{ms}ms")
  } else {
    let digits = format!("{frac:03}");
    format!("{ms}.{}ms", digits.trim_end_matches('0'))
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn format_time_is_nodes() {
    let t = |ns: u64| format_time(Duration::from_nanos(ns));
    assert_eq!(t(0), "0ms");
    assert_eq!(t(1_234_567), "1.235ms");
    assert_eq!(t(1_200_000), "1.2ms");
    assert_eq!(t(1_062_500), "1.063ms");
    assert_eq!(t(999_999_600), "1000ms");
    assert_eq!(t(1_000_000_000), "1.000s");
    assert_eq!(t(59_999_999_999), "60.000s");
    assert_eq!(t(61_234_000_000), "1:01.234 (m:ss.mmm)");
    assert_eq!(t(3_723_456_000_000), "1:02:03.456 (h:mm:ss.mmm)");
    // Node's own quirk: seconds rounding up to 60 are not carried.
    assert_eq!(t(119_999_900_000), "1:60.000 (m:ss.mmm)");
  }

  #[test]
  fn indentation_covers_every_line_and_stops_past_the_limit() {
    assert_eq!(indent(b"a\nb", 2, 100), b"  a\n  b");
    assert_eq!(indent(b"", 4, 100), b"    ");
    assert_eq!(indent(b"x\n", 2, 100), b"  x\n  ");
    let cut = indent(b"abc", 1_000_000, 10);
    assert!(cut.len() > 10 && cut.len() <= 11, "{}", cut.len());
    let cut = indent("ééééééééééé".as_bytes(), 2, 10);
    assert!(cut.len() > 6 && std::str::from_utf8(&cut).is_ok(), "{cut:?}");
  }
}
