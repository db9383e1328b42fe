//! `Intl.DateTimeFormat` natives (and so `Date.prototype.toLocale*String`): ICU4X's date
//! and time formatting, its calendars and numbering systems, over the run's time zones
//! (`crate::zone`: offsets from the IANA database compiled in, names from CLDR).
//!
//! The prelude resolves the options (ECMA-402's order of reads, defaults and checks) into a
//! record of plain strings; here a record becomes a formatter once per thread (cached by the
//! record's key) and an instant becomes its local date and time in the record's zone. The
//! components map onto ICU4X's field bag (the ECMA-402 options bag); `dateStyle` and
//! `timeStyle` onto its field sets with CLDR's lengths.

use crate::intl::common::{self, Cache, List};
use crate::intl::parts::{self, Parts};
use crate::zone::Zone;
use icu_datetime::fieldbag::field as bag;
use icu_datetime::fieldbag::DateTimeFieldBag;
use icu_datetime::fieldsets::builder::{DateFields, FieldSetBuilder, ZoneStyle};
use icu_datetime::fieldsets::enums::CompositeFieldSet;
use icu_datetime::options::{Length, TimePrecision};
use icu_datetime::range::DateRangeFormatter;
use icu_datetime::{DateTimeFormatter, DateTimeFormatterPreferences};
use icu_time::zone::{models::AtTime, UtcOffset, ZoneNameTimestamp};
use icu_time::{Time, TimeZone, TimeZoneInfo, ZonedDateTime};
use rquickjs::{Ctx, Function, Object, Value};
use std::rc::Rc;

/// What the prelude resolved: the locale (with its `-u-ca-`, `-u-nu-`, `-u-hc-`), the zone
/// and either the styles or the components (ECMA-402's option values, `""` for unset).
#[derive(Debug, Default, Clone)]
pub(crate) struct Spec {
  locale: String,
  zone: String,
  date_style: String,
  time_style: String,
  weekday: String,
  era: String,
  year: String,
  month: String,
  day: String,
  day_period: String,
  hour: String,
  minute: String,
  second: String,
  fractional_second_digits: u8,
  time_zone_name: String,
  /// `h12`/`h23`/`h11`/`h24` when the options chose the clock, else `""`.
  hour_cycle: String,
}

struct Dtf {
  formatter: DateTimeFormatter<CompositeFieldSet>,
  prefs: DateTimeFormatterPreferences,
  fields: CompositeFieldSet,
  range: std::cell::OnceCell<Option<DateRangeFormatter<CompositeFieldSet>>>,
  zone: &'static Zone,
  /// The day and month ICU4X pads (`dd`, `MM`) where the program asked for numeric ones
  /// and ICU's pattern for the locale has them unpadded ([`unpadded`]).
  unpad: Unpad,
}

/// Which numeric fields lose a leading zero.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Unpad {
  day: bool,
  month: bool,
}

/// Languages whose numeric dates CLDR's `yMd` writes unpadded (`d.M.y`, `y/M/d`, `d-M-y`,
/// `d/M/y`) while ICU4X's field sets take the short date's `dd.MM.y`: ICU (Node) matches
/// the skeleton, so there `new Date(0).toLocaleDateString('de-DE')` is `1.1.1970`.
const UNPADDED_NUMERIC_DATES: &[&str] = &["de", "nl", "ja", "id"];

/// What to unpad for `spec` given the pattern ICU4X chose.
fn unpadded(spec: &Spec, pattern: &str) -> Unpad {
  let loc = common::locale(&spec.locale);
  if !UNPADDED_NUMERIC_DATES.contains(&loc.id.language.as_str()) || !spec.date_style.is_empty() {
    return Unpad::default();
  }
  let run = |c: char| {
    // The longest run of `c` outside quotes.
    let (mut best, mut n, mut quoted) = (0, 0, false);
    for ch in pattern.chars() {
      if ch == '\'' {
        quoted = !quoted;
      }
      n = if !quoted && ch == c { n + 1 } else { 0 };
      best = best.max(n);
    }
    best
  };
  Unpad {
    day: spec.day == "numeric" && run('d') == 2,
    month: spec.month == "numeric" && run('M') == 2,
  }
}

/// A part's text without the leading zero when `unpad` names its field.
fn unpad_part(unpad: Unpad, kind: &str, text: &mut String) {
  let strip = (kind == "day" && unpad.day) || (kind == "month" && unpad.month);
  if strip && text.len() == 2 && text.starts_with('0') {
    text.remove(0);
  }
}

/// The pattern as resolvedOptions reads it: `d`/`M` where the fields are unpadded.
fn unpad_pattern(unpad: Unpad, pattern: String) -> String {
  let mut p = pattern;
  if unpad.day {
    p = p.replace("dd", "d");
  }
  if unpad.month {
    p = p.replace("MM", "M");
  }
  p
}

thread_local! {
  static FORMATTERS: Cache<Dtf> = const { Cache::new() };
}

fn length(style: &str) -> Length {
  match style {
    "full" | "long" => Length::Long,
    "medium" => Length::Medium,
    _ => Length::Short,
  }
}

/// The field set of `spec`: its styles as CLDR's lengths, or its components as a field bag.
fn field_set(spec: &Spec) -> CompositeFieldSet {
  if !spec.date_style.is_empty() || !spec.time_style.is_empty() {
    let mut b = FieldSetBuilder::new();
    // One length for the whole: the date's when there is a date (CLDR's glue follows it).
    b.length =
      Some(length(if spec.date_style.is_empty() { &spec.time_style } else { &spec.date_style }));
    if !spec.date_style.is_empty() {
      b.date_fields =
        Some(if spec.date_style == "full" { DateFields::YMDE } else { DateFields::YMD });
    }
    if !spec.time_style.is_empty() {
      b.time_precision = Some(if spec.time_style == "short" {
        TimePrecision::Minute
      } else {
        TimePrecision::Second
      });
      b.zone_style = match spec.time_style.as_str() {
        "full" => Some(ZoneStyle::SpecificLong),
        "long" => Some(ZoneStyle::SpecificShort),
        _ => None,
      };
    }
    return b
      .build_composite()
      .unwrap_or_else(|_| DateTimeFieldBag::default().to_composite_field_set());
  }
  let mut f = DateTimeFieldBag::default();
  f.weekday = match spec.weekday.as_str() {
    "narrow" => Some(bag::Weekday::Narrow),
    "short" => Some(bag::Weekday::Short),
    "long" => Some(bag::Weekday::Long),
    _ => None,
  };
  f.era = match spec.era.as_str() {
    "narrow" => Some(bag::Era::Narrow),
    "short" => Some(bag::Era::Short),
    "long" => Some(bag::Era::Long),
    _ => None,
  };
  f.year = match spec.year.as_str() {
    "numeric" => Some(bag::Year::Numeric),
    "2-digit" => Some(bag::Year::TwoDigit),
    _ => None,
  };
  f.month = match spec.month.as_str() {
    "numeric" => Some(bag::Month::Numeric),
    "2-digit" => Some(bag::Month::TwoDigit),
    "narrow" => Some(bag::Month::Narrow),
    "short" => Some(bag::Month::Short),
    "long" => Some(bag::Month::Long),
    _ => None,
  };
  f.day = match spec.day.as_str() {
    "numeric" => Some(bag::Day::Numeric),
    "2-digit" => Some(bag::Day::TwoDigit),
    _ => None,
  };
  f.hour = match spec.hour.as_str() {
    "numeric" => Some(bag::Hour::Numeric),
    "2-digit" => Some(bag::Hour::TwoDigit),
    _ => None,
  };
  f.minute = match spec.minute.as_str() {
    "numeric" => Some(bag::Minute::Numeric),
    "2-digit" => Some(bag::Minute::TwoDigit),
    _ => None,
  };
  f.second = match spec.second.as_str() {
    "numeric" => Some(bag::Second::Numeric),
    "2-digit" => Some(bag::Second::TwoDigit),
    _ => None,
  };
  f.fractional_second_digits = match spec.fractional_second_digits {
    1 => Some(bag::FractionalSecondDigits::F1),
    2 => Some(bag::FractionalSecondDigits::F2),
    3 => Some(bag::FractionalSecondDigits::F3),
    _ => None,
  };
  f.day_period = match spec.day_period.as_str() {
    "narrow" => Some(bag::DayPeriod::FlexibleNarrow),
    "short" => Some(bag::DayPeriod::FlexibleShort),
    "long" => Some(bag::DayPeriod::FlexibleLong),
    _ => None,
  };
  f.hour_kind = match spec.hour_cycle.as_str() {
    "h11" | "h12" => Some(bag::HourKind::Clock12),
    "h23" | "h24" => Some(bag::HourKind::Clock24),
    _ => None,
  };
  f.time_zone_name = match spec.time_zone_name.as_str() {
    "short" => Some(bag::TimeZoneName::ShortSpecific),
    "long" => Some(bag::TimeZoneName::LongSpecific),
    "shortOffset" => Some(bag::TimeZoneName::ShortOffset),
    "longOffset" => Some(bag::TimeZoneName::LongOffset),
    "shortGeneric" => Some(bag::TimeZoneName::ShortGeneric),
    "longGeneric" => Some(bag::TimeZoneName::LongGeneric),
    _ => None,
  };
  f.to_composite_field_set()
}

fn data_error(ctx: &Ctx<'_>) -> rquickjs::Error {
  rquickjs::Exception::throw_range(ctx, "Incorrect locale information provided")
}

fn get_str(record: &Object<'_>, key: &str) -> String {
  record.get::<_, Option<String>>(key).ok().flatten().unwrap_or_default()
}

/// The record the prelude built (own data properties of an object of its own).
fn spec_of(record: &Object<'_>) -> Spec {
  Spec {
    locale: get_str(record, "locale"),
    zone: get_str(record, "timeZone"),
    date_style: get_str(record, "dateStyle"),
    time_style: get_str(record, "timeStyle"),
    weekday: get_str(record, "weekday"),
    era: get_str(record, "era"),
    year: get_str(record, "year"),
    month: get_str(record, "month"),
    day: get_str(record, "day"),
    day_period: get_str(record, "dayPeriod"),
    hour: get_str(record, "hour"),
    minute: get_str(record, "minute"),
    second: get_str(record, "second"),
    fractional_second_digits: record
      .get::<_, Option<i32>>("fractionalSecondDigits")
      .ok()
      .flatten()
      .unwrap_or(0) as u8,
    time_zone_name: get_str(record, "timeZoneName"),
    hour_cycle: get_str(record, "hourCycle"),
  }
}

fn make(ctx: &Ctx<'_>, spec: &Spec) -> rquickjs::Result<Dtf> {
  let loc = common::locale(&spec.locale);
  let prefs: DateTimeFormatterPreferences = (&loc).into();
  let fields = field_set(spec);
  let formatter = DateTimeFormatter::try_new(prefs, fields).map_err(|_| data_error(ctx))?;
  let zone = Zone::get(&spec.zone).unwrap_or_else(Zone::utc);
  let unpad = match zoned(0.0, zone) {
    Some(input) => {
      unpadded(spec, &writeable::Writeable::write_to_string(&formatter.format(&input).pattern()))
    }
    None => Unpad::default(),
  };
  Ok(Dtf { formatter, prefs, fields, range: std::cell::OnceCell::new(), zone, unpad })
}

fn dtf(ctx: &Ctx<'_>, record: &Object<'_>) -> rquickjs::Result<Rc<Dtf>> {
  let key = get_str(record, "key");
  FORMATTERS.with(|cache| cache.get(&key, || make(ctx, &spec_of(record))))
}

const DAY_MS: i64 = 86_400_000;

/// 1970-01-01's Rata Die.
const UNIX_EPOCH_RATA_DIE: i64 = 719_163;

/// Instant `t` (ms, a valid time value) in `zone` as ICU4X's input.
fn zoned(t: f64, zone: &Zone) -> Option<ZonedDateTime<icu_calendar::Iso, TimeZoneInfo<AtTime>>> {
  let t = t as i64;
  let offset = zone.offset_ms(t);
  let local = t + offset;
  let days = local.div_euclid(DAY_MS);
  let ms = local.rem_euclid(DAY_MS);
  // By its Rata Die (day 1 is 0001-01-01): ICU4X's constructors stop at year ±9999, the
  // time values reach ±271821.
  let date = icu_calendar::Date::from_rata_die(
    icu_calendar::types::RataDie::new(days + UNIX_EPOCH_RATA_DIE),
    icu_calendar::Iso,
  );
  let time = Time::try_new(
    (ms / 3_600_000) as u8,
    (ms / 60_000 % 60) as u8,
    (ms / 1000 % 60) as u8,
    (ms % 1000) as u32 * 1_000_000,
  )
  .ok()?;
  let id = if zone.is_utc() {
    TimeZone::from_iana_id("Etc/UTC")
  } else {
    TimeZone::from_iana_id(zone.name())
  };
  let info = id
    .with_offset(UtcOffset::try_from_seconds((offset / 1000) as i32).ok())
    .with_zone_name_timestamp(ZoneNameTimestamp::from_epoch_seconds(t.div_euclid(1000)));
  Some(ZonedDateTime { date, time, zone: info })
}

fn rename(part: writeable::Part) -> &'static str {
  use icu_datetime::parts as p;
  if part == p::ERA {
    "era"
  } else if part == p::YEAR || part == p::EXTENDED_YEAR {
    "year"
  } else if part == p::RELATED_YEAR {
    "relatedYear"
  } else if part == p::YEAR_NAME {
    "yearName"
  } else if part == p::MONTH {
    "month"
  } else if part == p::DAY {
    "day"
  } else if part == p::WEEKDAY {
    "weekday"
  } else if part == p::DAY_PERIOD {
    "dayPeriod"
  } else if part == p::HOUR {
    "hour"
  } else if part == p::MINUTE {
    "minute"
  } else if part == p::SECOND {
    "second"
  } else if part == p::TIME_ZONE_NAME {
    "timeZoneName"
  } else if part == icu_decimal::parts::FRACTION {
    "fractionalSecond"
  } else if part == icu_decimal::parts::DECIMAL {
    "literal"
  } else if part.category == "decimal" {
    ""
  } else {
    "literal"
  }
}

/// A formatted range's parts (type, value, source), V8's spaces.
fn range_parts(w: &impl writeable::Writeable) -> Vec<(&'static str, String, &'static str)> {
  use icu_datetime::parts as p;
  Parts::of_range(w, rename, p::RANGE_START, p::RANGE_END)
    .into_iter()
    .map(|(k, t, src)| (k, v8_spaces(&t), src))
    .collect()
}

/// CLDR writes U+202F (narrow no-break space) before the day period (`2:04\u{202f}PM`) and
/// in some ranges; V8 writes a plain space there, and programs compare with it.
fn v8_spaces(text: &str) -> String {
  text.replace('\u{202f}', " ")
}

fn range_error(ctx: &Ctx<'_>) -> rquickjs::Error {
  rquickjs::Exception::throw_range(ctx, "Invalid time value")
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "dateTimeFormat",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       record: Object<'js>,
       t: f64,
       to_parts: bool|
       -> rquickjs::Result<Value<'js>> {
        let f = dtf(&ctx, &record)?;
        let input = zoned(t, f.zone).ok_or_else(|| range_error(&ctx))?;
        let formatted = f.formatter.format(&input);
        if to_parts || f.unpad != Unpad::default() {
          let mut parts: Vec<_> =
            Parts::of(&formatted, rename).into_iter().map(|(k, t)| (k, v8_spaces(&t))).collect();
          for (kind, text) in parts.iter_mut() {
            unpad_part(f.unpad, kind, text);
          }
          if to_parts {
            return parts::array(&ctx, &parts);
          }
          let text: String = parts.into_iter().map(|(_, t)| t).collect();
          return Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value());
        }
        let text = v8_spaces(&writeable::Writeable::write_to_string(&formatted));
        Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value())
      },
    )?,
  )?;
  n.set(
    "dateTimeFormatRange",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       record: Object<'js>,
       a: f64,
       b: f64,
       to_parts: bool|
       -> rquickjs::Result<Value<'js>> {
        let f = dtf(&ctx, &record)?;
        let start = zoned(a, f.zone).ok_or_else(|| range_error(&ctx))?;
        let end = zoned(b, f.zone).ok_or_else(|| range_error(&ctx))?;
        let range = f.range.get_or_init(|| DateRangeFormatter::try_new(f.prefs, f.fields).ok());
        let Some(range) = range else { return Err(data_error(&ctx)) };
        let formatted = range.format(&start, &end);
        if to_parts || f.unpad != Unpad::default() {
          let mut parts = range_parts(&formatted);
          for (kind, text, _) in parts.iter_mut() {
            unpad_part(f.unpad, kind, text);
          }
          if to_parts {
            return parts::range_array(&ctx, &parts);
          }
          let text: String = parts.into_iter().map(|(_, t, _)| t).collect();
          return Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value());
        }
        let text = v8_spaces(&writeable::Writeable::write_to_string(&formatted));
        Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value())
      },
    )?,
  )?;
  n.set(
    "dateTimeResolved",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, record: Object<'js>| -> rquickjs::Result<List<String>> {
        let f = dtf(&ctx, &record)?;
        let input = zoned(0.0, f.zone).ok_or_else(|| range_error(&ctx))?;
        let pattern = unpad_pattern(
          f.unpad,
          writeable::Writeable::write_to_string(&f.formatter.format(&input).pattern()).into_owned(),
        );
        Ok(List(vec![pattern, calendar_name(&f.formatter).to_owned()]))
      },
    )?,
  )?;
  n.set(
    "canonicalTimeZone",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, name: Value<'js>| -> rquickjs::Result<Value<'js>> {
        let name = common::utf8(&ctx, &name)?;
        match Zone::get(&name) {
          Some(z) => Ok(rquickjs::String::from_str(ctx.clone(), z.name())?.into_value()),
          None => Ok(Value::new_undefined(ctx.clone())),
        }
      },
    )?,
  )?;
  n.set(
    "defaultTimeZone",
    Function::new(ctx.clone(), |ctx: Ctx<'js>| -> String {
      Zone::of_context(ctx.as_raw().as_ptr()).name().to_owned()
    })?,
  )?;
  n.set("timeZoneNames", Function::new(ctx.clone(), || -> List<String> { List(Zone::names()) })?)?;
  Ok(())
}

/// The calendar a formatter resolved, by its BCP 47 name.
fn calendar_name(f: &DateTimeFormatter<CompositeFieldSet>) -> &'static str {
  use icu_calendar::AnyCalendarKind as K;
  match f.calendar().kind() {
    K::Buddhist => "buddhist",
    K::Chinese => "chinese",
    K::Coptic => "coptic",
    K::Dangi => "dangi",
    K::Ethiopian => "ethiopic",
    K::EthiopianAmeteAlem => "ethioaa",
    K::Hebrew => "hebrew",
    K::Indian => "indian",
    K::HijriTabularTypeIIFriday => "islamic-civil",
    K::HijriTabularTypeIIThursday => "islamic-tbla",
    K::HijriUmmAlQura => "islamic-umalqura",
    K::Iso => "iso8601",
    K::Japanese => "japanese",
    K::Persian => "persian",
    K::Roc => "roc",
    _ => "gregory",
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn fmt(spec: Spec, t: f64) -> String {
    let f = make_plain(&spec);
    let input = zoned(t, f.zone).unwrap();
    writeable::Writeable::write_to_string(&f.formatter.format(&input)).into_owned()
  }

  fn make_plain(spec: &Spec) -> Dtf {
    let loc = common::locale(&spec.locale);
    let prefs: DateTimeFormatterPreferences = (&loc).into();
    let fields = field_set(spec);
    Dtf {
      formatter: DateTimeFormatter::try_new(prefs, fields).unwrap(),
      prefs,
      fields,
      range: Default::default(),
      zone: Zone::get(&spec.zone).unwrap_or_else(Zone::utc),
      unpad: Unpad::default(),
    }
  }

  #[test]
  fn instants_become_iso_dates_across_the_whole_time_range() {
    let ymd = |t: f64| {
      let z = zoned(t, Zone::utc()).unwrap();
      (z.date.year().extended_year(), z.date.month().ordinal, z.date.day_of_month().0)
    };
    assert_eq!(ymd(0.0), (1970, 1, 1));
    assert_eq!(ymd(-1.0), (1969, 12, 31));
    assert_eq!(ymd(19_782.0 * 86_400_000.0), (2024, 2, 29));
    assert_eq!(ymd(8.64e15), (275_760, 9, 13));
    assert_eq!(ymd(-8.64e15), (-271_821, 4, 20));
  }

  #[test]
  fn styles_and_components_in_the_zone() {
    let spec = Spec {
      locale: "en-US".into(),
      zone: "America/New_York".into(),
      date_style: "medium".into(),
      time_style: "short".into(),
      ..Default::default()
    };
    assert_eq!(fmt(spec, 0.0), "Dec 31, 1969, 7:00\u{202f}PM");
    let spec = Spec {
      locale: "en-US".into(),
      zone: "UTC".into(),
      year: "numeric".into(),
      month: "numeric".into(),
      day: "numeric".into(),
      ..Default::default()
    };
    assert_eq!(fmt(spec, 0.0), "1/1/1970");
  }

  #[test]
  fn numeric_days_and_months_lose_icu4x_padding_where_icu_has_none() {
    let numeric = |locale: &str| Spec {
      locale: locale.into(),
      year: "numeric".into(),
      month: "numeric".into(),
      day: "numeric".into(),
      ..Default::default()
    };
    assert_eq!(unpadded(&numeric("de-DE"), "dd.MM.y"), Unpad { day: true, month: true });
    assert_eq!(unpadded(&numeric("ja"), "y/MM/dd"), Unpad { day: true, month: true });
    // en-GB's yMd is dd/MM/y in ICU too; 2-digit and styles keep ICU4X's pattern.
    assert_eq!(unpadded(&numeric("en-GB"), "dd/MM/y"), Unpad::default());
    let two = Spec { day: "2-digit".into(), ..numeric("de") };
    assert_eq!(unpadded(&two, "dd.MM.y"), Unpad { day: false, month: true });
    assert_eq!(
      unpad_pattern(Unpad { day: true, month: true }, "dd.MM.y, HH:mm".into()),
      "d.M.y, HH:mm"
    );
    let mut day = "01".to_owned();
    unpad_part(Unpad { day: true, month: false }, "day", &mut day);
    assert_eq!(day, "1");
    let mut month = "01".to_owned();
    unpad_part(Unpad { day: true, month: false }, "month", &mut month);
    assert_eq!(month, "01");
  }
}
