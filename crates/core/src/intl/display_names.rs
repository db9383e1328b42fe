//! `Intl.DisplayNames` natives: CLDR's names of languages (standard or dialect form),
//! regions, scripts and currencies in a locale. The prelude validates the code (its
//! structure, as ECMA-402 says) and applies `fallback`; here a name is looked up, or not
//! found (`undefined`).

use crate::intl::common::{self, Cache};
use icu_experimental::dimension::provider::currency::displayname::CurrencyDisplaynameV1;
use icu_experimental::displaynames::multi::{
  LocaleDisplayNamesFormatter, RegionDisplayNames, ScriptDisplayNames,
};
use icu_experimental::displaynames::{DisplayNamesOptions, LanguageDisplay, Style};
use icu_locale_core::subtags::{Region, Script};
use icu_locale_core::Locale;
use icu_provider::prelude::*;
use rquickjs::{Ctx, Function, Object, Value};

/// The formatters of one locale and style.
struct Names {
  dialect: LocaleDisplayNamesFormatter,
  standard: LocaleDisplayNamesFormatter,
  regions: RegionDisplayNames,
  scripts: ScriptDisplayNames,
}

thread_local! {
  static NAMES: Cache<Names> = const { Cache::new() };
}

fn names(ctx: &Ctx<'_>, locale: &str, style: u32) -> rquickjs::Result<std::rc::Rc<Names>> {
  let key = format!("{locale}|{style}");
  NAMES.with(|cache| {
    cache.get(&key, || {
      let loc = common::locale(locale);
      let mut options = DisplayNamesOptions::default();
      options.style = Some(match style {
        1 => Style::Short,
        2 => Style::Narrow,
        _ => Style::Long,
      });
      let fail = |_| rquickjs::Exception::throw_range(ctx, "Incorrect locale information provided");
      let mut standard = options;
      standard.language_display = LanguageDisplay::Standard;
      let mut dialect = options;
      dialect.language_display = LanguageDisplay::Dialect;
      Ok(Names {
        dialect: LocaleDisplayNamesFormatter::try_new((&loc).into(), dialect).map_err(fail)?,
        standard: LocaleDisplayNamesFormatter::try_new((&loc).into(), standard).map_err(fail)?,
        regions: RegionDisplayNames::try_new((&loc).into(), options).map_err(fail)?,
        scripts: ScriptDisplayNames::try_new((&loc).into(), options).map_err(fail)?,
      })
    })
  })
}

/// The name of a currency (`code` upper-case ISO 4217) in `locale`, if CLDR has one.
fn currency_name(locale: &str, code: &str) -> Option<String> {
  let loc = common::locale(locale);
  let data_locale = DataLocale::from(&loc);
  let attributes = DataMarkerAttributes::try_from_str(code).ok()?;
  let mut metadata = DataRequestMetadata::default();
  metadata.silent = true;
  let req = DataRequest {
    id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attributes, &data_locale),
    metadata,
  };
  let resp: DataResponse<CurrencyDisplaynameV1> =
    icu_experimental::provider::Baked.load(req).ok()?;
  let name: &str = resp.payload.get();
  Some(name.to_owned())
}

/// The name of `code` of `kind` (0 language, 1 region, 2 script, 3 currency); with
/// `dialect` a language with a region may have a name of its own (`British English`).
/// `None` when the data has none (ICU4X answers a language it does not know with its code).
fn display_name(
  names: &Names,
  locale: &str,
  kind: u32,
  code: &str,
  dialect: bool,
) -> Option<String> {
  match kind {
    0 => {
      let loc: Locale = code.parse().ok()?;
      let f = if dialect { &names.dialect } else { &names.standard };
      let name = f.of(&loc).into_owned();
      (name != loc.to_string() && name != loc.id.language.as_str()).then_some(name)
    }
    1 => names.regions.of(code.parse::<Region>().ok()?).map(str::to_owned),
    2 => names.scripts.of(code.parse::<Script>().ok()?).map(str::to_owned),
    3 => currency_name(locale, code),
    _ => None,
  }
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "displayName",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       locale: String,
       style: u32,
       kind: u32,
       code: Value<'js>,
       dialect: bool|
       -> rquickjs::Result<Value<'js>> {
        let code = common::utf8(&ctx, &code)?;
        let names = names(&ctx, &locale, style)?;
        match display_name(&names, &locale, kind, &code, dialect) {
          Some(name) => Ok(rquickjs::String::from_str(ctx.clone(), &name)?.into_value()),
          None => Ok(Value::new_undefined(ctx.clone())),
        }
      },
    )?,
  )?;
  Ok(())
}
