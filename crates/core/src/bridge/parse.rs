//! JSON text → engine values, for the host's answers to binding calls.
//!
//! The text is what V8's `JSON.stringify` wrote on the Node main thread, typically an array
//! of thousands of objects built alike. The parser here makes the same values the engine's
//! own `JSON.parse` would, faster for that shape: containers are built once complete (an
//! array from its elements in one allocation, `JS_NewArrayFrom`), and an object whose keys
//! come in the same order as an earlier object's is made with that object's shape, its
//! values dropped into their slots (`JS_NewObjectLike`, vendored), instead of one property
//! definition, shape transition and property-array growth per key. Integers are engine
//! integers rather than doubles (not observable, and cheaper to add).
//!
//! It is iterative (a value nested millions deep needs heap, not stack), charges its work
//! to the run's interrupt counter as the engine's tokenizer does (two poll points a token),
//! and counts the memory its pending elements take against the run's heap limit. It
//! accepts exactly JSON and declines anything else, including strings with lone surrogate
//! escapes: the caller then parses the text with `JS_ParseJSON`, which reports the error or
//! makes the value.

use crate::quickjs::raw;
use rquickjs::qjs;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How the parse ended.
pub(crate) enum Parsed {
  /// The value (a new reference).
  Value(qjs::JSValue),
  /// Not parsed here: the text is not JSON, or holds what only the engine's parser makes.
  Declined,
  /// An engine call failed (out of memory, or the run was interrupted): the exception is
  /// pending.
  Failed,
}

/// Objects with more keys than this are not kept as shape templates.
const MAX_TEMPLATE_KEYS: usize = 64;
/// Shape templates one parse keeps (a value of a million differently keyed objects must not
/// cost a million entries).
const MAX_TEMPLATES: usize = 256;
/// Tokens between two polls of the interrupt counter (each charged two poll points).
const POLL_TOKENS: u32 = 512;

/// Parses `text` as JSON into the context's values.
pub(crate) fn parse(ctx: *mut qjs::JSContext, text: &[u8]) -> Parsed {
  let mut p = Parser {
    ctx,
    text,
    pos: 0,
    values: Vec::new(),
    keys: Vec::new(),
    frames: Vec::new(),
    templates: HashMap::default(),
    scratch: Vec::new(),
    tokens: 0,
    hold: None,
    held: 0,
  };
  let outcome = p.run();
  p.release();
  outcome
}

#[derive(Clone, Copy)]
struct Frame {
  array: bool,
  /// Where this container's values start in `Parser::values`.
  values: usize,
  /// Where an object's keys start in `Parser::keys`.
  keys: usize,
}

/// A key of an open object: its atom, owned by the parse until the object is made.
type Key = qjs::JSAtom;

struct Parser<'t> {
  ctx: *mut qjs::JSContext,
  text: &'t [u8],
  pos: usize,
  /// Values of every open container, innermost last (owned references).
  values: Vec<qjs::JSValue>,
  /// Keys of every open object, innermost last (owned atoms), one per value in `values`
  /// of that object.
  keys: Vec<Key>,
  frames: Vec<Frame>,
  /// An object made earlier for each sequence of keys (owned references).
  templates: HashMap<Box<[Key]>, qjs::JSValue, BuildHasherDefault<WordHasher>>,
  /// A string's characters with its escapes decoded.
  scratch: Vec<u8>,
  tokens: u32,
  /// The memory of `values`, `keys` and `frames`, held against the run's heap limit.
  hold: Option<raw::HeapHold>,
  held: usize,
}

/// What comes next after a value.
enum Step {
  Continue,
  Done(qjs::JSValue),
}

impl<'t> Parser<'t> {
  fn run(&mut self) -> Parsed {
    match self.parse_text() {
      Ok(Some(v)) => Parsed::Value(v),
      Ok(None) => Parsed::Declined,
      Err(()) => Parsed::Failed,
    }
  }

  /// `Ok(None)`: declined; `Err`: an engine exception is pending.
  fn parse_text(&mut self) -> Result<Option<qjs::JSValue>, ()> {
    loop {
      self.skip_ws();
      let Some(&c) = self.text.get(self.pos) else { return Ok(None) };
      self.tick()?;
      // A value, or the start of a container.
      let value = match c {
        b'{' | b'[' => {
          self.pos += 1;
          self.skip_ws();
          let close = if c == b'{' { b'}' } else { b']' };
          self.frames.push(Frame {
            array: c == b'[',
            values: self.values.len(),
            keys: self.keys.len(),
          });
          self.account()?;
          if self.text.get(self.pos) == Some(&close) {
            self.pos += 1;
            match self.close()? {
              Some(v) => v,
              None => return Ok(None),
            }
          } else {
            if c == b'{' && !self.key()? {
              return Ok(None);
            }
            continue;
          }
        }
        _ => match self.scalar(c)? {
          Some(v) => v,
          None => return Ok(None),
        },
      };
      match self.after_value(value)? {
        Some(Step::Continue) => continue,
        Some(Step::Done(v)) => return Ok(Some(v)),
        None => return Ok(None),
      }
    }
  }

  /// Puts a finished value into its container and reads what follows: `,` and the next
  /// key, or closing brackets (each finishing one more value). `None`: declined.
  fn after_value(&mut self, mut value: qjs::JSValue) -> Result<Option<Step>, ()> {
    loop {
      let Some(frame) = self.frames.last().copied() else {
        self.skip_ws();
        if self.pos != self.text.len() {
          self.free(value);
          return Ok(None);
        }
        return Ok(Some(Step::Done(value)));
      };
      self.values.push(value);
      self.account()?;
      self.skip_ws();
      match self.text.get(self.pos) {
        Some(b',') => {
          self.pos += 1;
          if !frame.array {
            self.skip_ws();
            if !self.key()? {
              return Ok(None);
            }
          }
          return Ok(Some(Step::Continue));
        }
        Some(b']') if frame.array => self.pos += 1,
        Some(b'}') if !frame.array => self.pos += 1,
        _ => return Ok(None),
      }
      value = match self.close()? {
        Some(v) => v,
        None => return Ok(None),
      };
    }
  }

  /// Reads `"key" :` of an object. False: declined.
  fn key(&mut self) -> Result<bool, ()> {
    if self.text.get(self.pos) != Some(&b'"') {
      return Ok(false);
    }
    self.tick()?;
    let Some((start, end, escaped)) = self.string_span() else { return Ok(false) };
    let atom = if !escaped && self.text[start..end].is_ascii() {
      // SAFETY: an ASCII slice of the text (JS_NewAtomLen reads `len` bytes); the new atom
      // goes to `keys`, which frees it. (JS_NewAtomLen's lookup compares bytes with one-byte
      // atoms, right only for ASCII, so anything else goes through a string.)
      unsafe {
        qjs::JS_NewAtomLen(self.ctx, self.text[start..].as_ptr() as *const _, (end - start) as _)
      }
    } else {
      let s = match self.new_string(start, end, escaped)? {
        Some(s) => s,
        None => return Ok(false),
      };
      // SAFETY: `s` is a string value we own; JS_ValueToAtom makes a new atom of it.
      unsafe {
        let atom = qjs::JS_ValueToAtom(self.ctx, s);
        qjs::JS_FreeValue(self.ctx, s);
        atom
      }
    };
    if atom == qjs::JS_ATOM_NULL {
      return Err(());
    }
    self.keys.push(atom);
    self.skip_ws();
    if self.text.get(self.pos) != Some(&b':') {
      return Ok(false);
    }
    self.pos += 1;
    Ok(true)
  }

  /// A string, number, `true`, `false` or `null` starting with `c`. `None`: declined.
  fn scalar(&mut self, c: u8) -> Result<Option<qjs::JSValue>, ()> {
    Ok(match c {
      b'"' => match self.string_span() {
        Some((start, end, escaped)) => self.new_string(start, end, escaped)?,
        None => None,
      },
      b'-' | b'0'..=b'9' => self.number(),
      b't' => self.word(b"true", qjs::JS_MKVAL(qjs::JS_TAG_BOOL, 1)),
      b'f' => self.word(b"false", qjs::JS_MKVAL(qjs::JS_TAG_BOOL, 0)),
      b'n' => self.word(b"null", qjs::JS_MKVAL(qjs::JS_TAG_NULL, 0)),
      _ => None,
    })
  }

  fn word(&mut self, word: &[u8], value: qjs::JSValue) -> Option<qjs::JSValue> {
    if self.text[self.pos..].starts_with(word) {
      self.pos += word.len();
      Some(value)
    } else {
      None
    }
  }

  /// A number as JSON writes them (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
  fn number(&mut self) -> Option<qjs::JSValue> {
    let t = self.text;
    let start = self.pos;
    let mut i = start;
    let negative = t[i] == b'-';
    if negative {
      i += 1;
    }
    let digits = i;
    match t.get(i) {
      Some(b'0') => i += 1,
      Some(b'1'..=b'9') => {
        while t.get(i).is_some_and(u8::is_ascii_digit) {
          i += 1;
        }
      }
      _ => return None,
    }
    let integer_end = i;
    if t.get(i) == Some(&b'.') {
      i += 1;
      if !t.get(i).is_some_and(u8::is_ascii_digit) {
        return None;
      }
      while t.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
      }
    }
    if matches!(t.get(i), Some(b'e' | b'E')) {
      i += 1;
      if matches!(t.get(i), Some(b'+' | b'-')) {
        i += 1;
      }
      if !t.get(i).is_some_and(u8::is_ascii_digit) {
        return None;
      }
      while t.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
      }
    }
    self.pos = i;
    // Up to nine digits fit an i32; `-0` is a double.
    if i == integer_end && i - digits <= 9 && !(negative && t[digits] == b'0') {
      let n = t[digits..i].iter().fold(0i32, |n, d| n * 10 + (d - b'0') as i32);
      return Some(qjs::JS_MKVAL(qjs::JS_TAG_INT, if negative { -n } else { n }));
    }
    // The span is ASCII by construction; Rust's parse rounds to nearest, as strtod does.
    let text = std::str::from_utf8(&t[start..i]).ok()?;
    text.parse::<f64>().ok().map(qjs::JS_NewFloat64)
  }

  /// The span of the string whose opening quote is at `pos` (contents only) and whether it
  /// holds escapes; `pos` moves past the closing quote. `None`: not a JSON string (a raw
  /// control character, or no closing quote).
  fn string_span(&mut self) -> Option<(usize, usize, bool)> {
    let t = self.text;
    let start = self.pos + 1;
    let mut i = start;
    let mut escaped = false;
    loop {
      match *t.get(i)? {
        b'"' => break,
        b'\\' => {
          escaped = true;
          i += 2;
        }
        c if c < 0x20 => return None,
        _ => i += 1,
      }
    }
    self.pos = i + 1;
    Some((start, i, escaped))
  }

  /// A string value of the span; escapes decoded. `None`: declined (a bad escape, or a lone
  /// surrogate, which UTF-8 cannot carry).
  fn new_string(
    &mut self,
    start: usize,
    end: usize,
    escaped: bool,
  ) -> Result<Option<qjs::JSValue>, ()> {
    let bytes = if escaped {
      if !decode_escapes(&self.text[start..end], &mut self.scratch) {
        return Ok(None);
      }
      &self.scratch[..]
    } else {
      &self.text[start..end]
    };
    // SAFETY: `bytes` is UTF-8 (a slice of a `str` between ASCII quotes, or decoded escapes
    // written as UTF-8) of `len` bytes; the new string is ours.
    let s = unsafe { qjs::JS_NewStringLen(self.ctx, bytes.as_ptr() as *const _, bytes.len() as _) };
    if raw::tag(s) == qjs::JS_TAG_EXCEPTION {
      return Err(());
    }
    Ok(Some(s))
  }

  /// Makes the innermost container from its values (and keys). `None`: declined (an object
  /// with more than 2^31 properties or an array longer than that).
  fn close(&mut self) -> Result<Option<qjs::JSValue>, ()> {
    let frame = self.frames.pop().expect("an open container");
    let n = self.values.len() - frame.values;
    let Ok(count) = i32::try_from(n) else { return Ok(None) };
    let values = self.values[frame.values..].as_ptr();
    let made = if frame.array {
      // SAFETY: `values` holds `count` owned references, which JS_NewArrayFrom takes (also
      // when it fails).
      let v = unsafe { qjs::JS_NewArrayFrom(self.ctx, count, values) };
      self.values.truncate(frame.values);
      v
    } else {
      self.object(frame, count as u32)
    };
    if raw::tag(made) == qjs::JS_TAG_EXCEPTION {
      return Err(());
    }
    Ok(Some(made))
  }

  /// The object of the innermost frame's keys and values, which it takes.
  fn object(&mut self, frame: Frame, count: u32) -> qjs::JSValue {
    let ctx = self.ctx;
    let keys = &self.keys[frame.keys..];
    let values = &mut self.values[frame.values..];
    debug_assert_eq!(keys.len(), values.len());
    let mut made = qjs::JS_MKVAL(qjs::JS_TAG_UNINITIALIZED, 0);
    if let Some(&template) = self.templates.get(keys) {
      // SAFETY: `template` is an object this parse made (a reference the map owns) and
      // `values` holds `count` owned references, which JS_NewObjectLike takes unless it
      // declines (JS_UNINITIALIZED).
      made = unsafe { raw::JS_NewObjectLike(ctx, template, count, values.as_mut_ptr()) };
    }
    let is_new = raw::tag(made) == qjs::JS_TAG_UNINITIALIZED;
    if is_new {
      // SAFETY: a fresh ordinary object; each JS_DefinePropertyValue takes its value (also
      // on failure), so after a failure the rest are freed here.
      made = unsafe { qjs::JS_NewObject(ctx) };
      let mut failed = raw::tag(made) == qjs::JS_TAG_EXCEPTION;
      for (&key, &value) in keys.iter().zip(values.iter()) {
        if failed {
          // SAFETY: an owned reference no one took.
          unsafe { qjs::JS_FreeValue(ctx, value) };
          continue;
        }
        // SAFETY: as above; `made` is an ordinary extensible object, so this defines an
        // own data property (a `__proto__` key too, as JSON.parse does) and runs no code.
        if unsafe { qjs::JS_DefinePropertyValue(ctx, made, key, value, qjs::JS_PROP_C_W_E as _) }
          < 0
        {
          failed = true;
        }
      }
      if failed && raw::tag(made) != qjs::JS_TAG_EXCEPTION {
        // SAFETY: our reference to the half-made object.
        unsafe { qjs::JS_FreeValue(ctx, made) };
        made = qjs::JS_MKVAL(qjs::JS_TAG_EXCEPTION, 0);
      }
    }
    self.values.truncate(frame.values);
    let keys = &self.keys[frame.keys..];
    if is_new
      && raw::tag(made) == qjs::JS_TAG_OBJECT
      && !keys.is_empty()
      && keys.len() <= MAX_TEMPLATE_KEYS
      && self.templates.len() < MAX_TEMPLATES
      && !self.templates.contains_key(keys)
    {
      // SAFETY: a new reference for the map, freed in `release`.
      let template = unsafe { qjs::JS_DupValue(ctx, made) };
      self.templates.insert(keys.into(), template);
    }
    for &key in keys {
      // SAFETY: the atoms `key` made, which the object's shape holds on its own.
      unsafe { qjs::JS_FreeAtom(ctx, key) };
    }
    self.keys.truncate(frame.keys);
    made
  }

  fn skip_ws(&mut self) {
    while matches!(self.text.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
      self.pos += 1;
    }
  }

  /// Charges a token; every POLL_TOKENS tokens the run's budget is consulted.
  fn tick(&mut self) -> Result<(), ()> {
    self.tokens += 1;
    if self.tokens == POLL_TOKENS {
      self.tokens = 0;
      raw::poll_work(self.ctx, 2 * POLL_TOKENS as usize).map_err(|_| ())?;
    }
    Ok(())
  }

  /// Holds the memory of the pending values, keys and frames against the heap limit,
  /// growing the hold by doubling.
  fn account(&mut self) -> Result<(), ()> {
    let bytes = self.values.capacity() * std::mem::size_of::<qjs::JSValue>()
      + self.keys.capacity() * std::mem::size_of::<Key>()
      + self.frames.capacity() * std::mem::size_of::<Frame>();
    if bytes <= self.held {
      return Ok(());
    }
    let want = bytes.max(64 * 1024).next_power_of_two();
    self.hold = None;
    self.hold = Some(raw::hold_heap(self.ctx, want).ok_or(())?);
    self.held = want;
    Ok(())
  }

  fn free(&self, v: qjs::JSValue) {
    // SAFETY: an owned reference.
    unsafe { qjs::JS_FreeValue(self.ctx, v) };
  }

  /// Frees whatever the parse still holds: pending values and keys (after a failure or a
  /// refusal) and the templates.
  fn release(&mut self) {
    for &v in &self.values {
      self.free(v);
    }
    for &k in &self.keys {
      // SAFETY: an owned atom.
      unsafe { qjs::JS_FreeAtom(self.ctx, k) };
    }
    for &t in self.templates.values() {
      self.free(t);
    }
    self.values.clear();
    self.keys.clear();
    self.templates.clear();
    self.hold = None;
  }
}

/// Decodes the JSON escapes of a string's contents into `out` as UTF-8. False for a bad
/// escape or a lone surrogate.
fn decode_escapes(s: &[u8], out: &mut Vec<u8>) -> bool {
  out.clear();
  let mut i = 0;
  while i < s.len() {
    let c = s[i];
    if c != b'\\' {
      out.push(c);
      i += 1;
      continue;
    }
    let Some(&e) = s.get(i + 1) else { return false };
    i += 2;
    let simple = match e {
      b'"' => b'"',
      b'\\' => b'\\',
      b'/' => b'/',
      b'b' => 0x08,
      b'f' => 0x0c,
      b'n' => b'\n',
      b'r' => b'\r',
      b't' => b'\t',
      b'u' => 0,
      _ => return false,
    };
    if e != b'u' {
      out.push(simple);
      continue;
    }
    let Some(hi) = hex4(s, i) else { return false };
    i += 4;
    let code = if (0xD800..0xDC00).contains(&hi) {
      // A high surrogate must be followed by an escaped low one.
      if s.get(i) != Some(&b'\\') || s.get(i + 1) != Some(&b'u') {
        return false;
      }
      let Some(lo) = hex4(s, i + 2) else { return false };
      if !(0xDC00..0xE000).contains(&lo) {
        return false;
      }
      i += 6;
      0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
    } else if (0xDC00..0xE000).contains(&hi) {
      return false;
    } else {
      hi
    };
    let Some(ch) = char::from_u32(code) else { return false };
    let mut buf = [0u8; 4];
    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
  }
  true
}

fn hex4(s: &[u8], i: usize) -> Option<u32> {
  let digits = s.get(i..i + 4)?;
  digits.iter().try_fold(0u32, |n, &d| Some(n * 16 + (d as char).to_digit(16)?))
}

/// Hashes sequences of atoms (small integers) with a multiply-rotate mix.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
  fn finish(&self) -> u64 {
    self.0
  }
  fn write(&mut self, bytes: &[u8]) {
    // A slice of atoms hashes as its bytes, four per atom.
    let mut chunks = bytes.chunks_exact(4);
    for c in &mut chunks {
      self.write_u64(u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as u64);
    }
    for &b in chunks.remainder() {
      self.write_u64(b as u64);
    }
  }
  fn write_u32(&mut self, n: u32) {
    self.write_u64(n as u64);
  }
  fn write_u64(&mut self, n: u64) {
    self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
  }
  fn write_usize(&mut self, n: usize) {
    self.write_u64(n as u64);
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  /// Whether two values are alike as JSON.parse makes them: the same types, primitives
  /// (Object.is), prototypes, extensibility, own keys in order, attributes and values.
  /// '' if so, else where they differ.
  const DIFFER: &str = r#"(function differ(a, b, path = '$') {
    if (typeof a !== typeof b) return `${path}: ${typeof a} vs ${typeof b}`
    if (a === null || typeof a !== 'object') return Object.is(a, b) ? '' : `${path}: ${String(a)} vs ${String(b)}`
    if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array or not`
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototype`
    if (Object.isExtensible(a) !== Object.isExtensible(b)) return `${path}: extensible`
    const ka = JSON.stringify(Reflect.ownKeys(a)), kb = JSON.stringify(Reflect.ownKeys(b))
    if (ka !== kb) return `${path}: keys ${ka} vs ${kb}`
    for (const k of Reflect.ownKeys(a)) {
      const da = Object.getOwnPropertyDescriptor(a, k), db = Object.getOwnPropertyDescriptor(b, k)
      for (const f of ['writable', 'enumerable', 'configurable', 'get', 'set'])
        if (da[f] !== db[f]) return `${path}.${String(k)}: ${f}`
      const d = differ(da.value, db.value, `${path}.${String(k)}`)
      if (d) return d
    }
    return ''
  })"#;

  fn with_ctx<R>(f: impl FnOnce(&rquickjs::Ctx<'_>) -> R) -> R {
    let rt = rquickjs::Runtime::new().unwrap();
    let ctx = rquickjs::Context::full(&rt).unwrap();
    ctx.with(|ctx| f(&ctx))
  }

  /// The engine's own JSON.parse of `text`: the value, or None when it throws.
  fn engine_parse<'js>(ctx: &rquickjs::Ctx<'js>, text: &str) -> Option<rquickjs::Value<'js>> {
    let c = ctx.as_raw().as_ptr();
    let mut buf = text.as_bytes().to_vec();
    buf.push(0);
    // SAFETY: a NUL-terminated buffer of `len` bytes; the result goes to Value::from_raw.
    let v =
      unsafe { qjs::JS_ParseJSON(c, buf.as_ptr() as *const _, text.len() as _, c"t".as_ptr()) };
    if raw::tag(v) == qjs::JS_TAG_EXCEPTION {
      raw::clear_exception(c);
      return None;
    }
    // SAFETY: a new reference.
    Some(unsafe { rquickjs::Value::from_raw(ctx.clone(), v) })
  }

  fn ours<'js>(ctx: &rquickjs::Ctx<'js>, text: &str) -> Option<rquickjs::Value<'js>> {
    match parse(ctx.as_raw().as_ptr(), text.as_bytes()) {
      // SAFETY: a new reference.
      Parsed::Value(v) => Some(unsafe { rquickjs::Value::from_raw(ctx.clone(), v) }),
      Parsed::Declined => None,
      Parsed::Failed => panic!("{text}: an engine call failed"),
    }
  }

  #[test]
  fn answers_parse_as_the_engines_json_parse_makes_them() {
    let rows: Vec<String> =
      (0..300).map(|i| format!(r#"{{"id":{i},"name":"item{i}","v":{}}}"#, i % 100)).collect();
    let many_keys: Vec<String> = (0..100).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let many_keys = format!("[{{{0}}},{{{0}}}]", many_keys.join(","));
    let many_shapes: Vec<String> =
      (0..600).map(|i| format!(r#"{{"s{}":{i},"t":[{i}]}}"#, i % 300)).collect();
    let cases = [
      format!("[{}]", rows.join(",")),
      many_keys,
      format!("[{}]", many_shapes.join(",")),
      r#"[{"a":1,"b":2},{"b":1,"a":2},{"a":3,"b":4},{"a":5},{"a":6,"b":7,"c":8},{"a":9,"b":10}]"#.into(),
      r#"[{"a":1,"a":2},{"a":3,"a":4},{"a":5,"b":6,"a":7},{"a":8,"b":9,"a":10}]"#.into(),
      r#"[{"__proto__":1},{"__proto__":{"x":2}},{"__proto__":null,"y":3},{"__proto__":[],"y":4}]"#.into(),
      r#"[{"1":1,"0":2,"b":3},{"1":4,"0":5,"b":6},{"4294967295":7,"4294967294":8},{"4294967295":9,"4294967294":10},{"01":1,"-1":2,"1.5":3}]"#.into(),
      r#"[{"":1},{"":2},{"a\nb":1,"é":2,"\u00e9":3,"\ud83d\ude00":4},{"a\nb":5,"é":6,"\u00e9":7,"\ud83d\ude00":8}]"#.into(),
      r#"[[],{},[[]],[{}],{"a":[]},{"a":{}},[[[[[[1]]]]]],{"a":{"b":{"c":{"d":null}}}}]"#.into(),
      "[0,-0,1,-1,1.5,-1.5,1e21,1E-7,1e+2,123456789,1234567890,-123456789,-2147483648,2147483647,2147483648,1e400,-1e400,0.1,5e-324,1.7976931348623157e308,0.30000000000000004,9007199254740993,100,1.0,-0.0,0e5]".into(),
      r#"["\n\t\"\\\/\b\f\r\u0000\u001f\u00e9\u20ac\ud83d\ude00\uFFFF\u2028","é€😀","","\\u0041",true,false,null]"#.into(),
      " \t\r\n[ 1 , { \"a\" : 2 , \"b\" :[ ] } ,\n\"x\" ] \n".into(),
      "true".into(),
      "false".into(),
      "null".into(),
      r#""s""#.into(),
      "-12".into(),
      "{}".into(),
    ];
    with_ctx(|ctx| {
      let differ: rquickjs::Function = ctx.eval(DIFFER).unwrap();
      for text in &cases {
        let a = ours(ctx, text).unwrap_or_else(|| panic!("declined: {text}"));
        let b = engine_parse(ctx, text).unwrap_or_else(|| panic!("JSON.parse threw: {text}"));
        let d: String = differ.call((a, b)).unwrap();
        assert_eq!(d, "", "{text}");
      }
    });
  }

  #[test]
  fn text_that_is_not_json_or_holds_lone_surrogates_is_left_to_the_engine() {
    let not_json = [
      "",
      " ",
      "[1,]",
      "{\"a\":1,}",
      "[01]",
      "[1.]",
      "[.5]",
      "[+1]",
      "[1e]",
      "[1e+]",
      "[-]",
      "{\"a\"}",
      "{a:1}",
      "{\"a\" 1}",
      "[\"\u{1}\"]",
      "[\"\\q\"]",
      "[\"\\u12\"]",
      "[\"\\u12g4\"]",
      "[1] x",
      "[1][2]",
      "tru",
      "nul",
      "falsey",
      "[",
      "{",
      "\"abc",
      "[\"abc]",
      "NaN",
      "'a'",
      "[1 2]",
      "{\"a\":1 \"b\":2}",
      "[1,,2]",
      "{,}",
      "[}",
      "{]",
      "\"\\",
      "\u{feff}1",
      "[\u{a0}1]",
      "{\"a\":}",
      "{:1}",
    ];
    let lone =
      [r#""\ud800""#, r#""\udc00""#, r#"["\ud800\u0041"]"#, r#"{"\udfff":1}"#, r#""\ud83d\ud83d""#];
    with_ctx(|ctx| {
      for text in not_json {
        assert!(ours(ctx, text).is_none(), "parsed: {text:?}");
        assert!(engine_parse(ctx, text).is_none(), "JSON.parse took {text:?}");
      }
      for text in lone {
        assert!(ours(ctx, text).is_none(), "parsed: {text:?}");
        assert!(engine_parse(ctx, text).is_some(), "JSON.parse refused {text:?}");
      }
    });
  }

  /// Objects with the keys of an earlier one share its shape (made from it, not property by
  /// property), and stay separate objects: changing one changes no other.
  #[test]
  fn objects_keyed_alike_share_a_shape_and_stay_apart() {
    let text: Vec<String> = (0..50).map(|i| format!(r#"{{"id":{i},"tag":"t{i}"}}"#)).collect();
    let text = format!("[{}]", text.join(","));
    with_ctx(|ctx| {
      let arr: rquickjs::Array = ours(ctx, &text).unwrap().into_array().unwrap();
      let shape = |i: usize| {
        let o: rquickjs::Value = arr.get(i).unwrap();
        raw::object_shape(o.as_raw()).unwrap().0
      };
      assert!((1..50).all(|i| shape(i) == shape(0)));
      ctx.globals().set("a", arr.clone()).unwrap();
      let after: String = ctx
        .eval(
          "a[1].extra = 1; delete a[2].id; a[3].id = 'x'; Object.freeze(a[4]);
           JSON.stringify([a[0], a[1], a[2], a[3], a[4], a[5], Object.isFrozen(a[5])])",
        )
        .unwrap();
      assert_eq!(
        after,
        r#"[{"id":0,"tag":"t0"},{"id":1,"tag":"t1","extra":1},{"tag":"t2"},{"id":"x","tag":"t3"},{"id":4,"tag":"t4"},{"id":5,"tag":"t5"},false]"#
      );
    });
  }

  #[test]
  fn a_value_nested_300_000_deep_parses_without_recursion() {
    let deep = format!("{}7{}", "[".repeat(300_000), "]".repeat(300_000));
    with_ctx(|ctx| {
      let mut v = ours(ctx, &deep).unwrap();
      let mut depth = 0;
      while let Some(a) = v.as_array() {
        let next: rquickjs::Value = a.get(0).unwrap();
        v = next;
        depth += 1;
      }
      assert_eq!((depth, v.as_int()), (300_000, Some(7)));
    });
  }
}
