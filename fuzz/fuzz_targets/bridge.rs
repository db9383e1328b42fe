//! The JSON bridge, both directions. A generator turns the input into a JavaScript
//! expression building an engine value (nested objects and arrays, strings with lone
//! surrogates, -0, NaN, sparse arrays, cycles, shared references, getters, Proxies, Dates,
//! Maps, class instances, null-prototype objects, 20,000-deep nesting) plus the JSON text the
//! bridge must write for it, or `None` when it must refuse it. The value then crosses as:
//!
//! - the completion (`return [v]`): the exact JSON, or `invalid-output`;
//! - a binding argument echoed back by the host (`return await tools.echo(v)`): the host
//!   sees the exact JSON, answers with it (JSON → engine), and the completion is that JSON
//!   again; a refused argument rejects without the host being called;
//! - a binding resolution (`return await tools.give()` answered with the JSON).
//!
//! Half the time the program first replaces builtins (`Array.prototype.*`, `Object.keys`,
//! `JSON`, the `Object`/`Array` globals), which must change nothing.
#![no_main]

use code_runtime_core::messages::{BINDING_ARGS_NOT_LOSSLESS, COMPLETION_NOT_LOSSLESS};
use code_runtime_core::{BindingSpec, Limits};
use code_runtime_fuzz::gen::{self, Bytes};
use code_runtime_fuzz::{harness, result};
use libfuzzer_sys::fuzz_target;

/// `FUZZ_PRINT=1` prints each program (for reading a crash input).
fn show(program: &str) {
  if std::env::var_os("FUZZ_PRINT").is_some() {
    eprintln!("--- program ---\n{program}\n---");
  }
}

/// Builtins replaced after the value is built. Each statement may fail (the value may have
/// frozen `globalThis` or a prototype), and failing changes nothing either.
const TAMPER: &str = r#"
const boom: any = () => { throw new Error("tampered builtin ran") }
try { const names = Object.getOwnPropertyNames(Array.prototype); for (let i = 0; i < names.length; i++) if (names[i] !== "length" && names[i] !== "constructor") try { (Array.prototype as any)[names[i]] = boom } catch {} } catch {}
try { Array.isArray = boom } catch {}
try { Object.keys = boom; Object.entries = boom; Object.values = boom; Object.assign = boom } catch {}
try { Object.getOwnPropertyNames = boom; Object.getOwnPropertyDescriptor = boom; Object.getPrototypeOf = boom } catch {}
try { Reflect.ownKeys = boom } catch {}
try { JSON.stringify = boom; JSON.parse = boom } catch {}
try { String.prototype.toString = boom } catch {}
try { Object.defineProperty(Object.prototype, "toJSON", { get: boom, configurable: true }) } catch {}
try { Object.defineProperty(Array.prototype, "0", { get: boom, set: boom, configurable: true }) } catch {}
try { (globalThis as any).Object = undefined } catch {}
try { (globalThis as any).Array = undefined } catch {}
"#;

/// Generous: a sanitizer build is ~10x slower than release at building and crossing an
/// 80,000-deep value.
fn limits() -> Limits {
  Limits {
    compute_ms: 10_000.0,
    max_wall_ms: 15_000.0,
    max_output_bytes: 4 << 20,
    max_heap_mb: 256.0,
  }
}

/// A run the sanitizer build (on a loaded machine) could not finish within [`limits`] ended
/// as the contract says it must (`timeout`), which says nothing about the bridge: such an
/// input is inconclusive, not a failure. Counted, and reported every 100.
fn budget_ran_out(o: &result::Outcome) -> bool {
  use std::sync::atomic::{AtomicUsize, Ordering};
  static INCONCLUSIVE: AtomicUsize = AtomicUsize::new(0);
  let ran_out = matches!(&o.error, Some((kind, _)) if kind == "timeout");
  if ran_out {
    let n = INCONCLUSIVE.fetch_add(1, Ordering::Relaxed) + 1;
    if n % 100 == 1 {
      eprintln!("bridge: {n} input(s) ran out of budget (inconclusive)");
    }
  }
  ran_out
}

fn tools() -> Vec<BindingSpec> {
  vec![BindingSpec {
    global: "tools".into(),
    members: vec!["echo".into(), "give".into()],
    error_class: None,
  }]
}

fn short(s: &str) -> String {
  s.chars().take(600).collect()
}

fuzz_target!(|data: &[u8]| {
  let mut b = Bytes::new(data);
  let mode = b.byte();
  let tamper = if mode & 1 == 1 { TAMPER } else { "" };
  let v = gen::value(&mut b);
  let h = harness();
  match (mode >> 1) % 3 {
    // The completion, inside an array: an async function's `return` looks up `then` on the
    // returned value (a Proxy trap or a revoked Proxy would throw there, a Promise would be
    // adopted), which is the program's semantics, not the bridge's.
    0 => {
      let program = format!("const v: any = ({});\n{tamper}\nreturn [v]", v.js);
      show(&program);
      let done = h.run(program.clone(), vec![], limits(), |_| unreachable!("no bindings"));
      let o = result::checked(&done.result);
      if budget_ran_out(&o) {
        return;
      }
      assert!(o.logs.is_empty(), "logs from {program}");
      if let Some(json) = &v.json {
        let expected = format!("[{json}]");
        assert_eq!(
          o.value.as_deref(),
          Some(expected.as_str()),
          "{program}\n=> {}",
          short(&done.result)
        );
      } else {
        let (kind, message) =
          o.error.unwrap_or_else(|| panic!("{program}\n=> {}", short(&done.result)));
        assert_eq!(
          (kind.as_str(), message.as_str()),
          ("invalid-output", COMPLETION_NOT_LOSSLESS),
          "{program}"
        );
      }
    }
    // A binding argument, echoed back.
    1 => {
      let program = format!("const v: any = ({});\n{tamper}\nreturn await tools.echo(v)", v.js);
      show(&program);
      let done = h.run(program.clone(), tools(), limits(), |call| {
        assert!(
          result::is_json(&call.args_json),
          "argument is not JSON: {}",
          short(&call.args_json)
        );
        Some(Ok(call.args_json.clone()))
      });
      let o = result::checked(&done.result);
      if budget_ran_out(&o) {
        return;
      }
      if let Some(json) = &v.json {
        assert_eq!(done.calls.len(), 1, "{program}");
        assert_eq!(&done.calls[0].args_json, json, "argument of {program}");
        assert_eq!(
          o.value.as_deref(),
          Some(json.as_str()),
          "{program}\n=> {}",
          short(&done.result)
        );
      } else {
        assert!(done.calls.is_empty(), "host called with a refused argument: {program}");
        let (kind, message) =
          o.error.unwrap_or_else(|| panic!("{program}\n=> {}", short(&done.result)));
        assert_eq!(kind, "exception", "{program}: {message}");
        assert!(message.contains(BINDING_ARGS_NOT_LOSSLESS), "{program}: {message}");
      }
    }
    // A binding resolution (JSON → engine → JSON).
    _ => {
      let Some(json) = v.json.clone() else { return };
      let program = format!("{tamper}\nreturn await tools.give(0)");
      show(&format!("{program}\n// answered with {json}"));
      let done = h.run(program, tools(), limits(), |_| Some(Ok(json.clone())));
      let o = result::checked(&done.result);
      if budget_ran_out(&o) {
        return;
      }
      assert_eq!(
        o.value.as_deref(),
        Some(json.as_str()),
        "resolution {}\n=> {}",
        short(&json),
        short(&done.result)
      );
    }
  }
});
