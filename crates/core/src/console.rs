//! The program's `console`: each call becomes one `logs` entry in the run's ledger.
//!
//! Arguments render through [`crate::inspect`] (no program code runs while a value is
//! read) and join with one space, as Node's console does.

use crate::inspect;
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
      shared.log(format_args(&ctx, &args.0));
    })?
    .with_name(name)?;
    console.set(name, f)?;
  }
  globals.set("console", console)?;
  Ok(())
}

/// Renders and joins `console.log`'s arguments.
pub fn format_args(ctx: &Ctx<'_>, args: &[Value<'_>]) -> Vec<u8> {
  let c = ctx.as_raw().as_ptr();
  let mut out = Vec::new();
  for (i, a) in args.iter().enumerate() {
    if i > 0 {
      out.push(b' ');
    }
    out.extend_from_slice(&inspect::render(c, a.as_raw()));
  }
  out
}
