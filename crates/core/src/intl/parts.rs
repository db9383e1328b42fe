//! A formatted value as ECMA-402 parts (`formatToParts`): ICU4X's `Writeable` output, cut
//! where its annotations change, handed to the prelude as one flat array of
//! `[type, value, type, value, …]`.

use rquickjs::{Array, Ctx, Value};
use std::fmt;
use writeable::{Part, PartsWrite, Writeable};

/// Collects a Writeable's output; the innermost annotation names a piece (`rename` maps
/// ICU4X's part names to ECMA-402's); text outside any is `literal`; neighbours of one
/// type merge.
pub(crate) struct Parts {
  stack: Vec<&'static str>,
  rename: fn(Part) -> &'static str,
  pub(crate) out: Vec<(&'static str, String)>,
}

impl Parts {
  pub(crate) fn of(
    w: &impl Writeable,
    rename: fn(Part) -> &'static str,
  ) -> Vec<(&'static str, String)> {
    let mut p = Parts { stack: Vec::new(), rename, out: Vec::new() };
    let _ = w.write_to_parts(&mut p);
    p.out
  }
}

impl fmt::Write for Parts {
  fn write_str(&mut self, s: &str) -> fmt::Result {
    if s.is_empty() {
      return Ok(());
    }
    let kind = self.stack.last().copied().unwrap_or("literal");
    match self.out.last_mut() {
      Some((k, text)) if *k == kind => text.push_str(s),
      _ => self.out.push((kind, s.to_owned())),
    }
    Ok(())
  }
}

impl PartsWrite for Parts {
  type SubPartsWrite = Parts;
  fn with_part(
    &mut self,
    part: Part,
    mut f: impl FnMut(&mut Self::SubPartsWrite) -> fmt::Result,
  ) -> fmt::Result {
    let name = (self.rename)(part);
    // An annotation with no ECMA-402 name (a sign inside a number) keeps its outer type.
    let name = if name.is_empty() { self.stack.last().copied().unwrap_or("literal") } else { name };
    self.stack.push(name);
    let r = f(self);
    self.stack.pop();
    r
  }
}

/// `[type, value, …]` for the prelude.
pub(crate) fn array<'js>(
  ctx: &Ctx<'js>,
  parts: &[(&'static str, String)],
) -> rquickjs::Result<Value<'js>> {
  let arr = Array::new(ctx.clone())?;
  for (i, (k, t)) in parts.iter().enumerate() {
    arr.set(2 * i, *k)?;
    arr.set(2 * i + 1, t.as_str())?;
  }
  Ok(arr.into_value())
}
