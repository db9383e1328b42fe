//! Engine values → JSON text, under the contract's lossless rules.
//!
//! A value crosses only if `JSON.parse(JSON.stringify(v))` would give it back and reading it
//! runs no program code: `null`, booleans, finite numbers other than `-0`, strings, dense
//! arrays with no extra own properties, and plain objects (prototype `Object.prototype` or
//! `null`) whose own properties are all enumerable string-keyed data properties. Everything
//! else (Proxies, accessors, class instances, cycles, …) is refused.
//!
//! The walk uses an explicit stack (a 10,000-deep value costs heap, not native stack),
//! reads descriptors through [`crate::quickjs::raw`] (no getters or traps run, so a program that
//! replaced `Array.prototype` methods or `JSON.stringify` changes nothing) — or, for dense
//! arrays, ordinary objects whose keys all come in slot order, and one-byte strings, reads
//! them in place through the vendored QuickJS's read-only accessors — compares
//! prototypes with the intrinsic ones of a fresh `{}`/`[]`, stops once the text passes the
//! byte budget (a shared-reference bomb cannot grow without bound), and polls the run's
//! stop flag as it goes (a huge value cannot outlive an abort).

use crate::limits::budget::RunControl;
use crate::limits::ledger::{write_json_bytes, write_json_latin1};
use crate::quickjs::raw::{self, Atom, Key, Keys, Owned};
use rquickjs::qjs;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
  /// The value is not lossless JSON.
  NotLossless,
  /// The text grew past the byte budget.
  TooLarge,
  /// The run was told to stop while the value was read.
  Stopped,
}

enum Frame {
  /// An array: read in place when its elements all sit in its array part (`dense`), else
  /// by index through property descriptors.
  Array { obj: Owned, len: u32, next: u32, dense: bool },
  /// An ordinary object read slot by slot, its names from the shape's cache entry.
  Shaped { obj: Owned, shape: u32, next: u32, wrote: bool },
  /// Any other plain object, read through its own keys and property descriptors.
  Object { obj: Owned, keys: Keys, next: u32, wrote: bool },
}

impl Frame {
  fn ptr(&self) -> usize {
    match self {
      Frame::Array { obj, .. } | Frame::Shaped { obj, .. } | Frame::Object { obj, .. } => {
        raw::ptr(obj.v)
      }
    }
  }
}

/// How deep the walk checks for cycles by scanning its stack; deeper containers also go in
/// a set. Results are rarely deeper, and a scan of a few frames is cheaper than hashing.
const SCANNED_DEPTH: usize = 32;

/// What the walk knows of an object shape (QuickJS shares one among objects built alike,
/// such as 50,000 records with the same keys): whether its objects can be read slot by
/// slot, and each slot's name as written (`None` for a deleted slot).
struct ShapeEntry {
  /// Holds the shape alive (so its address names it) for as long as the walk lasts.
  _holder: Owned,
  names: Option<Vec<Option<Box<[u8]>>>>,
}

/// Objects a walk reads through their keys before it starts caching shapes: a small value
/// (a call's arguments) is done before an entry would pay for itself.
const UNSHAPED_OBJECTS: u32 = 8;

/// Shapes the walk keeps entries for; objects of further shapes are read through their keys
/// (a result of a million differently named objects must not cost a million entries).
const MAX_SHAPES: usize = 1024;

#[derive(Default)]
struct ShapeCache {
  entries: Vec<ShapeEntry>,
  index: HashMap<usize, u32, BuildHasherDefault<IdHasher>>,
  last: Option<(usize, u32)>,
}

/// The intrinsic prototypes and classes plain values must have: identities only, compared
/// and never dereferenced, taken once per context before the program runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct Shapes {
  object_proto: usize,
  object_class: u32,
  array_proto: usize,
  array_class: u32,
}

impl Shapes {
  pub(crate) fn of(ctx: *mut qjs::JSContext) -> Shapes {
    // SAFETY: JS_NewObject/JS_NewArray create fresh values from the context's intrinsic
    // prototypes (never the program's globals); Owned frees them.
    let (obj, arr) =
      unsafe { (Owned::new(ctx, qjs::JS_NewObject(ctx)), Owned::new(ctx, qjs::JS_NewArray(ctx))) };
    Shapes {
      object_proto: raw::proto_ptr(ctx, obj.v),
      object_class: raw::class_id(obj.v),
      array_proto: raw::proto_ptr(ctx, arr.v),
      array_class: raw::class_id(arr.v),
    }
  }
}

struct Plain {
  shapes: Shapes,
  length: Atom,
}

/// Writes `value` as JSON text. `Ok(None)` for a top-level `undefined` (no completion).
pub(crate) fn to_json(
  ctx: *mut qjs::JSContext,
  value: qjs::JSValue,
  shapes: Shapes,
  control: &RunControl,
  max_bytes: u64,
) -> Result<Option<String>, Refusal> {
  if raw::tag(value) == qjs::JS_TAG_UNDEFINED {
    return Ok(None);
  }
  let mut w = Walker {
    ctx,
    out: Vec::new(),
    stack: Vec::new(),
    deep_ancestors: HashSet::default(),
    shapes: ShapeCache::default(),
    objects: 0,
    names: Names { ctx, written: HashMap::default(), uncached: 0 },
    plain: Plain { shapes, length: Atom::new(ctx, c"length") },
    control,
    max_bytes,
    steps: 0,
  };
  w.run(value)?;
  // Every write is UTF-8: ASCII punctuation, numbers, and strings through
  // `write_json_bytes`, which escapes the lone surrogates WTF-8 may hold.
  String::from_utf8(std::mem::take(&mut w.out)).map(Some).map_err(|_| Refusal::NotLossless)
}

struct Walker<'a> {
  ctx: *mut qjs::JSContext,
  out: Vec<u8>,
  stack: Vec<Frame>,
  /// Containers on the stack below [`SCANNED_DEPTH`].
  deep_ancestors: HashSet<usize, BuildHasherDefault<IdHasher>>,
  shapes: ShapeCache,
  /// Ordinary objects opened so far.
  objects: u32,
  names: Names,
  plain: Plain,
  control: &'a RunControl,
  max_bytes: u64,
  steps: u32,
}

/// Property names as written (`"name":`), by atom: 50,000 records with the same three keys
/// read and escape each name once. Holds a reference to each atom so its number cannot be
/// reused for another name while the walk lasts.
struct Names {
  ctx: *mut qjs::JSContext,
  written: HashMap<qjs::JSAtom, Box<[u8]>, BuildHasherDefault<IdHasher>>,
  /// Names read without the cache so far.
  uncached: u32,
}

/// How many names a walk reads before it starts caching them.
const UNCACHED_NAMES: u32 = 16;

impl Names {
  /// Appends `"name":` for a string key; `None` for a symbol (not JSON).
  fn write(&mut self, out: &mut Vec<u8>, atom: qjs::JSAtom) -> Option<()> {
    if let Some(text) = self.written.get(&atom) {
      out.extend_from_slice(text);
      return Some(());
    }
    let start = out.len();
    write_name(self.ctx, out, atom)?;
    // A small value (a call's arguments) is done before a cache would pay for itself.
    self.uncached += 1;
    if self.uncached > UNCACHED_NAMES {
      // SAFETY: a new reference to a live atom (it names a property being read), released
      // in Drop.
      unsafe { qjs::JS_DupAtom(self.ctx, atom) };
      self.written.insert(atom, out[start..].into());
    }
    Some(())
  }
}

/// Appends `"name":` for a string-keyed atom; `None` (nothing written) for a symbol.
fn write_name(ctx: *mut qjs::JSContext, out: &mut Vec<u8>, atom: qjs::JSAtom) -> Option<()> {
  let Some(Key::String(name)) = raw::atom_key(ctx, atom) else {
    return None;
  };
  write_json_bytes(out, &name);
  out.push(b':');
  Some(())
}

impl Drop for Names {
  fn drop(&mut self) {
    for &atom in self.written.keys() {
      // SAFETY: releases the reference taken in `write`.
      unsafe { qjs::JS_FreeAtom(self.ctx, atom) };
    }
  }
}

/// Hashes object addresses, atom numbers and call ids, which a program cannot choose (so
/// cannot flood one bucket with): one multiply instead of SipHash.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
  fn finish(&self) -> u64 {
    self.0
  }
  fn write(&mut self, bytes: &[u8]) {
    for &b in bytes {
      self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
  }
  fn write_u32(&mut self, n: u32) {
    self.write_u64(u64::from(n));
  }
  fn write_usize(&mut self, n: usize) {
    self.write_u64(n as u64);
  }
  fn write_u64(&mut self, n: u64) {
    self.0 = (n ^ (n >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
  }
}

impl Walker<'_> {
  fn run(&mut self, root: qjs::JSValue) -> Result<(), Refusal> {
    self.value(root)?;
    while let Some(top) = self.stack.last_mut() {
      // The next element or property value, borrowed from its container (which stays on
      // the stack, holding it, until the value is written) or owned.
      let child: Option<(qjs::JSValue, Option<Owned>)> = match top {
        Frame::Array { obj, len, next, dense } => {
          if *next == *len {
            self.out.push(b']');
            None
          } else {
            let i = *next;
            *next += 1;
            if i > 0 {
              self.out.push(b',');
            }
            if *dense {
              Some((raw::dense_array_element(obj.v, i).ok_or(Refusal::NotLossless)?, None))
            } else {
              let idx = Atom::index(self.ctx, i);
              let d = raw::own_property(self.ctx, obj.v, idx.atom).ok_or(Refusal::NotLossless)?;
              if d.is_accessor() || !d.is_enumerable() {
                return Err(Refusal::NotLossless);
              }
              Some((d.value.v, Some(d.value)))
            }
          }
        }
        Frame::Shaped { obj, shape, next, wrote } => {
          let names = self.shapes.entries[*shape as usize].names.as_deref().unwrap_or_default();
          let mut slot = None;
          while slot.is_none() && (*next as usize) < names.len() {
            slot = names[*next as usize].as_deref().map(|name| (*next, name));
            *next += 1;
          }
          match slot {
            None => {
              self.out.push(b'}');
              None
            }
            Some((i, name)) => {
              let v = raw::object_slot_value(obj.v, i).ok_or(Refusal::NotLossless)?;
              if *wrote {
                self.out.push(b',');
              }
              *wrote = true;
              self.out.extend_from_slice(name);
              Some((v, None))
            }
          }
        }
        Frame::Object { obj, keys, next, wrote } => {
          if *next == keys.len() {
            self.out.push(b'}');
            None
          } else {
            let atom = keys.atom(*next);
            *next += 1;
            let d = raw::own_property(self.ctx, obj.v, atom).ok_or(Refusal::NotLossless)?;
            if d.is_accessor() || !d.is_enumerable() {
              return Err(Refusal::NotLossless);
            }
            if *wrote {
              self.out.push(b',');
            }
            *wrote = true;
            self.names.write(&mut self.out, atom).ok_or(Refusal::NotLossless)?;
            Some((d.value.v, Some(d.value)))
          }
        }
      };
      match child {
        Some((v, _holder)) => self.value(v)?,
        None => {
          let done = self.stack.pop().expect("frame present");
          if self.stack.len() >= SCANNED_DEPTH {
            self.deep_ancestors.remove(&done.ptr());
          }
        }
      }
      self.tick()?;
    }
    Ok(())
  }

  fn is_ancestor(&self, id: usize) -> bool {
    let scanned = self.stack.len().min(SCANNED_DEPTH);
    self.stack[..scanned].iter().any(|f| f.ptr() == id) || self.deep_ancestors.contains(&id)
  }

  fn push(&mut self, frame: Frame) {
    if self.stack.len() >= SCANNED_DEPTH {
      self.deep_ancestors.insert(frame.ptr());
    }
    self.stack.push(frame);
  }

  /// The cache entry of `v`'s shape, made on first sight; `None` once the cache is full.
  fn shape_entry(&mut self, v: qjs::JSValue, shape: usize, slots: u32) -> Option<u32> {
    if let Some((last, entry)) = self.shapes.last {
      if last == shape {
        return Some(entry);
      }
    }
    let entry = match self.shapes.index.get(&shape) {
      Some(&entry) => entry,
      None if self.shapes.entries.len() >= MAX_SHAPES => return None,
      None => {
        let names: Option<Vec<_>> = (0..slots)
          .map(|i| match raw::object_slot_name(self.ctx, v, i)? {
            0 => Some(None),
            atom => {
              let mut text = Vec::new();
              write_name(self.ctx, &mut text, atom).map(|()| Some(text.into_boxed_slice()))
            }
          })
          .collect();
        let entry = self.shapes.entries.len() as u32;
        // SAFETY: JS_DupValue takes the reference the entry's Owned releases.
        let holder = unsafe { Owned::new(self.ctx, qjs::JS_DupValue(self.ctx, v)) };
        self.shapes.entries.push(ShapeEntry { _holder: holder, names });
        self.shapes.index.insert(shape, entry);
        entry
      }
    };
    self.shapes.last = Some((shape, entry));
    Some(entry)
  }

  fn tick(&mut self) -> Result<(), Refusal> {
    if self.out.len() as u64 > self.max_bytes {
      return Err(Refusal::TooLarge);
    }
    self.steps = self.steps.wrapping_add(1);
    if self.steps.is_multiple_of(4096) && self.control.poll() {
      return Err(Refusal::Stopped);
    }
    Ok(())
  }

  /// Writes a primitive, or opens a container and pushes its frame.
  fn value(&mut self, v: qjs::JSValue) -> Result<(), Refusal> {
    let t = raw::tag(v);
    match t {
      qjs::JS_TAG_NULL => self.out.extend_from_slice(b"null"),
      // SAFETY: the tag says which payload the value carries.
      qjs::JS_TAG_BOOL => self.out.extend_from_slice(if unsafe { qjs::JS_VALUE_GET_BOOL(v) } {
        b"true"
      } else {
        b"false"
      }),
      qjs::JS_TAG_INT => {
        // SAFETY: as above.
        write_int(&mut self.out, unsafe { qjs::JS_VALUE_GET_INT(v) });
      }
      qjs::JS_TAG_FLOAT64 => {
        // SAFETY: as above.
        let n = unsafe { qjs::JS_VALUE_GET_FLOAT64(v) };
        if !n.is_finite() || (n == 0.0 && n.is_sign_negative()) {
          return Err(Refusal::NotLossless);
        }
        let mut buf = ryu_js::Buffer::new();
        self.out.extend_from_slice(buf.format_finite(n).as_bytes());
      }
      qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => {
        let out = &mut self.out;
        // A string's JSON is at least its bytes and two quotes: one that cannot fit is
        // refused before anything of it is written (a 600 MB argument costs no 600 MB copy).
        let room = self.max_bytes.saturating_sub(out.len() as u64);
        let fits = |len: usize| (len as u64).saturating_add(2) <= room;
        let written =
          match raw::with_latin1_chars(v, |c| fits(c.len()).then(|| write_json_latin1(out, c))) {
            Some(written) => written,
            None => raw::with_string_bytes(self.ctx, v, |b| {
              fits(b.len()).then(|| write_json_bytes(out, b))
            })
            .ok_or(Refusal::NotLossless)?,
          };
        written.ok_or(Refusal::TooLarge)?;
      }
      qjs::JS_TAG_OBJECT => self.open(v)?,
      _ => return Err(Refusal::NotLossless),
    }
    Ok(())
  }

  fn open(&mut self, v: qjs::JSValue) -> Result<(), Refusal> {
    if raw::is_proxy(v) {
      return Err(Refusal::NotLossless);
    }
    let id = raw::ptr(v);
    if self.is_ancestor(id) {
      return Err(Refusal::NotLossless);
    }
    let (ctx, shapes) = (self.ctx, self.plain.shapes);
    // SAFETY: JS_DupValue takes the reference the frame's Owned releases.
    let obj = || unsafe { Owned::new(ctx, qjs::JS_DupValue(ctx, v)) };
    if let Some((len, proto)) = raw::dense_array(v) {
      if proto == shapes.array_proto {
        self.out.push(b'[');
        let frame = Frame::Array { obj: obj(), len, next: 0, dense: true };
        self.push(frame);
        return Ok(());
      }
    }
    if let Some((shape, proto, slots)) = raw::object_shape(v) {
      self.objects = self.objects.saturating_add(1);
      if self.objects > UNSHAPED_OBJECTS && (proto == shapes.object_proto || proto == 0) {
        let entry = self.shape_entry(v, shape, slots);
        if let Some(entry) = entry.filter(|&e| self.shapes.entries[e as usize].names.is_some()) {
          self.out.push(b'{');
          let frame = Frame::Shaped { obj: obj(), shape: entry, next: 0, wrote: false };
          self.push(frame);
          return Ok(());
        }
      }
    }
    let class = raw::class_id(v);
    let proto = raw::proto_ptr(self.ctx, v);
    if class == shapes.array_class && proto == shapes.array_proto {
      let len = self.array_length(v)?;
      let keys = Keys::of(self.ctx, v).ok_or(Refusal::NotLossless)?;
      // Exactly the indices 0..len plus `length`: no holes, no extra properties.
      if keys.len() as u64 != u64::from(len) + 1 {
        return Err(Refusal::NotLossless);
      }
      self.out.push(b'[');
      let frame = Frame::Array { obj: obj(), len, next: 0, dense: false };
      self.push(frame);
    } else if class == shapes.object_class && (proto == shapes.object_proto || proto == 0) {
      let keys = Keys::of(self.ctx, v).ok_or(Refusal::NotLossless)?;
      self.out.push(b'{');
      let frame = Frame::Object { obj: obj(), keys, next: 0, wrote: false };
      self.push(frame);
    } else {
      return Err(Refusal::NotLossless);
    }
    Ok(())
  }

  fn array_length(&self, arr: qjs::JSValue) -> Result<u32, Refusal> {
    let d = raw::own_property(self.ctx, arr, self.plain.length.atom).ok_or(Refusal::NotLossless)?;
    match raw::tag(d.value.v) {
      // SAFETY: the tag says the payload is an int.
      qjs::JS_TAG_INT => Ok(unsafe { qjs::JS_VALUE_GET_INT(d.value.v) } as u32),
      // SAFETY: the tag says the payload is a double.
      qjs::JS_TAG_FLOAT64 => Ok(unsafe { qjs::JS_VALUE_GET_FLOAT64(d.value.v) } as u32),
      _ => Err(Refusal::NotLossless),
    }
  }
}

/// Appends a 32-bit integer in decimal, as `JSON.stringify` writes it.
fn write_int(out: &mut Vec<u8>, n: i32) {
  let mut digits = [0u8; 11];
  let mut at = digits.len();
  let mut rest = n.unsigned_abs();
  loop {
    at -= 1;
    digits[at] = b'0' + (rest % 10) as u8;
    rest /= 10;
    if rest == 0 {
      break;
    }
  }
  if n < 0 {
    at -= 1;
    digits[at] = b'-';
  }
  out.extend_from_slice(&digits[at..]);
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn integers_are_written_as_json_stringify_writes_them() {
    for n in [0, 7, -7, 10, -10, 2_147_483_647, i32::MIN, 1_000_000] {
      let mut out = Vec::new();
      write_int(&mut out, n);
      assert_eq!(String::from_utf8(out).unwrap(), n.to_string());
    }
  }

  #[test]
  fn id_hasher_spreads_neighbouring_addresses() {
    let hash = |n: usize| {
      let mut h = IdHasher::default();
      h.write_usize(n);
      h.finish()
    };
    let buckets: HashSet<u64> = (0..1024usize).map(|i| hash(0x7f00_0000 + i * 64) >> 54).collect();
    assert!(buckets.len() > 500, "{} of 1024 top-bit buckets used", buckets.len());
  }
}
