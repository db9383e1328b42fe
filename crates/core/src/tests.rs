//! Engine-level behaviour, driven without Node.

use super::*;
use std::sync::mpsc;
use std::time::Duration;

struct Collect(Mutex<mpsc::Sender<(RunId, String)>>, Mutex<mpsc::Sender<HostEvent>>);

enum HostEvent {
  Call { run: RunId, call: u32, function: u32, args: String },
  Settled(String),
}

impl Host for Collect {
  fn settled(&self, run: RunId, result_json: String) {
    let _ = lock(&self.0).send((run, result_json.clone()));
    let _ = lock(&self.1).send(HostEvent::Settled(result_json));
  }
  fn calls(&self, run: RunId, batch: Vec<HostCall>) {
    for c in batch {
      let _ = lock(&self.1).send(HostEvent::Call {
        run,
        call: c.call,
        function: c.function,
        args: c.args_json,
      });
    }
  }
}

/// Runs `program` with one namespace `tools` (members as given), answering each call with
/// `answer(member index, args json)`. Returns the result JSON and the calls seen.
fn run_with_tools(
  program: &str,
  members: &[&str],
  error_class: Option<(&str, &str)>,
  answer: impl Fn(u32, &str) -> Result<String, String>,
) -> (String, Vec<(u32, String)>) {
  let (e, erx) = engine_with_events();
  let spec = BindingSpec {
    global: "tools".into(),
    members: members.iter().map(|m| m.to_string()).collect(),
    error_class: error_class
      .map(|(name, prop)| ErrorClassSpec { name: name.into(), member_name_property: prop.into() }),
  };
  e.start(program.into(), vec![spec], Limits::default()).unwrap();
  let mut calls = Vec::new();
  loop {
    match erx.recv_timeout(Duration::from_secs(30)).expect("host event") {
      HostEvent::Call { run, call, function, args } => {
        let outcome = answer(function, &args);
        calls.push((function, args));
        e.settle_call(run, call, outcome);
      }
      HostEvent::Settled(json) => return (json, calls),
    }
  }
}

/// An engine whose host reports every call and result as a [`HostEvent`].
fn engine_with_events() -> (Engine, mpsc::Receiver<HostEvent>) {
  let (tx, _) = mpsc::channel();
  let (etx, erx) = mpsc::channel();
  let host = Arc::new(Collect(Mutex::new(tx), Mutex::new(etx)));
  (Engine::new(EngineConfig { threads: 2, time_zone: None }, host), erx)
}

fn engine() -> (Engine, mpsc::Receiver<(RunId, String)>) {
  let (tx, rx) = mpsc::channel();
  let (etx, _) = mpsc::channel();
  let host = Arc::new(Collect(Mutex::new(tx), Mutex::new(etx)));
  (Engine::new(EngineConfig { threads: 2, time_zone: None }, host), rx)
}

fn run_with(program: &str, limits: Limits) -> serde_json::Value {
  let (e, rx) = engine();
  let id = e.start(program.to_owned(), vec![], limits).unwrap();
  let (got, json) = rx.recv_timeout(Duration::from_secs(30)).expect("run settles");
  assert_eq!(got, id);
  let mut de = serde_json::Deserializer::from_str(&json);
  de.disable_recursion_limit();
  <serde_json::Value as serde::Deserialize>::deserialize(&mut de)
    .unwrap_or_else(|err| panic!("{err}: {json}"))
}

fn run(program: &str) -> serde_json::Value {
  run_with(program, Limits::default())
}

fn error_of(v: &serde_json::Value) -> (String, String) {
  let e = &v["error"];
  (
    e["kind"].as_str().unwrap_or_default().to_owned(),
    e["message"].as_str().unwrap_or_default().to_owned(),
  )
}

#[test]
fn returns_a_value_and_logs() {
  let v = run("console.log('hi', 1, { a: [1, 'x'] }); return { ok: true, n: 1.5 }");
  assert_eq!(
    v,
    serde_json::json!({ "logs": ["hi 1 { a: [ 1, 'x' ] }"], "value": { "ok": true, "n": 1.5 } })
  );
}

#[test]
fn no_value_key_for_undefined() {
  let v = run("const x = 1");
  assert_eq!(v, serde_json::json!({ "logs": [] }));
}

#[test]
fn typescript_runs() {
  let v = run(
    "enum Color { Red, Green = 5 }\nnamespace NS { export const k: number = 7 }\n\
     class P { constructor(public a: string, private b: number = 2) {} get sum() { return this.a + this.b } }\n\
     interface Shape { w: number }\nconst s = { w: 3 } satisfies Shape;\n\
     function id<T>(x: T): T { return x }\nconst n = <number>(id<number>(4) as number);\n\
     return [Color.Green, Color[5], NS.k, new P('q').sum, s.w, n]",
  );
  assert_eq!(v["value"], serde_json::json!([5, "Green", 7, "q2", 3, 4]));
}

#[test]
fn top_level_await_and_strict_mode() {
  let v = run("const a = await Promise.resolve(2); let strict = false; try { undeclared = 1 } catch { strict = true } return [a, strict, (function () { return this })() === undefined]");
  assert_eq!(v["value"], serde_json::json!([2, true, true]));
}

#[test]
fn throws_become_exceptions() {
  let (kind, msg) = error_of(&run("\n\nthrow new TypeError('bad thing')"));
  assert_eq!(kind, "exception");
  assert!(msg.starts_with("TypeError: bad thing\n    at "), "{msg}");
  assert!(msg.contains("program.ts:3:"), "{msg}");
  assert_eq!(error_of(&run("throw 'plain'")), ("exception".into(), "plain".into()));
  assert_eq!(error_of(&run("throw 42")).1, "42");
  assert_eq!(error_of(&run("throw { toString() { return 'custom' } }")).1, "custom");
  assert_eq!(error_of(&run("throw null")).1, "null");
  assert_eq!(error_of(&run("throw Symbol('s')")).1, "Symbol(s)");
}

#[test]
fn syntax_errors_name_the_line() {
  let (kind, msg) = error_of(&run("const a = 1;\nconst b = 2;\nconst c = ;"));
  assert_eq!(kind, "exception");
  assert!(msg.starts_with("SyntaxError: ") && msg.ends_with("(3:11)"), "{msg}");
}

/// Found by `fuzz/` (target `transpile`): swc panics (`unreachable!()`) on this text, in
/// release builds too. The run used to end as `worker-exit` ("the engine failed
/// unexpectedly"); it is the program's syntax error.
#[test]
fn fuzz_parser_panic_is_a_syntax_error() {
  let v = run("typeof\n`\\u`");
  assert_eq!(
    error_of(&v),
    ("exception".into(), format!("SyntaxError: {} (1:1)", code_runtime_transpile::PARSER_FAILED)),
    "{v}"
  );
  assert_eq!(run("return 1")["value"], 1);
}

#[test]
fn wrapper_breakout_is_refused() {
  let (kind, msg) = error_of(&run("}); globalThis.escaped = 1; (async () => {"));
  assert_eq!(kind, "exception");
  assert!(msg.starts_with("SyntaxError"), "{msg}");
  assert_eq!(run("return 5 // trailing comment")["value"], 5);
}

#[test]
fn lossy_completions_are_invalid_output() {
  for p in [
    "return () => 1",
    "return Symbol('x')",
    "return 10n",
    "return NaN",
    "return Infinity",
    "return -0",
    "return [1, , 3]",
    "const a: any = [1]; a.extra = 1; return a",
    "const o: any = {}; o.self = o; return o",
    "return new Date(0)",
    "return new Map()",
    "return new Set()",
    "return new Uint8Array(2)",
    "return new Proxy({}, {})",
    "return { get x() { return 1 } }",
    "const o = {}; Object.defineProperty(o, 'h', { value: 1, enumerable: false }); return o",
    "return { [Symbol('k')]: 1 }",
    "class A { x = 1 }; return new A()",
    "return [undefined]",
    "return { u: undefined }",
    "return Array.from({ length: 3 }, (_, i) => i === 2 ? { a: i, get b() { return 1 } } : { a: i, b: i })",
    "return [{ a: 1, b: () => 1 }, { a: 1, b: 2 }]",
    "const a = [1]; Object.setPrototypeOf(a, Object.prototype); return a",
    "const a = [1]; Object.setPrototypeOf(a, null); return a",
    "const o = { a: 1 }; Object.setPrototypeOf(o, Array.prototype); return o",
    "const o = { a: 1 }; Object.setPrototypeOf(o, { b: 1 }); return [o]",
    "return new Array(3)",
    "const a: any[] = []; a[2] = 1; return a",
    "return [{ a: 1 }, { a: 1, [Symbol.iterator]: 1 }]",
    "return (function () { return arguments })(1, 2)",
    "return [...Array.from({ length: 10 }, () => ({ a: 1 })), { a: 1, get b() { return 1 } }]",
    "const o = { a: 1 }; Object.defineProperty(o, 'h', { value: 1 }); return [...Array.from({ length: 10 }, () => ({ a: 1 })), o]",
    "return [...Array.from({ length: 10 }, () => ({ a: 1 })), { a: 1, [Symbol.iterator]: 1 }]",
    "return [...Array.from({ length: 10 }, () => ({ a: 1 })), { a: 1, u: undefined }]",
  ] {
    let v = run(p);
    assert_eq!(
      error_of(&v),
      ("invalid-output".into(), messages::COMPLETION_NOT_LOSSLESS.into()),
      "{p}: {v}"
    );
  }
}

#[test]
fn lossless_completions_cross() {
  let v = run("const o = Object.create(null); o.__proto__ = 1; o.b = [1, 'two', null, true, 0.5, -3, 1e21, 2**53]; const shared = {s: 1}; return {o, shared1: shared, shared2: shared, s: '\\u2028\"\\n'}");
  assert_eq!(
    v["value"]["o"],
    serde_json::json!({ "__proto__": 1, "b": [1, "two", null, true, 0.5, -3, 1e21, 9007199254740992u64] })
  );
  assert_eq!(v["value"]["shared2"]["s"], 1);
  assert_eq!(v["value"]["s"], "\u{2028}\"\n");
}

/// The completion's text is what `JSON.stringify` writes for the same value, byte for byte,
/// on each of the walk's paths: arrays read in place and by descriptor, objects read slot by
/// slot (shapes shared, with deleted slots, many slots) and through their keys (array-index
/// names, which own keys list first), one-byte, two-byte and rope strings (lone surrogates:
/// `lone_surrogates_cross_escaped_as_json_stringify_writes_them`).
#[test]
fn completions_are_written_as_json_stringify_writes_them() {
  let cases = [
    "Array.from({ length: 300 }, (_, i) => ({ id: i, name: 'item' + i, even: i % 2 === 0 }))",
    "Array.from({ length: 50 }, (_, i) => i % 3 ? { a: i, b: [i] } : { b: [i], a: i })",
    "(() => { const o: any = { a: 1, b: 2, c: 3 }; delete o.b; o.d = 4; return [o, { a: 1, c: 3, d: 4 }] })()",
    "(() => { const o: any = {}; for (let i = 0; i < 100; i++) o['k' + i] = i; for (let i = 0; i < 90; i++) delete o['k' + i]; return o })()",
    "(() => { const o: any = {}; for (let i = 0; i < 200; i++) o['p' + i] = [i, 'v' + i]; return o })()",
    "({ b: 1, 2: 'x', a: 2, 1: 'y', '01': 3, '4294967295': 4, '4294967294': 5, '-1': 6, '1.5': 7 })",
    "[{ z: 'b', 1: 'a' }, { z: 'b', 1: 'a' }, { z: 'b' }, { y: 1, '4294967294': 2 }, { y: 1, '4294967295': 2 }]",
    "(() => { const o = Object.create(null); o.z = 1; o.a = { n: null }; return [o, o] })()",
    "Object.freeze({ a: 1, b: Object.freeze([1, 2]), c: Object.seal({ d: 'e' }) })",
    "(() => { const o: any = {}; Object.defineProperty(o, 'x', { value: 1, enumerable: true }); o.y = 2; return o })()",
    "['é\\u00ff\\u0080\\u007f\\u0001\\u001f\"\\\\\\n\\t\\r\\b\\f/', '\\u00e9'.repeat(20), '', 'plain']",
    "['€😀\\u2028\\u2029', '\\udbff\\udfff', 'é€']",
    "(() => { let s = ''; for (let i = 0; i < 300; i++) s += 'x' + i + 'é'; return [s, 'a'.repeat(2000) + 'b'.repeat(2000), s + '€'] })()",
    "(() => { const a = [1, 2, 3, 4]; a.length = 2; const b: any[] = []; b[0] = 'x'; b[1] = 'y'; const c = [1, 2, 3]; c.pop(); c.shift(); return [a, b, c, [], [[]], [{}], new Array(3).fill(0)] })()",
    "(() => { const a: any = [1, 2]; a.extra = 1; delete a.extra; return a })()",
    "(() => { const s = { k: 'shared' }; let v: any = { end: true }; for (let i = 0; i < 45; i++) v = { i, v, s, list: [s, i] }; return v })()",
    "Array.from({ length: 1500 }, (_, i) => ({ ['k' + i]: i, z: i % 7 ? 'é' + i : [i], 1: i }))",
    "[0, -1, 1.5, 1e21, 1e-7, 2 ** 53, -(2 ** 31), 2 ** 31, 0.1 + 0.2, true, false, null]",
  ];
  for case in cases {
    // Each value alone (a small one is read through its keys), and after ten objects (its
    // objects are read slot by slot).
    for pad in ["", "{},{},{},{},{},{},{},{},{},{},"] {
      let program = format!("const v = {case}; return [{pad}v, JSON.stringify(v)]");
      let (e, rx) = engine();
      e.start(program, vec![], Limits::default()).unwrap();
      let (_, json) = rx.recv_timeout(Duration::from_secs(30)).expect("run settles");
      let parsed: serde_json::Value =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
      let Some(stringified) = parsed["value"].as_array().and_then(|a| a.last()?.as_str()) else {
        panic!("{case}: {json}");
      };
      let prefix = format!("{{\"logs\":[],\"value\":[{pad}{stringified},");
      assert!(
        json.starts_with(&prefix),
        "{case}:\n  ours: {json}\n  JSON.stringify: {stringified}"
      );
    }
  }
}

/// A cycle is refused wherever it closes, above or below the depth the walk scans.
#[test]
fn cycles_are_refused_at_any_depth() {
  for (depth, back_to) in [(3, 0), (31, 30), (33, 31), (33, 32), (40, 20), (40, 35), (100, 99)] {
    let program = format!(
      "const chain: any[] = [{{}}]; for (let i = 1; i < {depth}; i++) {{ const o = {{ up: chain[i - 1] }}; chain[i - 1].down = o; chain.push(o) }}
       chain[{depth} - 1].back = chain[{back_to}]; return chain[0]"
    );
    let v = run(&program);
    assert_eq!(
      error_of(&v),
      ("invalid-output".into(), messages::COMPLETION_NOT_LOSSLESS.into()),
      "depth {depth}, back to {back_to}: {v}"
    );
  }
  // The same objects reached twice without a cycle cross, at any depth.
  let v =
    run("const s = { k: 1 }; let v: any = s; for (let i = 0; i < 40; i++) v = [v, s]; return v");
  assert!(v["error"].is_null(), "{v}");
}

#[test]
fn lone_surrogates_cross_escaped_as_json_stringify_writes_them() {
  let (e, rx) = engine();
  e.start("return 'a\\ud800b\\udc00'".into(), vec![], Limits::default()).unwrap();
  let (_, json) = rx.recv_timeout(Duration::from_secs(30)).unwrap();
  assert_eq!(json, r#"{"logs":[],"value":"a\ud800b\udc00"}"#);
}

#[test]
fn ten_thousand_deep_completion_crosses() {
  let (e, rx) = engine();
  e.start(
    "let v: any = 0; for (let i = 0; i < 10000; i++) v = [v]; return v".into(),
    vec![],
    Limits::default(),
  )
  .unwrap();
  let (_, json) = rx.recv_timeout(Duration::from_secs(30)).unwrap();
  let expected = format!("{{\"logs\":[],\"value\":{}0{}}}", "[".repeat(10000), "]".repeat(10000));
  assert!(json == expected, "10,000-deep value did not cross intact");
}

#[test]
fn prototype_tampering_does_not_change_the_completion() {
  let v = run("Object.defineProperty(Array.prototype, 'push', { get() { throw 1 } }); JSON.stringify = () => 'x'; (globalThis as any).Object = undefined; Array.isArray = () => false; return [{ a: 1 }]");
  assert_eq!(v["value"], serde_json::json!([{ "a": 1 }]));
}

#[test]
fn runs_are_isolated() {
  let (e, rx) = engine();
  let ids: Vec<RunId> = (0..100)
    .map(|i| e.start(format!("const before = (globalThis as any).marker; (globalThis as any).marker = {i}; (Array.prototype as any).tag = {i}; await null; return [before ?? null, (globalThis as any).marker]"), vec![], Limits::default()).unwrap())
    .collect();
  let mut seen = 0;
  for _ in &ids {
    let (id, json) = rx.recv_timeout(Duration::from_secs(30)).unwrap();
    let i = ids.iter().position(|x| *x == id).unwrap();
    assert_eq!(json, format!("{{\"logs\":[],\"value\":[null,{i}]}}"));
    seen += 1;
  }
  assert_eq!(seen, 100);
}

#[test]
fn never_settling_promise_fails_at_once() {
  let (kind, msg) = error_of(&run("await new Promise(() => {})"));
  assert_eq!(kind, "exception");
  assert_eq!(msg, messages::NEVER_SETTLES);
}

#[test]
fn hot_loop_hits_the_compute_budget() {
  let limits = Limits { compute_ms: 200.0, ..Limits::default() };
  let v = run_with(
    "console.log('before'); for (;;) { try { for(;;){} } catch {} finally { for(;;){} } }",
    limits,
  );
  assert_eq!(error_of(&v), ("timeout".into(), "compute budget exhausted (200ms busy)".into()));
  assert_eq!(v["logs"], serde_json::json!(["before"]));
}

/// As in V8, reading an error's `stack` throws when its `name` or `message` cannot become a
/// string, and formats (once) when a later read can; console.log of such an error then prints
/// `[object Error]` as Node does.
#[test]
fn a_stack_whose_header_cannot_be_a_string_throws_as_in_v8() {
  let v = run(
    "const e = new Error('m'); e.name = Object.create(null); const r = []
     try { e.stack } catch (x) { r.push(String(x)) }
     e.name = 'N'; r.push(e.stack.split('\\n')[0]); e.name = 'later'; r.push(e.stack.split('\\n')[0])
     const f = new Error('m'); f.message = Symbol('q')
     try { f.stack } catch (x) { r.push(String(x)) }
     const g = new Error('m'); Object.defineProperty(g, 'name', { get() { throw new RangeError('nm') } })
     try { g.stack } catch (x) { r.push(String(x)) }
     const h = new Error('m'); h.name = Object.create(null); console.log(h)
     return r",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      "TypeError: Cannot convert object to primitive value",
      "N: m",
      "N: m",
      "TypeError: Cannot convert a Symbol value to a string",
      "RangeError: nm"
    ])
  );
  assert_eq!(
    v["logs"],
    serde_json::json!(["[object Error] { name: [Object: null prototype] {} }"])
  );
}

/// `Error.stackTraceLimit` is V8's: an own enumerable data property, read at capture without
/// running program code (a getter or an object with `valueOf` there captures no frames and
/// is never called; V8 then leaves `stack` undefined, ours keeps the header line).
#[test]
fn stack_trace_limit_is_a_data_property_read_without_program_code() {
  let v = run(
    "const frames = () => { const f = () => new Error('x').stack.split('\\n').length - 1; return (() => (() => f())())() }
     const d = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit'); const r = [d.value, d.writable, d.enumerable, d.configurable, Object.keys(Error).join()]
     r.push(frames()); Error.stackTraceLimit = 2; r.push(frames())
     let calls = 0
     Error.stackTraceLimit = { valueOf() { calls++; return 5 } }; r.push(frames())
     Object.defineProperty(Error, 'stackTraceLimit', { get() { calls++; return 5 }, configurable: true }); r.push(frames())
     delete Error.stackTraceLimit; r.push(frames(), calls)
     Error.stackTraceLimit = Infinity; r.push(frames() >= 4)
     return r",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([10, true, true, true, "stackTraceLimit", 5, 2, 0, 0, 0, 0, true])
  );
}

/// Every caught stack overflow stops at the same depth: the engine's error hooks call into
/// JavaScript from the deepest frame, and that used to move QuickJS's stack top down to
/// there, so each overflow allowed as many frames again as the last until the thread's real
/// stack overflowed and the host died of SIGSEGV (about 60 overflows).
#[test]
fn caught_stack_overflows_keep_the_same_depth() {
  let limits = Limits { compute_ms: 60_000.0, ..Limits::default() };
  let v = run_with(
    "let d = 0; const f = () => { d++; f() }; const depths = []
     for (let i = 0; i < 150; i++) { d = 0; try { f() } catch (e) { if (!(e instanceof RangeError)) throw e } depths.push(d) }
     const g = (n) => n === 0 ? new Error('x').stack : g(n - 1)
     return [depths.length, new Set(depths).size, depths[0] > 1000, g(500).split('\\n').length]",
    limits,
  );
  assert_eq!(v["value"], serde_json::json!([150, 1, true, 11]), "{v}");
}

/// Object and symbol keys spread over a Map's buckets (vendored QuickJS mixes every bit of
/// the address): with the allocator's alignment zeros in the index bits they shared a few
/// buckets, and structuredClone of 100,000 small arrays (its `seen` map) took ~5 s. The
/// budget here is generous (the work takes ~0.2 s); semantics are checked along the way.
#[test]
fn maps_of_many_object_keys_stay_fast() {
  let limits = Limits { compute_ms: 2_000.0, ..Limits::default() };
  let v = run_with(
    "const a = Array.from({ length: 100000 }, (_, i) => [i]); const m = new Map(), w = new WeakMap(), s = new Set()
     for (const o of a) { m.set(o, o[0]); w.set(o, o[0]); s.add(o) }
     let hits = 0; for (const o of a) if (m.get(o) === o[0] && w.get(o) === o[0] && s.has(o)) hits++
     for (let i = 0; i < a.length; i += 2) m.delete(a[i])
     const syms = Array.from({ length: 20000 }, (_, i) => Symbol(String(i))); const sm = new Map(syms.map((y, i) => [y, i]))
     const c = structuredClone(a.slice(0, 20000))
     return [hits, m.size, m.has(a[0]), m.has(a[1]), m.has([0]), sm.get(syms[19999]), c.length, c[19999][0]]",
    limits,
  );
  assert_eq!(
    v["value"],
    serde_json::json!([100000, 50000, false, true, false, 19999, 20000, 19999]),
    "{v}"
  );
}

#[test]
fn deep_recursion_is_a_catchable_range_error() {
  let v = run("function f(n: number): number { return f(n + 1) + 1 } try { f(0) } catch (e) { return String(e) }");
  assert_eq!(v["value"], "RangeError: Maximum call stack size exceeded");
}

#[test]
fn heap_limit_ends_the_run_even_when_caught() {
  let limits = Limits { max_heap_mb: 16.0, ..Limits::default() };
  let v = run_with("const keep: any[] = []; try { for (;;) keep.push('x'.repeat(1 << 16) + keep.length) } catch (e) { keep.length = 0; return 'survived' }", limits);
  assert_eq!(error_of(&v).0, "worker-exit", "{v}");
  assert!(error_of(&v).1.contains("16 MB"), "{v}");
  assert_eq!(run("return 1")["value"], 1);
}

/// QuickJS throws its out-of-memory error while growing an object's shape with the shape
/// unlinked from the collector's list; a collection started by that throw crashed the
/// process (found by the hostile corpus). Refusing an allocation now suspends collection.
#[test]
fn heap_exhaustion_while_an_object_grows_its_keys_does_not_crash() {
  for mb in [8.0, 16.0, 32.0] {
    let limits = Limits { max_heap_mb: mb, ..Limits::default() };
    let v = run_with("const o: any = {}; for (let i = 0; ; i++) o['key' + i] = i", limits);
    assert_eq!(error_of(&v).0, "worker-exit", "{v}");
  }
}

#[test]
fn abort_stops_a_hot_loop() {
  let (e, rx) = engine();
  let id = e.start("for(;;){}".into(), vec![], Limits::default()).unwrap();
  std::thread::sleep(Duration::from_millis(50));
  e.abort(id, "stop now".into());
  let (_, json) = rx.recv_timeout(Duration::from_secs(5)).unwrap();
  assert_eq!(json, r#"{"logs":[],"error":{"kind":"abort","message":"stop now"}}"#);
}

#[test]
fn dispose_ends_runs_and_threads() {
  let (e, rx) = engine();
  e.start("for(;;){}".into(), vec![], Limits::default()).unwrap();
  std::thread::sleep(Duration::from_millis(20));
  let (tx, done) = mpsc::channel();
  e.dispose(Box::new(move || {
    let _ = tx.send(());
  }));
  let (_, json) = rx.recv_timeout(Duration::from_secs(5)).unwrap();
  assert!(json.contains("runtime disposed"), "{json}");
  done.recv_timeout(Duration::from_secs(5)).unwrap();
  assert_eq!(e.threads(), 0);
  assert_eq!(e.start("return 1".into(), vec![], Limits::default()), Err(EngineError::Disposed));
}

#[test]
fn output_cap_applies() {
  let v = run_with("return '€'", Limits { max_output_bytes: 7, ..Limits::default() });
  assert_eq!(v["value"], "€");
  let v = run_with("return '€'", Limits { max_output_bytes: 6, ..Limits::default() });
  assert_eq!(error_of(&v), ("output-limit".into(), "ou".into()));
  let v = run_with(
    "console.log('abc'); return 'xy'",
    Limits { max_output_bytes: 10, ..Limits::default() },
  );
  assert_eq!(v["logs"], serde_json::json!([]));
  assert_eq!(error_of(&v), ("output-limit".into(), "outer ".into()));
  let v = run_with(
    "for (;;) console.log('flood')",
    Limits { max_output_bytes: 1 << 20, ..Limits::default() },
  );
  assert_eq!(error_of(&v).0, "output-limit");
}

#[test]
fn binding_calls_round_trip() {
  let (json, calls) = run_with_tools(
    "const a = await tools.echo({ x: [1, 'two'] }); const b = await tools.add({ a: 2, b: 3 }); return [a, b]",
    &["echo", "add"],
    None,
    |f, args| if f == 0 { Ok(args.to_owned()) } else { Ok("5".into()) },
  );
  assert_eq!(json, r#"{"logs":[],"value":[{"x":[1,"two"]},5]}"#);
  assert_eq!(calls, vec![(0, r#"{"x":[1,"two"]}"#.to_owned()), (1, r#"{"a":2,"b":3}"#.to_owned())]);
}

#[test]
fn binding_rejections_are_plain_errors_or_the_error_class() {
  let (json, _) = run_with_tools(
    "try { await tools.fail({}) } catch (e) { return [e instanceof Error, (e as Error).name, (e as Error).message] }",
    &["fail"],
    None,
    |_, _| Err("it broke".into()),
  );
  assert_eq!(json, r#"{"logs":[],"value":[true,"Error","it broke"]}"#);
  let (json, _) = run_with_tools(
    "try { await tools['get-thing']({}) } catch (e: any) { return [e instanceof ToolCallError, e instanceof Error, e.name, e.message, e.toolName] }",
    &["get-thing"],
    Some(("ToolCallError", "toolName")),
    |_, _| Err("nope".into()),
  );
  assert_eq!(json, r#"{"logs":[],"value":[true,true,"ToolCallError","nope","get-thing"]}"#);
}

#[test]
fn lossy_arguments_never_reach_the_host() {
  let (json, calls) = run_with_tools(
    "const bad: any[] = [undefined, () => 1, NaN, -0, [1,,2], new Date(), new Map(), 1n, new Proxy({}, {}), { get x() { return 1 } }]; \
     const out: string[] = []; for (const b of bad) { try { await tools.f(b) } catch (e) { out.push((e as Error).message) } } \
     try { await (tools.f as any)() } catch (e) { out.push((e as Error).message) } \
     try { await (tools.f as any)(1, 2) } catch (e) { out.push((e as Error).message) } \
     return out.length === 12 && out.every((m) => m === 'binding arguments must be lossless JSON')",
    &["f"],
    None,
    |_, _| Ok("null".into()),
  );
  assert_eq!(json, r#"{"logs":[],"value":true}"#);
  assert!(calls.is_empty());
}

#[test]
fn namespace_members_are_ordinary_own_properties_of_a_null_prototype_object() {
  let (json, _) = run_with_tools(
    "return [Object.getPrototypeOf(tools) === null, typeof tools.__proto__, typeof tools.constructor, typeof tools.toString, typeof (tools as any).hasOwnProperty, Object.keys(tools)]",
    &["__proto__", "constructor", "toString"],
    None,
    |_, _| Ok("null".into()),
  );
  assert_eq!(
    json,
    r#"{"logs":[],"value":[true,"function","function","function","undefined",["__proto__","constructor","toString"]]}"#
  );
}

#[test]
fn thousands_of_calls_in_flight() {
  let (json, calls) = run_with_tools(
    "const r = await Promise.all(Array.from({ length: 5000 }, (_, i) => tools.id(i))); return r.every((v, i) => v === i)",
    &["id"],
    None,
    |_, args| Ok(args.to_owned()),
  );
  assert_eq!(json, r#"{"logs":[],"value":true}"#);
  assert_eq!(calls.len(), 5000);
  assert!(
    calls.iter().enumerate().all(|(i, (_, a))| a == &i.to_string()),
    "calls arrive in program order"
  );
}

#[test]
fn timers_fire_in_node_order() {
  let v = run(
    "const order: string[] = []; \
     setTimeout(() => order.push('t0'), 0); Promise.resolve().then(() => order.push('micro')); \
     setTimeout(() => order.push('a'), 5); setTimeout(() => order.push('b'), 5); \
     let n = 0; const iv = setInterval(() => { order.push('i' + ++n); if (n === 3) clearInterval(iv) }, 1); \
     const cleared = setTimeout(() => order.push('never'), 1); clearTimeout(cleared); \
     setTimeout((x: string, y: string) => order.push(x + y), 2, 'ar', 'gs'); \
     await new Promise((r) => setTimeout(r, 40)); return order",
  );
  let order: Vec<String> = serde_json::from_value(v["value"].clone()).unwrap();
  assert_eq!(order[0], "micro");
  let pos =
    |s: &str| order.iter().position(|x| x == s).unwrap_or_else(|| panic!("{s} in {order:?}"));
  assert!(pos("t0") < pos("a") && pos("a") + 1 == pos("b"), "{order:?}");
  assert!(pos("i1") < pos("i2") && pos("i2") < pos("i3"), "{order:?}");
  assert!(!order.contains(&"never".to_owned()) && !order.contains(&"i4".to_owned()), "{order:?}");
  assert!(order.contains(&"args".to_owned()));
}

#[test]
fn wall_clock_ceiling_stops_an_idle_run() {
  let limits = Limits { max_wall_ms: 300.0, ..Limits::default() };
  let started = std::time::Instant::now();
  let v = run_with("await new Promise((r) => setTimeout(r, 60_000))", limits);
  assert_eq!(error_of(&v), ("timeout".into(), "wall-clock ceiling reached (300ms)".into()));
  assert!(started.elapsed() < Duration::from_secs(5));
  let v =
    run_with("const tick = () => setTimeout(tick, 0); tick(); await new Promise(() => {})", limits);
  assert_eq!(error_of(&v).1, "wall-clock ceiling reached (300ms)");
}

#[test]
fn waiting_on_timers_costs_no_compute() {
  let limits = Limits { compute_ms: 200.0, ..Limits::default() };
  let v = run_with("await new Promise((r) => setTimeout(r, 800)); return 'ok'", limits);
  assert_eq!(v["value"], "ok");
}

#[test]
fn a_throwing_timer_callback_ends_the_run() {
  let v = run("setTimeout(() => { throw new Error('in timer') }, 1); await new Promise((r) => setTimeout(r, 50)); return 1");
  assert_eq!(error_of(&v).0, "exception");
  assert!(error_of(&v).1.starts_with("Error: in timer"), "{v}");
}

#[test]
fn a_hundred_thousand_timers_fire_in_linear_time() {
  let started = std::time::Instant::now();
  let v = run("let n = 0; await new Promise<void>((r) => { for (let i = 0; i < 100000; i++) setTimeout(() => { if (++n === 100000) r() }, 0) }); return n");
  assert_eq!(v["value"], 100000);
  assert!(started.elapsed() < Duration::from_secs(20), "{:?}", started.elapsed());
}

#[test]
fn binding_promises_are_ordinary_promises_that_settle_once() {
  let (e, erx) = engine_with_events();
  let spec = BindingSpec { global: "tools".into(), members: vec!["f".into()], error_class: None };
  let program = "const p = tools.f(1); const q = tools.f(2); \
     const shape = [p instanceof Promise, Object.getPrototypeOf(p) === Promise.prototype, Promise.resolve(p) === p]; \
     const order: string[] = []; p.then(() => order.push('then')); await null; order.push('tick'); \
     const a = await p; let b; try { await q } catch (e) { b = (e as Error).message } \
     return [shape, a, b, order]";
  e.start(program.into(), vec![spec], Limits::default()).unwrap();
  let mut seen = Vec::new();
  let json = loop {
    match erx.recv_timeout(Duration::from_secs(30)).expect("host event") {
      HostEvent::Call { run, call, .. } => {
        seen.push(call);
        if seen.len() == 2 {
          // Every answer after a call's first is dropped, whatever it says.
          e.settle_call(run, seen[0], Ok("\"first\"".into()));
          e.settle_call(run, seen[0], Err("late".into()));
          e.settle_call(run, seen[1], Err("refused".into()));
          e.settle_call(run, seen[1], Ok("\"late\"".into()));
          e.settle_call(run, seen[1] + 100, Ok("1".into()));
        }
      }
      HostEvent::Settled(json) => break json,
    }
  };
  assert_eq!(json, r#"{"logs":[],"value":[[true,true,true],"first","refused",["tick","then"]]}"#);
}

#[test]
fn an_inherited_then_does_not_hijack_binding_results() {
  let (json, _) = run_with_tools(
    "(Object.prototype as any).then = function (res: any) { res('hijacked') }; \
     (Array.prototype as any).then = function (res: any) { res('hijacked') }; \
     const a = await tools.echo({ x: 1 }); const b = await tools.echo([1, 2]); \
     delete (Object.prototype as any).then; delete (Array.prototype as any).then; return [a, b, Object.keys(a)]",
    &["echo"],
    None,
    |_, args| Ok(args.to_owned()),
  );
  assert_eq!(json, r#"{"logs":[],"value":[{"x":1},[1,2],["x"]]}"#);
}

#[test]
fn a_hundred_thousand_deep_resolution_crosses() {
  let deep = format!("{}0{}", "[".repeat(100_000), "]".repeat(100_000));
  let (json, _) = run_with_tools(
    "let v: any = await tools.deep({}); let d = 0; while (Array.isArray(v)) { v = v[0]; d++ } return d",
    &["deep"],
    None,
    move |_, _| Ok(deep.clone()),
  );
  assert_eq!(json, r#"{"logs":[],"value":100000}"#);
}

#[test]
fn a_heap_too_small_for_setup_ends_as_heap_exhaustion() {
  let v = run_with("return 1", Limits { max_heap_mb: 0.05, ..Limits::default() });
  assert_eq!(error_of(&v).0, "worker-exit", "{v}");
  assert!(error_of(&v).1.contains("heap limit of 0.05 MB"), "{v}");
}

fn logs_of(v: &serde_json::Value) -> Vec<String> {
  v["logs"]
    .as_array()
    .expect("logs")
    .iter()
    .map(|l| l.as_str().expect("string").to_owned())
    .collect()
}

#[test]
fn console_groups_counts_asserts_and_timers() {
  let v = run(
    "console.group('g'); console.count(); console.count(); console.assert(1 > 2, 'no %s', 'way');
     console.assert(true, 'silent'); console.time('t'); console.timeEnd('t'); console.groupEnd();
     console.groupEnd(); console.log({ a: 1 }); console.countReset('x'); console.timeLog('y'); return 1",
  );
  let logs = logs_of(&v);
  assert_eq!(logs[..4], ["g", "  default: 1", "  default: 2", "  Assertion failed: no way"]);
  assert!(logs[4].starts_with("  t: ") && logs[4].ends_with("ms"), "{}", logs[4]);
  assert_eq!(
    logs[5..],
    [
      "{ a: 1 }",
      "Warning: Count for 'x' does not exist",
      "Warning: No such label 'y' for console.timeLog()"
    ]
  );
  assert_eq!(v["value"], 1);
}

#[test]
fn console_table_and_dir_render_in_the_inspector_realm() {
  let v = run(
    "console.group(); console.table([{ a: 1, b: 'x' }, { a: 2 }]); console.groupEnd();
     console.dir('s'); console.dir({ a: { b: { c: 1 } } }, { depth: 0 });
     try { console.table([], 'a' as any) } catch (e: any) { return [e instanceof TypeError, e.code, e.message] }",
  );
  assert_eq!(
    logs_of(&v),
    [
      "  ┌─────────┬───┬─────┐\n  │ (index) │ a │ b   │\n  ├─────────┼───┼─────┤\n  │ 0       │ 1 │ 'x' │\n  │ 1       │ 2 │     │\n  └─────────┴───┴─────┘",
      "'s'",
      "{ a: [Object] }"
    ]
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      true,
      "ERR_INVALID_ARG_TYPE",
      "The \"properties\" argument must be an instance of Array. Received type string ('a')"
    ])
  );
}

#[test]
fn console_keeps_a_bounded_number_of_labels() {
  let v = run(
    "for (let i = 0; i < 20000; i++) console.time('t' + i); console.timeEnd('t0');
     console.time('again'); console.timeEnd('again'); return 1",
  );
  let logs = logs_of(&v);
  assert_eq!(logs.len(), 10_000 + 2);
  assert_eq!(
    logs[0],
    format!(
      "Warning: console.time() keeps at most {} labels; 't10000' is not timed",
      crate::console::methods::MAX_LABELS
    )
  );
  assert!(logs[10_000].starts_with("t0: "), "{}", logs[10_000]);
  assert!(logs[10_001].starts_with("again: "), "{}", logs[10_001]);
}

#[test]
fn map_iterators_preview_what_is_left() {
  // Read through QuickJS's own iterator and record layouts (`previews.rs`): every kind of
  // Map and Set iterator, fresh, part-consumed, with deleted records, and exhausted.
  let v = run(
    "const m = new Map([[1, 'a'], [2, 'b'], [3, 'c']]); const s = new Set(['x', 'y', 'z']);
     const e = m.entries(); e.next();
     const k = m.keys(); m.delete(2);
     const sv = s.values(); sv.next(); sv.next();
     const done = s.entries(); for (const _ of done) {}
     console.log(e); console.log(k); console.log(m.values()); console.log(sv); console.log(s.entries()); console.log(done)",
  );
  assert_eq!(
    v["logs"],
    serde_json::json!([
      "[Map Entries] { [ 3, 'c' ] }",
      "[Map Iterator] { 1, 3 }",
      "[Map Iterator] { 'a', 'c' }",
      "[Set Iterator] { 'z' }",
      "[Set Entries] { [ 'x', 'x' ], [ 'y', 'y' ], [ 'z', 'z' ] }",
      "[Set Entries] {  }"
    ]),
    "{v}"
  );
}

#[test]
fn early_errors_swc_lets_through_end_the_run_at_once() {
  let v = run("const f = 1\nconst f = 2\nreturn f");
  assert_eq!(
    error_of(&v),
    // QuickJS's, in V8's words and at V8's position (the second name), in the program's
    // own text.
    ("exception".into(), "SyntaxError: Identifier 'f' has already been declared (2:7)".into()),
    "{v}"
  );
}

#[test]
fn call_sites_are_read_as_quickjs_writes_them() {
  // `stack.rs` reads QuickJS's `JSCallSiteData` through a mirrored struct: a named function,
  // a native one, a constructor and the program's own (anonymous) function, each with its
  // name, kind and position in the program (its own text: no mapping), as Node 24 prints
  // them.
  let v = run(
    "class K { constructor() { this.s = [1].map(function named() { return new Error(\"e\").stack })[0] } }\nreturn new K().s",
  );
  assert_eq!(
    v["value"],
    "Error: e\n    at named (program.ts:1:70)\n    at Array.map (<anonymous>)\n    at new K (program.ts:1:40)\n    at program.ts:2:8",
    "{v}"
  );
  // The receiver (`S.run`), an async frame and a Promise.all element's index (ours): what
  // Node 24 prints for the same program.
  let v = run(
    "class S { async run() { await null; return new Error('e').stack } }\nreturn await Promise.all([new S().run()])",
  );
  assert_eq!(
    v["value"],
    serde_json::json!(["Error: e\n    at S.run (program.ts:1:44)\n    at async Promise.all (index 0)\n    at async program.ts:2:8"]),
    "{v}"
  );
}

/// Async frames come from walking promise chains in the engine (vendored QuickJS's
/// `js_async_backtrace`): long chains, functions that finished while others still await
/// their promises, and garbage collection between the captures must neither crash nor show
/// a frame of a function no longer suspended.
#[test]
fn async_frames_survive_hostile_promise_chains() {
  // A chain 200 deep: the frames stop at the limit, each an async frame of `link`.
  let v = run(
    "async function link(n) { if (n === 0) { await null; throw new Error('deep') } await link(n - 1) }\n\
     try { await link(200) } catch (e) { return e.stack.split('\\n').slice(0, 3) }",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      "Error: deep",
      "    at link (program.ts:1:59)",
      "    at async link (program.ts:1:79)"
    ]),
    "{v}"
  );
  // Ten frames at most (`Error.stackTraceLimit`), async ones included.
  let v = run(
    "async function link(n) { if (n === 0) { await null; throw new Error('deep') } await link(n - 1) }\n\
     try { await link(200) } catch (e) { return e.stack.split('\\n').length }",
  );
  assert_eq!(v["value"], 11, "{v}");
  // Errors made while many chains are settling and being collected, over and over.
  let v = run(
    "let stacks = 0\n\
     async function leaf(i) { await null; if (i % 3 === 0) throw new Error('l' + i); return i }\n\
     async function mid(i) { try { return await leaf(i) } catch (e) { stacks += e.stack.includes('at async mid') ? 1 : 0; throw e } }\n\
     for (let round = 0; round < 20; round++) {\n\
       const all = Promise.allSettled(Array.from({ length: 200 }, (_, i) => mid(i)))\n\
       for (let i = 0; i < 50; i++) new Error('noise').stack\n\
       await all\n\
     }\n\
     return stacks",
  );
  assert_eq!(v["value"], 20 * 67, "{v}");
}

/// What a waiting run costs is what 10,000 waiting runs cost: a run parked on a host call
/// fits in 75 KiB of QuickJS heap (runtime, context, our globals; 74 KiB fails). It
/// needed ~79 KiB with eager `Proxy`, `DisposableStack`, `AsyncDisposableStack`, call-site
/// prototype and generator prototypes, ~190 KiB with QuickJS's 4 KiB arenas, ~125 KiB with eager `Date`, typed arrays
/// and `DOMException`, ~104 KiB with a `Math.random` closure and closures for `console`'s
/// methods, ~97 KiB with eager `Map`, `Set`, `WeakRef` and `RegExp`, ~89 KiB with class
/// tables grown by half, ~87 KiB with every arena 1 KiB, 86 KiB with a function object per
/// lazy web global and for `Intl` and QuickJS's 711-entry atom array and 512-bucket atom
/// hash (vendor/README.md).
#[test]
fn a_parked_run_fits_in_75_kib() {
  let (e, erx) = engine_with_events();
  let spec = BindingSpec { global: "tools".into(), members: vec!["a".into()], error_class: None };
  let limits = Limits { max_heap_mb: 75.0 / 1024.0, ..Limits::default() };
  e.start("const r = await tools.a({}); return r + 1".into(), vec![spec], limits).unwrap();
  loop {
    match erx.recv_timeout(Duration::from_secs(30)).expect("host event") {
      HostEvent::Call { run, call, .. } => e.settle_call(run, call, Ok("1".into())),
      HostEvent::Settled(json) => {
        assert_eq!(json, r#"{"logs":[],"value":2}"#);
        return;
      }
    }
  }
}

/// The engine's warm-up (`prelude::warm`, on a pool thread when an engine starts) formats
/// the default locale once in its own context: the thread it ran on keeps the formatters it
/// made, so a run's first format there skips ICU4X's data look-ups.
#[test]
fn intl_warm_up_makes_the_default_formatters_ahead() {
  std::thread::spawn(|| {
    assert_eq!(crate::intl::cached_number_formats(), 0);
    crate::quickjs::prelude::warm(&[&crate::intl::PRELUDE], crate::intl::warm);
    // At least the currency format and toLocaleString's decimal one.
    assert!(crate::intl::cached_number_formats() >= 2);
  })
  .join()
  .unwrap();
}

/// `Intl` is a lazy data property (`quickjs::lazy`): listing the globals loads nothing, nor
/// do the locale methods until called; its descriptor is Node's, and the locale methods answer
/// through the same `Intl` the global holds.
#[test]
fn intl_loads_only_when_touched() {
  let rt = rquickjs::Runtime::new().unwrap();
  let ctx = crate::world::run::new_context(&rt).unwrap();
  ctx.with(|ctx| {
    crate::intl::install(&ctx, &ctx.globals()).unwrap();
    let listed: bool = ctx
      .eval("Object.getOwnPropertyNames(globalThis).includes('Intl') && 'Intl' in globalThis")
      .unwrap();
    assert!(listed && !crate::intl::loaded(&ctx));
    let d: String = ctx
      .eval(
        "const d = Object.getOwnPropertyDescriptor(globalThis, 'Intl'); \
         [typeof d.value, d.writable, d.enumerable, d.configurable, d.value === Intl].join()",
      )
      .unwrap();
    assert_eq!(d, "object,true,false,true,true");
    assert!(crate::intl::loaded(&ctx));
  });
  let v = run(
    "const a = (1234.5).toLocaleString(); const n = new Intl.NumberFormat('de-DE').format(1234.5); \
     const e = Object.getOwnPropertyDescriptor(globalThis, 'Intl'); \
     return [a, n, typeof e.value, e.writable, e.enumerable, Object.prototype.toString.call(Intl)]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!(["1,234.5", "1.234,5", "object", true, false, "[object Intl]"])
  );
  // A program's own Intl wins over the lazy one, before or after a read; deleted, it stays
  // deleted, and the locale methods still answer.
  let v = run(
    "globalThis.Intl = 5; return [Intl, (2).toLocaleString('en', { minimumFractionDigits: 1 })]",
  );
  assert_eq!(v["value"], serde_json::json!([5, "2.0"]));
  let v = run("const I = Intl; Intl = 6; return [Intl, typeof I.Collator]");
  assert_eq!(v["value"], serde_json::json!([6, "function"]));
  let v = run(
    "delete globalThis.Intl; return [typeof Intl, 'Intl' in globalThis, (1e3).toLocaleString()]",
  );
  assert_eq!(v["value"], serde_json::json!(["undefined", false, "1,000"]));
}

/// The web globals are lazy data properties (`quickjs::lazy`): in Node's order and with
/// Node's attributes before and after they load, one read loads them all, the same value on
/// every read, and a program's own assignment or deletion wins before or after the load.
#[test]
fn web_globals_load_together_on_first_use() {
  let rt = rquickjs::Runtime::new().unwrap();
  let ctx = crate::world::run::new_context(&rt).unwrap();
  ctx.with(|ctx| {
    crate::web::globals::install(&ctx, &ctx.globals()).unwrap();
    let heap = |ctx: &rquickjs::Ctx<'_>| {
      let c = ctx.as_raw().as_ptr();
      // SAFETY: reads the live runtime's counters into a zeroed struct of ours.
      unsafe {
        let mut usage: rquickjs::qjs::JSMemoryUsage = std::mem::zeroed();
        rquickjs::qjs::JS_ComputeMemoryUsage(rquickjs::qjs::JS_GetRuntime(c), &mut usage);
        usage.malloc_size
      }
    };
    let before = heap(&ctx);
    let names: String = ctx
      .eval("Object.getOwnPropertyNames(globalThis).filter((n) => ['URL', 'atob', 'Blob'].includes(n)).join()")
      .unwrap();
    assert_eq!(names, "URL,atob,Blob");
    assert!(heap(&ctx) < before + 2048, "listing the names loaded nothing");
    let d: String = ctx
      .eval(
        "const d = Object.getOwnPropertyDescriptor(globalThis, 'TextEncoder'); \
         const e = Object.getOwnPropertyDescriptor(globalThis, 'URL'); \
         [typeof d.value, d.writable, d.enumerable, d.configurable, 'get' in e, e.value === URL, URL === globalThis.URL].join()",
      )
      .unwrap();
    assert_eq!(d, "function,true,false,true,false,true,true");
    assert!(heap(&ctx) > before + 16384, "one use loaded the prelude");
  });
  let v = run(
    "globalThis.URL = 5; const t = typeof TextEncoder; delete globalThis.Blob; \
     return [URL, t, typeof Blob, 'Blob' in globalThis, new TextDecoder().decode(new TextEncoder().encode('hé'))]",
  );
  assert_eq!(v["value"], serde_json::json!([5, "function", "undefined", false, "hé"]));
  let v = run(
    "delete globalThis.atob; const b = btoa('a'); globalThis.atob = (x) => 'mine ' + x; \
     Object.defineProperty(globalThis, 'crypto', { value: 1, enumerable: true }); \
     return [atob(b), b, crypto, Object.keys(globalThis).includes('crypto'), typeof structuredClone]",
  );
  assert_eq!(v["value"], serde_json::json!(["mine YQ==", "YQ==", 1, true, "function"]));
}

/// A program's code that runs while a group loads (the web prelude reads `Uint8Array`, a
/// getter the program put there) may add globals, delete or redefine the group's names, or
/// read one of them: the load fills only the names still waiting, into the global object as
/// it is now, and a read from inside the load is an error, not a second load.
#[test]
fn a_program_changing_the_globals_while_they_load_gets_what_it_did() {
  let v = run(
    "const U8 = Uint8Array; let inner = 'none'\n\
     Object.defineProperty(globalThis, 'Uint8Array', { configurable: true, get() {\n\
       for (let i = 0; i < 300; i++) globalThis['g' + i] = i\n\
       delete globalThis.URL\n\
       Object.defineProperty(globalThis, 'TextDecoder', { value: 7, writable: true, configurable: true })\n\
       try { inner = typeof structuredClone } catch (e) { inner = e.constructor.name + ': ' + e.message }\n\
       return U8 } })\n\
     const enc = new TextEncoder().encode('ab')\n\
     return [enc.length, typeof URL, TextDecoder, g299, inner, typeof structuredClone, typeof AbortController]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      2,
      "undefined",
      7,
      299,
      "TypeError: a global was used while it was loading",
      "function",
      "function"
    ]),
    "{v}"
  );
  // A load that throws leaves the names waiting: the next use loads them.
  let v = run(
    "const U8 = Uint8Array; let n = 0\n\
     Object.defineProperty(globalThis, 'Uint8Array', { configurable: true, get() { if (n++ === 0) throw new Error('trap'); return U8 } })\n\
     let first; try { URL } catch (e) { first = e.message }\n\
     return [first, typeof URL, new URL('https://a.b/c').pathname]",
  );
  assert_eq!(v["value"], serde_json::json!(["trap", "function", "/c"]), "{v}");
}

/// The locale methods ECMA-402 redefines answer through Intl, with its options.
#[test]
fn locale_methods_answer_through_intl() {
  let v = run(
    "return [(1234567.891).toLocaleString('en-US'), 12345678901234567890n.toLocaleString('de'), \
     ['b', 'a', 'ä'].sort((a, b) => a.localeCompare(b)).join(), [1234.5, 2].toLocaleString('de'), \
     'I'.toLocaleLowerCase('tr'), 'i'.toLocaleUpperCase('tr'), 'istanbul'.toLocaleUpperCase('en-US'), \
     'a'.localeCompare('B'), 'a'.localeCompare('A', undefined, { sensitivity: 'base' })]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      "1,234,567.891",
      "12.345.678.901.234.567.890",
      "a,ä,b",
      "1.234,5,2",
      "ı",
      "İ",
      "ISTANBUL",
      -1,
      0
    ])
  );
}

/// Hostile options: a throwing getter's error reaches the program, in ECMA-402's order.
#[test]
fn intl_options_are_read_in_order_and_getters_may_throw() {
  let v = run(
    "const seen = []; const o = new Proxy({}, { get(t, k) { seen.push(String(k)); return undefined } }); \
     new Intl.NumberFormat('en', o); \
     let m; try { new Intl.NumberFormat('en', { get style() { throw new Error('boom') } }) } catch (e) { m = e.message } \
     return [seen.join(), m]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      "localeMatcher,numberingSystem,style,currency,currencyDisplay,currencySign,unit,unitDisplay,notation,minimumIntegerDigits,minimumFractionDigits,maximumFractionDigits,minimumSignificantDigits,maximumSignificantDigits,roundingIncrement,roundingMode,roundingPriority,trailingZeroDisplay,compactDisplay,useGrouping,signDisplay",
      "boom"
    ])
  );
}

/// Own global names of a context, sorted.
fn global_names(ctx: &rquickjs::Context) -> Vec<String> {
  ctx.with(|ctx| {
    let names: Vec<String> =
      ctx.eval("Object.getOwnPropertyNames(globalThis).sort()").expect("names");
    names
  })
}

/// `Date`, the typed arrays, `DOMException`, `Map` and `Set`, `WeakRef` and
/// `FinalizationRegistry`, `RegExp`, `Proxy`, `DisposableStack` and `AsyncDisposableStack`,
/// `Error.prepareStackTrace`'s call sites and the generator prototypes are added on first use,
/// and a program cannot tell: the same global names as QuickJS's full context, data properties with the usual
/// attributes, the intrinsics wired to each other as in an eager context.
#[test]
fn lazy_intrinsics_look_eager() {
  let rt = rquickjs::Runtime::new().unwrap();
  let full = rquickjs::Context::full(&rt).unwrap();
  let lazy = crate::world::run::new_context(&rt).unwrap();
  // `atob` and `btoa` are the prelude's (`web.rs`), defined with the run's other globals.
  let mut with_web = global_names(&lazy);
  with_web.extend(["atob".to_owned(), "btoa".to_owned()]);
  with_web.sort();
  assert_eq!(with_web, global_names(&full));
  let checks = r#"(() => {
    const d = Object.getOwnPropertyDescriptor(globalThis, 'Uint16Array')
    const TA = Object.getPrototypeOf(Uint8Array)
    return [
      d.writable && d.configurable && !d.enumerable && d.value === Uint16Array,
      TA === Object.getPrototypeOf(Float64Array) && TA.prototype.toString === Array.prototype.toString,
      new Uint8Array([1, 2]).toString() === '1,2',
      Object.getPrototypeOf(new Uint8Array(1)) === Uint8Array.prototype,
      typeof Uint8Array.fromBase64 === 'function' && new Uint8Array([255]).toHex() === 'ff',
      new DataView(new ArrayBuffer(4)).byteLength === 4 && typeof Atomics.add === 'function',
      new SharedArrayBuffer(8).byteLength === 8 && new Float16Array(1).length === 1,
      new Date(0).toISOString() === '1970-01-01T00:00:00.000Z' && Date.prototype.constructor === Date,
      new DOMException('m', 'AbortError').code === 20 && new DOMException('m') instanceof Error,
      DOMException.ABORT_ERR === 20,
      new Map([[1, 2]]).get(1) === 2 && [...new Set([1, 1, 2])].length === 2,
      Object.getPrototypeOf(new Map().entries())[Symbol.toStringTag] === 'Map Iterator' &&
        Object.getPrototypeOf(Object.getPrototypeOf(new Set().values())) ===
          Object.getPrototypeOf(Object.getPrototypeOf([].values())),
      typeof Map.groupBy === 'function' && new Set([1, 2]).union(new Set([3])).size === 3,
      new WeakMap().set({}, 1) instanceof WeakMap && new WeakSet().add({}) instanceof WeakSet,
      typeof new WeakRef({}).deref === 'function' && typeof FinalizationRegistry.prototype.register === 'function',
      RegExp('b').source === 'b' && RegExp[Symbol.species] === RegExp && /a/g.flags === 'g',
      Object.getPrototypeOf(/a/) === RegExp.prototype && /(?<x>b)/.exec('ab').groups.x === 'b',
      new Proxy({}, { get: () => 7 }).x === 7 && typeof Proxy.revocable === 'function' &&
        Proxy.name === 'Proxy' && Proxy.length === 2 && !('prototype' in Proxy),
      new DisposableStack().disposed === false && typeof DisposableStack.prototype.use === 'function' &&
        DisposableStack.prototype[Symbol.toStringTag] === 'DisposableStack',
      typeof new AsyncDisposableStack().disposeAsync === 'function' &&
        Object.getPrototypeOf(new AsyncDisposableStack()) === AsyncDisposableStack.prototype,
      (() => {
        const before = Error.prepareStackTrace
        Error.prepareStackTrace = (e, sites) => sites
        function named() { return new Error('x').stack }
        const sites = named()
        Error.prepareStackTrace = before
        const proto = Object.getPrototypeOf(sites[0])
        return sites[0].getFunctionName() === 'named' && typeof sites[0].getLineNumber() === 'number' &&
          proto === Object.getPrototypeOf(sites[1]) && typeof proto.isNative === 'function'
      })(),
      (() => {
        function* g() { yield 1 }
        async function* ag() { yield 2 }
        const GF = Object.getPrototypeOf(g), AGF = Object.getPrototypeOf(ag)
        return [...g()][0] === 1 && GF.constructor.name === 'GeneratorFunction' &&
          Object.getPrototypeOf(GF) === Function.prototype && GF.prototype === Object.getPrototypeOf(g.prototype) &&
          Object.getPrototypeOf(GF.prototype) === Object.getPrototypeOf(Object.getPrototypeOf([].values())) &&
          AGF.constructor.name === 'AsyncGeneratorFunction' && AGF.prototype === Object.getPrototypeOf(ag.prototype) &&
          typeof AGF.prototype.next === 'function' && Object.getPrototypeOf(function* () {}) === GF &&
          new GF.constructor('yield 3')().next().value === 3
      })(),
    ].map((ok, i) => ok ? 'ok' : 'check ' + i).join()
  })()"#;
  for ctx in [&full, &lazy] {
    let got: String = ctx.with(|ctx| ctx.eval(checks).expect("checks"));
    assert_eq!(got, ["ok"; 22].join(","));
  }
}

/// Regular expressions the engine makes — literals, and the `RegExp` that `match`,
/// `matchAll` and `search` make of a string — add the group first, each in a context where
/// nothing has read `RegExp` yet.
#[test]
fn engine_made_regexps_load_their_group() {
  for check in [
    "Object.getPrototypeOf(/a(b)/) === RegExp.prototype && /a(b)/.exec('ab')[1] === 'b'",
    "'abc'.match('b').index === 1 && 'abc'.match('b') instanceof Array",
    "[...'a1b2'.matchAll('[0-9]')].length === 2",
    "'abc'.search('c') === 2",
    "'a-b'.split(/-/).length === 2 && 'x'.replace(/x/g, 'y') === 'y'",
  ] {
    let rt = rquickjs::Runtime::new().unwrap();
    let ctx = crate::world::run::new_context(&rt).unwrap();
    let ok: bool = ctx.with(|ctx| ctx.eval(check).unwrap());
    assert!(ok, "{check}");
  }
}

/// A program that replaced or deleted a lazy global, or booby-trapped what the typed arrays
/// borrow from `Array.prototype`, gets its own values back and intrinsic behaviour
/// elsewhere: adding a group runs no program code and defines nothing over the program's
/// globals.
#[test]
fn lazy_intrinsics_survive_a_hostile_program() {
  let v = run(
    "Object.defineProperty(Array.prototype, 'toString', { get() { throw new Error('ran') } })
     globalThis.Date = 5
     delete globalThis.Float16Array
     const bytes = new TextEncoder().encode('hé')
     return [Date, typeof Float16Array, Object.prototype.toString.call(bytes),
       Object.getPrototypeOf(Object.getPrototypeOf(bytes)) === Object.getPrototypeOf(Int8Array.prototype),
       bytes.length, new Int8Array([1]).length]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([5, "undefined", "[object Uint8Array]", true, 3, 1]),
    "{v}"
  );
  let v = run(
    "globalThis.RegExp = 1
     delete globalThis.Map
     globalThis.WeakRef = 'w'
     return [/a/.test('a'), 'ab'.match('b').index, RegExp, typeof Map, WeakRef,
       Object.getPrototypeOf(/a/).constructor.name, new Set([1]).size]",
  );
  assert_eq!(v["value"], serde_json::json!([true, 1, 1, "undefined", "w", "RegExp", 1]), "{v}");
  // The call sites an error's stack is built from load without any global.
  let v = run(
    "globalThis.Proxy = 1
     delete globalThis.DisposableStack
     function f() { throw new TypeError('t') }
     let stack
     try { f() } catch (e) { stack = e.stack.split('\\n').slice(0, 2) }
     return [Proxy, typeof DisposableStack, typeof AsyncDisposableStack, stack]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([1, "undefined", "function", ["TypeError: t", "    at f (program.ts:3:27)"]]),
    "{v}"
  );
}

/// QuickJS functions that make a lazy group's objects add the group first, so objects made
/// by the engine before the program touched the globals have their intrinsic prototypes.
#[test]
fn engine_made_typed_arrays_and_dates_load_their_group() {
  let rt = rquickjs::Runtime::new().unwrap();
  let ctx = crate::world::run::new_context(&rt).unwrap();
  ctx.with(|ctx| {
    let c = ctx.as_raw().as_ptr();
    // SAFETY: both calls return new references, handed to rquickjs values that free them.
    let (bytes, date) = unsafe {
      (
        rquickjs::Value::from_raw(ctx.clone(), rquickjs::qjs::JS_NewUint8ArrayCopy(c, [7u8].as_ptr(), 1)),
        rquickjs::Value::from_raw(ctx.clone(), rquickjs::qjs::JS_NewDate(c, 0.0)),
      )
    };
    ctx.globals().set("bytes", bytes).unwrap();
    ctx.globals().set("date", date).unwrap();
    let ok: bool = ctx
      .eval("Object.getPrototypeOf(bytes) === Uint8Array.prototype && bytes[0] === 7 && date.getTime() === 0")
      .unwrap();
    assert!(ok);
  });
}

/// A host that reads `metrics()` when a result arrives (Node's main thread may, before the
/// run's thread runs again) sees the run
/// ended, counted once: not in flight, its CPU not also in the ended total.
#[test]
fn a_run_has_ended_once_by_the_time_its_result_arrives() {
  struct Probe {
    inner: std::sync::OnceLock<std::sync::Weak<Inner>>,
    seen: Mutex<Vec<EngineMetrics>>,
    done: Mutex<mpsc::Sender<()>>,
  }
  impl Host for Probe {
    fn settled(&self, _run: RunId, _result_json: String) {
      if let Some(inner) = self.inner.get().and_then(std::sync::Weak::upgrade) {
        lock(&self.seen).push(inner.metrics());
      }
      let _ = lock(&self.done).send(());
    }
    fn calls(&self, _run: RunId, _batch: Vec<HostCall>) {}
  }
  let (tx, rx) = mpsc::channel();
  let probe = Arc::new(Probe {
    inner: std::sync::OnceLock::new(),
    seen: Mutex::new(Vec::new()),
    done: Mutex::new(tx),
  });
  let e = Engine::new(EngineConfig { threads: 1, time_zone: None }, probe.clone());
  let _ = probe.inner.set(Arc::downgrade(&e.inner));
  let program = "let n = 0; for (let i = 0; i < 200000; i++) n += i; return n";
  e.start(program.into(), vec![], Limits::default()).unwrap();
  rx.recv_timeout(Duration::from_secs(30)).expect("the run's result");
  let session = e.open_session(Limits::default()).unwrap();
  e.start_in_session(session, program.into(), vec![], RunOptions::default()).unwrap();
  rx.recv_timeout(Duration::from_secs(30)).expect("the session run's result");
  let after = e.metrics();
  let seen = lock(&probe.seen).clone();
  assert_eq!(seen.len(), 2);
  for m in &seen {
    assert_eq!(m.in_flight, 0, "{seen:?}");
    assert!(m.cpu_ms <= after.cpu_ms, "counted twice: {seen:?}, then {after:?}");
  }
}

/// `worlds()` counts a run until its QuickJS world is freed (after it left `in_flight`), and
/// a session's kernel until the session is closed: what the fuzz harness waits for before it
/// checks for leaks.
#[test]
fn worlds_count_runs_until_their_world_is_freed() {
  let (e, rx) = engine();
  let wait_for = |n: usize| {
    let until = std::time::Instant::now() + Duration::from_secs(30);
    while e.worlds() != n {
      assert!(std::time::Instant::now() < until, "worlds stayed {} (want {n})", e.worlds());
      std::thread::sleep(Duration::from_millis(1));
    }
  };
  assert_eq!(e.worlds(), 0);
  e.start("return 1".into(), vec![], Limits::default()).unwrap();
  rx.recv_timeout(Duration::from_secs(30)).expect("result");
  wait_for(0);
  let session = e.open_session(Limits::default()).unwrap();
  assert_eq!(e.worlds(), 1);
  e.start_in_session(session, "return 2".into(), vec![], RunOptions::default()).unwrap();
  rx.recv_timeout(Duration::from_secs(30)).expect("session result");
  assert_eq!(e.worlds(), 1, "the kernel stays for the session's next run");
  e.close_session(session, "done".into());
  wait_for(0);
}

/// Native operations whose length the program sets poll for interruption inside: each of
/// these ran for seconds past its budget, or forever (then this test hangs, caught by the
/// 30 s wait in `run_with`), before the vendored QuickJS charged native work.
#[test]
fn long_native_operations_end_at_the_compute_budget() {
  let programs = [
    "const a = (1n << 1048000n) - 1n; for (;;) a.toString()",
    "const a = (1n << 30000n) - 1n; for (;;) a.toString()",
    "const a = (1n << 500000n) - 1n; for (;;) a * a",
    "const a = (1n << 1000000n) - 1n, b = (1n << 500000n) - 3n; for (;;) a / b",
    "const s = '9'.repeat(300000); for (;;) BigInt(s)",
    "Array.prototype.sort.call({ length: 2 ** 32 - 1 })",
    "Array.prototype.reverse.call({ length: 2 ** 53 - 1 })",
    "Array.prototype.copyWithin.call({ length: 2 ** 53 - 1 }, 0, 1)",
    "Array.prototype.join.call({ length: 2 ** 32 - 1 })",
    "const s = 'a'.repeat(4e5), t = 'a'.repeat(2e5) + 'b'; for (;;) s.indexOf(t)",
    "const s = 'a' + '\\u0301\\u0316'.repeat(1e5); for (;;) s.normalize('NFD')",
    "for (;;) ''.padStart(4e8, 'ab')",
    "for (;;) 'ab'.repeat(2e8)",
    "for (;;) '\\u4e2d'.repeat(4e8)",
    "const src = 'x+=1;'.repeat(2e6); for (;;) new Function('x', src)",
  ];
  for program in programs {
    let limits = Limits { compute_ms: 100.0, max_heap_mb: 2048.0, ..Limits::default() };
    let v = run_with(program, limits);
    assert_eq!(
      error_of(&v),
      ("timeout".into(), "compute budget exhausted (100ms busy)".into()),
      "{program}"
    );
  }
}

/// `repeat` writes one-character strings in whole chunks and longer ones by doubling copies
/// (a checked write a character cost ~5 ns: filling an 8 MB heap with `'x'.repeat(4096)` used
/// more than a 20 ms budget); the strings are Node's, narrow and wide.
#[test]
fn repeated_strings_are_the_strings_node_makes() {
  let v = run(
    "const wide = '\\u4e2d\\u6587'.repeat(70001), narrow = 'xy\\u00e9'.repeat(100003)
     return ['ab'.repeat(5), 'x'.repeat(0) + 'foo'.repeat(0) + '\\u4e2d\\u6587'.repeat(0), ''.repeat(9), 'q'.repeat(1), '\\u00e9'.repeat(3),
       '\\u4e2d'.repeat(4), 'x'.repeat(70000).length, wide.length, wide.slice(-3), wide.indexOf('\\u6587\\u6587'),
       narrow.length, narrow.slice(300004), narrow.lastIndexOf('yx'), 'abc'.repeat(3e5).split('abc').length,
       'a'.padStart(5, 'xy'), 'a'.padEnd(6, '\\u4e2d'), '-'.repeat(65537).length]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      "ababababab",
      "",
      "",
      "q",
      "\u{e9}\u{e9}\u{e9}",
      "\u{4e2d}\u{4e2d}\u{4e2d}\u{4e2d}",
      70000,
      140002,
      "\u{6587}\u{4e2d}\u{6587}",
      -1,
      300009,
      "y\u{e9}xy\u{e9}",
      -1,
      300001,
      "xyxya",
      "a\u{4e2d}\u{4e2d}\u{4e2d}\u{4e2d}\u{4e2d}",
      65537
    ])
  );
}

/// The linear substring search (Knuth-Morris-Pratt once one-by-one comparisons pass their
/// budget) finds what the naive one found, forwards and backwards, in one- and two-byte
/// strings; the answers are Node's.
#[test]
fn linear_string_search_finds_what_the_naive_one_found() {
  let v = run(
    "const t = 'a'.repeat(3e5) + 'b' + 'a'.repeat(1e5), p = 'a'.repeat(2e5) + 'b'
     return [t.indexOf(p), t.lastIndexOf(p), t.includes(p + 'a'), t.includes(p + 'c'),
       t.split(p).map((x) => x.length), t.replaceAll(p, '-').length, t.indexOf(p, 100001),
       t.lastIndexOf(p, 99999), ('é'.repeat(3e5) + 'b').indexOf('é'.repeat(2e5) + 'b'),
       'abcabd'.indexOf('abd'), 'abcabd'.lastIndexOf('ab'), 'aaa'.lastIndexOf('aa'), ''.indexOf('')]",
  );
  assert_eq!(
    v["value"],
    serde_json::json!([
      100000,
      100000,
      true,
      false,
      [100000, 100000],
      200001,
      -1,
      -1,
      100000,
      3,
      3,
      1,
      0
    ])
  );
}

/// A long run of combining marks is reordered by a stable counting sort (the insertion sort
/// was quadratic); the result is Node's.
#[test]
fn long_runs_of_combining_marks_normalize_as_before() {
  let v = run(
    "const s = 'a' + '\\u0301\\u0316'.repeat(1000)
     return [s.normalize('NFD') === 'a' + '\\u0316'.repeat(1000) + '\\u0301'.repeat(1000),
       s.normalize('NFC') === '\\u00e1' + '\\u0316'.repeat(1000) + '\\u0301'.repeat(999)]",
  );
  assert_eq!(v["value"], serde_json::json!([true, true]));
}

/// Pending timers count against the heap limit (3e6 of them grew the host by 672 MB under a
/// 32 MB limit); cleared ones give their share back.
#[test]
fn timers_count_against_the_heap_limit() {
  let limits = Limits { max_heap_mb: 32.0, ..Limits::default() };
  let v = run_with(
    "const f = () => {}; for (let i = 0; i < 3e6; i++) setTimeout(f, 1e9); return 1",
    limits,
  );
  assert_eq!(error_of(&v).0, "worker-exit", "{v}");
  let limits = Limits { max_heap_mb: 4.0, ..Limits::default() };
  let v = run_with(
    "const f = () => {}; for (let i = 0; i < 3e5; i++) clearTimeout(setTimeout(f, 1e9)); return 1",
    limits,
  );
  assert_eq!(v["value"], 1, "{v}");
}

/// Pending binding calls and their arguments count against the heap limit.
#[test]
fn pending_calls_count_against_the_heap_limit() {
  let (e, rx) = engine();
  let spec =
    BindingSpec { global: "tools".into(), members: vec!["never".into()], error_class: None };
  let limits = Limits { max_heap_mb: 32.0, ..Limits::default() };
  e.start(
    "const s = 'x'.repeat(4e6); for (let i = 0; i < 30; i++) tools.never(s); await tools.never(1)"
      .into(),
    vec![spec],
    limits,
  )
  .unwrap();
  let (_, json) = rx.recv_timeout(Duration::from_secs(30)).expect("run settles");
  assert!(json.contains(r#""kind":"worker-exit""#), "{json}");
}

/// An abort or `dispose()` reaches a run inside a long native operation (a million-bit
/// BigInt's `toString` looped: before native work polls, neither could stop it).
#[test]
fn abort_and_dispose_stop_a_run_inside_a_native_operation() {
  let program = "const a = (1n << 1048000n) - 1n; for (;;) a.toString()";
  let (e, rx) = engine();
  let id = e.start(program.into(), vec![], Limits::default()).unwrap();
  std::thread::sleep(Duration::from_millis(100));
  e.abort(id, "stop now".into());
  let (_, json) = rx.recv_timeout(Duration::from_secs(10)).expect("the abort ends the run");
  assert_eq!(json, r#"{"logs":[],"error":{"kind":"abort","message":"stop now"}}"#);
  let id = e.start(program.into(), vec![], Limits::default()).unwrap();
  std::thread::sleep(Duration::from_millis(100));
  let (tx, done) = mpsc::channel();
  e.dispose(Box::new(move || {
    let _ = tx.send(());
  }));
  let (got, json) = rx.recv_timeout(Duration::from_secs(10)).expect("dispose ends the run");
  assert_eq!(got, id);
  assert!(json.contains("runtime disposed"), "{json}");
  done.recv_timeout(Duration::from_secs(10)).expect("dispose completes");
}

/// A run is charged its slices' thread CPU time, never their wall time: a slice whose
/// thread is off the CPU (here blocked in the host's `calls`, as a preempted thread on a
/// busy host is) costs the run nothing for that. Charging a slice that never reached an
/// interrupt check its wall time ended trivial runs as `compute budget exhausted` under load.
#[test]
fn a_slice_off_the_cpu_is_not_charged_for_it() {
  struct Slow(Mutex<mpsc::Sender<(RunId, u32)>>, Mutex<mpsc::Sender<String>>);
  impl Host for Slow {
    fn settled(&self, _run: RunId, result_json: String) {
      let _ = lock(&self.1).send(result_json);
    }
    fn calls(&self, run: RunId, batch: Vec<HostCall>) {
      // On the run's own thread, inside its slice.
      std::thread::sleep(Duration::from_millis(60));
      for c in batch {
        let _ = lock(&self.0).send((run, c.call));
      }
    }
  }
  let (ctx, crx) = mpsc::channel();
  let (stx, srx) = mpsc::channel();
  let e = Engine::new(
    EngineConfig { threads: 2, time_zone: None },
    Arc::new(Slow(Mutex::new(ctx), Mutex::new(stx))),
  );
  let spec =
    || BindingSpec { global: "tools".into(), members: vec!["x".into()], error_class: None };
  let limits = Limits { compute_ms: 25.0, ..Limits::default() };
  for _ in 0..3 {
    e.start("await tools.x(1); await tools.x(2); return 1".into(), vec![spec()], limits).unwrap();
  }
  let mut results = Vec::new();
  while results.len() < 3 {
    if let Ok((run, call)) = crx.recv_timeout(Duration::from_millis(5)) {
      e.settle_call(run, call, Ok("null".into()));
    }
    while let Ok(json) = srx.try_recv() {
      results.push(json);
    }
  }
  for json in results {
    assert_eq!(json, r#"{"logs":[],"value":1}"#);
  }
}

/// Heap deaths (a run filling its heap, then its world freed on the same pool) interleaved
/// with trivial runs under a small compute budget: every trivial run returns, whatever ran
/// on its thread before it.
#[test]
fn heap_deaths_do_not_charge_trivial_runs() {
  let (e, erx) = engine_with_events();
  let spec =
    BindingSpec { global: "tools".into(), members: vec!["wait".into()], error_class: None };
  let trivial = Limits { compute_ms: 15.0, ..Limits::default() };
  let dying = Limits { max_heap_mb: 16.0, ..Limits::default() };
  let mut trivial_runs = std::collections::HashSet::new();
  for round in 0..12 {
    e.start(
      "const k: string[] = []; for (;;) k.push('x'.repeat(4096) + k.length)".into(),
      vec![],
      dying,
    )
    .unwrap();
    for i in 0..10 {
      let program = format!("return (await tools.wait({})) + 1", round * 10 + i);
      trivial_runs.insert(e.start(program, vec![spec.clone()], trivial).unwrap());
    }
  }
  // Calls are answered 5 ms after they are made, as a host doing I/O would.
  let mut due: Vec<(std::time::Instant, RunId, u32, String)> = Vec::new();
  let (mut returned, mut died) = (0, 0);
  while returned + died < trivial_runs.len() + 12 {
    let now = std::time::Instant::now();
    due.retain(|(at, run, call, args)| {
      if *at > now {
        return true;
      }
      e.settle_call(*run, *call, Ok(args.clone()));
      false
    });
    match erx.recv_timeout(Duration::from_millis(1)) {
      Ok(HostEvent::Call { run, call, args, .. }) => {
        due.push((now + Duration::from_millis(5), run, call, args))
      }
      Ok(HostEvent::Settled(json)) if json.contains("worker-exit") => died += 1,
      Ok(HostEvent::Settled(json)) => {
        assert!(json.starts_with(r#"{"logs":[],"value":"#), "{json}");
        returned += 1;
      }
      Err(_) => {}
    }
  }
  assert_eq!((returned, died), (trivial_runs.len(), 12));
}

/// More hot programs than cores take turns: each reaches its compute budget (none waits
/// for a turn forever), and one aborted while it waits for a turn ends at once.
#[test]
fn hot_runs_beyond_the_cores_all_progress_and_stop_when_aborted() {
  let (e, rx) = engine();
  let n = sched::priority::Turns::machine_cores() * 3;
  let limits = Limits { compute_ms: 60.0, ..Limits::default() };
  for _ in 0..n {
    e.start("for (;;) {}".into(), vec![], limits).unwrap();
  }
  let forever: Vec<RunId> =
    (0..n).map(|_| e.start("for (;;) {}".into(), vec![], Limits::default()).unwrap()).collect();
  let mut timeouts = 0;
  while timeouts < n {
    let (_, json) = rx.recv_timeout(Duration::from_secs(60)).expect("a hot run ends");
    assert!(json.contains("compute budget exhausted (60ms busy)"), "{json}");
    timeouts += 1;
  }
  for &id in &forever {
    e.abort(id, "enough".into());
  }
  for _ in 0..n {
    let (_, json) = rx.recv_timeout(Duration::from_secs(10)).expect("an aborted run ends");
    assert_eq!(json, r#"{"logs":[],"error":{"kind":"abort","message":"enough"}}"#);
  }
}

/// A host that takes events of at most `max` bytes, answering every call with its argument's
/// length and recording each batch's event size.
struct Bounded {
  max: usize,
  engine: std::sync::OnceLock<std::sync::Weak<Engine>>,
  batches: Mutex<Vec<(usize, Vec<u32>)>>,
  /// Each live-log event's length and entries.
  logs: Mutex<Vec<(usize, Vec<String>)>>,
  settled: Mutex<mpsc::Sender<String>>,
}

impl Host for Bounded {
  fn settled(&self, _run: RunId, result_json: String) {
    let _ = lock(&self.settled).send(result_json);
  }
  fn calls(&self, run: RunId, batch: Vec<HostCall>) {
    let bytes = host::BATCH_ENVELOPE_BYTES
      + batch.iter().map(|c| c.args_json.len() + host::CALL_ENVELOPE_BYTES).sum::<usize>();
    lock(&self.batches).push((bytes, batch.iter().map(|c| c.call).collect()));
    let Some(engine) = self.engine.get().and_then(std::sync::Weak::upgrade) else { return };
    for c in batch {
      engine.settle_call(run, c.call, Ok(c.args_json.len().to_string()));
    }
  }
  fn max_event_bytes(&self) -> usize {
    self.max
  }
  fn logs(&self, _run: RunId, entries_json: String) {
    let entries: Vec<String> = serde_json::from_str(&entries_json).unwrap();
    lock(&self.logs).push((entries_json.len() + host::BATCH_ENVELOPE_BYTES, entries));
  }
}

fn run_bounded(program: &str, max: usize) -> (serde_json::Value, Vec<(usize, Vec<u32>)>) {
  let (v, batches, _) = run_bounded_with(program, max, false);
  (v, batches)
}

#[allow(clippy::type_complexity)]
fn run_bounded_with(
  program: &str,
  max: usize,
  live_logs: bool,
) -> (serde_json::Value, Vec<(usize, Vec<u32>)>, Vec<(usize, Vec<String>)>) {
  let (tx, rx) = mpsc::channel();
  let host = Arc::new(Bounded {
    max,
    engine: Default::default(),
    batches: Default::default(),
    logs: Default::default(),
    settled: Mutex::new(tx),
  });
  let engine = Arc::new(Engine::new(EngineConfig { threads: 1, time_zone: None }, host.clone()));
  let _ = host.engine.set(Arc::downgrade(&engine));
  let spec =
    BindingSpec { global: "tools".into(), members: vec!["sink".into()], error_class: None };
  engine
    .start_with(program.into(), vec![spec], Limits::default(), RunOptions { live_logs })
    .unwrap();
  let json = rx.recv_timeout(Duration::from_secs(30)).expect("run settles");
  let batches = std::mem::take(&mut *lock(&host.batches));
  let logs = std::mem::take(&mut *lock(&host.logs));
  (serde_json::from_str(&json).unwrap(), batches, logs)
}

#[test]
fn live_log_batches_too_long_for_one_host_event_are_split_in_order() {
  let max = 4096;
  let (v, _, logs) = run_bounded_with(
    "for (let i = 0; i < 40; i++) console.log(String(i).padEnd(500, '.')); return 1",
    max,
    true,
  );
  assert_eq!(v["value"], 1);
  assert!(logs.len() >= 5, "{} events", logs.len());
  assert!(
    logs.iter().all(|(bytes, _)| *bytes <= max),
    "{:?}",
    logs.iter().map(|l| l.0).collect::<Vec<_>>()
  );
  let lines: Vec<String> = logs.into_iter().flat_map(|(_, entries)| entries).collect();
  let expected: Vec<String> = (0..40).map(|i| format!("{i:.<500}")).collect();
  assert_eq!(lines, expected, "every entry once, in order");
}

#[test]
fn call_batches_too_long_for_one_host_event_are_split_in_order() {
  let max = 1000;
  // 40 calls of 100-character strings (102 bytes of JSON each) in one slice.
  let (v, batches) = run_bounded(
    "const ps = []; for (let i = 0; i < 40; i++) ps.push(tools.sink('y'.repeat(100))); \
     return (await Promise.all(ps)).reduce((a, b) => a + b, 0)",
    max,
  );
  assert_eq!(v, serde_json::json!({ "logs": [], "value": 40 * 102 }));
  assert!(batches.len() > 4, "{batches:?}");
  assert!(batches.iter().all(|(bytes, _)| *bytes <= max), "{batches:?}");
  let ids: Vec<u32> = batches.iter().flat_map(|(_, ids)| ids.clone()).collect();
  assert_eq!(ids, (1..=40).collect::<Vec<u32>>(), "every call once, in order");
}

#[test]
fn a_call_whose_argument_cannot_fit_in_a_host_event_rejects_in_the_program() {
  let max = 1000;
  let limit = host::max_argument_bytes(max);
  let program = format!(
    "const out = []; \
     for (const n of [{fits}, {over}, 10, 5000]) {{ \
       try {{ out.push(await tools.sink('z'.repeat(n))) }} catch (e) {{ out.push(e.message) }} \
     }} return out",
    fits = limit - 2,
    over = limit - 1,
  );
  let (v, batches) = run_bounded(&program, max);
  let refused = messages::binding_args_too_large(limit);
  assert_eq!(v, serde_json::json!({ "logs": [], "value": [limit, refused, 12, refused] }));
  assert_eq!(batches.len(), 2, "only the calls that fit reach the host: {batches:?}");
}

/// QuickJS's JS-written built-ins are precompiled bytecode that names atoms by their index
/// in `quickjs-atom.h`; a predefined atom added there shifted them (`Array.fromAsync` threw
/// `undefined is not a function`, `Iterator.zip` `bug: state=`), so vendored changes make
/// their atoms at run time.
#[test]
fn precompiled_builtins_keep_their_atoms() {
  let v = run(
    "return [await Array.fromAsync([1, Promise.resolve(2)]), [...Iterator.zip([[1, 2], [3, 4]])]]",
  );
  assert_eq!(v["value"], serde_json::json!([[1, 2], [[1, 3], [2, 4]]]), "{v}");
}

/// `program`'s result in an engine whose runs see `zone`.
fn run_in_zone(program: &str, zone: &str) -> serde_json::Value {
  let (tx, rx) = mpsc::channel();
  let (etx, _) = mpsc::channel();
  let host = Arc::new(Collect(Mutex::new(tx), Mutex::new(etx)));
  let config = EngineConfig { threads: 1, time_zone: crate::zone::Zone::get(zone) };
  let e = Engine::new(config, host);
  e.start(program.to_owned(), vec![], Limits::default()).unwrap();
  let (_, json) = rx.recv_timeout(Duration::from_secs(30)).expect("run settles");
  serde_json::from_str(&json).unwrap()
}

#[test]
fn dates_read_local_time_in_the_engines_zone_never_the_hosts() {
  let program = "const d = new Date(0); \
    return [d.getHours(), d.getTimezoneOffset(), String(d), new Date(2024, 2, 10, 2, 30).getTime(), \
    new Date('2024-11-03T01:30').getTime(), new Date(2024, 6, 1).toTimeString()]";
  assert_eq!(
    run_in_zone(program, "America/New_York")["value"],
    serde_json::json!([
      19,
      300,
      "Wed Dec 31 1969 19:00:00 GMT-0500 (Eastern Standard Time)",
      1_710_055_800_000i64,
      1_730_611_800_000i64,
      "00:00:00 GMT-0400 (Eastern Daylight Time)"
    ])
  );
  // UTC (the default) whatever the host's TZ says: the engine never asks the host.
  assert_eq!(
    run_in_zone(program, "UTC")["value"],
    serde_json::json!([
      0,
      0,
      "Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)",
      1_710_037_800_000i64,
      1_730_597_400_000i64,
      "00:00:00 GMT+0000 (Coordinated Universal Time)"
    ])
  );
}
