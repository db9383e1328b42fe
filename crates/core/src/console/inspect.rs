//! Rendering logged values as text, without running program code.
//!
//! Prints primitives exactly as Node's `util.inspect` does (`console` uses it for logs of
//! primitives only), and is the fallback when the inspector realm ([`crate::console::inspector`])
//! cannot render a value: then it follows Node for the common cases (arrays, plain objects,
//! functions, nesting cut at depth 4, circular references, `... N more items`) on one line.
//! It is safe by construction: an explicit work stack (no recursion over the value), own
//! property descriptors only (getters show as `[Getter]` and are never called), Proxies
//! shown without touching their traps.

use crate::quickjs::raw::{self, Key, Keys, Owned};
use rquickjs::qjs;
use std::collections::HashSet;

const MAX_DEPTH: u32 = 4;
const MAX_ARRAY_ITEMS: u32 = 100;
const MAX_STRING: usize = 10_000;
/// Stop rendering one argument after this many bytes; logs are capped by the ledger anyway.
const MAX_RENDER: usize = 1 << 20;

enum Work {
  Text(&'static str),
  Owned(String),
  Value { v: Owned, depth: u32 },
  Leave(usize),
}

/// Renders one `console.log` argument. Strings at top level print raw.
pub(crate) fn render(ctx: *mut qjs::JSContext, v: qjs::JSValue) -> Vec<u8> {
  if raw::is_string(v) {
    return raw::string_bytes(ctx, v).unwrap_or_default();
  }
  let mut out: Vec<u8> = Vec::new();
  let mut seen: HashSet<usize> = HashSet::new();
  // SAFETY: JS_DupValue takes the reference the work item's Owned releases.
  let root = unsafe { Owned::new(ctx, qjs::JS_DupValue(ctx, v)) };
  let mut work = vec![Work::Value { v: root, depth: 0 }];
  while let Some(item) = work.pop() {
    if out.len() > MAX_RENDER {
      out.extend_from_slice(b"...");
      break;
    }
    match item {
      Work::Text(t) => out.extend_from_slice(t.as_bytes()),
      Work::Owned(s) => out.extend_from_slice(s.as_bytes()),
      Work::Leave(p) => {
        seen.remove(&p);
      }
      Work::Value { v, depth } => value(ctx, v, depth, &mut out, &mut work, &mut seen),
    }
  }
  out
}

/// Renders one value as `util.inspect` prints it at top level (strings quoted).
pub(crate) fn render_inspected(ctx: *mut qjs::JSContext, v: qjs::JSValue) -> Vec<u8> {
  if raw::is_string(v) {
    return quote(&raw::string_bytes(ctx, v).unwrap_or_default());
  }
  render(ctx, v)
}

fn value(
  ctx: *mut qjs::JSContext,
  v: Owned,
  depth: u32,
  out: &mut Vec<u8>,
  work: &mut Vec<Work>,
  seen: &mut HashSet<usize>,
) {
  let t = raw::tag(v.v);
  if t != qjs::JS_TAG_OBJECT {
    out.extend_from_slice(&primitive(ctx, v.v, depth > 0));
    return;
  }
  if raw::is_proxy(v.v) {
    out.extend_from_slice(b"[Proxy]");
    return;
  }
  let id = raw::ptr(v.v);
  if seen.contains(&id) {
    out.extend_from_slice(b"[Circular *1]");
    return;
  }
  // SAFETY: JS_IsFunction inspects the class only.
  if unsafe { qjs::JS_IsFunction(ctx, v.v) } {
    let name = raw::data_string(ctx, v.v, c"name").unwrap_or_default();
    if name.is_empty() {
      out.extend_from_slice(b"[Function (anonymous)]");
    } else {
      out.extend_from_slice(b"[Function: ");
      out.extend_from_slice(&name);
      out.push(b']');
    }
    return;
  }
  // SAFETY: JS_IsArray checks the class only (not through Proxies, excluded above).
  let is_array = unsafe { qjs::JS_IsArray(v.v) };
  if depth > MAX_DEPTH {
    out.extend_from_slice(if is_array { b"[Array]" } else { b"[Object]" });
    return;
  }
  let Some(keys) = Keys::of(ctx, v.v) else {
    out.extend_from_slice(b"[Object]");
    return;
  };
  let mut parts: Vec<Work> = Vec::new();
  let mut shown: u32 = 0;
  let mut hidden: u32 = 0;
  for i in 0..keys.len() {
    let atom = keys.atom(i);
    let Some(d) = raw::own_property(ctx, v.v, atom) else {
      continue;
    };
    if !d.is_enumerable() {
      continue;
    }
    let key = raw::atom_key(ctx, atom);
    let index_key = is_array && matches!(&key, Some(Key::String(k)) if is_index(k));
    if is_array && index_key && shown >= MAX_ARRAY_ITEMS {
      hidden += 1;
      continue;
    }
    if !parts.is_empty() {
      parts.push(Work::Text(", "));
    }
    if !index_key {
      let label = match key {
        Some(Key::String(k)) => key_label(&k),
        Some(Key::Symbol) => "[Symbol]".to_owned(),
        None => "?".to_owned(),
      };
      parts.push(Work::Owned(format!("{label}: ")));
    }
    if d.is_accessor() {
      let g = raw::tag(d.getter.v) != qjs::JS_TAG_UNDEFINED;
      let s = raw::tag(d.setter.v) != qjs::JS_TAG_UNDEFINED;
      parts.push(Work::Text(match (g, s) {
        (true, true) => "[Getter/Setter]",
        (true, false) => "[Getter]",
        _ => "[Setter]",
      }));
    } else {
      parts.push(Work::Value { v: d.value, depth: depth + 1 });
    }
    shown += 1;
  }
  if hidden > 0 {
    parts
      .push(Work::Owned(format!(", ... {hidden} more item{}", if hidden == 1 { "" } else { "s" })));
  }
  let prefix = class_prefix(ctx, v.v, is_array);
  out.extend_from_slice(prefix.as_bytes());
  let (open, close) = if is_array { ("[", "]") } else { ("{", "}") };
  if parts.is_empty() {
    out.extend_from_slice(open.as_bytes());
    out.extend_from_slice(close.as_bytes());
    return;
  }
  seen.insert(id);
  work.push(Work::Leave(id));
  work.push(Work::Text(if is_array { " ]" } else { " }" }));
  for p in parts.into_iter().rev() {
    work.push(p);
  }
  work.push(Work::Text(if is_array { "[ " } else { "{ " }));
}

/// `[Object: null prototype] `, `ClassName `, or nothing for plain objects and arrays.
fn class_prefix(ctx: *mut qjs::JSContext, v: qjs::JSValue, is_array: bool) -> String {
  let proto = raw::proto(ctx, v);
  if !raw::is_object(proto.v) {
    return if is_array { String::new() } else { "[Object: null prototype] ".to_owned() };
  }
  let ctor_name = raw::data_property(ctx, proto.v, c"constructor")
    .filter(|c| raw::is_object(c.v) && !raw::is_proxy(c.v))
    .and_then(|c| raw::data_string(ctx, c.v, c"name"))
    .map(|b| String::from_utf8_lossy(&b).into_owned())
    .unwrap_or_default();
  match ctor_name.as_str() {
    "Object" if !is_array => String::new(),
    "Array" if is_array => String::new(),
    "" => String::new(),
    name => format!("{name} "),
  }
}

fn is_index(k: &[u8]) -> bool {
  !k.is_empty() && k.iter().all(u8::is_ascii_digit) && (k == b"0" || k[0] != b'0')
}

fn key_label(k: &[u8]) -> String {
  let ident = !k.is_empty()
    && !k[0].is_ascii_digit()
    && k.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$');
  if ident {
    String::from_utf8_lossy(k).into_owned()
  } else {
    String::from_utf8_lossy(&quote(k)).into_owned()
  }
}

/// A string inside a container, quoted the way Node picks quotes.
fn quote(s: &[u8]) -> Vec<u8> {
  let q = if !s.contains(&b'\'') {
    b'\''
  } else if !s.contains(&b'"') {
    b'"'
  } else if !s.contains(&b'`') && !s.windows(2).any(|w| w == b"${") {
    b'`'
  } else {
    b'\''
  };
  let mut out = vec![q];
  let (body, more) =
    if s.len() > MAX_STRING { (&s[..MAX_STRING], s.len() - MAX_STRING) } else { (s, 0) };
  for &b in body {
    match b {
      b'\n' => out.extend_from_slice(b"\\n"),
      b'\t' => out.extend_from_slice(b"\\t"),
      b'\r' => out.extend_from_slice(b"\\r"),
      b'\\' => out.extend_from_slice(b"\\\\"),
      0x08 => out.extend_from_slice(b"\\b"),
      0x0C => out.extend_from_slice(b"\\f"),
      0x0B => out.extend_from_slice(b"\\v"),
      c if c == q => {
        out.push(b'\\');
        out.push(c);
      }
      c if c < 0x20 || c == 0x7F => out.extend_from_slice(format!("\\x{c:02X}").as_bytes()),
      c => out.push(c),
    }
  }
  out.push(q);
  if more > 0 {
    out.extend_from_slice(
      format!("... {more} more character{}", if more == 1 { "" } else { "s" }).as_bytes(),
    );
  }
  out
}

fn primitive(ctx: *mut qjs::JSContext, v: qjs::JSValue, nested: bool) -> Vec<u8> {
  match raw::tag(v) {
    qjs::JS_TAG_STRING | qjs::JS_TAG_STRING_ROPE => {
      let s = raw::string_bytes(ctx, v).unwrap_or_default();
      if nested {
        quote(&s)
      } else {
        s
      }
    }
    qjs::JS_TAG_NULL => b"null".to_vec(),
    qjs::JS_TAG_UNDEFINED => b"undefined".to_vec(),
    // SAFETY: the tag says which payload the value carries.
    qjs::JS_TAG_BOOL => {
      (if unsafe { qjs::JS_VALUE_GET_BOOL(v) } { "true" } else { "false" }).into()
    }
    // SAFETY: as above.
    qjs::JS_TAG_INT => unsafe { qjs::JS_VALUE_GET_INT(v) }.to_string().into_bytes(),
    qjs::JS_TAG_FLOAT64 => {
      // SAFETY: as above.
      let n = unsafe { qjs::JS_VALUE_GET_FLOAT64(v) };
      if n == 0.0 && n.is_sign_negative() {
        b"-0".to_vec()
      } else {
        crate::messages::number(n).into_bytes()
      }
    }
    qjs::JS_TAG_BIG_INT | qjs::JS_TAG_SHORT_BIG_INT => {
      // SAFETY: converting a BigInt to a string runs no program code.
      let s = unsafe { Owned::new(ctx, qjs::JS_ToString(ctx, v)) };
      let mut b = raw::string_bytes(ctx, s.v).unwrap_or_default();
      b.push(b'n');
      b
    }
    qjs::JS_TAG_SYMBOL => symbol_text(ctx, v),
    _ => b"[unknown]".to_vec(),
  }
}

/// `Symbol(description)`, read without calling `Symbol.prototype.toString`.
pub(crate) fn symbol_text(ctx: *mut qjs::JSContext, v: qjs::JSValue) -> Vec<u8> {
  // SAFETY: JS_GetPropertyStr on a symbol primitive reaches Symbol.prototype.description,
  // which is an intrinsic native getter unless the program replaced it; we read the
  // description through the atom instead to avoid that path.
  let desc = unsafe {
    let atom = qjs::JS_ValueToAtom(ctx, v);
    let s = Owned::new(ctx, qjs::JS_AtomToString(ctx, atom));
    qjs::JS_FreeAtom(ctx, atom);
    raw::string_bytes(ctx, s.v).unwrap_or_default()
  };
  let mut out = b"Symbol(".to_vec();
  out.extend_from_slice(&desc);
  out.push(b')');
  out
}
