//! Writes the ICU4X data the addon compiles in: every marker of ICU4X 2.4's data crates, read
//! from their compiled data, for the locales in `modern.txt` (each with its ancestors and
//! descendants), deduplicated against the parent locale as ICU4X's own data is.
//!
//! Usage: `cargo run --release -- <out dir>` (scripts/icu-data.mjs runs it outside the
//! repository's cargo config, so that the source is ICU4X's data and not the filtered copy).

extern crate alloc;

mod markers;

use icu_provider_export::baked_exporter::{BakedExporter, Options};
use icu_provider_export::prelude::*;

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
  let exporter = BakedExporter::new(out.into(), options).expect("the output directory");
  ExportDriver::new(
    families,
    DeduplicationStrategy::Maximal.into(),
    LocaleFallbacker::new().static_to_owned(),
  )
  .export(&markers::Source, exporter)
  .expect("the export");
}
