//! `Intl.Collator` and `localeCompare`: the Unicode Collation Algorithm with CLDR's
//! tailorings (ICU4X `Collator`), comparing the program's UTF-16 strings as they are.

use crate::intl::common::{self, hold, Cache};
use icu_collator::options::{AlternateHandling, CaseLevel, CollatorOptions, Strength};
use icu_collator::preferences::{CollationCaseFirst, CollationNumericOrdering};
use icu_collator::{Collator, CollatorBorrowed, CollatorPreferences};
use rquickjs::{Ctx, Function, Object, Value};
use std::cmp::Ordering;
use std::rc::Rc;

thread_local! {
  static COLLATORS: Cache<CollatorBorrowed<'static>> = const { Cache::new() };
}

fn collator(ctx: &Ctx<'_>, record: &Object<'_>) -> rquickjs::Result<Rc<CollatorBorrowed<'static>>> {
  let key: String = record.get("key")?;
  COLLATORS.with(|cache| {
    cache.get(&key, || {
      let tag: String = record.get("dataLocale")?;
      let sensitivity: String = record.get("sensitivity")?;
      let ignore: bool = record.get("ignorePunctuation")?;
      let numeric: bool = record.get("numeric")?;
      let case_first: String = record.get("caseFirst")?;
      let loc = common::locale(&tag);
      let mut prefs = CollatorPreferences::from(&loc);
      prefs.numeric_ordering = Some(if numeric {
        CollationNumericOrdering::True
      } else {
        CollationNumericOrdering::False
      });
      prefs.case_first = Some(match case_first.as_str() {
        "upper" => CollationCaseFirst::Upper,
        "lower" => CollationCaseFirst::Lower,
        _ => CollationCaseFirst::False,
      });
      let mut options = CollatorOptions::default();
      let (strength, case_level) = match sensitivity.as_str() {
        "base" => (Strength::Primary, CaseLevel::Off),
        "accent" => (Strength::Secondary, CaseLevel::Off),
        "case" => (Strength::Primary, CaseLevel::On),
        _ => (Strength::Tertiary, CaseLevel::Off),
      };
      options.strength = Some(strength);
      options.case_level = Some(case_level);
      if ignore {
        options.alternate_handling = Some(AlternateHandling::Shifted);
      }
      Collator::try_new(prefs, options)
        .map_err(|_| rquickjs::Exception::throw_range(ctx, "Incorrect locale information provided"))
    })
  })
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "collatorCompare",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, record: Object<'js>, a: Value<'js>, b: Value<'js>| -> rquickjs::Result<i32> {
        let c = collator(&ctx, &record)?;
        let _held = hold(&ctx, &[&a, &b])?;
        let a = common::utf16(&ctx, &a)?;
        let b = common::utf16(&ctx, &b)?;
        Ok(match c.compare_utf16(&a, &b) {
          Ordering::Less => -1,
          Ordering::Equal => 0,
          Ordering::Greater => 1,
        })
      },
    )?,
  )?;
  n.set(
    "collatorIgnoresPunctuation",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: Value<'js>| -> rquickjs::Result<bool> {
      // CLDR's Thai collation shifts punctuation by default (V8 reports it).
      let tag = common::utf8(&ctx, &tag)?;
      Ok(tag == "th" || tag.starts_with("th-"))
    })?,
  )?;
  Ok(())
}
