//! The `bridge` target's generator: fuzzer bytes → a JavaScript expression that builds an
//! engine value, together with the JSON text the bridge must produce for it (`None` when the
//! value is not lossless JSON and must be refused).
//!
//! The expected text follows `JSON.stringify`: numbers as JavaScript prints them, strings
//! well-formed (lone surrogates escaped), object keys in property order (array-index keys
//! ascending first, then string keys in creation order). Construction never throws, so the
//! only failure a run may show is the bridge's refusal.

/// Deepest generator nesting (the generator's recursion is bounded by this, whatever the
/// input; deep *values* come from a loop in the generated program).
pub const MAX_DEPTH: u32 = 5;
/// Values are kept below this many bytes of JSON (sharing and repetition multiply size).
const MAX_SIZE: usize = 1 << 20;

pub struct Bytes<'a> {
  data: &'a [u8],
  at: usize,
}

impl<'a> Bytes<'a> {
  pub fn new(data: &'a [u8]) -> Self {
    Bytes { data, at: 0 }
  }
  /// The next byte; 0 once the input is used up (so every input is a complete value).
  pub fn byte(&mut self) -> u8 {
    let b = self.data.get(self.at).copied().unwrap_or(0);
    self.at += 1;
    b
  }
  pub fn below(&mut self, n: usize) -> usize {
    self.byte() as usize % n
  }
  fn u64(&mut self) -> u64 {
    (0..8).fold(0u64, |acc, _| (acc << 8) | self.byte() as u64)
  }
}

#[derive(Debug, Clone)]
pub struct Value {
  /// A JavaScript expression (parenthesized where it matters).
  pub js: String,
  /// What the bridge must write, or `None` if it must refuse the value.
  pub json: Option<String>,
  /// About how many bytes of JSON the value is.
  pub size: usize,
}

impl Value {
  fn new(js: impl Into<String>, json: Option<String>) -> Value {
    let js = js.into();
    let size = json.as_ref().map_or(js.len(), |j| j.len());
    Value { js, json, size }
  }
  fn refused(js: impl Into<String>, size: usize) -> Value {
    Value { js: js.into(), json: None, size }
  }
}

/// A whole value from the input.
pub fn value(b: &mut Bytes) -> Value {
  node(b, 0)
}

fn node(b: &mut Bytes, depth: u32) -> Value {
  let choice = b.below(if depth >= MAX_DEPTH { 4 } else { 16 });
  match choice {
    0 => literal(b),
    1 => number(b),
    2 => {
      let units = string_units(b);
      Value::new(js_string(&units), Some(json_string(&units)))
    }
    3 => string(b),
    4 | 5 => array(b, depth),
    6 | 7 => object(b, depth),
    8 => null_proto(b, depth),
    9 | 10 => lossless_wrapper(b, depth),
    11 | 12 => refused_wrapper(b, depth),
    13 => refused_leaf(b),
    14 => deep(b, depth),
    _ => shared(b, depth),
  }
}

fn literal(b: &mut Bytes) -> Value {
  match b.below(4) {
    0 => Value::new("null", Some("null".into())),
    1 => Value::new("true", Some("true".into())),
    2 => Value::new("false", Some("false".into())),
    _ => Value::refused("undefined", 9),
  }
}

const NUMBERS: &[(&str, Option<&str>)] = &[
  ("0", Some("0")),
  ("(-0)", None),
  ("(0 / -1)", None),
  ("(-0 + 0)", Some("0")),
  ("1.5", Some("1.5")),
  ("(-2)", Some("-2")),
  ("1e21", Some("1e+21")),
  ("1e-7", Some("1e-7")),
  ("(-1e-7)", Some("-1e-7")),
  ("123456789012345680000", Some("123456789012345680000")),
  ("NaN", None),
  ("Infinity", None),
  ("(-Infinity)", None),
  ("5e-324", Some("5e-324")),
  ("1.7976931348623157e308", Some("1.7976931348623157e+308")),
  ("(0.1 + 0.2)", Some("0.30000000000000004")),
  ("(2 ** 53)", Some("9007199254740992")),
  ("(2 ** 31)", Some("2147483648")),
  ("(-(2 ** 31))", Some("-2147483648")),
  ("0x7fffffff", Some("2147483647")),
];

fn number(b: &mut Bytes) -> Value {
  match b.below(3) {
    0 => {
      let (js, json) = NUMBERS[b.below(NUMBERS.len())];
      Value::new(js, json.map(str::to_owned))
    }
    1 => {
      let n = b.byte() as i8 as i32 * 1000 + b.byte() as i32;
      Value::new(format!("({n})"), Some(n.to_string()))
    }
    _ => {
      let f = f64::from_bits(b.u64());
      if f.is_nan() {
        Value::new("NaN", None)
      } else if f.is_infinite() {
        Value::new(if f > 0.0 { "Infinity" } else { "(-Infinity)" }, None)
      } else if f == 0.0 && f.is_sign_negative() {
        Value::new("(-0)", None)
      } else {
        let text = ryu_js::Buffer::new().format(f).to_owned();
        Value::new(format!("({text})"), Some(text))
      }
    }
  }
}

/// Interesting UTF-16 code units: quotes, escapes, controls, surrogates (paired and lone),
/// line separators, a BOM, non-BMP halves.
const UNITS: &[u16] = &[
  0x61, 0x7a, 0x30, 0x20, 0x00, 0x08, 0x09, 0x0a, 0x0d, 0x1f, 0x22, 0x27, 0x5c, 0x2f, 0x7f, 0xe9,
  0x20ac, 0x2028, 0x2029, 0xfeff, 0xffff, 0xd83d, 0xde00, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0x24,
  0x7b, 0x60,
];

fn string_units(b: &mut Bytes) -> Vec<u16> {
  let len = b.below(8);
  (0..len)
    .map(|_| {
      let x = b.byte();
      if x & 0x80 != 0 {
        UNITS[x as usize % UNITS.len()]
      } else {
        x as u16
      }
    })
    .collect()
}

fn string(b: &mut Bytes) -> Value {
  match b.below(3) {
    0 => {
      let n = [0usize, 1, 100, 4096, 70_000][b.below(5)];
      let unit = UNITS[b.below(UNITS.len())];
      let units = vec![unit; n];
      Value::new(format!("{}.repeat({n})", js_string(&[unit])), Some(json_string(&units)))
    }
    1 => {
      // Joined from pieces at run time (a rope in the engine).
      let (x, y) = (string_units(b), string_units(b));
      let mut both = x.clone();
      both.extend_from_slice(&y);
      Value::new(format!("({} + {})", js_string(&x), js_string(&y)), Some(json_string(&both)))
    }
    _ => {
      let key = key_units(b);
      Value::new(js_string(&key), Some(json_string(&key)))
    }
  }
}

const KEYS: &[&str] = &[
  "a",
  "b",
  "",
  "__proto__",
  "constructor",
  "toString",
  "toJSON",
  "valueOf",
  "then",
  "length",
  "0",
  "1",
  "2",
  "10",
  "01",
  "-0",
  "-1",
  "1.5",
  "4294967294",
  "4294967295",
  "9007199254740993",
  "é",
  "😀",
  "k\"\\\n",
  "\u{0}",
];

fn key_units(b: &mut Bytes) -> Vec<u16> {
  if b.below(4) == 0 {
    string_units(b)
  } else {
    KEYS[b.below(KEYS.len())].encode_utf16().collect()
  }
}

/// A JavaScript string literal for these code units (every unit escaped: no quoting issue,
/// lone surrogates survive).
pub fn js_string(units: &[u16]) -> String {
  let mut s = String::with_capacity(units.len() * 6 + 2);
  s.push('"');
  for u in units {
    s.push_str(&format!("\\u{u:04x}"));
  }
  s.push('"');
  s
}

/// The JSON text `JSON.stringify` gives for a string of these code units (well-formed).
pub fn json_string(units: &[u16]) -> String {
  let mut s = String::with_capacity(units.len() + 2);
  s.push('"');
  for r in char::decode_utf16(units.iter().copied()) {
    match r {
      Ok('"') => s.push_str("\\\""),
      Ok('\\') => s.push_str("\\\\"),
      Ok('\u{8}') => s.push_str("\\b"),
      Ok('\u{c}') => s.push_str("\\f"),
      Ok('\n') => s.push_str("\\n"),
      Ok('\r') => s.push_str("\\r"),
      Ok('\t') => s.push_str("\\t"),
      Ok(c) if (c as u32) < 0x20 => s.push_str(&format!("\\u{:04x}", c as u32)),
      Ok(c) => s.push(c),
      Err(e) => s.push_str(&format!("\\u{:04x}", e.unpaired_surrogate())),
    }
  }
  s.push('"');
  s
}

/// The array index a key names, if any (canonical decimal below 2^32 - 1).
fn array_index(key: &[u16]) -> Option<u32> {
  let text = String::from_utf16(key).ok()?;
  let n: u64 = text.parse().ok()?;
  (n < u32::MAX as u64 && n.to_string() == text).then_some(n as u32)
}

fn children(b: &mut Bytes, depth: u32, max: usize) -> Vec<Value> {
  let n = b.below(max + 1);
  let mut out: Vec<Value> = Vec::with_capacity(n);
  let mut size = 0;
  for _ in 0..n {
    let mut v = node(b, depth + 1);
    if size + v.size > MAX_SIZE {
      v = Value::new("0", Some("0".into()));
    }
    size += v.size;
    out.push(v);
  }
  out
}

fn join_js(items: &[Value]) -> String {
  items.iter().map(|v| v.js.as_str()).collect::<Vec<_>>().join(", ")
}

/// `[a, b, …]`; lossless when every element is.
fn array_of(items: Vec<Value>) -> Value {
  let js = format!("[{}]", join_js(&items));
  let json = items
    .iter()
    .map(|v| v.json.clone())
    .collect::<Option<Vec<_>>>()
    .map(|parts| format!("[{}]", parts.join(",")));
  let size = items.iter().map(|v| v.size + 1).sum::<usize>() + 2;
  Value { js, json, size }
}

fn array(b: &mut Bytes, depth: u32) -> Value {
  let items = children(b, depth, 4);
  array_of(items)
}

/// An object literal with computed keys (so `__proto__` is an own property) and the JSON
/// `JSON.stringify` would give it.
fn object_literal(b: &mut Bytes, depth: u32) -> (String, Option<String>, usize) {
  let n = b.below(5);
  let mut props: Vec<(Vec<u16>, Value)> = Vec::new();
  let mut js_parts = Vec::new();
  let mut size = 2;
  for _ in 0..n {
    let key = key_units(b);
    let mut v = node(b, depth + 1);
    if size + v.size > MAX_SIZE {
      v = Value::new("0", Some("0".into()));
    }
    size += v.size + key.len() + 4;
    js_parts.push(format!("[{}]: {}", js_string(&key), v.js));
    match props.iter_mut().find(|(k, _)| *k == key) {
      Some(slot) => slot.1 = v, // a repeated key keeps its place, takes the last value
      None => props.push((key, v)),
    }
  }
  let js = format!("({{ {} }})", js_parts.join(", "));
  let mut order: Vec<usize> = (0..props.len()).collect();
  // Stable: index keys ascending first, other keys in creation order.
  order.sort_by_key(|&i| match array_index(&props[i].0) {
    Some(n) => (0, n as u64),
    None => (1, 0),
  });
  let json = order
    .iter()
    .map(|&i| props[i].1.json.as_ref().map(|j| format!("{}:{}", json_string(&props[i].0), j)))
    .collect::<Option<Vec<_>>>()
    .map(|parts| format!("{{{}}}", parts.join(",")));
  (js, json, size)
}

fn object(b: &mut Bytes, depth: u32) -> Value {
  let (js, json, size) = object_literal(b, depth);
  Value { js, json, size }
}

fn null_proto(b: &mut Bytes, depth: u32) -> Value {
  let (js, json, size) = object_literal(b, depth);
  Value { js: format!("Object.assign(Object.create(null), {js})"), json, size }
}

/// Wrappers that keep a value lossless (and its JSON unchanged or predictably changed).
fn lossless_wrapper(b: &mut Bytes, depth: u32) -> Value {
  let x = node(b, depth + 1);
  let (js, json) = (&x.js, x.json.clone());
  let wrap = |js: String, json: Option<String>| Value { js, json, size: x.size + 8 };
  match b.below(7) {
    // (Freezing a typed array or anything done to a revoked Proxy throws; such values are
    // refused either way.)
    0 => wrap(format!("((o: any) => {{ try {{ Object.freeze(o) }} catch {{}} return o }})({js})"), json),
    1 => wrap(format!("((o: any) => {{ try {{ Object.seal(o) }} catch {{}} return o }})({js})"), json),
    2 => wrap(format!("((o: any) => {{ try {{ Object.preventExtensions(o) }} catch {{}} return o }})({js})"), json),
    3 => match &x.json {
      // A value parsed by the program's own JSON.parse, which recurses (a deep value is the
      // program's RangeError), so shallow values only (4 KiB is at most 2,000 levels).
      Some(j) if j.len() < 4096 => wrap(format!("JSON.parse({})", js_string(&j.encode_utf16().collect::<Vec<_>>())), json),
      _ => x.clone(),
    },
    4 => wrap(
      // An accessor that was deleted again leaves a plain object behind.
      format!(
        "((o: any) => {{ Object.defineProperty(o, \"g\", {{ get() {{ return 1 }}, enumerable: true, configurable: true }}); delete o.g; return o }})({{ v: {js} }})"
      ),
      json.map(|j| format!("{{\"v\":{j}}}")),
    ),
    5 => {
      // Properties added after creation, one of them deleted (dictionary-mode objects).
      wrap(
        format!("((o: any) => {{ o.z = 1; o.y = {js}; delete o.z; return o }})({{}})"),
        json.map(|j| format!("{{\"y\":{j}}}")),
      )
    }
    _ => {
      let n = 1 + b.below(4);
      if x.size * n > MAX_SIZE / 4 {
        return x;
      }
      Value {
        js: format!("Array.from({{ length: {n} }}, () => {js})"),
        json: json.map(|j| format!("[{}]", vec![j; n].join(","))),
        size: x.size * n + n + 2,
      }
    }
  }
}

/// Wrappers that make any value non-lossless.
fn refused_wrapper(b: &mut Bytes, depth: u32) -> Value {
  let x = node(b, depth + 1);
  let js = &x.js;
  let size = x.size + 16;
  let trap = "() => { throw new Error(\"trap ran\") }";
  let text = match b.below(20) {
    0 => format!("((o: any) => {{ o.self = o; return o }})({{ v: {js} }})"),
    1 => format!("((a: any[]) => {{ a[a.length] = a; return a }})([{js}])"),
    2 => format!("((o: any) => {{ o.a = {{ b: [o] }}; return o }})({{ v: {js} }})"),
    3 => format!(
      "Object.defineProperty({{ v: {js} }}, \"g\", {{ get() {{ throw new Error(\"getter ran\") }}, enumerable: true }})"
    ),
    4 => format!("Object.defineProperty({{ v: {js} }}, \"h\", {{ value: 1, enumerable: false }})"),
    5 => format!("({{ v: {js}, [Symbol(\"k\")]: 1 }})"),
    6 => format!("[{js}, , 1]"),
    7 => format!("((a: any[]) => {{ a.length = 3; return a }})([{js}])"),
    8 => format!("Object.assign([{js}], {{ extra: 1 }})"),
    9 => format!("new Proxy({{ v: {js} }}, {{}})"),
    10 => format!("new Proxy([{js}], {{}})"),
    11 => format!(
      "new Proxy({{ v: {js} }}, {{ ownKeys: {trap}, get: {trap}, getOwnPropertyDescriptor: {trap}, getPrototypeOf: {trap}, has: {trap} }})"
    ),
    12 => format!("new (class K {{ v: any; constructor() {{ this.v = {js} }} }})()"),
    13 => format!("Object.assign(Object.create({{ inherited: 1 }}), {{ v: {js} }})"),
    14 => format!("Object.setPrototypeOf([{js}], Object.prototype)"),
    15 => format!("Object.setPrototypeOf({{ v: {js} }}, Array.prototype)"),
    16 => format!("((C: any) => C.of({js}))(class A extends Array {{}})"),
    17 => format!("new Map([[1, {js}]])"),
    18 => format!("new Set([{js}])"),
    _ => format!("((a: any) => {{ delete a[0]; return a }})([{js}, 1])"),
  };
  Value::refused(text, size)
}

const REFUSED_LEAVES: &[&str] = &[
  "new Date(0)",
  "(() => 1)",
  "Symbol(\"s\")",
  "1n",
  "new Uint8Array(2)",
  "new ArrayBuffer(2)",
  "/re/g",
  "new Error(\"e\")",
  "Promise.resolve(1)",
  "new String(\"s\")",
  "new Number(1)",
  "new Boolean(true)",
  "globalThis",
  "Math",
  "JSON",
  "new WeakMap()",
  "Object(1n)",
  "(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy })()",
  "(function () { return arguments })(1, 2)",
  "new Array(3)",
  "console",
  "Object.prototype",
  "Array.prototype",
];

fn refused_leaf(b: &mut Bytes) -> Value {
  Value::refused(REFUSED_LEAVES[b.below(REFUSED_LEAVES.len())], 16)
}

/// A value nested N levels deep, built by a loop in the program.
fn deep(b: &mut Bytes, depth: u32) -> Value {
  let x = node(b, depth + 1);
  let n = [1usize, 2, 100, 1000, 5000, 20_000][b.below(6)];
  let object = b.below(2) == 1;
  // Deep values nest in deep values at most once or twice (a 20,000-deep value is ~40 KB).
  if x.size > 16 << 10 || x.size + n * 6 > MAX_SIZE {
    return x;
  }
  let (step, open, close) =
    if object { ("v = { k: v }", "{\"k\":", "}") } else { ("v = [v]", "[", "]") };
  Value {
    js: format!("((v: any) => {{ for (let i = 0; i < {n}; i++) {step}; return v }})({})", x.js),
    json: x.json.map(|j| format!("{}{j}{}", open.repeat(n), close.repeat(n))),
    size: x.size + n * (open.len() + close.len()),
  }
}

/// One value referenced several times (not a cycle: lossless when the value is).
fn shared(b: &mut Bytes, depth: u32) -> Value {
  let x = node(b, depth + 1);
  let n = 2 + b.below(3);
  if x.size * n > MAX_SIZE / 2 {
    return x;
  }
  let refs = vec!["s"; n].join(", ");
  Value {
    js: format!("((s: any) => [{refs}, {{ s }}])({})", x.js),
    json: x.json.map(|j| format!("[{}{{\"s\":{j}}}]", format!("{j},").repeat(n))),
    size: x.size * (n + 1) + 8,
  }
}
