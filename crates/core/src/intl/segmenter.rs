//! `Intl.Segmenter` natives: grapheme, word and sentence boundaries (UAX #29, with ICU4X's
//! dictionaries and models for scripts written without spaces).
//!
//! The prelude never hands a whole long string over: it slices a window (a few thousand
//! UTF-16 units, starting at a boundary) and asks for the boundaries in it, so iterating a
//! 10 MB string costs linear time and bounded memory, and each window charges the run's
//! budget. A boundary closer to the window's end than [`MARGIN`] is not reported unless the
//! window ends the string (the rules look a little ahead); the prelude slides on from the
//! last one reported, widening the window when none was (one cluster longer than the window).

use crate::intl::common::{self, hold, List};
use icu_segmenter::options::{SentenceBreakInvariantOptions, WordBreakInvariantOptions};
use icu_segmenter::{GraphemeClusterSegmenter, SentenceSegmenter, WordSegmenter};
use rquickjs::{Ctx, Function, Object, Value};

/// Units of lookahead a boundary needs before it is reported (see the module's text).
const MARGIN: usize = 64;

/// Boundaries of `text` (a window of the program's string) after 0, each as `2 * offset +
/// word_like` (word-like: the segment ending there is letters or numbers; grapheme and
/// sentence segments never are). With `at_end` false, boundaries within [`MARGIN`] of the
/// end are left out.
fn boundaries(granularity: u32, text: &[u16], at_end: bool) -> Vec<f64> {
  let limit = if at_end { text.len() } else { text.len().saturating_sub(MARGIN) };
  let mut out = Vec::new();
  let mut push = |b: usize, word_like: bool| -> bool {
    if b == 0 {
      return true;
    }
    if b > limit {
      return false;
    }
    out.push((2 * b + usize::from(word_like)) as f64);
    true
  };
  match granularity {
    0 => {
      for b in GraphemeClusterSegmenter::new().segment_utf16(text) {
        if !push(b, false) {
          break;
        }
      }
    }
    1 => {
      let mut it = word_segmenter().segment_utf16(text);
      while let Some(b) = it.next() {
        if !push(b, it.is_word_like()) {
          break;
        }
      }
    }
    _ => {
      let segmenter = SentenceSegmenter::new(SentenceBreakInvariantOptions::default());
      for b in segmenter.segment_utf16(text) {
        if !push(b, false) {
          break;
        }
      }
    }
  }
  out
}

fn word_segmenter() -> icu_segmenter::WordSegmenterBorrowed<'static> {
  WordSegmenter::new_auto(WordBreakInvariantOptions::default())
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "segmentWindow",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       granularity: u32,
       text: Value<'js>,
       at_end: bool|
       -> rquickjs::Result<List<f64>> {
        let _held = hold(&ctx, &[&text, &text, &text, &text])?;
        let text = common::utf16(&ctx, &text)?;
        Ok(List(boundaries(granularity, &text, at_end)))
      },
    )?,
  )?;
  Ok(())
}

#[cfg(test)]
mod tests {
  use super::*;

  fn utf16(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
  }

  #[test]
  fn boundaries_carry_word_likeness_and_keep_a_margin() {
    let text = utf16("Hello, world 42!");
    let b = boundaries(1, &text, true);
    assert_eq!(b, [11.0, 12.0, 14.0, 25.0, 26.0, 31.0, 32.0]);
    assert_eq!(boundaries(0, &utf16("e\u{301}👍🏽x"), true), [4.0, 12.0, 14.0]);
    assert_eq!(boundaries(2, &utf16("One. Two? Three"), true), [10.0, 20.0, 30.0]);
    let long = utf16(&"ab ".repeat(100));
    let cut = boundaries(1, &long, false);
    assert!(cut.iter().all(|&b| (b as usize) / 2 <= long.len() - MARGIN));
    assert_eq!(*cut.last().unwrap() as usize / 2, 236);
  }
}
