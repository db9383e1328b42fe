//! The time zone a run sees (the runtime's `timeZone` config): `Date`'s local time and
//! `Intl`'s default zone. Zones come from the IANA database compiled into the addon (`jiff`'s
//! bundled copy), never from the host: not its `TZ`, not its `/usr/share/zoneinfo`.
//!
//! A zone is looked up once per process per name and kept (`&'static`); its rules are read
//! from the bundle the first time a run asks it for an offset, so a run that never reads a
//! local time pays nothing. UTC (the default, and its aliases) installs no hook at all: the
//! vendored QuickJS answers UTC by itself (`JS_SetTimeZone` in `vendor/README.md`).

use icu_datetime::fieldsets::zone::SpecificLong;
use icu_datetime::NoCalendarFormatter;
use icu_locale_core::locale;
use icu_time::zone::{UtcOffset, ZoneNameTimestamp};
use icu_time::TimeZone as IcuZone;
use jiff::civil::DateTime;
use jiff::tz::{TimeZone, TimeZoneDatabase};
use jiff::Timestamp;
use rquickjs::qjs;
use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Mutex, OnceLock};

/// A time zone of the database, by its canonical spelling.
pub struct Zone {
  name: Box<str>,
  rules: OnceLock<TimeZone>,
}

impl std::fmt::Debug for Zone {
  fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    write!(f, "Zone({})", self.name)
  }
}

/// Names that mean UTC itself: a config naming one of them runs as the default does, and
/// `resolvedOptions().timeZone` reads `UTC` for them (as V8's does).
const UTC_NAMES: &[&str] = &[
  "UTC",
  "Etc/UTC",
  "Etc/UCT",
  "UCT",
  "Etc/Universal",
  "Universal",
  "Etc/Zulu",
  "Zulu",
  "GMT",
  "Etc/GMT",
  "Etc/GMT0",
  "Etc/GMT+0",
  "Etc/GMT-0",
  "GMT0",
  "GMT+0",
  "GMT-0",
  "Etc/Greenwich",
  "Greenwich",
];

/// Milliseconds in 400 Gregorian years: the calendar (weekdays included) repeats after it.
const CYCLE_MS: i64 = 146_097 * 86_400_000;
/// Instants `jiff` represents comfortably (years 1 to 9000); ECMAScript's reach ±275,760
/// years. Later ones are moved back by whole 400-year cycles (the zone's current rule
/// repeats, as V8 extends it); earlier ones take the zone's first offset.
const EARLIEST_MS: i64 = -62_135_596_800_000;
const LATEST_MS: i64 = 221_845_392_000_000;

fn database() -> &'static TimeZoneDatabase {
  static DB: OnceLock<TimeZoneDatabase> = OnceLock::new();
  DB.get_or_init(TimeZoneDatabase::bundled)
}

impl Zone {
  /// The zone called `name` (ASCII case aside), or `None` when the database has no such zone.
  /// The first look-up of a name checks it against the database; later ones find it kept.
  pub fn get(name: &str) -> Option<&'static Zone> {
    static ZONES: OnceLock<Mutex<HashMap<Box<str>, &'static Zone>>> = OnceLock::new();
    if name.len() > 64 || name.is_empty() {
      return None;
    }
    let key = name.to_ascii_lowercase().into_boxed_str();
    let zones = ZONES.get_or_init(Default::default);
    if let Some(zone) = zones.lock().unwrap_or_else(|p| p.into_inner()).get(&key) {
      return Some(zone);
    }
    let zone = match UTC_NAMES.iter().find(|n| n.eq_ignore_ascii_case(name)) {
      Some(_) => Zone { name: "UTC".into(), rules: OnceLock::from(TimeZone::UTC) },
      None => {
        let rules = database().get(name).ok()?;
        let name = rules.iana_name()?.into();
        Zone { name, rules: OnceLock::from(rules) }
      }
    };
    let mut zones = zones.lock().unwrap_or_else(|p| p.into_inner());
    // Leaked once per distinct name the database knows (a few hundred at most).
    Some(*zones.entry(key).or_insert_with(|| Box::leak(Box::new(zone))))
  }

  /// The default zone.
  pub fn utc() -> &'static Zone {
    Zone::get("UTC").expect("UTC is always known")
  }

  /// The database's spelling of the name (`America/New_York`), or `UTC` for UTC's aliases.
  pub fn name(&self) -> &str {
    &self.name
  }

  pub fn is_utc(&self) -> bool {
    &*self.name == "UTC"
  }

  fn rules(&self) -> &TimeZone {
    self.rules.get_or_init(|| database().get(&self.name).unwrap_or(TimeZone::UTC))
  }

  /// The offset from UTC, in milliseconds, at instant `utc_ms` (ms since the epoch).
  pub fn offset_ms(&self, utc_ms: i64) -> i64 {
    i64::from(self.rules().to_offset(timestamp(utc_ms)).seconds()) * 1000
  }

  /// The offset from UTC, in milliseconds, of the local wall-clock time `local_ms` (read as if
  /// it were UTC), as ECMAScript's UTC(t) picks it: a time a transition skipped takes the
  /// offset before the transition, a time it repeated the earlier instant's.
  pub fn local_offset_ms(&self, local_ms: i64) -> i64 {
    let shifted = in_range(local_ms);
    let local = TimeZone::UTC.to_datetime(timestamp(shifted));
    match self.rules().to_ambiguous_timestamp(local).compatible() {
      Ok(instant) => civil_ms(local) - instant.as_millisecond(),
      Err(_) => self.offset_ms(local_ms),
    }
  }

  /// Whether the zone observes daylight saving time at `utc_ms`.
  pub fn is_dst(&self, utc_ms: i64) -> bool {
    self.rules().to_offset_info(timestamp(utc_ms)).dst().is_dst()
  }

  /// The zone's long name at instant `utc_ms` in English, as `Date.prototype.toString` ends
  /// with it (`Eastern Standard Time`; `GMT-05:00` for a zone CLDR has no name for).
  pub fn long_name(&self, utc_ms: i64) -> String {
    thread_local! {
      // Boxed: the addon's thread-locals are static TLS, which a dlopen'ed library gets
      // little of (the formatter itself is ~1 KB; glibc refuses to load past its surplus).
      static LONG: Option<Box<NoCalendarFormatter<SpecificLong>>> =
        NoCalendarFormatter::try_new(locale!("en").into(), SpecificLong).ok().map(Box::new);
    }
    let offset = self.offset_ms(utc_ms) / 1000;
    let info = IcuZone::from_iana_id(&self.name)
      .with_offset(UtcOffset::try_from_seconds(offset as i32).ok())
      .with_zone_name_timestamp(ZoneNameTimestamp::from_epoch_seconds(utc_ms.div_euclid(1000)));
    LONG.with(|f| f.as_ref().map(|f| f.format(&info).to_string())).unwrap_or_default()
  }

  /// The names of every zone of the database, in its spelling, sorted.
  pub fn names() -> Vec<String> {
    let mut names: Vec<String> = database().available().map(|n| n.to_string()).collect();
    names.sort();
    names
  }

  /// Makes `ctx`'s `Date` read local time in this zone. UTC needs nothing (QuickJS's own).
  pub(crate) fn install(&'static self, ctx: *mut qjs::JSContext) {
    if self.is_utc() {
      return;
    }
    // SAFETY: `ctx` is a live context on this thread; the opaque pointer is a `&'static Zone`.
    unsafe { JS_SetTimeZone(ctx, Some(offset_hook), self as *const Zone as *mut c_void) };
  }

  /// The zone `ctx`'s `Date` reads local time in ([`Zone::install`]).
  pub fn of_context(ctx: *mut qjs::JSContext) -> &'static Zone {
    // SAFETY: `ctx` is a live context; the opaque is null or the `&'static Zone` installed.
    let opaque = unsafe { JS_GetTimeZoneOpaque(ctx) } as *const Zone;
    // SAFETY: set only by `install` from a `&'static Zone`.
    unsafe { opaque.as_ref() }.unwrap_or_else(Zone::utc)
  }
}

/// `ms` moved into the range `jiff` covers (see [`LATEST_MS`]).
fn in_range(ms: i64) -> i64 {
  if ms > LATEST_MS {
    let cycles = (ms - LATEST_MS) / CYCLE_MS + 1;
    ms - cycles * CYCLE_MS
  } else {
    ms.max(EARLIEST_MS)
  }
}

fn timestamp(ms: i64) -> Timestamp {
  Timestamp::from_millisecond(in_range(ms)).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// A civil date-time as milliseconds since the epoch, read as UTC.
fn civil_ms(dt: DateTime) -> i64 {
  TimeZone::UTC.to_timestamp(dt).map(|t| t.as_millisecond()).unwrap_or(0)
}

extern "C" {
  fn JS_SetTimeZone(ctx: *mut qjs::JSContext, func: Option<TimeZoneFunc>, opaque: *mut c_void);
  fn JS_GetTimeZoneOpaque(ctx: *mut qjs::JSContext) -> *mut c_void;
}

type TimeZoneFunc = unsafe extern "C" fn(*mut c_void, i64, bool, *mut c_char, usize) -> i64;

/// QuickJS's question (`JSTimeZoneFunc` in quickjs.h): the offset at a time, and with `name`
/// the zone's long name then. A panic answers UTC rather than cross into C.
unsafe extern "C" fn offset_hook(
  opaque: *mut c_void,
  time_ms: i64,
  is_local: bool,
  name: *mut c_char,
  name_size: usize,
) -> i64 {
  // SAFETY: the opaque pointer is the `&'static Zone` that `install` set.
  let zone = unsafe { &*(opaque as *const Zone) };
  catch_unwind(AssertUnwindSafe(|| {
    if !name.is_null() && name_size > 0 {
      let text = zone.long_name(time_ms);
      let len = text.len().min(name_size - 1);
      // SAFETY: QuickJS hands a buffer of `name_size` bytes; we write `len + 1 <= name_size`.
      unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), name as *mut u8, len);
        *name.add(len) = 0;
      }
    }
    if is_local {
      zone.local_offset_ms(time_ms)
    } else {
      zone.offset_ms(time_ms)
    }
  }))
  .unwrap_or(0)
}

#[cfg(test)]
mod tests {
  use super::*;

  const HOUR: i64 = 3_600_000;

  #[test]
  fn names_are_checked_against_the_database_in_any_case() {
    assert_eq!(Zone::get("america/NEW_YORK").map(Zone::name), Some("America/New_York"));
    assert_eq!(Zone::get("Europe/Berlin").map(Zone::name), Some("Europe/Berlin"));
    assert_eq!(Zone::get("US/Eastern").map(Zone::name), Some("US/Eastern"));
    for utc in ["UTC", "utc", "Etc/UTC", "GMT", "Etc/GMT", "Zulu"] {
      assert!(Zone::get(utc).is_some_and(Zone::is_utc), "{utc}");
    }
    for bad in ["", "Mars/Base", "America/New York", "+05:30", "../etc/passwd", &"A".repeat(100)] {
      assert!(Zone::get(bad).is_none(), "{bad:?}");
    }
    assert!(std::ptr::eq(Zone::get("Asia/Tokyo").unwrap(), Zone::get("asia/tokyo").unwrap()));
    assert!(Zone::names().iter().any(|n| n == "Australia/Lord_Howe"));
  }

  #[test]
  fn offsets_follow_the_zones_rules_and_transitions() {
    let ny = Zone::get("America/New_York").unwrap();
    assert_eq!(ny.offset_ms(0), -5 * HOUR);
    // 2024-03-10 07:00Z is 03:00 EDT, one ms before it 01:59:59.999 EST.
    let spring = 1_710_054_000_000;
    assert_eq!(ny.offset_ms(spring), -4 * HOUR);
    assert_eq!(ny.offset_ms(spring - 1), -5 * HOUR);
    // Local 02:30 that day never happened: it takes the offset before the transition.
    let local_0230 = 1_710_037_800_000;
    assert_eq!(ny.local_offset_ms(local_0230), -5 * HOUR);
    // Local 01:30 on 2024-11-03 happened twice: the earlier (EDT) instant.
    let local_0130 = 1_730_597_400_000;
    assert_eq!(ny.local_offset_ms(local_0130), -4 * HOUR);
    assert!(ny.is_dst(spring) && !ny.is_dst(0));
    // Half-hour daylight saving time, and a 5:45 zone.
    let lord_howe = Zone::get("Australia/Lord_Howe").unwrap();
    assert_eq!(lord_howe.offset_ms(1_700_000_000_000), 11 * HOUR);
    assert_eq!(lord_howe.offset_ms(1_720_000_000_000), 10 * HOUR + HOUR / 2);
    assert_eq!(
      Zone::get("Asia/Kathmandu").unwrap().offset_ms(1_700_000_000_000),
      5 * HOUR + 45 * 60_000
    );
    // Local mean time keeps its seconds: New York was -4:56:02 in 1800.
    assert_eq!(ny.offset_ms(-5_364_662_400_000), -(4 * HOUR + 56 * 60_000 + 2_000));
  }

  #[test]
  fn instants_beyond_the_database_still_have_an_offset() {
    let ny = Zone::get("America/New_York").unwrap();
    // 275760-09-13T00:00Z, ECMAScript's last instant: in September, daylight time (as V8).
    assert_eq!(ny.offset_ms(8_640_000_000_000_000), -4 * HOUR);
    assert_eq!(ny.local_offset_ms(8_640_000_000_000_000), -4 * HOUR);
    // ECMAScript's first instant: the zone's first offset.
    assert_eq!(ny.offset_ms(-8_640_000_000_000_000), -(4 * HOUR + 56 * 60_000 + 2_000));
    assert_eq!(ny.offset_ms(i64::MAX), ny.offset_ms(i64::MAX - CYCLE_MS));
    assert_eq!(ny.offset_ms(i64::MIN), ny.offset_ms(EARLIEST_MS));
  }

  #[test]
  fn long_names_are_cldrs_english_ones() {
    let ny = Zone::get("America/New_York").unwrap();
    assert_eq!(ny.long_name(0), "Eastern Standard Time");
    assert_eq!(ny.long_name(1_720_000_000_000), "Eastern Daylight Time");
    assert_eq!(Zone::get("Asia/Kolkata").unwrap().long_name(0), "India Standard Time");
    assert_eq!(Zone::get("Etc/GMT+5").unwrap().long_name(0), "GMT-05:00");
  }
}
