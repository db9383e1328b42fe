//! `console.log` of the values programs log most, rendered here in Rust exactly as Node 24's
//! `util.inspect(value, { depth: 4, maxArrayLength: 100, maxStringLength: 10000 })` lays
//! them out, so that a run's first log of an object costs what a string costs instead of
//! loading the inspector realm ([`crate::console::inspector`]).
//!
//! Covered: primitives; plain, null-prototype and class-instance objects; arrays without
//! holes; Map and Set; nesting with Node's depth cut (`[Object]`), circular references
//! (`<ref *1>` / `[Circular *1]`), the `maxArrayLength` and `maxStringLength` caps and Node's
//! line breaking (`reduceToSingleString` with `compact: 3` and `breakLength: 80`, the
//! 16-per-row grouping of arrays of more than 6 entries, long strings split at newlines).
//! Anything else anywhere in the value — a Proxy, a getter where Node would call code (an
//! array element), a custom `[nodejs.util.inspect.custom]` method, a `Symbol.toStringTag`
//! accessor, a constructor with its own `Symbol.hasInstance`, other classes (functions,
//! errors, dates, typed arrays, ...), non-ASCII text where column widths matter — makes
//! [`format`] answer `None`, and the caller renders the whole call in the realm.
//!
//! Values are read as `raw.rs` reads them: own property descriptors and prototypes, never a
//! getter or a trap, so no program code runs. Nesting is bounded by the depth cut (at most
//! six frames of [`Inspect::value`] on the native stack), and the number of values visited
//! by [`MAX_VISITS`], past which the realm (which the interrupt handler reaches) takes over.

use crate::quickjs::raw::{self, Owned};
use rquickjs::qjs;
use std::collections::HashMap;
use std::sync::OnceLock;

const DEPTH: u32 = 4;
const MAX_ARRAY_LENGTH: usize = 100;
const MAX_STRING_LENGTH: usize = 10_000;
const BREAK_LENGTH: usize = 80;
const COMPACT: u32 = 3;
/// Values visited in one call before the realm takes over.
const MAX_VISITS: usize = 20_000;
/// WTF-8 bytes of one string value before the realm takes over.
const MAX_STRING_BYTES: usize = 1 << 16;
/// Output bytes of one call before the realm takes over.
const MAX_OUTPUT: usize = 1 << 20;

/// QuickJS class ids (`quickjs.c`'s enum, fixed at build time).
const CLASS_OBJECT: u32 = 1;
const CLASS_ARRAY: u32 = 2;

/// Why rendering stopped: the realm must render this call.
struct Defer;
type R<T> = Result<T, Defer>;

/// The well-known symbols read here, as atoms (the same in every runtime: QuickJS numbers its
/// predefined atoms at build time).
struct Symbols {
  to_string_tag: qjs::JSAtom,
  has_instance: qjs::JSAtom,
  iterator: qjs::JSAtom,
}

/// Reads the well-known symbols once per process from a bare context of `c`'s runtime (its
/// `Symbol` is pristine, whatever the program did to its own).
fn symbols(c: *mut qjs::JSContext) -> Option<&'static Symbols> {
  static SYMBOLS: OnceLock<Option<Symbols>> = OnceLock::new();
  SYMBOLS
    .get_or_init(|| {
      // SAFETY: a new raw context of the same runtime, freed below; the values read are owned
      // and freed by Owned; the atoms of well-known symbols are predefined and never freed.
      unsafe {
        let bare = qjs::JS_NewContextRaw(qjs::JS_GetRuntime(c));
        if bare.is_null() {
          return None;
        }
        let mut atoms = None;
        if qjs::JS_AddIntrinsicBaseObjects(bare) >= 0 {
          let global = Owned::new(bare, qjs::JS_GetGlobalObject(bare));
          let symbol = Owned::new(bare, qjs::JS_GetPropertyStr(bare, global.v, c"Symbol".as_ptr()));
          let read = |name: &std::ffi::CStr| {
            let s = Owned::new(bare, qjs::JS_GetPropertyStr(bare, symbol.v, name.as_ptr()));
            if raw::tag(s.v) != qjs::JS_TAG_SYMBOL {
              return None;
            }
            let atom = qjs::JS_ValueToAtom(bare, s.v);
            qjs::JS_FreeAtom(bare, atom);
            Some(atom)
          };
          if let (Some(to_string_tag), Some(has_instance), Some(iterator)) =
            (read(c"toStringTag"), read(c"hasInstance"), read(c"iterator"))
          {
            atoms = Some(Symbols { to_string_tag, has_instance, iterator });
          }
        }
        raw::clear_exception(bare);
        qjs::JS_FreeContext(bare);
        atoms
      }
    })
    .as_ref()
}

/// `console.log(...args)` as Node prints it, or `None` when the realm must render it (a
/// format string with arguments to fill, or a value not covered here).
pub(crate) fn format(c: *mut qjs::JSContext, args: &[qjs::JSValue]) -> Option<Vec<u8>> {
  if args.len() > 1 && raw::is_string(args[0]) {
    let has_percent = raw::with_string_bytes(c, args[0], |b| b.contains(&b'%'))?;
    if has_percent {
      return None;
    }
  }
  let symbols = symbols(c)?;
  // SAFETY: JS_NewSymbol makes (or finds) the registered symbol; the atom is ours to free.
  let custom = unsafe {
    let s = Owned::new(c, qjs::JS_NewSymbol(c, c"nodejs.util.inspect.custom".as_ptr(), true));
    if raw::tag(s.v) != qjs::JS_TAG_SYMBOL {
      raw::clear_exception(c);
      return None;
    }
    raw::Atom { ctx: c, atom: qjs::JS_ValueToAtom(c, s.v) }
  };
  let mut out = Vec::new();
  for (i, &v) in args.iter().enumerate() {
    if i > 0 {
      out.push(b' ');
    }
    if raw::is_string(v) {
      raw::with_string_bytes(c, v, |b| out.extend_from_slice(b))?;
      continue;
    }
    let mut inspect = Inspect {
      c,
      symbols,
      custom: custom.atom,
      seen: Vec::new(),
      circular: HashMap::new(),
      indentation: 0,
      current_depth: 0,
      visits: 0,
      checked_protos: Vec::new(),
    };
    let text = inspect.value(v, 0).ok()?;
    out.extend_from_slice(text.as_bytes());
    if out.len() > MAX_OUTPUT {
      return None;
    }
  }
  Some(out)
}

/// One `util.inspect` call's state (Node's `ctx`).
struct Inspect<'a> {
  c: *mut qjs::JSContext,
  symbols: &'a Symbols,
  custom: qjs::JSAtom,
  /// The objects being formatted, outermost first.
  seen: Vec<usize>,
  /// Objects found to be circular, with their reference numbers.
  circular: HashMap<usize, u32>,
  indentation: usize,
  current_depth: u32,
  visits: usize,
  /// Prototypes already found to hold neither a custom inspect method nor an accessor tag.
  checked_protos: Vec<usize>,
}

/// What kind of container an object is formatted as.
enum Kind {
  Object,
  Array(u32),
  Map(usize, Vec<(Owned, Owned)>),
  Set(usize, Vec<(Owned, Owned)>),
  Date(f64),
}

impl Inspect<'_> {
  fn value(&mut self, v: qjs::JSValue, recurse_times: u32) -> R<String> {
    self.visits += 1;
    if self.visits > MAX_VISITS {
      return Err(Defer);
    }
    if !raw::is_object(v) {
      return self.primitive(v);
    }
    if raw::is_proxy(v) {
      return Err(Defer);
    }
    let id = raw::ptr(v);
    if self.seen.contains(&id) {
      let next = self.circular.len() as u32 + 1;
      let index = *self.circular.entry(id).or_insert(next);
      return Ok(format!("[Circular *{index}]"));
    }
    self.raw_object(v, recurse_times)
  }

  /// Node's `formatRaw` for the kinds covered here.
  fn raw_object(&mut self, v: qjs::JSValue, mut recurse_times: u32) -> R<String> {
    let c = self.c;
    let class = raw::class_id(v);
    let kind = match class {
      CLASS_OBJECT => Kind::Object,
      CLASS_ARRAY => {
        let len = self.array_length(v)?;
        Kind::Array(len)
      }
      _ => {
        match (
          crate::console::previews::collection_entries(c, v, MAX_ARRAY_LENGTH),
          raw::date_value(v),
        ) {
          (Some((false, size, entries)), _) => Kind::Map(size, entries),
          (Some((true, size, entries)), _) => Kind::Set(size, entries),
          (None, Some(time)) => Kind::Date(time),
          _ => return Err(Defer),
        }
      }
    };
    self.check_chain(v)?;
    if matches!(kind, Kind::Array(_) | Kind::Map(..) | Kind::Set(..)) && !self.has_iterator(v)? {
      // Node formats an array, Map or Set without `Symbol.iterator` as a plain object.
      return Err(Defer);
    }
    let constructor = self.constructor_name(v)?;
    let tag = self.to_string_tag(v)?;
    let keys = self.keys(v, matches!(kind, Kind::Array(_)))?;
    let prefix_of =
      |fallback: &str, size: &str| prefix(constructor.as_deref(), &tag, fallback, size);
    let mut base = String::new();
    let (mut braces, extras_array): ([String; 2], bool) = match &kind {
      Kind::Date(time) => {
        let text = if time.is_nan() { "Invalid Date".to_string() } else { iso_date(*time) };
        let p = prefix_of("Date", "");
        base = if p == "Date " { text } else { format!("{p}{text}") };
        if keys.is_empty() {
          return Ok(base);
        }
        (["{".into(), "}".into()], false)
      }
      Kind::Array(len) => {
        let p = if constructor.as_deref() != Some("Array") || !tag.is_empty() {
          prefix_of("Array", &format!("({len})"))
        } else {
          String::new()
        };
        if *len == 0 && keys.is_empty() {
          return Ok(format!("{p}[]"));
        }
        ([format!("{p}["), "]".into()], true)
      }
      Kind::Map(size, _) | Kind::Set(size, _) => {
        let name = if matches!(kind, Kind::Map(..)) { "Map" } else { "Set" };
        let p = prefix_of(name, &format!("({size})"));
        if *size == 0 && keys.is_empty() {
          return Ok(format!("{p}{{}}"));
        }
        ([format!("{p}{{"), "}".into()], false)
      }
      Kind::Object => {
        let open = if constructor.as_deref() == Some("Object") {
          if tag.is_empty() {
            "{".to_string()
          } else {
            format!("{}{{", prefix_of("Object", ""))
          }
        } else {
          format!("{}{{", prefix_of("Object", ""))
        };
        if keys.is_empty() {
          return Ok(format!("{open}}}"));
        }
        ([open, "}".into()], false)
      }
    };
    if recurse_times > DEPTH {
      let p = prefix(constructor.as_deref(), &tag, "Object", "");
      let name = &p[..p.len() - 1];
      return Ok(if constructor.is_some() { format!("[{name}]") } else { name.to_string() });
    }
    recurse_times += 1;
    let id = raw::ptr(v);
    self.seen.push(id);
    self.current_depth = recurse_times;
    let mut output = Vec::new();
    let mut numeric = true;
    let formatted = (|| -> R<()> {
      match &kind {
        Kind::Array(len) => {
          numeric = self.array(v, *len, recurse_times, &mut output)?;
        }
        Kind::Map(size, entries) => {
          self.indentation += 2;
          for (k, val) in entries.iter().take(MAX_ARRAY_LENGTH) {
            let k = self.value(k.v, recurse_times)?;
            let val = self.value(val.v, recurse_times)?;
            output.push(format!("{k} => {val}"));
          }
          self.indentation -= 2;
          remaining(&mut output, size.saturating_sub(MAX_ARRAY_LENGTH));
        }
        Kind::Set(size, entries) => {
          self.indentation += 2;
          for (k, _) in entries.iter().take(MAX_ARRAY_LENGTH) {
            output.push(self.value(k.v, recurse_times)?);
          }
          self.indentation -= 2;
          remaining(&mut output, size.saturating_sub(MAX_ARRAY_LENGTH));
        }
        Kind::Object | Kind::Date(_) => {}
      }
      for key in &keys {
        output.push(self.property(v, key, recurse_times, extras_array)?);
      }
      Ok(())
    })();
    formatted?;
    if let Some(index) = self.circular.get(&id) {
      base =
        if base.is_empty() { format!("<ref *{index}>") } else { format!("<ref *{index}> {base}") };
    }
    self.seen.pop();
    if let (Kind::Array(len), false) = (&kind, keys.is_empty()) {
      // Node's grouping pads numbers only when every `value[i]` for an entry's index `i` is
      // one; the extra keys' entries line up with indices past the elements shown.
      if *len as usize > MAX_ARRAY_LENGTH {
        return Err(Defer);
      }
      numeric = false;
    }
    let braces = std::mem::take(&mut braces);
    self.reduce_to_single_string(output, &base, &braces, extras_array, recurse_times, numeric)
  }

  /// An Array's `length`, and that every index below it is an own data property (holes and
  /// accessors are the realm's).
  fn array_length(&mut self, v: qjs::JSValue) -> R<u32> {
    if let Some((len, _)) = raw::dense_array(v) {
      return Ok(len);
    }
    let c = self.c;
    let length = raw::Atom::new(c, c"length");
    let d = raw::own_property(c, v, length.atom).ok_or(Defer)?;
    let len = match raw::tag(d.value.v) {
      // SAFETY: the tag says which payload the value carries.
      qjs::JS_TAG_INT => (unsafe { qjs::JS_VALUE_GET_INT(d.value.v) }) as u32,
      // SAFETY: as above.
      qjs::JS_TAG_FLOAT64 => (unsafe { qjs::JS_VALUE_GET_FLOAT64(d.value.v) }) as u32,
      _ => return Err(Defer),
    };
    Ok(len)
  }

  /// Node's `formatArray` (no holes: those defer). Returns whether every element shown is a
  /// number or bigint (grouping pads those at the start).
  fn array(
    &mut self,
    v: qjs::JSValue,
    len: u32,
    recurse_times: u32,
    output: &mut Vec<String>,
  ) -> R<bool> {
    let c = self.c;
    let shown = (len as usize).min(MAX_ARRAY_LENGTH);
    let mut numeric = true;
    let dense = raw::dense_array(v).is_some();
    for i in 0..shown as u32 {
      let element = if dense {
        let e = raw::dense_array_element(v, i).ok_or(Defer)?;
        // SAFETY: the element is borrowed from the array; the duplicate is ours.
        unsafe { Owned::new(c, qjs::JS_DupValue(c, e)) }
      } else {
        let atom = raw::Atom::index(c, i);
        let d = raw::own_property(c, v, atom.atom).ok_or(Defer)?;
        if d.is_accessor() {
          return Err(Defer);
        }
        d.value
      };
      let t = raw::tag(element.v);
      numeric &= matches!(
        t,
        qjs::JS_TAG_INT | qjs::JS_TAG_FLOAT64 | qjs::JS_TAG_BIG_INT | qjs::JS_TAG_SHORT_BIG_INT
      );
      self.indentation += 2;
      let text = self.value(element.v, recurse_times);
      self.indentation -= 2;
      output.push(text?);
    }
    if (len as usize) > shown {
      // Node checks the element after the last shown one too (the "more items" entry's
      // index).
      let atom = raw::Atom::index(c, shown as u32);
      let d = raw::own_property(c, v, atom.atom).ok_or(Defer)?;
      if d.is_accessor() {
        return Err(Defer);
      }
      let t = raw::tag(d.value.v);
      numeric &= matches!(
        t,
        qjs::JS_TAG_INT | qjs::JS_TAG_FLOAT64 | qjs::JS_TAG_BIG_INT | qjs::JS_TAG_SHORT_BIG_INT
      );
      remaining(output, len as usize - shown);
    }
    Ok(numeric)
  }

  /// Node's `formatProperty` for an own enumerable key.
  fn property(
    &mut self,
    v: qjs::JSValue,
    key: &PropKey,
    recurse_times: u32,
    array_extra: bool,
  ) -> R<String> {
    let c = self.c;
    let d = raw::own_property(c, v, key.atom.atom).ok_or(Defer)?;
    let text = if d.is_accessor() {
      let getter = raw::tag(d.getter.v) != qjs::JS_TAG_UNDEFINED;
      let setter = raw::tag(d.setter.v) != qjs::JS_TAG_UNDEFINED;
      match (getter, setter) {
        (true, true) => "[Getter/Setter]".to_string(),
        (true, false) => "[Getter]".to_string(),
        (false, true) => "[Setter]".to_string(),
        (false, false) => "undefined".to_string(),
      }
    } else {
      self.indentation += 2;
      let text = self.value(d.value.v, recurse_times);
      self.indentation -= 2;
      text?
    };
    let _ = array_extra;
    Ok(format!("{}: {text}", key.label))
  }

  /// Node's `reduceToSingleString` with `compact: 3`.
  fn reduce_to_single_string(
    &mut self,
    output: Vec<String>,
    base: &str,
    braces: &[String; 2],
    extras_array: bool,
    recurse_times: u32,
    numeric: bool,
  ) -> R<String> {
    let entries = output.len();
    let output = if extras_array && entries > 6 {
      self.group_array_elements(output, numeric)?
    } else {
      output
    };
    let base_sp = if base.is_empty() { String::new() } else { format!("{base} ") };
    if self.current_depth - recurse_times < COMPACT && entries == output.len() {
      let start = output.len() + self.indentation + js_len(&braces[0]) + js_len(base) + 10;
      if below_break_length(&output, start, base) {
        let joined = output.join(", ");
        if !joined.contains('\n') {
          return Ok(format!("{base_sp}{} {joined} {}", braces[0], braces[1]));
        }
      }
    }
    let indentation = format!("\n{}", " ".repeat(self.indentation));
    let joined = output.join(&format!(",{indentation}  "));
    Ok(format!("{base_sp}{}{indentation}  {joined}{indentation}{}", braces[0], braces[1]))
  }

  /// Node's `groupArrayElements` (ASCII entries only: column widths of other text are the
  /// realm's).
  fn group_array_elements(&mut self, output: Vec<String>, numeric: bool) -> R<Vec<String>> {
    let mut output_length = output.len();
    let more = output_length > MAX_ARRAY_LENGTH;
    if more {
      output_length -= 1;
    }
    let separator_space = 2;
    let mut data_len = Vec::with_capacity(output_length);
    let mut total_length = 0;
    let mut max_length = 0;
    for entry in &output[..output_length] {
      if !entry.is_ascii() {
        return Err(Defer);
      }
      let len = entry.bytes().filter(|&b| b >= 0x20).count();
      data_len.push(len);
      total_length += len + separator_space;
      max_length = max_length.max(len);
    }
    let actual_max = max_length + separator_space;
    if actual_max * 3 + self.indentation < BREAK_LENGTH
      && (total_length as f64 / actual_max as f64 > 5.0 || max_length <= 6)
    {
      let approx_char_heights = 2.5;
      let average_bias = (actual_max as f64 - total_length as f64 / output.len() as f64).sqrt();
      let biased_max = (actual_max as f64 - 3.0 - average_bias).max(1.0);
      let columns = [
        ((approx_char_heights * biased_max * output_length as f64).sqrt() / biased_max).round(),
        ((BREAK_LENGTH - self.indentation) as f64 / actual_max as f64).floor(),
        (COMPACT * 4) as f64,
        15.0,
      ]
      .into_iter()
      .fold(f64::INFINITY, f64::min);
      if columns <= 1.0 || columns.is_nan() {
        return Ok(output);
      }
      let columns = columns as usize;
      let mut max_line_length = Vec::with_capacity(columns);
      for i in 0..columns {
        let mut line_length = 0;
        let mut j = i;
        while j < output_length {
          line_length = line_length.max(data_len[j]);
          j += columns;
        }
        max_line_length.push(line_length + separator_space);
      }
      let mut grouped = Vec::new();
      let mut i = 0;
      while i < output_length {
        let max = (i + columns).min(output_length);
        let mut line = String::new();
        let mut j = i;
        while j < max - 1 {
          let cell = format!("{}, ", output[j]);
          let padding = max_line_length[j - i] + output[j].len() - data_len[j];
          pad(&mut line, &cell, padding, numeric);
          j += 1;
        }
        if numeric {
          let padding = max_line_length[j - i] + output[j].len() - data_len[j] - separator_space;
          pad(&mut line, &output[j], padding, true);
        } else {
          line.push_str(&output[j]);
        }
        grouped.push(line);
        i += columns;
      }
      if more {
        grouped.push(output[output_length].clone());
      }
      return Ok(grouped);
    }
    Ok(output)
  }

  /// Every prototype of `v` (and `v` itself) holds no custom inspect method and no
  /// `Symbol.toStringTag` accessor, and none is a Proxy.
  fn check_chain(&mut self, v: qjs::JSValue) -> R<()> {
    let c = self.c;
    self.check_object(v)?;
    let mut cur = raw::proto(c, v);
    for _ in 0..1_000 {
      if !raw::is_object(cur.v) {
        return Ok(());
      }
      if raw::is_proxy(cur.v) {
        return Err(Defer);
      }
      let id = raw::ptr(cur.v);
      if !self.checked_protos.contains(&id) {
        self.check_object(cur.v)?;
        self.checked_protos.push(id);
      }
      cur = raw::proto(c, cur.v);
    }
    Err(Defer)
  }

  fn check_object(&mut self, o: qjs::JSValue) -> R<()> {
    let c = self.c;
    if raw::own_property(c, o, self.custom).is_some() {
      return Err(Defer);
    }
    if let Some(d) = raw::own_property(c, o, self.symbols.to_string_tag) {
      if d.is_accessor() {
        return Err(Defer);
      }
    }
    Ok(())
  }

  /// `Symbol.iterator in value` (a data or accessor property anywhere on the chain).
  fn has_iterator(&mut self, v: qjs::JSValue) -> R<bool> {
    let c = self.c;
    // SAFETY: JS_DupValue adds the reference the loop's Owned releases.
    let mut cur = unsafe { Owned::new(c, qjs::JS_DupValue(c, v)) };
    for _ in 0..1_000 {
      if !raw::is_object(cur.v) {
        return Ok(false);
      }
      if raw::is_proxy(cur.v) {
        return Err(Defer);
      }
      if raw::own_property(c, cur.v, self.symbols.iterator).is_some() {
        return Ok(true);
      }
      cur = raw::proto(c, cur.v);
    }
    Err(Defer)
  }

  /// `value[Symbol.toStringTag]` as Node keeps it: a string found on the chain that is not
  /// an own enumerable property of the value ('' otherwise). Accessors were refused.
  fn to_string_tag(&mut self, v: qjs::JSValue) -> R<String> {
    let c = self.c;
    // SAFETY: JS_DupValue adds the reference the loop's Owned releases.
    let mut cur = unsafe { Owned::new(c, qjs::JS_DupValue(c, v)) };
    let mut own = true;
    for _ in 0..1_000 {
      if !raw::is_object(cur.v) {
        return Ok(String::new());
      }
      if let Some(d) = raw::own_property(c, cur.v, self.symbols.to_string_tag) {
        if !raw::is_string(d.value.v) {
          return Ok(String::new());
        }
        let tag = self.text(d.value.v)?;
        if tag.is_empty() || (own && d.is_enumerable()) {
          return Ok(String::new());
        }
        return Ok(tag);
      }
      own = false;
      cur = raw::proto(c, cur.v);
    }
    Err(Defer)
  }

  /// Node's `getConstructorName`: `None` for an object whose chain has no usable
  /// constructor and ends in `null` (what Node prints as `[Object: null prototype]`).
  fn constructor_name(&mut self, v: qjs::JSValue) -> R<Option<String>> {
    let c = self.c;
    let constructor = raw::Atom::new(c, c"constructor");
    // SAFETY: JS_DupValue adds the reference the loop's Owned releases.
    let mut cur = unsafe { Owned::new(c, qjs::JS_DupValue(c, v)) };
    let mut first = true;
    for _ in 0..1_000 {
      if !raw::is_object(cur.v) {
        // The chain ended without a constructor: `null` when the value's own prototype is
        // null, else Node's `<Complex prototype>` forms, which the realm prints.
        return if first { Ok(None) } else { Err(Defer) };
      }
      if let Some(d) = raw::own_property(c, cur.v, constructor.atom) {
        if d.is_accessor() {
          return Err(Defer);
        }
        // SAFETY: JS_IsFunction reads the class only.
        if raw::is_object(d.value.v) && unsafe { qjs::JS_IsFunction(c, d.value.v) } {
          let name = self.function_name(d.value.v)?;
          if !name.is_empty() && self.instance_of(v, d.value.v)? {
            return Ok(Some(name));
          }
        }
      }
      if raw::ptr(cur.v) != raw::ptr(v) {
        first = false;
      }
      cur = raw::proto(c, cur.v);
      if raw::ptr(cur.v) == raw::ptr(v) && raw::is_object(cur.v) {
        return Err(Defer);
      }
    }
    Err(Defer)
  }

  /// A function's `name` as `descriptor.value.name` reads it (own data property; a function
  /// without one inherits `Function.prototype.name`, which is '').
  fn function_name(&mut self, f: qjs::JSValue) -> R<String> {
    let c = self.c;
    if raw::is_proxy(f) {
      return Err(Defer);
    }
    let name = raw::Atom::new(c, c"name");
    match raw::own_property(c, f, name.atom) {
      None => {
        // Inherited: Function.prototype's own '' unless the program changed the chain.
        let proto = raw::proto(c, f);
        // SAFETY: JS_GetFunctionProto returns a new reference to the intrinsic.
        let intrinsic = unsafe { Owned::new(c, qjs::JS_GetFunctionProto(c)) };
        if raw::is_object(proto.v) && raw::ptr(proto.v) == raw::ptr(intrinsic.v) {
          match raw::own_property(c, proto.v, name.atom) {
            Some(d) if !d.is_accessor() && raw::is_string(d.value.v) => self.text(d.value.v),
            _ => Err(Defer),
          }
        } else {
          Err(Defer)
        }
      }
      Some(d) if !d.is_accessor() && raw::is_string(d.value.v) => self.text(d.value.v),
      Some(_) => Err(Defer),
    }
  }

  /// `value instanceof f` without running code: `f` and its chain up to
  /// `Function.prototype` have no own `Symbol.hasInstance`, `f` is not bound, and its own
  /// `prototype` is on the value's chain.
  fn instance_of(&mut self, v: qjs::JSValue, f: qjs::JSValue) -> R<bool> {
    let c = self.c;
    // SAFETY: JS_GetFunctionProto returns a new reference to the intrinsic.
    let function_proto = unsafe { Owned::new(c, qjs::JS_GetFunctionProto(c)) };
    // SAFETY: JS_DupValue adds the reference the loop's Owned releases.
    let mut cur = unsafe { Owned::new(c, qjs::JS_DupValue(c, f)) };
    let mut reached = false;
    for _ in 0..1_000 {
      if !raw::is_object(cur.v) || raw::is_proxy(cur.v) {
        break;
      }
      if raw::ptr(cur.v) == raw::ptr(function_proto.v) {
        reached = true;
        break;
      }
      if raw::own_property(c, cur.v, self.symbols.has_instance).is_some() {
        return Err(Defer);
      }
      cur = raw::proto(c, cur.v);
    }
    if !reached {
      return Err(Defer);
    }
    let prototype = raw::Atom::new(c, c"prototype");
    let d = raw::own_property(c, f, prototype.atom).ok_or(Defer)?;
    if d.is_accessor() {
      return Err(Defer);
    }
    if !raw::is_object(d.value.v) {
      return Ok(false);
    }
    let target = raw::ptr(d.value.v);
    let mut cur = raw::proto(c, v);
    for _ in 0..1_000 {
      if !raw::is_object(cur.v) {
        return Ok(false);
      }
      if raw::is_proxy(cur.v) {
        return Err(Defer);
      }
      if raw::ptr(cur.v) == target {
        return Ok(true);
      }
      cur = raw::proto(c, cur.v);
    }
    Err(Defer)
  }

  /// The keys Node lists: own enumerable strings (array indices left out for arrays), then
  /// own enumerable symbols, each with its label.
  fn keys(&mut self, v: qjs::JSValue, skip_indices: bool) -> R<Vec<PropKey>> {
    let c = self.c;
    let mut out = Vec::new();
    if skip_indices && raw::dense_array(v).is_some() {
      return Ok(out);
    }
    let keys = raw::Keys::of(c, v).ok_or(Defer)?;
    if keys.len() as usize > MAX_VISITS {
      return Err(Defer);
    }
    let mut symbols = Vec::new();
    for i in 0..keys.len() {
      let atom = keys.atom(i);
      if skip_indices && is_index_atom(c, atom) {
        continue;
      }
      let Some(d) = raw::own_property(c, v, atom) else { continue };
      if !d.is_enumerable() {
        continue;
      }
      // SAFETY: JS_AtomToValue returns a new reference to the key.
      let key = unsafe { Owned::new(c, qjs::JS_AtomToValue(c, atom)) };
      // SAFETY: JS_DupAtom adds the reference the Atom releases.
      let atom = raw::Atom { ctx: c, atom: unsafe { qjs::JS_DupAtom(c, atom) } };
      if raw::tag(key.v) == qjs::JS_TAG_SYMBOL {
        let description = symbol_description(c, key.v)?;
        let escaped = escape_symbol(&description)?;
        symbols.push(PropKey { atom, label: format!("Symbol({escaped})") });
      } else {
        let name = self.text(key.v)?;
        out.push(PropKey { atom, label: key_label(&name) });
      }
    }
    out.extend(symbols);
    Ok(out)
  }

  fn primitive(&mut self, v: qjs::JSValue) -> R<String> {
    let c = self.c;
    Ok(match raw::tag(v) {
      qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => {
        let units = utf16(c, v)?;
        self.string(&units)
      }
      qjs::JS_TAG_SYMBOL => {
        let description = symbol_description(c, v)?;
        format!("Symbol({})", escape_symbol(&description)?)
      }
      _ => {
        let text = crate::console::inspect::render(c, v);
        String::from_utf8(text).map_err(|_| Defer)?
      }
    })
  }

  /// Node's `formatPrimitive` for a string inside a value.
  fn string(&self, units: &[u16]) -> String {
    let (units, trailer) = if units.len() > MAX_STRING_LENGTH {
      let more = units.len() - MAX_STRING_LENGTH;
      let s = if more > 1 { "s" } else { "" };
      (&units[..MAX_STRING_LENGTH], format!("... {more} more character{s}"))
    } else {
      (units, String::new())
    };
    if units.len() > 16 && units.len() > BREAK_LENGTH.saturating_sub(self.indentation + 4) {
      // Split after each newline, each line quoted on its own.
      let mut lines = Vec::new();
      let mut start = 0;
      for (i, &u) in units.iter().enumerate() {
        if u == b'\n' as u16 {
          lines.push(str_escape(&units[start..=i]));
          start = i + 1;
        }
      }
      if start < units.len() {
        lines.push(str_escape(&units[start..]));
      }
      if lines.is_empty() {
        lines.push(str_escape(units));
      }
      let joiner = format!(" +\n{}", " ".repeat(self.indentation + 2));
      return lines.join(&joiner) + &trailer;
    }
    str_escape(units) + &trailer
  }

  /// A string value's text (valid UTF-8 only: lone surrogates are the realm's here).
  fn text(&self, v: qjs::JSValue) -> R<String> {
    let bytes = raw::string_bytes(self.c, v).ok_or(Defer)?;
    String::from_utf8(bytes).map_err(|_| Defer)
  }
}

/// `Date.prototype.toISOString` of a valid time value (ms since the epoch).
fn iso_date(time: f64) -> String {
  let ms_total = time as i64;
  let days = ms_total.div_euclid(86_400_000);
  let ms_of_day = ms_total.rem_euclid(86_400_000);
  // Howard Hinnant's civil_from_days.
  let z = days + 719_468;
  let era = z.div_euclid(146_097);
  let doe = z.rem_euclid(146_097);
  let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
  let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  let mp = (5 * doy + 2) / 153;
  let day = doy - (153 * mp + 2) / 5 + 1;
  let month = if mp < 10 { mp + 3 } else { mp - 9 };
  let year = yoe + era * 400 + i64::from(month <= 2);
  let (h, m, s, ms) =
    (ms_of_day / 3_600_000, ms_of_day / 60_000 % 60, ms_of_day / 1000 % 60, ms_of_day % 1000);
  let year = if (0..=9999).contains(&year) {
    format!("{year:04}")
  } else if year < 0 {
    format!("-{:06}", -year)
  } else {
    format!("+{year:06}")
  };
  format!("{year}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{ms:03}Z")
}

/// A key to print, with its label (`name`, `'quoted'`, `['__proto__']`, `Symbol(x)`).
struct PropKey {
  atom: raw::Atom,
  label: String,
}

fn is_index_atom(c: *mut qjs::JSContext, atom: qjs::JSAtom) -> bool {
  // SAFETY: JS_AtomToValue returns a new reference to the key.
  let key = unsafe { Owned::new(c, qjs::JS_AtomToValue(c, atom)) };
  if !raw::is_string(key.v) {
    return false;
  }
  raw::with_string_bytes(c, key.v, |k| {
    !k.is_empty()
      && k.len() <= 10
      && k.iter().all(u8::is_ascii_digit)
      && (k == b"0" || k[0] != b'0')
      && std::str::from_utf8(k)
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .is_some_and(|n| n < u32::MAX as u64)
  })
  .unwrap_or(false)
}

/// `ctx.stylize(key, 'name')` for identifiers, `['__proto__']`, else the escaped string.
fn key_label(name: &str) -> String {
  let mut chars = name.chars();
  let ident = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
    && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
  if ident {
    if name == "__proto__" {
      return "['__proto__']".to_string();
    }
    return name.to_string();
  }
  let units: Vec<u16> = name.encode_utf16().collect();
  str_escape(&units)
}

/// Node 24's `getPrefix`: a tag whose last dotted segment is the constructor's name stands
/// for it (`a.Foo` for `Foo`); any other tag follows in brackets.
fn prefix(constructor: Option<&str>, tag: &str, fallback: &str, size: &str) -> String {
  match constructor {
    None if !tag.is_empty() && fallback != tag => {
      format!("[{fallback}{size}: null prototype] [{tag}] ")
    }
    None => format!("[{fallback}{size}: null prototype] "),
    Some(name) if !tag.is_empty() => {
      let last = match tag.rfind('.') {
        Some(dot) if dot >= 1 => &tag[dot + 1..],
        _ => tag,
      };
      if name == last {
        format!("{tag}{size} ")
      } else {
        format!("{name}{size} [{tag}] ")
      }
    }
    Some(name) => format!("{name}{size} "),
  }
}

fn remaining(output: &mut Vec<String>, n: usize) {
  if n > 0 {
    let s = if n > 1 { "s" } else { "" };
    output.push(format!("... {n} more item{s}"));
  }
}

/// Node's `isBelowBreakLength`.
fn below_break_length(output: &[String], start: usize, base: &str) -> bool {
  let mut total = output.len() + start;
  if total + output.len() > BREAK_LENGTH {
    return false;
  }
  for entry in output {
    total += js_len(entry);
    if total > BREAK_LENGTH {
      return false;
    }
  }
  base.is_empty() || !base.contains('\n')
}

/// `padStart`/`padEnd` of `s` to `width` UTF-16 units (ASCII here), into `line`.
fn pad(line: &mut String, s: &str, width: usize, start: bool) {
  let fill = width.saturating_sub(s.len());
  if start {
    line.extend(std::iter::repeat_n(' ', fill));
    line.push_str(s);
  } else {
    line.push_str(s);
    line.extend(std::iter::repeat_n(' ', fill));
  }
}

/// A string's length in UTF-16 code units, as JavaScript's `length`.
fn js_len(s: &str) -> usize {
  if s.is_ascii() {
    s.len()
  } else {
    s.chars().map(char::len_utf16).sum()
  }
}

/// A string's UTF-16 code units (lone surrogates kept).
/// Strings over [`MAX_STRING_BYTES`] are the realm's (it cuts them without decoding all).
fn utf16(c: *mut qjs::JSContext, v: qjs::JSValue) -> R<Vec<u16>> {
  raw::with_string_bytes(c, v, |b| (b.len() <= MAX_STRING_BYTES).then(|| wtf8_to_utf16(b)))
    .flatten()
    .ok_or(Defer)
}

/// Decodes WTF-8 (UTF-8 with lone surrogates as 3-byte sequences) into UTF-16.
fn wtf8_to_utf16(b: &[u8]) -> Vec<u16> {
  let mut out = Vec::with_capacity(b.len());
  let mut i = 0;
  while i < b.len() {
    let x = b[i];
    let (cp, n) = if x < 0x80 {
      (x as u32, 1)
    } else if x < 0xE0 && i + 1 < b.len() {
      (((x as u32 & 0x1F) << 6) | (b[i + 1] as u32 & 0x3F), 2)
    } else if x < 0xF0 && i + 2 < b.len() {
      (((x as u32 & 0x0F) << 12) | ((b[i + 1] as u32 & 0x3F) << 6) | (b[i + 2] as u32 & 0x3F), 3)
    } else if i + 3 < b.len() {
      (
        ((x as u32 & 0x07) << 18)
          | ((b[i + 1] as u32 & 0x3F) << 12)
          | ((b[i + 2] as u32 & 0x3F) << 6)
          | (b[i + 3] as u32 & 0x3F),
        4,
      )
    } else {
      (0xFFFD, 1)
    };
    if cp >= 0x10000 {
      let v = cp - 0x10000;
      out.push(0xD800 | (v >> 10) as u16);
      out.push(0xDC00 | (v & 0x3FF) as u16);
    } else {
      out.push(cp as u16);
    }
    i += n;
  }
  out
}

/// Node's `strEscape`: quotes chosen as Node chooses them, control characters, the quote, the
/// backslash, C1 controls and lone surrogates escaped.
fn str_escape(units: &[u16]) -> String {
  let has = |c: u8| units.contains(&(c as u16));
  let has_dollar_brace = units.windows(2).any(|w| w == [b'$' as u16, b'{' as u16]);
  let quote: u16 = if !has(b'\'') {
    b'\'' as u16
  } else if !has(b'"') {
    b'"' as u16
  } else if !has(b'`') && !has_dollar_brace {
    b'`' as u16
  } else {
    b'\'' as u16
  };
  let mut out = String::with_capacity(units.len() + 2);
  out.push(quote as u8 as char);
  let mut i = 0;
  while i < units.len() {
    let u = units[i];
    if (u == quote && quote == b'\'' as u16)
      || u == b'\\' as u16
      || u < 0x20
      || (0x7F..0xA0).contains(&u)
    {
      out.push_str(&meta(u));
    } else if (0xD800..0xE000).contains(&u) {
      if u < 0xDC00 && i + 1 < units.len() && (0xDC00..0xE000).contains(&units[i + 1]) {
        let cp = 0x10000 + (((u as u32) - 0xD800) << 10) + (units[i + 1] as u32 - 0xDC00);
        out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
        i += 2;
        continue;
      }
      out.push_str(&format!("\\u{:x}", u));
    } else {
      out.push(char::from_u32(u as u32).unwrap_or('\u{FFFD}'));
    }
    i += 1;
  }
  out.push(quote as u8 as char);
  out
}

/// Node's `meta` table entry for an escaped code unit.
fn meta(u: u16) -> String {
  match u {
    0x08 => "\\b".into(),
    0x09 => "\\t".into(),
    0x0A => "\\n".into(),
    0x0C => "\\f".into(),
    0x0D => "\\r".into(),
    0x27 => "\\'".into(),
    0x5C => "\\\\".into(),
    _ => format!("\\x{:02X}", u),
  }
}

/// A symbol's description, read through its atom (no `description` getter runs).
fn symbol_description(c: *mut qjs::JSContext, v: qjs::JSValue) -> R<String> {
  // SAFETY: the atom and string are new references, freed here and by Owned.
  let bytes = unsafe {
    let atom = qjs::JS_ValueToAtom(c, v);
    let s = Owned::new(c, qjs::JS_AtomToString(c, atom));
    qjs::JS_FreeAtom(c, atom);
    raw::string_bytes(c, s.v)
  };
  String::from_utf8(bytes.ok_or(Defer)?).map_err(|_| Defer)
}

/// A symbol description as Node prints it; one that Node would escape is the realm's.
fn escape_symbol(description: &str) -> R<&str> {
  if description
    .chars()
    .any(|c| (c as u32) < 0x20 || ('\u{7f}'..'\u{a0}').contains(&c) || c == '\'' || c == '\\')
  {
    return Err(Defer);
  }
  Ok(description)
}

#[cfg(test)]
mod tests {
  use super::*;

  fn esc(s: &str) -> String {
    str_escape(&s.encode_utf16().collect::<Vec<_>>())
  }

  #[test]
  fn strings_are_quoted_and_escaped_as_node_does() {
    assert_eq!(esc("plain"), "'plain'");
    assert_eq!(esc("it's"), "\"it's\"");
    assert_eq!(esc("it's \"x\""), "`it's \"x\"`");
    assert_eq!(esc("it's \"x\" `y`"), "'it\\'s \"x\" `y`'");
    assert_eq!(esc("a'\"${b}"), "'a\\'\"${b}'");
    assert_eq!(
      esc("\u{0}\u{7}\u{b}\u{1b}\u{7f}\u{85}\u{a0}"),
      "'\\x00\\x07\\x0B\\x1B\\x7F\\x85\u{a0}'"
    );
    assert_eq!(esc("\n\t\r\u{8}\u{c}\\"), "'\\n\\t\\r\\b\\f\\\\'");
    assert_eq!(str_escape(&[0xD800, b' ' as u16, 0xDFFF]), "'\\ud800 \\udfff'");
    assert_eq!(esc("😀"), "'😀'");
  }

  #[test]
  fn prefixes_are_nodes() {
    assert_eq!(prefix(Some("Map"), "Map", "Map", "(1)"), "Map(1) ");
    assert_eq!(prefix(Some("MySet"), "Set", "Set", "(1)"), "MySet(1) [Set] ");
    assert_eq!(prefix(None, "", "Object", ""), "[Object: null prototype] ");
    assert_eq!(prefix(None, "X", "Map", "(0)"), "[Map(0): null prototype] [X] ");
    assert_eq!(prefix(Some("MyPromise"), "Promise", "Promise", ""), "MyPromise [Promise] ");
    assert_eq!(prefix(Some("Foo"), "a.Foo", "Object", ""), "a.Foo ");
    assert_eq!(prefix(Some("Foo"), "Foo", "Object", ""), "Foo ");
  }

  #[test]
  fn keys_are_labelled_as_node_does() {
    assert_eq!(key_label("abc_1"), "abc_1");
    assert_eq!(key_label("__proto__"), "['__proto__']");
    assert_eq!(key_label("a-b"), "'a-b'");
    assert_eq!(key_label("$x"), "'$x'");
    assert_eq!(key_label("1"), "'1'");
    assert_eq!(key_label(""), "''");
  }

  /// What `console.log(value)` prints through this module alone (`None`: the realm's).
  fn log(source: &str) -> Option<String> {
    let rt = rquickjs::Runtime::new().unwrap();
    let ctx = rquickjs::Context::full(&rt).unwrap();
    ctx.with(|ctx| {
      let v: rquickjs::Value = ctx.eval(source).unwrap();
      format(ctx.as_raw().as_ptr(), &[v.as_raw()]).map(|b| String::from_utf8(b).unwrap())
    })
  }

  #[test]
  fn common_values_render_here_in_nodes_layout() {
    // Node 24's output for each (util.inspect with the console's options).
    let cases = [
      ("({ a: [1, 2, 3] })", "{ a: [ 1, 2, 3 ] }"),
      ("({a:{b:{c:{d:{e:{f:1}}}}}})", "{\n  a: {\n    b: { c: { d: { e: [Object] } } }\n  }\n}"),
      ("[1,2,3,4,5,6,7]", "[\n  1, 2, 3, 4,\n  5, 6, 7\n]"),
      ("const c = {}; c.self = c; c", "<ref *1> { self: [Circular *1] }"),
      ("new Map([[1, { a: 1 }]])", "Map(1) { 1 => { a: 1 } }"),
      (
        "({ 'a-b': \"it's\", s: Symbol('x'), [Symbol('k')]: null, n: -0, big: 10n, u: undefined })",
        "{\n  'a-b': \"it's\",\n  s: Symbol(x),\n  n: -0,\n  big: 10n,\n  u: undefined,\n  Symbol(k): null\n}",
      ),
      ("['x'.repeat(20) + '\\n' + 'y'.repeat(70)]", "[\n  'xxxxxxxxxxxxxxxxxxxx\\n' +\n    'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'\n]"),
      ("class P { constructor() { this.x = 1 } }; [new P(), new (class extends Map {})()]", "[ P { x: 1 }, Map(0) {} ]"),
      ("new (class MySet extends Set {})([1])", "MySet(1) [Set] { 1 }"),
      ("Object.create(null)", "[Object: null prototype] {}"),
      ("[new Date(0), new Date(NaN), new Date(-1)]", "[ 1970-01-01T00:00:00.000Z, Invalid Date, 1969-12-31T23:59:59.999Z ]"),
      ("new Date(Date.UTC(2024, 1, 29, 13, 5, 9, 7))", "2024-02-29T13:05:09.007Z"),
      ("new Date(8.64e15)", "+275760-09-13T00:00:00.000Z"),
      ("new Date(-62198755200000)", "-000001-01-01T00:00:00.000Z"),
      ("Object.assign(new Date(0), { x: 1 })", "1970-01-01T00:00:00.000Z { x: 1 }"),
      ("new (class D extends Date {})(0)", "D 1970-01-01T00:00:00.000Z"),
      ("({ get g() { return 1 }, set s(v) {} })", "{ g: [Getter], s: [Setter] }"),
    ];
    for (source, expected) in cases {
      assert_eq!(log(source).as_deref(), Some(expected), "{source}");
    }
    let hundred_and_one = log("Array.from({ length: 101 }, (_, i) => i)").unwrap();
    assert!(hundred_and_one.starts_with("[\n   0,  1,  2,"), "{hundred_and_one}");
    assert!(
      hundred_and_one.ends_with("  96, 97, 98, 99,\n  ... 1 more item\n]"),
      "{hundred_and_one}"
    );
  }

  #[test]
  fn what_this_module_does_not_cover_is_left_to_the_realm() {
    for source in [
      "new Proxy({}, {})",
      "[function f() {}]",
      "new Error('e')",
      "({ [Symbol.for('nodejs.util.inspect.custom')]() { return 'x' } })",
      "class C { [Symbol.for('nodejs.util.inspect.custom')]() { return 'x' } }; [new C()]",
      "[1, , 3]",
      "({ get [Symbol.toStringTag]() { return 'T' } })",
      "class K { static [Symbol.hasInstance]() { return true } }; new K()",
      "Object.setPrototypeOf(new Set([1]), Object.prototype)",
      "['\\u00e9', 1, 2, 3, 4, 5, 6]",
      "new Uint8Array(2)",
    ] {
      assert_eq!(log(source), None, "{source}");
    }
  }

  #[test]
  fn wtf8_decodes_pairs_and_lone_surrogates() {
    assert_eq!(wtf8_to_utf16("a😀".as_bytes()), vec![97, 0xD83D, 0xDE00]);
    assert_eq!(wtf8_to_utf16(&[0xED, 0xA0, 0x80]), vec![0xD800]);
  }
}
