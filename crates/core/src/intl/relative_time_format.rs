//! `Intl.RelativeTimeFormat` natives: CLDR's relative-time patterns (`in 3 days`, `3 days
//! ago`, with `numeric: 'auto'` the named ones: `yesterday`, `next week`) for the eight
//! units in three styles. The number is rounded as ECMA-402's default NumberFormat rounds
//! (at most three fraction digits, half away from zero) and formatted in the locale's digits.

use crate::intl::common::{self, Cache, Width};
use crate::intl::parts::{self, Parts};
use fixed_decimal::{Decimal, FloatPrecision, SignedRoundingMode, UnsignedRoundingMode};
use icu_experimental::relativetime::options::Numeric;
use icu_experimental::relativetime::{RelativeTimeFormatter, RelativeTimeFormatterOptions};
use rquickjs::{Ctx, Function, Object, Value};

thread_local! {
  static FORMATTERS: Cache<RelativeTimeFormatter> = const { Cache::new() };
}

/// The formatter for `locale` (the prelude resolved, numbering system included), `style`,
/// `unit` (0 second … 7 year) and `auto`.
fn formatter(
  ctx: &Ctx<'_>,
  locale: &str,
  style: Width,
  unit: u32,
  auto: bool,
) -> rquickjs::Result<std::rc::Rc<RelativeTimeFormatter>> {
  common::formatter(ctx, &FORMATTERS, locale, format_args!("{style:?}|{unit}|{auto}"), |loc| {
    let options = RelativeTimeFormatterOptions::default().with_numeric(if auto {
      Numeric::Auto
    } else {
      Numeric::Always
    });
    type New = fn(
      icu_experimental::relativetime::RelativeTimeFormatterPreferences,
      RelativeTimeFormatterOptions,
    ) -> Result<RelativeTimeFormatter, icu_provider::DataError>;
    const TABLE: [[New; 8]; 3] = [
      [
        RelativeTimeFormatter::try_new_long_second,
        RelativeTimeFormatter::try_new_long_minute,
        RelativeTimeFormatter::try_new_long_hour,
        RelativeTimeFormatter::try_new_long_day,
        RelativeTimeFormatter::try_new_long_week,
        RelativeTimeFormatter::try_new_long_month,
        RelativeTimeFormatter::try_new_long_quarter,
        RelativeTimeFormatter::try_new_long_year,
      ],
      [
        RelativeTimeFormatter::try_new_short_second,
        RelativeTimeFormatter::try_new_short_minute,
        RelativeTimeFormatter::try_new_short_hour,
        RelativeTimeFormatter::try_new_short_day,
        RelativeTimeFormatter::try_new_short_week,
        RelativeTimeFormatter::try_new_short_month,
        RelativeTimeFormatter::try_new_short_quarter,
        RelativeTimeFormatter::try_new_short_year,
      ],
      [
        RelativeTimeFormatter::try_new_narrow_second,
        RelativeTimeFormatter::try_new_narrow_minute,
        RelativeTimeFormatter::try_new_narrow_hour,
        RelativeTimeFormatter::try_new_narrow_day,
        RelativeTimeFormatter::try_new_narrow_week,
        RelativeTimeFormatter::try_new_narrow_month,
        RelativeTimeFormatter::try_new_narrow_quarter,
        RelativeTimeFormatter::try_new_narrow_year,
      ],
    ];
    let row = match style {
      Width::Long => 0,
      Width::Short => 1,
      Width::Narrow => 2,
    };
    TABLE[row][(unit as usize).min(7)](loc.into(), options)
  })
}

/// `value` (finite) as ECMA-402's default NumberFormat rounds it.
fn decimal(value: f64) -> Decimal {
  let mut d =
    Decimal::try_from_f64(value, FloatPrecision::RoundTrip).unwrap_or_else(|_| Decimal::from(0));
  d.round_with_mode(-3, SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand));
  d.absolute.trim_end();
  d
}

fn rename(part: writeable::Part) -> &'static str {
  match part.value {
    "integer" => "integer",
    "fraction" => "fraction",
    "group" => "group",
    "decimal" => "decimal",
    "minusSign" | "plusSign" => "",
    _ => "literal",
  }
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "relativeTimeFormat",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       locale: String,
       style: u32,
       unit: u32,
       auto: bool,
       value: f64,
       to_parts: bool|
       -> rquickjs::Result<Value<'js>> {
        let f = formatter(&ctx, &locale, Width::of(style), unit, auto)?;
        let formatted = f.format(decimal(value));
        if to_parts {
          return parts::array(&ctx, &Parts::of(&formatted, rename));
        }
        let text = writeable::Writeable::write_to_string(&formatted);
        Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value())
      },
    )?,
  )?;
  Ok(())
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn numbers_round_as_number_format_does() {
    assert_eq!(decimal(1.23456).to_string(), "1.235");
    assert_eq!(decimal(-2.0005).to_string(), "-2.001");
    assert_eq!(decimal(3.0).to_string(), "3");
    assert_eq!(decimal(1e21).to_string(), "1000000000000000000000");
  }
}
