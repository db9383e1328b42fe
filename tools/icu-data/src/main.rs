//! Writes the ICU4X data the addon compiles in: every marker of ICU4X 2.4's data crates, read
//! from their compiled data, for the locales in `modern.txt` (each with its ancestors and
//! descendants), deduplicated against the parent locale as ICU4X's own data is, less what the
//! addon's size limit (20 MB) could not keep: names of withdrawn currencies, names of languages
//! CLDR has no locale data for, and the Chinese/Japanese word dictionary.
//!
//! Usage: `cargo run --release -- <out dir>` (scripts/icu-data.mjs runs it outside the
//! repository's cargo config, so that the source is ICU4X's data and not the filtered copy).

extern crate alloc;

mod markers;

use icu_provider_export::baked_exporter::{BakedExporter, Options};
use icu_provider_export::prelude::*;

use icu::experimental::displaynames::provider::{LanguageDisplayNames, LocaleNamesLanguageV0};
use icu_provider::prelude::*;
use std::collections::{BTreeSet, HashSet};
use std::sync::OnceLock;
use zerovec::ZeroMap;

/// ISO 4217 codes in current use: the list `Intl.supportedValuesOf('currency')` answers. The
/// currency markers (names, plural names, symbols) keep only these: CLDR's names of withdrawn
/// currencies were a third of the names' bytes.
fn current_currencies() -> &'static HashSet<&'static str> {
  static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
  SET.get_or_init(|| {
    let js = include_str!("../../../crates/core/src/intl/number_format.js");
    let start = js.find("supportedValues.currency = split(").expect("the currency list");
    let list = &js[start..];
    let list = &list[list.find('\'').unwrap() + 1..];
    let set: HashSet<_> = list[..list.find('\'').unwrap()].split(' ').collect();
    assert!(set.contains("USD") && set.len() > 100);
    set
  })
}

/// The languages CLDR has locale data for (in any locale, not only the modern ones): the
/// language names (`Intl.DisplayNames` type language) keep only these, where CLDR names about
/// 600 languages in each locale, most of them historic or with few speakers.
fn named_languages() -> &'static BTreeSet<String> {
  static SET: OnceLock<BTreeSet<String>> = OnceLock::new();
  SET.get_or_init(|| {
    let ids = IterableDataProvider::<LocaleNamesLanguageV0>::iter_ids(&markers::Raw).expect("ids");
    ids.iter().map(|id| id.locale.language.to_string()).collect()
  })
}

impl DataProvider<LocaleNamesLanguageV0> for markers::Source {
  fn load(&self, req: DataRequest) -> Result<DataResponse<LocaleNamesLanguageV0>, DataError> {
    let raw = DataProvider::<LocaleNamesLanguageV0>::load(&markers::Raw, req)?;
    let keep = named_languages();
    let d = raw.payload.get();
    let filter = |m: &ZeroMap<'_, _, str>| -> ZeroMap<'static, _, str> {
      m.iter()
        .filter(|(k, _): &(&tinystr::UnvalidatedTinyAsciiStr<3>, &str)| {
          k.try_into_tinystr().is_ok_and(|k| keep.contains(k.as_str()))
        })
        .collect()
    };
    let names = LanguageDisplayNames {
      names: filter(&d.names),
      short_names: filter(&d.short_names),
      long_names: filter(&d.long_names),
      menu_names: filter(&d.menu_names),
    };
    Ok(DataResponse { metadata: raw.metadata, payload: DataPayload::from_owned(names) })
  }
}

impl IterableDataProvider<LocaleNamesLanguageV0> for markers::Source {
  fn iter_ids(&self) -> Result<BTreeSet<DataIdentifierCow<'_>>, DataError> {
    IterableDataProvider::<LocaleNamesLanguageV0>::iter_ids(&markers::Raw)
  }
}

fn main() {
  let out = std::env::args().nth(1).expect("usage: icu-data <out dir>");
  let families: Vec<DataLocaleFamily> = include_str!("../modern.txt")
    .lines()
    .filter(|l| !l.starts_with('#'))
    .flat_map(str::split_whitespace)
    .map(|l| l.parse().unwrap_or_else(|e| panic!("{l}: {e:?}")))
    .collect();
  let mut options = Options::default();
  options.overwrite = true;
  eprintln!(
    "{} current currencies, names of {} languages",
    current_currencies().len(),
    named_languages().len()
  );
  let exporter = BakedExporter::new(out.into(), options).expect("the output directory");
  ExportDriver::new(
    families,
    DeduplicationStrategy::Maximal.into(),
    LocaleFallbacker::new().static_to_owned(),
  )
  // The attributes are a code, or a code and a form ("CADn": CurrencySymbolsV1's narrow symbol).
  .with_marker_attributes_filter("currency", |a| {
    a.as_str().get(..3).is_some_and(|c| current_currencies().contains(c))
  })
  // ICU4X's recommended segmenter models but its Chinese/Japanese dictionary (2 MB, which the
  // size limit could not keep): a run of Han and kana text is one word segment, where Node
  // gives the dictionary's words.
  .with_segmenter_models(
    [
      "burmesedict",
      "khmerdict",
      "laodict",
      "thaidict",
      "Burmese_codepoints_exclusive_model4_heavy",
      "Khmer_codepoints_exclusive_model4_heavy",
      "Lao_codepoints_exclusive_model4_heavy",
      "Thai_codepoints_exclusive_model4_heavy",
    ]
    .map(String::from),
  )
  .export(&markers::Source, exporter)
  .expect("the export");
}
