//! The program's `console`: each call becomes one `logs` entry in the run's ledger.
//!
//! Arguments render as Node's `console.log` renders them: plain strings join with one
//! space; anything else goes through Node's own `util.format` in the inspector realm
//! ([`crate::inspector`]), and through the engine's own safe renderer ([`crate::inspect`])
//! when that realm cannot render them.

use crate::inspect;
use crate::raw;
use crate::run::RunShared;
use rquickjs::function::Rest;
use rquickjs::{Ctx, Function, Object, Value};
use std::rc::Rc;

/// Methods that print their arguments as one entry.
const PRINTING: &[&str] = &["log", "info", "warn", "error", "debug", "trace", "dir"];

pub fn install<'js>(
  ctx: &Ctx<'js>,
  globals: &Object<'js>,
  shared: &Rc<RunShared>,
) -> rquickjs::Result<()> {
  let console = Object::new(ctx.clone())?;
  for &name in PRINTING {
    let shared = shared.clone();
    let f = Function::new(ctx.clone(), move |ctx: Ctx<'js>, args: Rest<Value<'js>>| {
      shared.log(format_args(&ctx, &shared, &args.0));
    })?
    .with_name(name)?;
    console.set(name, f)?;
  }
  globals.set("console", console)?;
  Ok(())
}

/// Renders and joins `console.log`'s arguments.
pub fn format_args(ctx: &Ctx<'_>, shared: &RunShared, args: &[Value<'_>]) -> Vec<u8> {
  let c = ctx.as_raw().as_ptr();
  // Primitives print as Node prints them without the inspector realm (strings raw, the rest
  // as `util.inspect` shows them, which the engine's renderer does exactly for primitives),
  // unless a first string holds format specifiers for later arguments to fill.
  let primitive = |a: &Value<'_>| !a.is_object() && !a.is_function();
  let plain = args.iter().all(primitive)
    && (args.len() < 2
      || !args[0].is_string()
      || !raw::string_bytes(c, args[0].as_raw()).unwrap_or_default().contains(&b'%'));
  if !plain {
    let raw_args: Vec<_> = args.iter().map(|a| a.as_raw()).collect();
    if let Some(text) = shared.inspector.format(c, &raw_args) {
      return text;
    }
  }
  let mut out = Vec::new();
  for (i, a) in args.iter().enumerate() {
    if i > 0 {
      out.push(b' ');
    }
    out.extend_from_slice(&inspect::render(c, a.as_raw()));
  }
  out
}
