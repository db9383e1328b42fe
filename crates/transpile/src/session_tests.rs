//! Session mode: exact output for small programs, positions, errors, and (when `node` is on
//! the PATH) runs evaluated one after another in one global object.

use crate::{transpile, transpile_session, TranspileErrorKind, PREFIX, SUFFIX};

fn session(src: &str) -> String {
  let code = transpile_session(src).unwrap_or_else(|e| panic!("{src:?}: {e:?}")).code;
  code.trim_end().to_owned()
}

/// `lines` joined as the printer writes them: one statement or brace per line.
fn wrapped(lines: &[&str]) -> String {
  format!("(async (__global)=>{{\n{}\n}})(this);", lines.join("\n"))
}

#[test]
fn declarations_become_global_assignments() {
  assert_eq!(
    session("const a = 1, b = 2;\nlet c;\nvar d;\nvar e = 3;\nreturn a + b"),
    wrapped(&[
      "__global.a = 1, __global.b = 2;",
      "__global.c = void 0;",
      // `var` without initializer keeps a value an earlier run gave the name.
      "\"d\" in __global || (__global.d = void 0);",
      "__global.e = 3;",
      "return __global.a + __global.b;",
    ])
  );
}

#[test]
fn destructuring_becomes_an_assignment_pattern() {
  assert_eq!(
    session(
      "const { a, b: [c = 1], d = 2, ...rest } = o;\nlet [x, , ...ys] = xs;\n\
       ({ a, z = 3 } = o);\nreturn { a, c }"
    ),
    wrapped(&[
      "({ a: __global.a, b: [__global.c = 1], d: __global.d = 2, ...__global.rest } = o);",
      "[__global.x, , ...__global.ys] = xs;",
      // `z` is not declared by this run: it stays whatever it resolves to.
      "({ a: __global.a, z = 3 } = o);",
      "return {",
      "a: __global.a,",
      "c: __global.c",
      "};",
    ])
  );
}

#[test]
fn functions_are_hoisted_in_order_after_directives() {
  assert_eq!(
    session(
      "'use strict';\nlet n = f();\nfunction f() { return g() }\n\
       async function g() { await 0; return f }\nfunction* h() { yield n }\nreturn n"
    ),
    wrapped(&[
      "'use strict';",
      "__global.f = function f() {",
      // A plain call keeps `this` undefined, as calling a binding would.
      "return (0, __global.g)();",
      "};",
      "__global.g = async function g() {",
      "await 0;",
      "return __global.f;",
      "};",
      "__global.h = function* h() {",
      "yield __global.n;",
      "};",
      "__global.n = (0, __global.f)();",
      "return __global.n;",
    ])
  );
}

#[test]
fn classes_are_assigned_in_place_and_keep_their_inner_name() {
  assert_eq!(
    session(
      "class A { static make() { return new A() } }\n\
       class B extends A { constructor(public x: number) { super() } }\nreturn new B(1).x"
    ),
    wrapped(&[
      "__global.A = class A {",
      "static make() {",
      "return new A();",
      "}",
      "};",
      "__global.B = class B extends __global.A {",
      "x;",
      "constructor(x){",
      "super(), this.x = x;",
      "}",
      "};",
      "return new __global.B(1).x;",
    ])
  );
}

#[test]
fn enums_and_namespaces_are_lowered_then_made_global() {
  assert_eq!(
    session("enum E { A, B = 5 }\nnamespace N { export const x: number = 1 }\nreturn [E.A, N.x]"),
    wrapped(&[
      "__global.E = /*#__PURE__*/ function(E) {",
      // The lowering's parameter has the enum's identity; inside, it is the parameter.
      "E[E[\"A\"] = 0] = \"A\";",
      "E[E[\"B\"] = 5] = \"B\";",
      "return E;",
      "}({});",
      "(function(N) {",
      "N.x = 1;",
      "})(__global.N || (__global.N = {}));",
      "return [",
      "0,",
      "__global.N.x",
      "];",
      // swc puts the namespace's `var N;` last; it is hoisted anyway, and harmless here.
      "\"N\" in __global || (__global.N = void 0);",
    ])
  );
}

#[test]
fn shadowing_bindings_stay_local() {
  assert_eq!(
    session(
      "const x = 1;\nfunction f(x) { return x }\nconst g = (x) => x;\n\
       { const x = 2; x }\ntry {} catch (x) { x }\nreturn [x, f(2)]"
    ),
    wrapped(&[
      "__global.f = function f(x) {",
      "return x;",
      "};",
      "__global.x = 1;",
      // An anonymous function keeps its name through a property definition.
      "__global.g = ({",
      "g: (x)=>x",
      "}).g;",
      "{",
      "const x = 2;",
      "x;",
      "}",
      "try {} catch (x) {",
      "x;",
      "}",
      "return [",
      "__global.x,",
      "(0, __global.f)(2)",
      "];",
    ])
  );
}

#[test]
fn block_scoped_declarations_stay_local_but_var_is_function_wide() {
  assert_eq!(
    session(
      "for (let i = 0; i < 2; i++) {}\nfor (const k of ks) {}\n\
       if (c) { let l = 1; const m = 2; class C {} function fn() {} var v = 1 }\n\
       for (var j in o) {}\nfor (var [p, q] of pairs) {}\nfor (var n = 0, t; n < 1; n++) {}\nreturn j"
    ),
    wrapped(&[
      "for(let i = 0; i < 2; i++){}",
      "for (const k of ks){}",
      "if (c) {",
      "let l = 1;",
      "const m = 2;",
      "class C {",
      "}",
      "function fn() {}",
      "__global.v = 1;",
      "}",
      "for(__global.j in o){}",
      "for ([__global.p, __global.q] of pairs){}",
      // The fixer parenthesizes `in` inside a `for` head.
      "for(__global.n = 0, (\"t\" in __global) || (__global.t = void 0); __global.n < 1; __global.n++){}",
      "return __global.j;",
    ])
  );
}

#[test]
fn using_declarations_stay_local() {
  assert_eq!(
    session("await using r = res();\nusing s = res();\nreturn [r, s]"),
    wrapped(&["await using r = res();", "using s = res();", "return [", "r,", "s", "];"])
  );
}

#[test]
fn references_assignments_shorthands_and_calls() {
  assert_eq!(
    session("let a = 0;\na = 1; a += 2; a++;\n[a] = [3];\nf`t`;\nf?.();\nnew f();\nreturn { a, b: typeof a };\nfunction f() {}"),
    wrapped(&[
      "__global.f = function f() {};",
      "__global.a = 0;",
      "__global.a = 1;",
      "__global.a += 2;",
      "__global.a++;",
      "[__global.a] = [",
      "3",
      "];",
      "(0, __global.f)`t`;",
      "(0, __global.f)?.();",
      "new __global.f();",
      "return {",
      "a: __global.a,",
      "b: typeof __global.a",
      "};",
    ])
  );
}

#[test]
fn the_global_parameter_cannot_be_shadowed_or_captured() {
  // The program's own `__global` (a declaration, a parameter, or a global from an earlier
  // run) never means the wrapper's parameter: hygiene renames one side.
  assert_eq!(
    session("const __global = 1;\nfunction q(__global) { return __global + x }\nlet x = __global;"),
    wrapped(&[
      "__global.q = function q(__global1) {",
      "return __global1 + __global.x;",
      "};",
      "__global.__global = 1;",
      "__global.x = __global.__global;",
    ])
  );
  assert_eq!(
    session("const y = __global;"),
    "(async (__global1)=>{\n__global1.y = __global;\n})(this);"
  );
}

#[test]
fn positions_still_map_to_the_program() {
  let src = "const a = 1;\n\nfunction f() {\n  throw new Error('in f')\n}\nlet b = 2;\nthrow new Error('top')";
  let t = transpile_session(src).unwrap();
  let throws: Vec<(u32, u32)> = t
    .code
    .lines()
    .enumerate()
    .filter_map(|(i, l)| l.find("throw").map(|c| (i as u32 + 1, c as u32 + 1)))
    .collect();
  assert_eq!(throws.len(), 2, "{}", t.code);
  // The hoisted function's throw comes first in the output and still maps to line 4.
  assert_eq!(t.positions.original(throws[0].0, throws[0].1), Some((4, 3)));
  assert_eq!(t.positions.original(throws[1].0, throws[1].1), Some((7, 1)));
  // The rewritten declaration maps to its declarator.
  let (line, col) = t
    .code
    .lines()
    .enumerate()
    .find_map(|(i, l)| l.find("__global.b =").map(|c| (i as u32 + 1, c as u32 + 1)))
    .unwrap();
  assert_eq!(t.positions.original(line, col), Some((6, 5)));
}

#[test]
fn errors_are_the_same_as_without_session() {
  for src in [
    "const a = 1;\nconst c = ;\n",
    "let = ;",
    "}); globalThis.x = 1; (async () => {",
    "})(); (async () => {",
    "import fs from 'fs'\nreturn 1",
    "const m = await import('fs')",
    "export const a = 1",
    "typeof\n`\\u`",
  ] {
    assert_eq!(transpile_session(src).unwrap_err(), transpile(src).unwrap_err(), "{src:?}");
  }
  assert_eq!(transpile_session("export const a = 1").unwrap_err().kind, TranspileErrorKind::Module);
}

#[test]
fn the_run_mode_output_is_the_program_as_written() {
  let program = "const x = 1;\nfunction f() { return x }\nreturn f()";
  let code = transpile(program).unwrap().code;
  assert_eq!(code, format!("{PREFIX}{program}{SUFFIX}"));
}

/// Evaluates runs in order in one Node `vm` context (strict, as the engine evaluates them)
/// and returns each run's JSON result. `None` when `node` is not installed.
fn run_in_node(runs: &[&str]) -> Option<Vec<String>> {
  use std::io::Write;
  use std::process::{Command, Stdio};
  const DRIVER: &str = r#"
    const vm = require('vm');
    const runs = require('fs').readFileSync(0, 'utf8').split('\0');
    const ctx = vm.createContext({});
    (async () => {
      for (const code of runs) {
        let out;
        try { out = JSON.stringify(await vm.runInContext("'use strict';" + code, ctx)); }
        catch (e) { out = 'throws ' + e.name + ': ' + e.message; }
        console.log(out);
      }
    })();
  "#;
  let mut child = Command::new("node")
    .args(["-e", DRIVER])
    .stdin(Stdio::piped())
    .stdout(Stdio::piped())
    .spawn()
    .ok()?;
  let codes: Vec<String> = runs.iter().map(|r| transpile_session(r).unwrap().code).collect();
  child.stdin.take()?.write_all(codes.join("\0").as_bytes()).ok()?;
  let out = child.wait_with_output().ok()?;
  assert!(out.status.success());
  Some(String::from_utf8(out.stdout).ok()?.lines().map(str::to_owned).collect())
}

#[test]
fn runs_share_declarations_in_node() {
  let runs = [
    "const x = 1; let y = 2; var z = 5; let u;\n\
     function f() { return x + y }\nclass A { static v = 7; static self() { return A } }\n\
     enum E { P, Q }\nnamespace N { export const k = 3 }\nreturn f()",
    "return [x, y, z, u, f(), A.v, E.Q, N.k, typeof f]",
    // Redeclaring replaces; `var` without initializer keeps the value; `f` sees the new `x`.
    "const x = 10; var z; return [x, f(), z]",
    // Shadowing inside the run is untouched.
    "const s = 1; function g(s) { return s * 2 }\nconst h = () => { const s = 3; return s };\n\
     { const s = 4 } return [g(5), h(), s]",
    "const { a, b: [c = 9], ...rest } = { a: 1, b: [], d: 4 }; return [a, c, rest]",
    "return [a, c, rest.d]",
    // Reassigning `globalThis` does not lose the session: the wrapper captured `this`.
    "globalThis = 0; const after = 1; return after",
    "const q = 2; return [q, after]",
    "function t() { return this } return t() === undefined",
    "const A0 = A; A = null; return A0.self() === A0",
    "return early(); function early() { return 'hoisted' }",
    "const g = () => 1; const C = class {}; var h = (function () {}); let k = async () => 0;\n\
     let l; l = () => 0; var m = () => 0; m ||= 1; return [g.name, C.name, h.name, k.name, l.name, m.name]",
    // A block's function stays in the block (strict mode), even with a global of that name.
    "function bf() { return 'outer' }\n{ function bf() { return 'inner' } var inBlock = bf() }\n\
     return [bf(), inBlock]",
    // TypeScript declaration merging within a run.
    "enum M { A } namespace M { export const b = 2 }\nclass P2 {} namespace P2 { export const x = 1 }\n\
     declare const ambient: number; return [M.A, M.b, P2.x, typeof ambient]",
    "for (var i = 0; i < 3; i++) {} return i",
    "return i",
    "let w = 1; const bump = () => ++w; bump(); return w",
    "bump(); return w",
  ];
  let Some(results) = run_in_node(&runs) else {
    eprintln!("node is not installed; skipping");
    return;
  };
  assert_eq!(
    results,
    [
      "3",
      "[1,2,5,null,3,7,1,3,\"function\"]",
      "[10,12,5]",
      "[10,3,1]",
      "[1,9,{\"d\":4}]",
      "[1,9,4]",
      "1",
      "[2,1]",
      "true",
      "true",
      "\"hoisted\"",
      "[\"g\",\"C\",\"h\",\"k\",\"l\",\"m\"]",
      "[\"outer\",\"inner\"]",
      "[0,2,1,\"undefined\"]",
      "3",
      "3",
      "2",
      "3",
    ]
  );
}
