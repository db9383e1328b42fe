//! Locale natives: structural validation and canonicalization of BCP 47 tags (UTS #35, with
//! CLDR's alias data), likely subtags (`Intl.Locale`'s maximize/minimize), the locale the
//! compiled data serves for a request, locale-sensitive case mapping, and the locale info
//! `Intl.Locale` reads off CLDR's supplemental data (week data, a region's time zones).

use crate::intl::common::{self, hold, List};
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
  // ICU4X's language subtags have 2-3 letters; UTS #35's may have 5-8 (`posix`): the rest is
  // canonicalized under `und`, and the language put back in lower case.
  let first = tag.split('-').next().unwrap_or("");
  if (5..=8).contains(&first.len()) && first.bytes().all(|b| b.is_ascii_alphabetic()) {
    let rest = canonicalize(&format!("und{}", &tag[first.len()..]))?;
    return Some(format!("{}{}", first.to_ascii_lowercase(), rest.strip_prefix("und")?));
  }
  let mut loc = parse(tag)?;
  LocaleCanonicalizer::new_extended().canonicalize(&mut loc);
  alias_extension_values(&mut loc);
  Some(loc.to_string())
}

/// CLDR's aliases of extension values (bcp47/*.xml: `deprecated`/`preferred`, and the
/// `alias` spellings that are also valid values), which ICU4X's canonicalizer leaves alone.
const UNICODE_VALUE_ALIASES: &[(&str, &str, &str)] = &[
  ("ca", "ethiopic-amete-alem", "ethioaa"),
  ("ca", "islamicc", "islamic-civil"),
  ("ks", "primary", "level1"),
  ("ks", "tertiary", "level3"),
  ("ms", "imperial", "uksystem"),
  ("tz", "aqams", "nzakl"),
  ("tz", "cnckg", "cnsha"),
  ("tz", "cnhrb", "cnsha"),
  ("tz", "cnkhg", "cnurc"),
  ("tz", "cuba", "cuhav"),
  ("tz", "egypt", "egcai"),
  ("tz", "eire", "iedub"),
  ("tz", "est", "papty"),
  ("tz", "gmt0", "gmt"),
  ("tz", "hongkong", "hkhkg"),
  ("tz", "iceland", "isrey"),
  ("tz", "iran", "irthr"),
  ("tz", "israel", "jeruslm"),
  ("tz", "jamaica", "jmkin"),
  ("tz", "libya", "lytip"),
  ("tz", "navajo", "usden"),
  ("tz", "poland", "plwaw"),
  ("tz", "portugal", "ptlis"),
  ("tz", "uct", "utc"),
  ("tz", "universal", "utc"),
  ("tz", "zulu", "utc"),
];

fn alias_extension_values(loc: &mut Locale) {
  use icu_locale_core::extensions::{transform, unicode};
  for (key, from, to) in UNICODE_VALUE_ALIASES {
    let Ok(k) = unicode::Key::try_from_str(key) else { continue };
    let matches = loc.extensions.unicode.keywords.get(&k).is_some_and(|v| v.to_string() == *from);
    if let (true, Ok(v)) = (matches, unicode::Value::try_from_str(to)) {
      loc.extensions.unicode.keywords.set(k, v);
    }
  }
  if let Ok(m0) = transform::Key::try_from_str("m0") {
    let names = loc.extensions.transform.fields.get(&m0).is_some_and(|v| v.to_string() == "names");
    if let (true, Ok(v)) = (names, transform::Value::try_from_str("prprname")) {
      loc.extensions.transform.fields.set(m0, v);
    }
  }
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

/// `tag` with CLDR's likely subtags added (maximize) or removed (minimize); a tag ICU4X
/// cannot hold (a 5-8 letter language) as it is.
fn likely_subtags(tag: &str, maximize: bool) -> String {
  let Ok(mut loc) = Locale::try_from_str(tag) else { return tag.to_owned() };
  let expander = LocaleExpander::new_extended();
  if maximize {
    expander.maximize(&mut loc.id);
    // What ICU4X leaves without a language (`und`, `und-150`) takes CLDR's `und`: English.
    if loc.id.language.is_unknown() {
      loc.id.language = icu_locale_core::subtags::language!("en");
      expander.maximize(&mut loc.id);
    }
  } else {
    expander.minimize(&mut loc.id);
  }
  loc.to_string()
}

/// CLDR's week data for `tag` (its region, `-u-rg-`, `-u-fw-`): the first day (1 Monday …
/// 7 Sunday), then the weekend's days in ascending order.
fn week_info(tag: &str) -> Vec<u8> {
  use icu_calendar::types::Weekday;
  use icu_calendar::week::WeekInformation;
  let loc = common::locale(tag);
  let Ok(info) = WeekInformation::try_new((&loc).into()) else {
    return vec![1, 6, 7];
  };
  let mut out = vec![info.first_weekday as u8];
  let mut weekend: Vec<u8> = info.weekend().map(|d: Weekday| d as u8).collect();
  weekend.sort_unstable();
  out.extend(weekend);
  out
}

/// The canonical IANA zones of a region (`US`), sorted: the zones whose BCP 47 id (UN/LOCODE
/// based, `usnyc`) starts with the region's code.
fn region_time_zones(region: &str) -> Vec<String> {
  let prefix = region.to_ascii_lowercase();
  if prefix.len() != 2 {
    return Vec::new();
  }
  let parser = icu_time::zone::iana::IanaParserExtended::new();
  let mut out: Vec<String> = parser
    .iter()
    .filter(|z| z.time_zone.as_str().starts_with(prefix.as_str()))
    .map(|z| z.canonical.to_string())
    .collect();
  out.sort();
  out.dedup();
  out
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
        Ok(likely_subtags(&common::utf8(&ctx, &tag)?, maximize))
      },
    )?,
  )?;
  n.set(
    "weekInfo",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: Value<'js>| -> rquickjs::Result<List<u8>> {
      Ok(List(week_info(&common::utf8(&ctx, &tag)?)))
    })?,
  )?;
  n.set(
    "regionTimeZones",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, region: Value<'js>| -> rquickjs::Result<List<String>> {
        Ok(List(region_time_zones(&common::utf8(&ctx, &region)?)))
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
    assert_eq!(canonicalize("und-u-ca-ethiopic-amete-alem").as_deref(), Some("und-u-ca-ethioaa"));
    assert_eq!(canonicalize("und-u-tz-cnckg").as_deref(), Some("und-u-tz-cnsha"));
    assert_eq!(canonicalize("posix").as_deref(), Some("posix"));
    assert_eq!(canonicalize("ZZZZZZZZ-abcd-123-1abc").as_deref(), Some("zzzzzzzz-Abcd-123-1abc"));
    assert_eq!(
      canonicalize("und-latn-t-und-hani-m0-names").as_deref(),
      Some("und-Latn-t-und-hani-m0-prprname")
    );
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
  fn likely_subtags_come_from_cldr() {
    assert_eq!(likely_subtags("und", true), "en-Latn-US");
    assert_eq!(likely_subtags("und-150", true), "en-Latn-150");
    assert_eq!(likely_subtags("und-RU", true), "ru-Cyrl-RU");
    assert_eq!(likely_subtags("zh-TW", true), "zh-Hant-TW");
    assert_eq!(likely_subtags("en-Latn-US", false), "en");
    assert_eq!(likely_subtags("posix", true), "posix");
  }

  #[test]
  fn week_data_and_region_zones_come_from_cldr() {
    assert_eq!(week_info("en-US"), [7, 6, 7]);
    assert_eq!(week_info("de"), [1, 6, 7]);
    assert_eq!(week_info("en-u-fw-wed"), [3, 6, 7]);
    let us = region_time_zones("US");
    assert!(us.iter().any(|z| z == "America/New_York"), "{us:?}");
    assert!(us.windows(2).all(|w| w[0] < w[1]));
    assert!(region_time_zones("ZZZ").is_empty());
  }

  #[test]
  fn available_locales_come_from_the_compiled_data() {
    assert_eq!(available("de-CH"), "de-CH");
    assert_eq!(available("en-GB"), "en-GB");
    assert_eq!(available("en-GB-oxendict"), "en-GB");
    assert_eq!(available("zz"), "");
  }
}
