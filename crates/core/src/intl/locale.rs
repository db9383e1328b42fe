//! Locale natives: structural validation and canonicalization of BCP 47 tags (UTS #35, with
//! CLDR's alias data), likely subtags (`Intl.Locale`'s maximize/minimize), the locale the
//! compiled data serves for a request, and locale-sensitive case mapping.

use crate::intl::common::{self, hold};
use icu_casemap::CaseMapper;
use icu_locale::{LocaleCanonicalizer, LocaleExpander};
use icu_locale_core::Locale;
use rquickjs::{Ctx, Function, Object, Value};

/// Whether `tag` is a structurally valid language tag as ECMA-402 reads one: ICU4X's parser
/// (which also takes `_` as a separator, and repeats ECMA-402 refuses) plus those checks.
fn parse(tag: &str) -> Option<Locale> {
  if tag.is_empty() || tag.contains('_') || !tag.is_ascii() {
    return None;
  }
  let lower = tag.to_ascii_lowercase();
  let subtags: Vec<&str> = lower.split('-').collect();
  // No singleton twice, no variant twice (before the first singleton's content ends: after
  // `-x-` everything is private use).
  let mut singletons = Vec::new();
  let mut variants: Vec<&str> = Vec::new();
  let mut in_extension = false;
  for (i, s) in subtags.iter().enumerate() {
    if s.len() == 1 {
      if *s == "x" {
        break;
      }
      if singletons.contains(s) {
        return None;
      }
      singletons.push(*s);
      in_extension = true;
    } else if !in_extension
      && i > 0
      && (s.len() >= 5 || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit()))
    {
      if variants.contains(s) {
        return None;
      }
      variants.push(s);
    }
  }
  // ECMA-402 takes no extlang subtags and no tag that is only private use.
  if subtags[0] == "x" || subtags[0].len() == 4 || subtags[0] == "root" {
    return None;
  }
  if subtags.len() > 1
    && subtags[1].len() == 3
    && subtags[1].bytes().all(|b| b.is_ascii_alphabetic())
  {
    return None;
  }
  Locale::try_from_str(tag).ok()
}

/// The canonical form of `tag`, or `None` when it is not structurally valid.
pub(crate) fn canonicalize(tag: &str) -> Option<String> {
  let mut loc = parse(tag)?;
  LocaleCanonicalizer::new_extended().canonicalize(&mut loc);
  Some(loc.to_string())
}

/// The locale the compiled data serves for `tag` (language, script and region only), or the
/// empty string when its language is unknown to CLDR (no likely subtags: the data would be
/// the root locale's).
fn available(tag: &str) -> String {
  let loc = common::locale(tag);
  let mut id = loc.id.clone();
  id.variants = Default::default();
  let mut probe = icu_locale_core::LanguageIdentifier::UNKNOWN;
  probe.language = id.language;
  if LocaleExpander::new_extended().maximize(&mut probe) == icu_locale::TransformResult::Unmodified
  {
    return String::new();
  }
  id.to_string()
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "canonicalizeTag",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: Value<'js>| -> rquickjs::Result<Value<'js>> {
      let tag = common::utf8(&ctx, &tag)?;
      match canonicalize(&tag) {
        Some(s) => Ok(rquickjs::String::from_str(ctx.clone(), &s)?.into_value()),
        None => Ok(Value::new_undefined(ctx.clone())),
      }
    })?,
  )?;
  n.set(
    "availableLocale",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: Value<'js>| -> rquickjs::Result<String> {
      Ok(available(&common::utf8(&ctx, &tag)?))
    })?,
  )?;
  n.set(
    "likelySubtags",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, tag: Value<'js>, maximize: bool| -> rquickjs::Result<String> {
        let mut loc = common::locale(&common::utf8(&ctx, &tag)?);
        let expander = LocaleExpander::new_extended();
        if maximize {
          expander.maximize(&mut loc.id);
        } else {
          expander.minimize(&mut loc.id);
        }
        Ok(loc.to_string())
      },
    )?,
  )?;
  n.set(
    "caseMap",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, s: Value<'js>, tag: Value<'js>, upper: bool| -> rquickjs::Result<String> {
        let _held = hold(&ctx, &[&s])?;
        let s = common::utf8(&ctx, &s)?;
        let loc = common::locale(&common::utf8(&ctx, &tag)?);
        let cm = CaseMapper::new();
        Ok(if upper {
          cm.uppercase_to_string(&s, &loc.id).into_owned()
        } else {
          cm.lowercase_to_string(&s, &loc.id).into_owned()
        })
      },
    )?,
  )?;
  Ok(())
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn tags_are_validated_and_canonicalized_as_ecma_402_says() {
    assert_eq!(canonicalize("EN-us").as_deref(), Some("en-US"));
    assert_eq!(canonicalize("iw").as_deref(), Some("he"));
    assert_eq!(canonicalize("en-u-kn-true").as_deref(), Some("en-u-kn"));
    assert_eq!(canonicalize("zh-hant-tw").as_deref(), Some("zh-Hant-TW"));
    for bad in [
      "",
      "en_US",
      "x-private",
      "en-US-u",
      "de-1996-1996",
      "en-u-ca-gregory-u-nu-latn",
      "root",
      "zh-min-nan",
    ] {
      assert_eq!(canonicalize(bad), None, "{bad}");
    }
  }

  #[test]
  fn available_locales_come_from_the_compiled_data() {
    assert_eq!(available("de-CH"), "de-CH");
    assert_eq!(available("en-GB"), "en-GB");
    assert_eq!(available("en-GB-oxendict"), "en-GB");
    assert_eq!(available("zz"), "");
  }
}
