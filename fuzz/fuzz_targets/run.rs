//! Whole runs of arbitrary small programs under tight budgets (compute 50 ms, wall 500 ms,
//! heap 16 MB, output 64 KiB). Every run must settle exactly once (the harness aborts on a
//! second settlement or on none within 20 s) with a result of the contract's shape.
//!
//! The first byte picks how the rest becomes a program: as text (lossy UTF-8), or as a
//! sequence of fragments from a table of ordinary and hostile snippets (loops, allocation
//! bombs, binding calls that resolve, reject, answer late or never, timers, Proxies, throws
//! in `finally`, output floods), optionally wrapped in `try`/`finally`, an async function,
//! a timer or a promise chain.
#![no_main]

use code_runtime_core::{BindingSpec, ErrorClassSpec, Limits};
use code_runtime_fuzz::{gen::Bytes, harness, result};
use libfuzzer_sys::fuzz_target;

/// `FUZZ_PRINT=1` prints each program (for reading a crash input).
fn show(program: &str) {
  if std::env::var_os("FUZZ_PRINT").is_some() {
    eprintln!("--- program ---\n{program}\n---");
  }
}
use std::time::Duration;

const SNIPPETS: &[&str] = &[
  "let x: any = 1;",
  "x = [x, x];",
  "console.log('hi', x, { a: [1, 'two'] });",
  "console.log('%s %d %o %j', 'a', 1, { b: 2 }, [3]);",
  "console.error(new Error('shown'));",
  "console.table([{ a: 1 }]); console.group('g'); console.count(); console.groupEnd();",
  "for (;;) {}",
  "while (true) { try { for (;;) {} } finally { continue } }",
  "try { for (;;) {} } finally { throw new Error('in finally') }",
  "for (let i = 0; i < 1e5; i++) x = i;",
  "const s = 'x'.repeat(1 << 20);",
  "let b = 'ab'; for (;;) b = b + b;",
  "const arr: any[] = []; for (;;) arr.push({ arr });",
  "new ArrayBuffer(1e9);",
  "for (;;) console.log('flood', 'x'.repeat(100));",
  "throw new TypeError('boom');",
  "throw { toString() { throw new Error('nested') } };",
  "throw Symbol('sym');",
  "return x;",
  "return new Date();",
  "return { get g() { return 1 } };",
  "return new Proxy({}, { ownKeys() { throw 1 } });",
  "return [1, , 2];",
  "return -0;",
  "return 'ok';",
  "await null;",
  "await new Promise((r) => setTimeout(r, 5));",
  "await new Promise(() => {});",
  "setTimeout(() => { throw new Error('timer threw') }, 0);",
  "setInterval(() => { x = [x] }, 0);",
  "const tid = setTimeout(() => {}, 1e9); clearTimeout(tid);",
  "queueMicrotask(() => { for (;;) {} });",
  "(function loop() { queueMicrotask(loop) })();",
  "(function tick() { setTimeout(tick, 0) })();",
  "x = await tools.echo({ x: 1, s: 'é\\ud800' });",
  "x = await tools.echo(x);",
  "try { await tools.fail({}) } catch (e: any) { x = [e.message, e instanceof ToolError, e.tool] }",
  "await tools.fail(1);",
  "x = await tools.late(1);",
  "await tools.never(1);",
  "tools.never(1); tools.late(2); tools.echo(3);",
  "x = await Promise.all(Array.from({ length: 50 }, (_, i) => tools.echo(i)));",
  "x = await Promise.race([tools.never(0), tools.echo(1)]);",
  "await tools.echo(() => 1);",
  "await tools.echo(new Proxy({}, { get() { throw 1 } }));",
  "x = (await tools.big(0)).length;",
  "Array.prototype.push = () => { throw 1 }; Object.keys = null as any;",
  "(globalThis as any).Object = undefined; (globalThis as any).Promise = undefined;",
  "Object.defineProperty(Object.prototype, 'then', { get() { throw new Error('then') }, configurable: true });",
  "const f = (n: number): number => f(n + 1) + 1; try { f(0) } catch {}",
  "const p: any = new Proxy({}, { get(t, k, r) { return r[k] } }); try { p.x } catch {}",
  "x = /(a+)+$/.test('a'.repeat(40) + '!');",
  "x = structuredClone({ m: new Map([[1, { s: new Set([1]) }]]) });",
  "x = new URL('http://u:p@h:1/p?q=1#f').searchParams.get('q');",
  "x = new TextDecoder().decode(new TextEncoder().encode('é\\ud800'));",
  "x = btoa('abc') + atob('YWJj') + crypto.randomUUID().length + performance.now();",
  // Built-ins QuickJS adds on first use (vendor/README.md), before and after tampering.
  "Object.defineProperty(Array.prototype, 'toString', { get() { x = new Int8Array(1); throw 1 } });",
  "delete (globalThis as any).Date; (globalThis as any).Uint8Array = 1; x = new TextEncoder().encode('a');",
  "x = [new DataView(new ArrayBuffer(8)).getInt8(0), Atomics.add(new Int32Array(1), 0, 1), new Date(0).getTime()];",
  "try { x = new DOMException('m', 'AbortError').code } catch (e) { x = e }",
  "(globalThis as any).RegExp = 1; delete (globalThis as any).Map; x = ['a1'.match('1'), [...'a1'.matchAll('1')], /b/.exec('b')];",
  "x = [new Map([[1, 2]]).entries().next(), new Set([1]).union(new Set([2])).size, new WeakRef({}).deref(), new FinalizationRegistry(() => {})];",
  "x = Function('return this')();",
  "x = (globalThis as any).constructor.constructor('return process')();",
  "await import('fs');",
  "require('fs');",
  "enum E { A, B = 5 } namespace N { export const k = 1 } x = [E.B, N.k];",
  "class P { constructor(public a: number) {} } x = new P(1).a;",
  "x = [1, 2, 3].map((n) => n * 2) satisfies number[];",
  "async function* g() { yield 1; yield await tools.echo(2) } for await (const v of g()) x = v;",
  "label: for (;;) { break label }",
  "x = { [Symbol.toPrimitive]() { return 1 } } as any; x = +x;",
  "x = 'a'.localeCompare('b') + 'ß'.toUpperCase() + (1234.5).toFixed(1);",
];

const WRAPS: &[(&str, &str)] = &[
  ("try {", "} catch (e) { x = String(e) }"),
  ("try {", "} finally { x = 'finally' }"),
  ("await (async () => {", "})();"),
  ("setTimeout(async () => {", "}, 0);"),
  ("await Promise.resolve().then(async () => {", "});"),
  ("{", "}"),
  ("if (x) {", "} else { x = 0 }"),
];

fn program(b: &mut Bytes, rest: &[u8]) -> String {
  if b.byte() % 4 == 0 {
    return String::from_utf8_lossy(rest).into_owned();
  }
  let mut text = String::from("let x: any = 0;\n");
  let n = 1 + b.below(8);
  for _ in 0..n {
    let snippet = SNIPPETS[b.below(SNIPPETS.len())];
    if b.below(3) == 0 {
      let (open, close) = WRAPS[b.below(WRAPS.len())];
      text.push_str(&format!("{open}\n{snippet}\n{close}\n"));
    } else {
      text.push_str(snippet);
      text.push('\n');
    }
  }
  if b.below(2) == 0 {
    text.push_str("return x\n");
  }
  text
}

fn bindings() -> Vec<BindingSpec> {
  vec![BindingSpec {
    global: "tools".into(),
    members: ["echo", "fail", "late", "never", "big"].map(String::from).to_vec(),
    error_class: Some(ErrorClassSpec {
      name: "ToolError".into(),
      member_name_property: "tool".into(),
    }),
  }]
}

const LIMITS: Limits =
  Limits { compute_ms: 50.0, max_wall_ms: 500.0, max_output_bytes: 64 * 1024, max_heap_mb: 16.0 };

fuzz_target!(|data: &[u8]| {
  let mut b = Bytes::new(data);
  let program = program(&mut b, data.get(1..).unwrap_or_default());
  show(&program);
  let big = format!("\"{}\"", "y".repeat(1 << 20));
  let done = harness().run(program.clone(), bindings(), LIMITS, |call| {
    assert!(result::is_json(&call.args_json), "argument is not JSON: {}", call.args_json);
    match call.function {
      0 => Some(Ok(call.args_json.clone())),
      1 => Some(Err("no".into())),
      4 => Some(Ok(big.clone())),
      2 => None, // answered after the run settled
      _ => None, // never answered before the end either
    }
  });
  let o = result::checked(&done.result);
  // The ledger: logs plus the value or message fit in maxOutputBytes.
  let bytes = json_len(&o);
  assert!(
    bytes <= LIMITS.max_output_bytes as usize + 16,
    "output {bytes} bytes over the cap: {program}"
  );
  // Every ending arrives within the wall ceiling plus slack for a sanitizer build.
  assert!(done.elapsed < Duration::from_secs(10), "run took {:?}: {program}", done.elapsed);
});

/// Roughly the ledger's measure (the escapes are re-derived, so allow a little slack).
fn json_len(o: &result::Outcome) -> usize {
  let logs: usize = o.logs.iter().map(|l| l.len() + 3).sum::<usize>() + 2;
  logs + o.value.as_ref().map_or(0, |v| v.len()) + o.error.as_ref().map_or(0, |(_, m)| m.len() + 2)
}
