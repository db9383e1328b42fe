//! The web-platform globals programs reach for: `structuredClone`, `TextEncoder`,
//! `TextDecoder`, `URL`, `URLSearchParams`, `atob`, `btoa`, `crypto`, `Event`, `EventTarget`,
//! `CustomEvent`, `AbortController`, `AbortSignal`, …, `Performance` (QuickJS's own
//! `performance` becomes one, an `EventTarget`, when they load); and a per-run seeded
//! `Math.random`.
//!
//! Cost model: a fresh context per run makes every eager global a per-run cost, so these are
//! installed *lazily* (`quickjs::lazy`): each name is a writable, configurable data property
//! of `globalThis` from the start, whose value the first use of any of them loads (the
//! prelude, `prelude/web.js`, compiled to QuickJS bytecode once per process and read into
//! each context that needs it). `Math.random` is QuickJS's own, seeded per run from the OS.
//!
//! The prelude is plain JavaScript over a few natives defined here: UTF-8 coding, WHATWG URL
//! parsing and setters (`ada-url`, the parser Node uses), `application/x-www-form-urlencoded` parsing and
//! serialising (`form_urlencoded`), and OS randomness (`getrandom`). The natives read
//! strings and typed arrays directly and run no program code.

use crate::quickjs::lazy::{self, LazyGroup};
use crate::quickjs::prelude::Prelude;
use crate::quickjs::raw::{self, Owned};
use crate::web::buffers::{new_uint8_array, throw_type, view_bytes};
use crate::web::{digest, encoding};
use rquickjs::function::Rest;
use rquickjs::{qjs, Array, Ctx, Exception, Function, Object, Value};

/// The globals the prelude defines.
pub const LAZY_GLOBALS: &[&str] = &[
  "structuredClone",
  "TextEncoder",
  "TextDecoder",
  "URL",
  "URLSearchParams",
  "atob",
  "btoa",
  "crypto",
  "Event",
  "EventTarget",
  "CustomEvent",
  "AbortController",
  "AbortSignal",
  "Blob",
  "File",
  "MessageChannel",
  "MessagePort",
  "MessageEvent",
  "Performance",
];

/// The names `performance`'s prototype (QuickJS's, made with the context) waits for in the
/// same group: the first use of one loads the prelude, which makes that prototype
/// `Performance.prototype`, a child of `EventTarget.prototype`, and settles them (the
/// methods then are `EventTarget.prototype`'s, inherited as in Node). Reading
/// `performance.now` loads nothing.
const PERFORMANCE_NAMES: &[&str] =
  &["constructor", "addEventListener", "removeEventListener", "dispatchEvent"];

extern "C" {
  /// `performance` (`prototype` false) or its prototype as the context made them.
  fn JS_GetPerformance(ctx: *mut qjs::JSContext, prototype: bool) -> qjs::JSValue;
}

/// `performance` or its prototype as QuickJS made them (a program may have replaced the
/// global or the prototype since), if the context has them.
fn original_performance<'js>(ctx: &Ctx<'js>, prototype: bool) -> Option<Object<'js>> {
  // SAFETY: a new reference (undefined without one), which Value takes.
  let v =
    unsafe { Value::from_raw(ctx.clone(), JS_GetPerformance(ctx.as_raw().as_ptr(), prototype)) };
  v.into_object()
}

/// `prelude/web.js`; its completion value is a factory taking the natives.
pub(crate) static PRELUDE: Prelude = Prelude::new(c"prelude/web.js", include_str!("web.js"));

/// The web globals load together, from the prelude.
static GROUP: LazyGroup = LazyGroup::new(load, c"the web globals could not be loaded");

/// Defines the lazy globals and seeds `Math.random`. Runs before the program, so it is part
/// of every run's start-up cost: one property slot per name (`quickjs::lazy`), no function.
pub fn install<'js>(ctx: &Ctx<'js>, globals: &Object<'js>) -> rquickjs::Result<()> {
  lazy::define(ctx, globals, LAZY_GLOBALS, &GROUP)?;
  if let Some(proto) = original_performance(ctx, true) {
    lazy::define(ctx, &proto, PERFORMANCE_NAMES, &GROUP)?;
  }
  install_random(ctx);
  Ok(())
}

/// Reads the prelude into this context: the object holding every lazy global's value.
fn load<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
  let c = ctx.as_raw().as_ptr();
  // SAFETY: `evaluate` returns an owned value (or JS_EXCEPTION), which Value takes.
  let factory = unsafe { Value::from_raw(ctx.clone(), PRELUDE.evaluate(c)) };
  if raw::tag(factory.as_raw()) == qjs::JS_TAG_EXCEPTION {
    return Err(rquickjs::Error::Exception);
  }
  let factory = factory.into_function().ok_or(rquickjs::Error::Exception)?;
  let holder: Object<'js> = factory.call((natives(ctx)?,))?;
  // The group's names wait on two objects and QuickJS fills only the one whose name was
  // used: the prelude settled `performance`'s prototype, this settles the globals, so that
  // whichever loaded the group, none of its names loads it again (a second EventTarget).
  lazy::settle(ctx, &ctx.globals(), &holder, &GROUP)?;
  Ok(holder)
}

/// A native's work on the program's strings `inputs`: the buffers it makes from them (UTF-8
/// copies, a parsed URL and its serialisation: up to ~6 bytes per UTF-16 unit) count
/// against the run's heap limit while the returned guard lives (an untouched block of the
/// run's own heap that size, so refusing it ends the run as out of memory), and the work is charged to
/// its budget first, so a run already past it stops before the work starts and one that
/// reaches it stops at the next poll.
fn hold(ctx: &Ctx<'_>, inputs: &[&Value<'_>]) -> rquickjs::Result<Option<raw::HeapHold>> {
  let c = ctx.as_raw().as_ptr();
  let units: usize = inputs.iter().filter_map(|v| raw::string_length(v.as_raw())).sum();
  raw::poll_work(c, units / 8)?;
  if units == 0 {
    return Ok(None);
  }
  raw::hold_heap(c, units.saturating_mul(6)).map(Some).ok_or(rquickjs::Error::Exception)
}

/// The string's UTF-16 content as UTF-8, lone surrogates replaced by U+FFFD (USVString).
fn usv_string(ctx: &Ctx<'_>, v: &Value<'_>) -> rquickjs::Result<String> {
  let c = ctx.as_raw().as_ptr();
  let bytes = if v.is_string() {
    raw::string_bytes(c, v.as_raw()).unwrap_or_default()
  } else {
    // SAFETY: JS_ToString returns a new reference (or an exception, then pending).
    let s = unsafe { Owned::new(c, qjs::JS_ToString(c, v.as_raw())) };
    if !raw::is_string(s.v) {
      return Err(rquickjs::Error::Exception);
    }
    raw::string_bytes(c, s.v).unwrap_or_default()
  };
  Ok(wtf8_to_usv(bytes))
}

/// WTF-8 (QuickJS's encoding of lone surrogates as 3-byte sequences) to UTF-8 with U+FFFD.
fn wtf8_to_usv(bytes: Vec<u8>) -> String {
  match String::from_utf8(bytes) {
    Ok(s) => s,
    Err(e) => {
      let bytes = e.into_bytes();
      let mut out = Vec::with_capacity(bytes.len());
      let mut i = 0;
      while i < bytes.len() {
        if bytes[i] == 0xED && i + 2 < bytes.len() && (0xA0..=0xBF).contains(&bytes[i + 1]) {
          out.extend_from_slice("\u{FFFD}".as_bytes());
          i += 3;
        } else {
          out.push(bytes[i]);
          i += 1;
        }
      }
      String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
  }
}

/// The URL's parts in the order the prelude's `PARTS` lists them: href, origin, protocol,
/// username, password, host, hostname, port, pathname, search, hash.
fn url_components<'js>(ctx: &Ctx<'js>, url: &ada_url::Url) -> rquickjs::Result<Value<'js>> {
  let origin = url.origin();
  let parts = [
    url.href(),
    origin.as_str(),
    url.protocol(),
    url.username(),
    url.password(),
    url.host(),
    url.hostname(),
    url.port(),
    url.pathname(),
    url.search(),
    url.hash(),
  ];
  let arr = Array::new(ctx.clone())?;
  for (i, p) in parts.into_iter().enumerate() {
    arr.set(i, p)?;
  }
  Ok(arr.into_value())
}

/// The natives object handed to the prelude's factory.
fn natives<'js>(ctx: &Ctx<'js>) -> rquickjs::Result<Object<'js>> {
  let n = Object::new(ctx.clone())?;
  if let (Some(perf), Some(proto)) =
    (original_performance(ctx, false), original_performance(ctx, true))
  {
    n.set("performance", perf)?;
    n.set("performancePrototype", proto)?;
  }
  n.set(
    "settleLazy",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, obj: Object<'js>, values: Object<'js>| {
      lazy::settle(&ctx, &obj, &values, &GROUP)
    })?,
  )?;
  n.set(
    "utf8Encode",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, s: Value<'js>| -> rquickjs::Result<Value<'js>> {
      let _held = hold(&ctx, &[&s])?;
      let s = usv_string(&ctx, &s)?;
      new_uint8_array(&ctx, s.as_bytes())
    })?,
  )?;
  n.set(
    "utf8EncodeInto",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, s: Value<'js>, dest: Value<'js>| -> rquickjs::Result<Value<'js>> {
        let _held = hold(&ctx, &[&s])?;
        let s = usv_string(&ctx, &s)?;
        let Some((ptr, len)) = view_bytes(&ctx, &dest) else {
          return throw_type(&ctx, "The \"dest\" argument must be an instance of Uint8Array.");
        };
        let (mut read, mut written) = (0usize, 0usize);
        let mut out = Vec::with_capacity(len.min(s.len()));
        for ch in s.chars() {
          let mut buf = [0u8; 4];
          let enc = ch.encode_utf8(&mut buf);
          if written + enc.len() > len {
            break;
          }
          out.extend_from_slice(enc.as_bytes());
          written += enc.len();
          read += ch.len_utf16();
        }
        // SAFETY: `ptr..ptr+len` is the view's memory (checked against the buffer's size) and
        // no program code ran since it was taken; we write `written <= len` bytes.
        unsafe { std::ptr::copy_nonoverlapping(out.as_ptr(), ptr, written) };
        let arr = Array::new(ctx.clone())?;
        arr.set(0, read as f64)?;
        arr.set(1, written as f64)?;
        Ok(arr.into_value())
      },
    )?,
  )?;
  encoding::define(ctx, &n)?;
  digest::define(ctx, &n)?;
  n.set(
    "urlParse",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, args: Rest<Value<'js>>| -> rquickjs::Result<Value<'js>> {
        let _held = hold(&ctx, &args.0.iter().collect::<Vec<_>>())?;
        let input = usv_string(&ctx, args.0.first().unwrap_or(&Value::new_undefined(ctx.clone())))?;
        let base = match args.0.get(1).filter(|b| !b.is_undefined()) {
          Some(base) => Some(usv_string(&ctx, base)?),
          None => None,
        };
        match ada_url::Url::parse(input.as_str(), base.as_deref()) {
          Ok(u) => url_components(&ctx, &u),
          Err(_) => Ok(Value::new_null(ctx.clone())),
        }
      },
    )?,
  )?;
  n.set(
    "urlSet",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       href: Value<'js>,
       part: Value<'js>,
       value: Value<'js>|
       -> rquickjs::Result<Value<'js>> {
        let _held = hold(&ctx, &[&href, &value])?;
        let href = usv_string(&ctx, &href)?;
        let part = usv_string(&ctx, &part)?;
        let value = usv_string(&ctx, &value)?;
        let Ok(mut u) = ada_url::Url::parse(href.as_str(), None) else {
          return Ok(Value::new_null(ctx.clone()));
        };
        let v = Some(value.as_str());
        // WHATWG setters that cannot apply a value leave the URL as it was; only `href`
        // refuses (the prelude throws for it).
        let _refused = match part.as_str() {
          "href" => {
            if u.set_href(&value).is_err() {
              return Ok(Value::new_null(ctx.clone()));
            }
            Ok(())
          }
          "protocol" => u.set_protocol(&value),
          "username" => u.set_username(v),
          "password" => u.set_password(v),
          "host" => u.set_host(v),
          "hostname" => u.set_hostname(v),
          "port" => u.set_port(v),
          "pathname" => u.set_pathname(v),
          "search" => {
            u.set_search(v);
            Ok(())
          }
          "hash" => {
            u.set_hash(v);
            Ok(())
          }
          _ => Ok(()),
        };
        url_components(&ctx, &u)
      },
    )?,
  )?;
  n.set(
    "formParse",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, s: Value<'js>| -> rquickjs::Result<Value<'js>> {
      let s = usv_string(&ctx, &s)?;
      let arr = Array::new(ctx.clone())?;
      let mut i = 0;
      for (k, v) in form_urlencoded::parse(s.as_bytes()) {
        arr.set(i, k.as_ref())?;
        arr.set(i + 1, v.as_ref())?;
        i += 2;
      }
      Ok(arr.into_value())
    })?,
  )?;
  n.set(
    "formSerialize",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, flat: Array<'js>| -> rquickjs::Result<String> {
      let mut out = form_urlencoded::Serializer::new(String::new());
      let n = flat.len();
      let mut i = 0;
      while i + 1 < n {
        let k: Value = flat.get(i)?;
        let v: Value = flat.get(i + 1)?;
        out.append_pair(&usv_string(&ctx, &k)?, &usv_string(&ctx, &v)?);
        i += 2;
      }
      Ok(out.finish())
    })?,
  )?;
  n.set(
    "randomFill",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, view: Value<'js>| -> rquickjs::Result<()> {
      let Some((ptr, len)) = view_bytes(&ctx, &view) else {
        return throw_type(
          &ctx,
          "The \"typedArray\" argument must be an instance of an integer TypedArray",
        );
      };
      // SAFETY: the view's memory, as in utf8EncodeInto.
      let target = unsafe { std::slice::from_raw_parts_mut(ptr, len) };
      getrandom::fill(target)
        .map_err(|_| Exception::throw_internal(&ctx, "the OS random source failed"))
    })?,
  )?;
  n.set(
    "randomUUID",
    Function::new(ctx.clone(), |ctx: Ctx<'js>| -> rquickjs::Result<String> {
      let mut b = [0u8; 16];
      getrandom::fill(&mut b)
        .map_err(|_| Exception::throw_internal(&ctx, "the OS random source failed"))?;
      b[6] = (b[6] & 0x0F) | 0x40;
      b[8] = (b[8] & 0x3F) | 0x80;
      let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
      Ok(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
      ))
    })?,
  )?;
  Ok(n)
}

/// Seeds QuickJS's own `Math.random` (xorshift64*) from the OS: its default seed is the time
/// of day in microseconds, so runs started together would draw the same numbers. Replacing
/// the function instead would make every run instantiate `Math`, which QuickJS otherwise
/// creates on first use.
fn install_random(ctx: &Ctx<'_>) {
  let mut seed = [0u8; 8];
  let _ = getrandom::fill(&mut seed);
  // SAFETY: the context is alive; this sets one field of it.
  unsafe { raw::JS_SetRandomSeed(ctx.as_raw().as_ptr(), u64::from_le_bytes(seed)) }
}
