//! What the Intl natives share: reading the prelude's arguments (strings as the program's
//! UTF-16 or as UTF-8), locales, per-thread caches of ICU4X objects, and throwing.

use crate::quickjs::raw;
use icu_locale_core::Locale;
use rquickjs::{qjs, Array, Ctx, Exception, IntoJs, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// A per-thread cache of ICU4X objects by a key the prelude builds (locale and options).
/// Bounded: past `MAX` entries it starts again (a program making formatters for thousands
/// of locales pays the look-ups again, and memory stays bounded).
/// The map is boxed on first use: thread-locals are static TLS in the addon, of which a
/// dlopen'ed library gets little, so each cache takes two words of it.
pub(crate) struct Cache<T: 'static> {
  map: RefCell<Option<Box<HashMap<String, Rc<T>>>>>,
}

const MAX: usize = 256;

impl<T: 'static> Cache<T> {
  pub(crate) const fn new() -> Cache<T> {
    Cache { map: RefCell::new(None) }
  }

  /// How many objects the cache holds.
  #[cfg(test)]
  pub(crate) fn len(&self) -> usize {
    self.map.borrow().as_ref().map_or(0, |m| m.len())
  }

  /// The cached object for `key`, made by `make` the first time (or its error).
  pub(crate) fn get<E>(&self, key: &str, make: impl FnOnce() -> Result<T, E>) -> Result<Rc<T>, E> {
    if let Some(v) = self.map.borrow().as_ref().and_then(|m| m.get(key)) {
      return Ok(v.clone());
    }
    let v = Rc::new(make()?);
    let mut slot = self.map.borrow_mut();
    let map = slot.get_or_insert_with(Default::default);
    if map.len() >= MAX {
      map.clear();
    }
    map.insert(key.to_owned(), v.clone());
    Ok(v)
  }
}

/// A string argument as UTF-8 (lone surrogates become U+FFFD); the prelude passes strings.
pub(crate) fn utf8(ctx: &Ctx<'_>, v: &Value<'_>) -> rquickjs::Result<String> {
  let c = ctx.as_raw().as_ptr();
  if !v.is_string() {
    return Err(Exception::throw_type(ctx, "expected a string"));
  }
  let bytes = raw::string_bytes(c, v.as_raw()).unwrap_or_default();
  Ok(match String::from_utf8(bytes) {
    Ok(s) => s,
    Err(e) => String::from_utf16_lossy(&wtf8_to_utf16(e.as_bytes())),
  })
}

/// A string argument as UTF-16 code units, lone surrogates kept (QuickJS's WTF-8 decoded).
pub(crate) fn utf16(ctx: &Ctx<'_>, v: &Value<'_>) -> rquickjs::Result<Vec<u16>> {
  let c = ctx.as_raw().as_ptr();
  if !v.is_string() {
    return Err(Exception::throw_type(ctx, "expected a string"));
  }
  let bytes = raw::string_bytes(c, v.as_raw()).unwrap_or_default();
  Ok(wtf8_to_utf16(&bytes))
}

/// Decodes WTF-8 (UTF-8 that may hold surrogates as 3-byte sequences) to UTF-16.
pub(crate) fn wtf8_to_utf16(b: &[u8]) -> Vec<u16> {
  let mut out = Vec::with_capacity(b.len());
  let mut i = 0;
  while i < b.len() {
    let x = b[i] as u32;
    let (cp, n) = if x < 0x80 {
      (x, 1)
    } else if x >> 5 == 0x6 && i + 1 < b.len() {
      (((x & 0x1f) << 6) | (b[i + 1] as u32 & 0x3f), 2)
    } else if x >> 4 == 0xe && i + 2 < b.len() {
      (((x & 0x0f) << 12) | ((b[i + 1] as u32 & 0x3f) << 6) | (b[i + 2] as u32 & 0x3f), 3)
    } else if x >> 3 == 0x1e && i + 3 < b.len() {
      (
        ((x & 0x07) << 18)
          | ((b[i + 1] as u32 & 0x3f) << 12)
          | ((b[i + 2] as u32 & 0x3f) << 6)
          | (b[i + 3] as u32 & 0x3f),
        4,
      )
    } else {
      (0xfffd, 1)
    };
    if cp >= 0x10000 {
      let v = cp - 0x10000;
      out.push(0xd800 | (v >> 10) as u16);
      out.push(0xdc00 | (v & 0x3ff) as u16);
    } else {
      out.push(cp as u16);
    }
    i += n;
  }
  out
}

/// A locale tag the prelude has already canonicalized (the root locale if it does not
/// parse, which the prelude never passes).
pub(crate) fn locale(tag: &str) -> Locale {
  Locale::try_from_str(tag).unwrap_or(Locale::UNKNOWN)
}

/// Work on the program's strings `inputs`: charged to the run's budget first (so a run past
/// it stops before the work starts), and the copies the native makes (up to ~6 bytes per
/// UTF-16 unit) counted against the heap limit while the returned guard lives.
pub(crate) fn hold(
  ctx: &Ctx<'_>,
  inputs: &[&Value<'_>],
) -> rquickjs::Result<Option<raw::HeapHold>> {
  let c = ctx.as_raw().as_ptr();
  let units: usize = inputs.iter().filter_map(|v| raw::string_length(v.as_raw())).sum();
  raw::poll_work(c, units / 8)?;
  if units < 4096 {
    return Ok(None);
  }
  raw::hold_heap(c, units.saturating_mul(6)).map(Some).ok_or(rquickjs::Error::Exception)
}

pub(crate) fn range_error<T>(ctx: &Ctx<'_>, message: &str) -> rquickjs::Result<T> {
  Err(Exception::throw_range(ctx, message))
}

/// ICU4X's answer when its data has nothing for a locale, in V8's words.
pub(crate) fn locale_error(ctx: &Ctx<'_>) -> rquickjs::Error {
  Exception::throw_range(ctx, "Incorrect locale information provided")
}

/// A `style` option the prelude passes as its index in `WIDTHS` (`intl.js`):
/// `['long', 'short', 'narrow']`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Width {
  Long,
  Short,
  Narrow,
}

impl Width {
  pub(crate) fn of(index: u32) -> Width {
    match index {
      1 => Width::Short,
      2 => Width::Narrow,
      _ => Width::Long,
    }
  }
}

/// The formatter of `cache` for `locale` and the options in `key`, made by `make` the first
/// time (its data error thrown as [`locale_error`]).
pub(crate) fn formatter<T: 'static, E>(
  ctx: &Ctx<'_>,
  cache: &'static std::thread::LocalKey<Cache<T>>,
  locale: &str,
  key: std::fmt::Arguments<'_>,
  make: impl FnOnce(&Locale) -> Result<T, E>,
) -> rquickjs::Result<Rc<T>> {
  let key = format!("{locale}|{key}");
  cache.with(|c| c.get(&key, || make(&self::locale(locale)).map_err(|_| locale_error(ctx))))
}

/// A list a native hands the prelude, as a JS array made the way CreateDataProperty makes
/// one: setters a program put on `Array.prototype` or `Object.prototype` never run.
pub(crate) struct List<T>(pub(crate) Vec<T>);

impl<'js, T: IntoJs<'js>> IntoJs<'js> for List<T> {
  fn into_js(self, ctx: &Ctx<'js>) -> rquickjs::Result<Value<'js>> {
    let arr = Array::new(ctx.clone())?;
    let c = ctx.as_raw().as_ptr();
    for (i, item) in self.0.into_iter().enumerate() {
      let v = item.into_js(ctx)?;
      // SAFETY: `arr` is a live array of this context; JS_DefinePropertyValueUint32 takes
      // the reference we dup for it.
      let r = unsafe {
        qjs::JS_DefinePropertyValueUint32(
          c,
          arr.as_raw(),
          i as u32,
          qjs::JS_DupValue(c, v.as_raw()),
          qjs::JS_PROP_C_W_E as i32,
        )
      };
      if r < 0 {
        return Err(rquickjs::Error::Exception);
      }
    }
    Ok(arr.into_value())
  }
}
