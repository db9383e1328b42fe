//! A formatted value as ECMA-402 parts (`formatToParts`, `formatRangeToParts`): ICU4X's
//! `Writeable` output, cut where its annotations change, handed to the prelude as one flat
//! array of `[type, value, type, value, …]` (ranges: `[type, value, source, …]`). Every
//! service's parts go through here: NumberFormat, DateTimeFormat, RelativeTimeFormat,
//! ListFormat.

use crate::intl::common::List;
use rquickjs::{Ctx, IntoJs, Value};
use std::fmt;
use writeable::{Part, PartsWrite, Writeable};

/// Collects a Writeable's output; the innermost annotation names a piece (`rename` maps
/// ICU4X's part names to ECMA-402's); text outside any is `literal`; neighbours of one
/// type (and source) merge. Inside a range's start or end annotation a piece's source is
/// `startRange`/`endRange`, elsewhere `shared`.
pub(crate) struct Parts {
  stack: Vec<&'static str>,
  source: Vec<&'static str>,
  rename: fn(Part) -> &'static str,
  range: Option<(Part, Part)>,
  out: Vec<(&'static str, String, &'static str)>,
}

impl Parts {
  fn collect(
    w: &impl Writeable,
    rename: fn(Part) -> &'static str,
    range: Option<(Part, Part)>,
  ) -> Vec<(&'static str, String, &'static str)> {
    let mut p = Parts { stack: Vec::new(), source: Vec::new(), rename, range, out: Vec::new() };
    let _ = w.write_to_parts(&mut p);
    p.out
  }

  /// The parts of `w`: (type, text).
  pub(crate) fn of(
    w: &impl Writeable,
    rename: fn(Part) -> &'static str,
  ) -> Vec<(&'static str, String)> {
    Parts::collect(w, rename, None).into_iter().map(|(k, t, _)| (k, t)).collect()
  }

  /// The parts of a range `w` whose ends ICU4X annotates `start` and `end`: (type, text,
  /// source).
  pub(crate) fn of_range(
    w: &impl Writeable,
    rename: fn(Part) -> &'static str,
    start: Part,
    end: Part,
  ) -> Vec<(&'static str, String, &'static str)> {
    Parts::collect(w, rename, Some((start, end)))
  }
}

impl fmt::Write for Parts {
  fn write_str(&mut self, s: &str) -> fmt::Result {
    if s.is_empty() {
      return Ok(());
    }
    let kind = self.stack.last().copied().unwrap_or("literal");
    let source = self.source.last().copied().unwrap_or("shared");
    match self.out.last_mut() {
      Some((k, text, src)) if *k == kind && *src == source => text.push_str(s),
      _ => self.out.push((kind, s.to_owned(), source)),
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
    if let Some((start, end)) = self.range {
      if part == start || part == end {
        self.source.push(if part == start { "startRange" } else { "endRange" });
        let r = f(self);
        self.source.pop();
        return r;
      }
    }
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
  List(parts.iter().flat_map(|(k, t)| [*k, t.as_str()]).collect()).into_js(ctx)
}

/// `[type, value, source, …]` for the prelude.
pub(crate) fn range_array<'js>(
  ctx: &Ctx<'js>,
  parts: &[(&'static str, String, &'static str)],
) -> rquickjs::Result<Value<'js>> {
  List(parts.iter().flat_map(|(k, t, src)| [*k, t.as_str(), *src]).collect()).into_js(ctx)
}

#[cfg(test)]
mod tests {
  use super::*;
  use std::fmt::Write;

  /// A Writeable with a range: `[start]–[end]`, each end holding a number.
  struct Range;
  const START: Part = Part { category: "test", value: "start" };
  const END: Part = Part { category: "test", value: "end" };
  const NUM: Part = Part { category: "test", value: "integer" };
  impl Writeable for Range {
    fn write_to_parts<W: PartsWrite + ?Sized>(&self, w: &mut W) -> fmt::Result {
      w.with_part(START, |w| w.with_part(NUM, |w| w.write_str("1")))?;
      w.write_str("–")?;
      w.with_part(END, |w| {
        w.with_part(NUM, |w| w.write_str("2"))?;
        w.write_str(" ")?;
        w.write_str("km")
      })
    }
  }

  fn name(part: Part) -> &'static str {
    part.value
  }

  #[test]
  fn pieces_are_cut_where_annotations_change() {
    assert_eq!(
      Parts::of(&Range, name),
      [
        ("integer", "1".into()),
        ("literal", "–".into()),
        ("integer", "2".into()),
        ("end", " km".into()),
      ]
    );
    assert_eq!(
      Parts::of_range(&Range, name, START, END),
      [
        ("integer", "1".into(), "startRange"),
        ("literal", "–".into(), "shared"),
        ("integer", "2".into(), "endRange"),
        ("literal", " km".into(), "endRange"),
      ]
    );
  }
}
