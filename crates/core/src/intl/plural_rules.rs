//! `Intl.PluralRules`: CLDR's cardinal and ordinal rules (ICU4X `PluralRules`) over the
//! value as NumberFormat's digit options round it (visible fraction digits count).

use crate::intl::common::{self, Cache, List};
use crate::intl::number_format::{digits_of, num_of, round_signed, Num};
use fixed_decimal::{Decimal, Sign};
use icu_plurals::{PluralCategory, PluralRules};
use rquickjs::{Ctx, Function, Object, Value};
use std::rc::Rc;

thread_local! {
  static RULES: Cache<PluralRules> = const { Cache::new() };
}

fn name(c: PluralCategory) -> &'static str {
  match c {
    PluralCategory::Zero => "zero",
    PluralCategory::One => "one",
    PluralCategory::Two => "two",
    PluralCategory::Few => "few",
    PluralCategory::Many => "many",
    _ => "other",
  }
}

fn rules(ctx: &Ctx<'_>, record: &Object<'_>) -> rquickjs::Result<Rc<PluralRules>> {
  let key: String = record.get("key")?;
  let tag: String = record.get("dataLocale")?;
  let ordinal = record.get::<_, String>("type")? == "ordinal";
  RULES.with(|cache| {
    cache.get(&key, || {
      let loc = common::locale(&tag);
      let r = if ordinal {
        PluralRules::try_new_ordinal((&loc).into())
      } else {
        PluralRules::try_new_cardinal((&loc).into())
      };
      r.map_err(|_| rquickjs::Exception::throw_range(ctx, "Incorrect locale information provided"))
    })
  })
}

/// The category of `x` once rounded as the record's digit options say.
fn select(ctx: &Ctx<'_>, record: &Object<'_>, x: &Value<'_>) -> rquickjs::Result<&'static str> {
  let r = rules(ctx, record)?;
  match num_of(ctx, x)? {
    Num::Finite(d) => {
      let rounded = round_signed(&d, &digits_of(record));
      Ok(name(r.category_for(&Decimal::new(Sign::None, rounded))))
    }
    _ => Ok("other"),
  }
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "pluralSelect",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, record: Object<'js>, x: Value<'js>| -> rquickjs::Result<&'static str> {
        select(&ctx, &record, &x)
      },
    )?,
  )?;
  n.set(
    "pluralSelectRange",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       record: Object<'js>,
       _x: Value<'js>,
       y: Value<'js>|
       -> rquickjs::Result<&'static str> {
        // CLDR's range rules mostly take the end's category; ICU4X's range data is not used.
        select(&ctx, &record, &y)
      },
    )?,
  )?;
  n.set(
    "pluralCategories",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, record: Object<'js>| -> rquickjs::Result<List<&'static str>> {
        let r = rules(&ctx, &record)?;
        // ECMA-402 (and V8) list them in CLDR's order: zero, one, two, few, many, other.
        let mut cats: Vec<PluralCategory> = r.categories().collect();
        let order = |c: &PluralCategory| match c {
          PluralCategory::Zero => 0,
          PluralCategory::One => 1,
          PluralCategory::Two => 2,
          PluralCategory::Few => 3,
          PluralCategory::Many => 4,
          _ => 5,
        };
        cats.sort_by_key(order);
        Ok(List(cats.into_iter().map(name).collect()))
      },
    )?,
  )?;
  Ok(())
}
