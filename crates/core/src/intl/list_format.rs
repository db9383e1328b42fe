//! `Intl.ListFormat` natives: CLDR's list patterns (conjunction, disjunction, unit; long,
//! short, narrow), with the locale-dependent joiners (Spanish `y`/`e`, Hebrew `ו`…) ICU4X
//! picks from each element.

use crate::intl::common::{self, hold, Cache, Width};
use crate::intl::parts::{self, Parts};
use icu_list::options::{ListFormatterOptions, ListLength};
use icu_list::{parts as list_parts, ListFormatter};
use rquickjs::{Array, Ctx, Function, Object, Value};

thread_local! {
  static FORMATTERS: Cache<ListFormatter> = const { Cache::new() };
}

/// The formatter for `locale`, `kind` (0 conjunction, 1 disjunction, 2 unit) and `style`.
fn formatter(
  ctx: &Ctx<'_>,
  locale: &str,
  kind: u32,
  style: Width,
) -> rquickjs::Result<std::rc::Rc<ListFormatter>> {
  common::formatter(ctx, &FORMATTERS, locale, format_args!("{kind}|{style:?}"), |loc| {
    let length = match style {
      Width::Long => ListLength::Wide,
      Width::Short => ListLength::Short,
      Width::Narrow => ListLength::Narrow,
    };
    let options = ListFormatterOptions::default().with_length(length);
    match kind {
      1 => ListFormatter::try_new_or(loc.into(), options),
      2 => ListFormatter::try_new_unit(loc.into(), options),
      _ => ListFormatter::try_new_and(loc.into(), options),
    }
  })
}

fn rename(part: writeable::Part) -> &'static str {
  if part == list_parts::ELEMENT {
    "element"
  } else {
    "literal"
  }
}

/// The elements (strings the prelude collected) as UTF-8, charging their length.
fn elements(ctx: &Ctx<'_>, list: &Array<'_>) -> rquickjs::Result<Vec<String>> {
  let mut out = Vec::with_capacity(list.len());
  for v in list.iter::<Value>() {
    let v = v?;
    let _held = hold(ctx, &[&v])?;
    out.push(common::utf8(ctx, &v)?);
  }
  Ok(out)
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "listFormat",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       locale: String,
       kind: u32,
       style: u32,
       list: Array<'js>,
       to_parts: bool|
       -> rquickjs::Result<Value<'js>> {
        let f = formatter(&ctx, &locale, kind, Width::of(style))?;
        let items = elements(&ctx, &list)?;
        let formatted = f.format(items.iter().map(String::as_str));
        if to_parts {
          return parts::array(&ctx, &Parts::of(&formatted, rename));
        }
        Ok(
          rquickjs::String::from_str(
            ctx.clone(),
            &writeable::Writeable::write_to_string(&formatted),
          )?
          .into_value(),
        )
      },
    )?,
  )?;
  Ok(())
}

#[cfg(test)]
mod tests {
  use super::*;
  use icu_locale_core::locale;

  #[test]
  fn cldr_list_patterns() {
    let f = ListFormatter::try_new_and(locale!("en").into(), Default::default()).unwrap();
    assert_eq!(
      writeable::Writeable::write_to_string(&f.format(["a", "b", "c"].into_iter())),
      "a, b, and c"
    );
    let es = ListFormatter::try_new_and(locale!("es").into(), Default::default()).unwrap();
    assert_eq!(
      writeable::Writeable::write_to_string(&es.format(["España", "Italia"].into_iter())),
      "España e Italia"
    );
    let parts = Parts::of(&f.format(["x", "y"].into_iter()), rename);
    assert_eq!(
      parts,
      [("element", "x".into()), ("literal", " and ".into()), ("element", "y".into())]
    );
  }
}
