//! `Intl.NumberFormat`'s formatting (and the digits `Intl.PluralRules` selects on): a
//! value rounded as ECMA-402's digit options say (fixed_decimal: every rounding mode and
//! increment), written in the locale's digits and separators (ICU4X `DecimalFormatter`),
//! inside the locale's pattern for the style (percent, currency, compact, scientific).
//!
//! Percent and currency patterns are read off ICU4X's own formatters: each formats a
//! sentinel (the number 1, or a number of the right plural category for currency names),
//! and what surrounds the sentinel's digits is the pattern, cut into ECMA-402's parts. So
//! the digits themselves always come from our rounding, never ICU4X's formatters' own.

use crate::intl::common::{self, range_error, Cache};
use crate::intl::parts::{self, Parts};
use fixed_decimal::{
  Decimal, FloatPrecision, RoundingIncrement, Sign, SignedRoundingMode, UnsignedDecimal,
  UnsignedRoundingMode,
};
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu_decimal::{CompactDecimalFormatter, DecimalFormatter};
use icu_plurals::{PluralCategory, PluralRules};
use rquickjs::{Ctx, Function, Object, Value};
use std::cell::RefCell;
use std::rc::Rc;
use writeable::Writeable;

/// The resolved options the prelude hands over (its `record`), as the natives use them.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
  pub locale: String,
  pub style: Style,
  pub currency: String,
  pub currency_display: String,
  pub accounting: bool,
  pub unit: String,
  pub unit_display: String,
  pub notation: Notation,
  pub compact_long: bool,
  pub grouping: GroupingStrategy,
  pub sign_display: SignDisplay,
  pub digits: Digits,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Style {
  Decimal,
  Percent,
  Currency,
  Unit,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Notation {
  Standard,
  Scientific,
  Engineering,
  Compact,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SignDisplay {
  Auto,
  Always,
  ExceptZero,
  Negative,
  Never,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum RoundingType {
  Fraction,
  Significant,
  MorePrecision,
  LessPrecision,
}

/// ECMA-402's digit options, resolved.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Digits {
  pub rounding_type: RoundingType,
  pub min_integer: i16,
  pub min_fraction: i16,
  pub max_fraction: i16,
  pub min_significant: i16,
  pub max_significant: i16,
  pub increment: u32,
  pub mode: SignedRoundingMode,
  pub strip_if_integer: bool,
}

/// A record's field as a string (`false` for `useGrouping: false`, '' when absent).
fn get_str(o: &Object<'_>, k: &str) -> String {
  let Ok(v) = o.get::<_, Value>(k) else { return String::new() };
  if let Some(b) = v.as_bool() {
    return if b { "true" } else { "false" }.to_owned();
  }
  v.as_string().and_then(|s| s.to_string().ok()).unwrap_or_default()
}

fn get_int(o: &Object<'_>, k: &str) -> i16 {
  o.get::<_, Option<f64>>(k).ok().flatten().unwrap_or(0.0) as i16
}

/// Reads the digit options of a record (NumberFormat's or PluralRules').
pub(crate) fn digits_of(o: &Object<'_>) -> Digits {
  let mode = match get_str(o, "roundingMode").as_str() {
    "ceil" => SignedRoundingMode::Ceil,
    "floor" => SignedRoundingMode::Floor,
    "expand" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::Expand),
    "trunc" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::Trunc),
    "halfCeil" => SignedRoundingMode::HalfCeil,
    "halfFloor" => SignedRoundingMode::HalfFloor,
    "halfTrunc" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfTrunc),
    "halfEven" => SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfEven),
    _ => SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand),
  };
  Digits {
    rounding_type: match get_str(o, "roundingType").as_str() {
      "significantDigits" => RoundingType::Significant,
      "morePrecision" => RoundingType::MorePrecision,
      "lessPrecision" => RoundingType::LessPrecision,
      _ => RoundingType::Fraction,
    },
    min_integer: get_int(o, "minimumIntegerDigits").max(1),
    min_fraction: get_int(o, "minimumFractionDigits"),
    max_fraction: get_int(o, "maximumFractionDigits"),
    min_significant: get_int(o, "minimumSignificantDigits").max(1),
    max_significant: get_int(o, "maximumSignificantDigits").max(1),
    increment: get_int(o, "roundingIncrement").max(1) as u32,
    mode,
    strip_if_integer: get_str(o, "trailingZeroDisplay") == "stripIfInteger",
  }
}

fn spec_of(o: &Object<'_>) -> Spec {
  Spec {
    locale: get_str(o, "dataLocale"),
    style: match get_str(o, "style").as_str() {
      "percent" => Style::Percent,
      "currency" => Style::Currency,
      "unit" => Style::Unit,
      _ => Style::Decimal,
    },
    currency: get_str(o, "currency"),
    currency_display: get_str(o, "currencyDisplay"),
    accounting: get_str(o, "currencySign") == "accounting",
    unit: get_str(o, "unit"),
    unit_display: get_str(o, "unitDisplay"),
    notation: match get_str(o, "notation").as_str() {
      "scientific" => Notation::Scientific,
      "engineering" => Notation::Engineering,
      "compact" => Notation::Compact,
      _ => Notation::Standard,
    },
    compact_long: get_str(o, "compactDisplay") == "long",
    grouping: match get_str(o, "useGrouping").as_str() {
      "always" => GroupingStrategy::Always,
      "min2" => GroupingStrategy::Min2,
      "false" => GroupingStrategy::Never,
      _ => GroupingStrategy::Auto,
    },
    sign_display: match get_str(o, "signDisplay").as_str() {
      "always" => SignDisplay::Always,
      "exceptZero" => SignDisplay::ExceptZero,
      "negative" => SignDisplay::Negative,
      "never" => SignDisplay::Never,
      _ => SignDisplay::Auto,
    },
    digits: digits_of(o),
  }
}

/// `x` rounded to the digit options: ECMA-402's FormatNumericToString less the sign.
pub(crate) fn round(x: &UnsignedDecimal, d: &Digits) -> UnsignedDecimal {
  let fixed = |x: &UnsignedDecimal| -> (UnsignedDecimal, i16) {
    let mut v = x.clone();
    let (base, k) = split_increment(d.increment);
    let position = -d.max_fraction + k;
    let inc = match base {
      2 => RoundingIncrement::MultiplesOf2,
      5 => RoundingIncrement::MultiplesOf5,
      25 => RoundingIncrement::MultiplesOf25,
      _ => RoundingIncrement::MultiplesOf1,
    };
    v.round_with_mode_and_increment(position, unsigned_mode(d.mode), inc);
    v.trim_end();
    v.pad_end(-d.min_fraction);
    (v, -d.max_fraction)
  };
  let significant = |x: &UnsignedDecimal| -> (UnsignedDecimal, i16) {
    let mut v = x.clone();
    let e = if v.is_zero() { 0 } else { v.nonzero_magnitude_start() };
    let position = e - d.max_significant + 1;
    v.round_with_mode(position, unsigned_mode(d.mode));
    v.trim_end();
    let e2 = if v.is_zero() { 0 } else { v.nonzero_magnitude_start() };
    let min_pos = e2 - d.min_significant + 1;
    if min_pos < 0 {
      v.pad_end(min_pos);
    }
    (v, position)
  };
  let mut v = match d.rounding_type {
    RoundingType::Fraction => fixed(x).0,
    RoundingType::Significant => significant(x).0,
    RoundingType::MorePrecision | RoundingType::LessPrecision => {
      let (s, sm) = significant(x);
      let (f, fm) = fixed(x);
      let s_wins = if d.rounding_type == RoundingType::MorePrecision { sm <= fm } else { sm > fm };
      if s_wins {
        s
      } else {
        f
      }
    }
  };
  if d.strip_if_integer && v.clone().trimmed_end().nonzero_magnitude_end() >= 0 {
    v.trim_end();
  }
  v.pad_start(d.min_integer);
  v
}

/// The rounding mode as it applies to a magnitude: the sign is applied by the caller, so
/// the signed modes become their unsigned equivalents for the value's sign (set through
/// `ROUNDING_NEGATIVE` for the duration of the call).
fn unsigned_mode(mode: SignedRoundingMode) -> UnsignedRoundingMode {
  let negative = NEGATIVE.with(|n| *n.borrow());
  match mode {
    SignedRoundingMode::Unsigned(m) => m,
    SignedRoundingMode::Ceil => {
      if negative {
        UnsignedRoundingMode::Trunc
      } else {
        UnsignedRoundingMode::Expand
      }
    }
    SignedRoundingMode::Floor => {
      if negative {
        UnsignedRoundingMode::Expand
      } else {
        UnsignedRoundingMode::Trunc
      }
    }
    SignedRoundingMode::HalfCeil => {
      if negative {
        UnsignedRoundingMode::HalfTrunc
      } else {
        UnsignedRoundingMode::HalfExpand
      }
    }
    SignedRoundingMode::HalfFloor => {
      if negative {
        UnsignedRoundingMode::HalfExpand
      } else {
        UnsignedRoundingMode::HalfTrunc
      }
    }
    _ => UnsignedRoundingMode::HalfExpand,
  }
}

thread_local! {
  /// Whether the value being rounded is negative (for the signed rounding modes).
  static NEGATIVE: RefCell<bool> = const { RefCell::new(false) };
}

/// Rounds a signed value: the magnitude, with the signed modes resolved for its sign.
pub(crate) fn round_signed(x: &Decimal, d: &Digits) -> UnsignedDecimal {
  NEGATIVE.with(|n| *n.borrow_mut() = x.sign == Sign::Negative);
  round(&x.absolute, d)
}

/// 1, 2, 5, 10, 20, 25, 50, 100, … as (1|2|5|25, power of ten).
fn split_increment(mut inc: u32) -> (u32, i16) {
  let mut k = 0;
  while inc >= 10 && inc % 10 == 0 && inc != 25 {
    inc /= 10;
    k += 1;
  }
  (inc, k)
}

/// The value a number argument stands for: a finite decimal, or NaN/±Infinity.
pub(crate) enum Num {
  Finite(Decimal),
  NaN,
  Infinite(bool),
}

/// Reads the value the prelude passes: a number, or a decimal string (a BigInt's digits or
/// a string already checked as a StrDecimalLiteral).
pub(crate) fn num_of(ctx: &Ctx<'_>, v: &Value<'_>) -> rquickjs::Result<Num> {
  if let Some(f) = v.as_number() {
    if f.is_nan() {
      return Ok(Num::NaN);
    }
    if f.is_infinite() {
      return Ok(Num::Infinite(f < 0.0));
    }
    return Ok(Num::Finite(
      Decimal::try_from_f64(f, FloatPrecision::RoundTrip).unwrap_or_else(|_| Decimal::from(0)),
    ));
  }
  let s = common::utf8(ctx, v)?;
  let t = s.trim();
  if t.len() > 4096 {
    return range_error(ctx, "the number is too long to format");
  }
  let (neg, body) = match t.as_bytes().first() {
    Some(b'-') => (true, &t[1..]),
    Some(b'+') => (false, &t[1..]),
    _ => (false, t),
  };
  if body == "Infinity" {
    return Ok(Num::Infinite(neg));
  }
  let mut norm = String::with_capacity(body.len() + 2);
  if neg {
    norm.push('-');
  }
  if body.starts_with('.') {
    norm.push('0');
  }
  norm.push_str(body.trim_end_matches('.'));
  let norm = norm.replace(".e", "e").replace(".E", "E");
  match Decimal::try_from_str(&norm) {
    Ok(d) => Ok(Num::Finite(d)),
    Err(_) => match norm.parse::<f64>() {
      Ok(f) if f.is_finite() => Ok(Num::Finite(
        Decimal::try_from_f64(f, FloatPrecision::RoundTrip).unwrap_or_else(|_| Decimal::from(0)),
      )),
      Ok(f) if f.is_infinite() => Ok(Num::Infinite(f < 0.0)),
      _ => Ok(Num::NaN),
    },
  }
}

/// A Writeable's output as parts named by ICU4X's own part names (`integer`, `group`, …,
/// which are ECMA-402's).
fn parts_of(w: &impl Writeable) -> Vec<(&'static str, String)> {
  Parts::of(w, |part| part.value)
}

/// A pattern around a number: the parts before and after it.
#[derive(Debug, Clone, Default)]
struct Affix {
  before: Vec<(&'static str, String)>,
  after: Vec<(&'static str, String)>,
}

/// Cuts `text` around the first `core`, naming each piece: the locale's signs, white
/// space and bidi marks as literals, the rest as `kind` (currency, percentSign, compact).
fn affix_of(text: &str, core: &str, kind: &'static str, minus: &str, plus: &str) -> Affix {
  let Some(at) = text.find(core) else {
    return Affix::default();
  };
  let name = |piece: &str| tokens(piece, kind, minus, plus);
  Affix { before: name(&text[..at]), after: name(&text[at + core.len()..]) }
}

fn tokens(piece: &str, kind: &'static str, minus: &str, plus: &str) -> Vec<(&'static str, String)> {
  let mut out: Vec<(&'static str, String)> = Vec::new();
  let mut rest = piece;
  let push = |out: &mut Vec<(&'static str, String)>, k: &'static str, s: &str| match out.last_mut()
  {
    Some((pk, t)) if *pk == k && k != "minusSign" && k != "plusSign" => t.push_str(s),
    _ => out.push((k, s.to_owned())),
  };
  while !rest.is_empty() {
    if !minus.is_empty() && rest.starts_with(minus) {
      push(&mut out, "minusSign", minus);
      rest = &rest[minus.len()..];
      continue;
    }
    if !plus.is_empty() && rest.starts_with(plus) {
      push(&mut out, "plusSign", plus);
      rest = &rest[plus.len()..];
      continue;
    }
    let ch = rest.chars().next().unwrap_or(' ');
    let lit = ch.is_whitespace()
      || matches!(ch, '\u{200e}' | '\u{200f}' | '\u{061c}' | '(' | ')' | '\u{a0}' | '\u{202f}');
    push(&mut out, if lit { "literal" } else { kind }, &rest[..ch.len_utf8()]);
    rest = &rest[ch.len_utf8()..];
  }
  out
}

/// A NumberFormat's ICU4X objects and patterns, cached per thread by the record's key.
pub(crate) struct Formatter {
  spec: Spec,
  decimal: DecimalFormatter,
  minus: String,
  plus: String,
  /// Percent or currency patterns for (no sign, minus, plus); currency names per plural
  /// category are made on demand.
  affixes: Option<[Affix; 3]>,
  named: RefCell<Vec<(PluralCategory, [Affix; 3])>>,
  plurals: Option<PluralRules>,
  compact: Option<CompactDecimalFormatter>,
  /// The digits of a `-u-nu-` system ICU4X has no symbols for (it writes Latin digits),
  /// put in place of `0`-`9` ([`requested_digits`]).
  digits: Option<[char; 10]>,
}

thread_local! {
  static FORMATTERS: Cache<Formatter> = const { Cache::new() };
}

/// How many formatters this thread's cache holds.
#[cfg(test)]
pub(crate) fn cached() -> usize {
  FORMATTERS.with(|c| c.len())
}

fn data_error(ctx: &Ctx<'_>) -> rquickjs::Error {
  rquickjs::Exception::throw_range(ctx, "Incorrect locale information provided")
}

fn sentinel_decimal(n: i64, sign: Sign) -> Decimal {
  let mut d = Decimal::from(n);
  d.sign = sign;
  d
}

impl Formatter {
  fn new(ctx: &Ctx<'_>, spec: Spec) -> rquickjs::Result<Formatter> {
    let loc = common::locale(&spec.locale);
    let mut options = DecimalFormatterOptions::default();
    options.grouping_strategy = Some(spec.grouping);
    let decimal = DecimalFormatter::try_new((&loc).into(), options).map_err(|_| data_error(ctx))?;
    let sign_of = |s: Sign| -> String {
      parts_of(&decimal.format(&sentinel_decimal(1, s)))
        .into_iter()
        .filter(|(k, _)| *k == "minusSign" || *k == "plusSign")
        .map(|(_, t)| t)
        .collect()
    };
    let minus = sign_of(Sign::Negative);
    let plus = sign_of(Sign::Positive);
    let one = decimal.format(&Decimal::from(1)).to_string();
    let digits = requested_digits(&loc, &decimal);
    let mut f = Formatter {
      spec,
      decimal,
      minus,
      plus,
      affixes: None,
      named: RefCell::new(Vec::new()),
      plurals: None,
      compact: None,
      digits,
    };
    match f.spec.style {
      Style::Percent => {
        use icu_experimental::dimension::percent::formatter::PercentFormatter;
        // ICU4X's percent data is keyed by numbering system: name the locale's own.
        let zero = f.decimal.format(&Decimal::from(0)).to_string();
        let nu = numbering_system_of(zero.chars().next().unwrap_or('0'));
        let mut ploc = loc.clone();
        if let Ok(v) = icu_locale_core::extensions::unicode::Value::try_from_str(nu) {
          if let Ok(k) = icu_locale_core::extensions::unicode::Key::try_from_str("nu") {
            ploc.extensions.unicode.keywords.set(k, v);
          }
        }
        let pf = PercentFormatter::try_new((&ploc).into(), Default::default())
          .map_err(|_| data_error(ctx))?;
        let one_plain = DecimalFormatter::try_new((&ploc).into(), Default::default())
          .map_err(|_| data_error(ctx))?
          .format(&Decimal::from(1))
          .to_string();
        let make = |s: Sign| {
          let text = pf.format(&sentinel_decimal(1, s)).to_string();
          let mut a = affix_of(&text, &one_plain, "percentSign", &f.minus, &f.plus);
          if nu == "arab" {
            // ICU4X has only the Latin-digit pattern (with LRM marks); CLDR's for Arabic-Indic
            // digits is the Arabic percent sign and ALM, no marks.
            for side in [&mut a.before, &mut a.after] {
              side.retain(|(k, t)| !(*k == "literal" && t.chars().all(|c| c == '\u{200e}')));
              for (k, t) in side.iter_mut() {
                if *k == "percentSign" {
                  *t = "\u{066a}\u{061c}".to_owned();
                }
              }
            }
          }
          a
        };
        f.affixes = Some([make(Sign::None), make(Sign::Negative), make(Sign::Positive)]);
      }
      Style::Currency if f.spec.currency_display != "name" => {
        f.affixes = Some(currency_affixes(ctx, &f, &loc, 1, &one)?);
      }
      Style::Currency | Style::Unit => {
        f.plurals =
          Some(PluralRules::try_new_cardinal((&loc).into()).map_err(|_| data_error(ctx))?);
      }
      _ => {}
    }
    if f.spec.notation == Notation::Compact {
      let mut co = icu_decimal::options::CompactDecimalFormatterOptions::default();
      co.grouping_strategy = Some(f.spec.grouping);
      let cdf = if f.spec.compact_long {
        CompactDecimalFormatter::try_new_long((&loc).into(), co)
      } else {
        CompactDecimalFormatter::try_new_short((&loc).into(), co)
      };
      f.compact = Some(cdf.map_err(|_| data_error(ctx))?);
    }
    Ok(f)
  }

  /// The parts of `x`.
  fn format(&self, ctx: &Ctx<'_>, x: &Num) -> rquickjs::Result<Vec<(&'static str, String)>> {
    let (negative, number, exponent) = match x {
      Num::NaN => (false, vec![("nan", nan_symbol(&self.spec.locale).to_owned())], None),
      Num::Infinite(neg) => (*neg, vec![("infinity", "∞".to_owned())], None),
      Num::Finite(d) => {
        let mut d = d.clone();
        if self.spec.style == Style::Percent {
          d.absolute.multiply_pow10(2);
        }
        let negative = d.sign == Sign::Negative;
        let (rounded, exponent, compact) = self.scale_and_round(&d);
        let zero = rounded.is_zero();
        let shown = Decimal::new(Sign::None, rounded);
        let parts = parts_of(&self.decimal.format(&shown));
        let compact = match (&self.compact, compact) {
          (Some(cdf), Some(e)) => {
            let text = match cdf.format_with_exponent(&shown, e) {
              Ok(w) => w.to_string(),
              Err(_) => String::new(),
            };
            let core: String = parts.iter().map(|(_, t)| t.as_str()).collect();
            Some(affix_of(&text, &core, "compact", &self.minus, &self.plus))
          }
          _ => None,
        };
        return self.assemble(ctx, negative, zero, parts, exponent, compact, &shown);
      }
    };
    let shown = Decimal::from(2);
    // NaN takes no sign where zero takes none (exceptZero, negative).
    let nan = matches!(x, Num::NaN);
    self.assemble(ctx, negative, nan, number, exponent, None, &shown)
  }

  /// Rounds the magnitude, scaling it first for scientific, engineering and compact
  /// notation: (digits, exponent, compact exponent).
  fn scale_and_round(&self, d: &Decimal) -> (UnsignedDecimal, Option<i16>, Option<u8>) {
    let digits = &self.spec.digits;
    NEGATIVE.with(|n| *n.borrow_mut() = d.sign == Sign::Negative);
    match self.spec.notation {
      Notation::Standard => (round(&d.absolute, digits), None, None),
      Notation::Scientific | Notation::Engineering => {
        if d.absolute.is_zero() {
          return (round(&d.absolute, digits), Some(0), None);
        }
        let step = if self.spec.notation == Notation::Engineering { 3 } else { 1 };
        let mut e = d.absolute.nonzero_magnitude_start();
        e = e.div_euclid(step) * step;
        let mut m = d.absolute.clone();
        m.multiply_pow10(-e);
        let mut r = round(&m, digits);
        // Rounding can carry into a new digit (9.99 → 10.0): scale once more.
        if r.clone().trimmed_start().nonzero_magnitude_start() >= step && !r.is_zero() {
          e += step;
          let mut m = d.absolute.clone();
          m.multiply_pow10(-e);
          r = round(&m, digits);
        }
        (r, Some(e), None)
      }
      Notation::Compact => {
        let Some(cdf) = &self.compact else { return (round(&d.absolute, digits), None, None) };
        let mag = if d.absolute.is_zero() { 0 } else { d.absolute.nonzero_magnitude_start() };
        let mut e = cdf.compact_exponent_for_magnitude(mag);
        let mut m = d.absolute.clone();
        m.multiply_pow10(-(e as i16));
        let mut r = round(&m, digits);
        if !r.is_zero() {
          let new_mag = r.nonzero_magnitude_start() + e as i16;
          let e2 = cdf.compact_exponent_for_magnitude(new_mag);
          if e2 != e {
            e = e2;
            let mut m = d.absolute.clone();
            m.multiply_pow10(-(e as i16));
            r = round(&m, digits);
          }
        }
        (r, None, Some(e))
      }
    }
  }

  #[allow(clippy::too_many_arguments)]
  fn assemble(
    &self,
    ctx: &Ctx<'_>,
    negative: bool,
    zero: bool,
    number: Vec<(&'static str, String)>,
    exponent: Option<i16>,
    compact: Option<Affix>,
    shown: &Decimal,
  ) -> rquickjs::Result<Vec<(&'static str, String)>> {
    // 0 none, 1 minus, 2 plus
    let sign = match self.spec.sign_display {
      SignDisplay::Auto => usize::from(negative),
      SignDisplay::Always => {
        if negative {
          1
        } else {
          2
        }
      }
      SignDisplay::ExceptZero => {
        if zero {
          0
        } else if negative {
          1
        } else {
          2
        }
      }
      SignDisplay::Negative => usize::from(negative && !zero),
      SignDisplay::Never => 0,
    };
    let mut body = number;
    if let Some(e) = exponent {
      body.push(("exponentSeparator", exponent_symbol(&self.spec.locale, &self.minus).to_owned()));
      if e < 0 {
        body.push(("exponentMinusSign", self.minus.clone()));
      }
      let mut ed = Decimal::from(e.unsigned_abs() as i64);
      ed.sign = Sign::None;
      let digits = parts_of(&self.decimal.format(&ed));
      for (_, t) in digits {
        body.push(("exponentInteger", t));
      }
    }
    if let Some(c) = compact {
      let mut b = c.before;
      b.extend(body);
      b.extend(c.after);
      body = b;
    }
    let affix = match self.spec.style {
      Style::Percent => self.affixes.as_ref().map(|a| a[sign].clone()),
      Style::Currency if self.spec.currency_display != "name" => {
        self.affixes.as_ref().map(|a| a[sign].clone())
      }
      Style::Currency => Some(self.named_affix(ctx, shown, sign)?),
      Style::Unit => {
        body = self.signed(body, sign);
        Some(self.unit_affix(shown))
      }
      _ => None,
    };
    let mut out = Vec::with_capacity(body.len() + 4);
    match affix {
      Some(a) => {
        out.extend(a.before);
        out.extend(body);
        out.extend(a.after);
      }
      None => out = self.signed(body, sign),
    }
    if let Some(digits) = &self.digits {
      for (kind, text) in out.iter_mut() {
        if matches!(*kind, "integer" | "fraction" | "exponentInteger") {
          *text = text
            .chars()
            .map(|c| if c.is_ascii_digit() { digits[c as usize - '0' as usize] } else { c })
            .collect();
        }
      }
    }
    Ok(out)
  }

  /// `body` with the sign (0 none, 1 minus, 2 plus) where the locale puts it on plain numbers.
  fn signed(&self, body: Vec<(&'static str, String)>, sign: usize) -> Vec<(&'static str, String)> {
    let s = match sign {
      1 => Sign::Negative,
      2 => Sign::Positive,
      _ => return body,
    };
    let sample = parts_of(&self.decimal.format(&sentinel_decimal(1, s)));
    let mut out = Vec::with_capacity(body.len() + 1);
    let first_is_sign =
      matches!(sample.first(), Some((k, _)) if *k == "minusSign" || *k == "plusSign");
    if first_is_sign {
      out.push(sample[0].clone());
      out.extend(body);
    } else {
      out.extend(body);
      if let Some(last) = sample.last() {
        out.push(last.clone());
      }
    }
    out
  }

  /// The unit pattern for the plural form of `shown`, from CLDR's unit names.
  fn unit_affix(&self, shown: &Decimal) -> Affix {
    const MARK: &str = "\u{E000}";
    let loc = common::locale(&self.spec.locale);
    let width = match self.spec.unit_display.as_str() {
      "long" => "long",
      "narrow" => "narrow",
      _ => "short",
    };
    let text = self
      .plurals
      .as_ref()
      .and_then(|rules| unit_text(&loc, &self.spec.unit, width, shown, rules, MARK))
      .unwrap_or_else(|| fallback_unit(&self.spec.unit, width, MARK));
    affix_of(&text, MARK, "unit", &self.minus, &self.plus)
  }

  /// The currency-name pattern for the plural category of `shown`.
  fn named_affix(&self, ctx: &Ctx<'_>, shown: &Decimal, sign: usize) -> rquickjs::Result<Affix> {
    let Some(rules) = &self.plurals else { return Ok(Affix::default()) };
    let cat = rules.category_for(shown);
    if let Some((_, a)) = self.named.borrow().iter().find(|(c, _)| *c == cat) {
      return Ok(a[sign].clone());
    }
    const SAMPLES: [i64; 20] =
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 20, 21, 22, 25, 100, 101, 1_000_000, 0];
    let n = SAMPLES.iter().copied().find(|&n| rules.category_for(n as usize) == cat).unwrap_or(2);
    let core = self.decimal.format(&Decimal::from(n)).to_string();
    let loc = common::locale(&self.spec.locale);
    let a = currency_affixes(ctx, self, &loc, n, &core)?;
    let r = a[sign].clone();
    self.named.borrow_mut().push((cat, a));
    Ok(r)
  }
}

/// The currency patterns (no sign, minus, plus) around `n` for the formatter's currency
/// and display.
fn currency_affixes(
  ctx: &Ctx<'_>,
  f: &Formatter,
  loc: &icu_locale_core::Locale,
  n: i64,
  _core: &str,
) -> rquickjs::Result<[Affix; 3]> {
  use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
  use icu_experimental::dimension::currency::options::{CurrencyFormatterOptions, CurrencyUsage};
  use icu_experimental::dimension::currency::CurrencyType;
  let code = CurrencyType::try_from_str(&f.spec.currency.to_ascii_lowercase())
    .map_err(|_| rquickjs::Exception::throw_range(ctx, "Invalid currency code"))?;
  let mut options = CurrencyFormatterOptions::default();
  options.usage =
    if f.spec.accounting { CurrencyUsage::Accounting } else { CurrencyUsage::Standard };
  let cf = match f.spec.currency_display.as_str() {
    "code" => CurrencyFormatter::try_new_code(loc.into(), code, options),
    "narrowSymbol" => CurrencyFormatter::try_new_symbol_narrow(loc.into(), code, options),
    "name" => CurrencyFormatter::try_new_name(loc.into(), code),
    _ => CurrencyFormatter::try_new_symbol(loc.into(), code, options),
  }
  .map_err(|_| data_error(ctx))?;
  // The formatter's own digits for n (its default grouping and numbering system).
  let plain =
    DecimalFormatter::try_new(loc.into(), Default::default()).map_err(|_| data_error(ctx))?;
  // The formatter pads the sentinel to the currency's digits ("$1.00").
  let mut padded = Decimal::from(n);
  padded.absolute.pad_end(-(currency_digits(&f.spec.currency) as i16));
  let core = plain.format(&padded).to_string();
  let make = |s: Sign| {
    let text = cf.format_fixed_decimal(&sentinel_decimal(n, s)).to_string();
    affix_of(&text, &core, "currency", &f.minus, &f.plus)
  };
  let none = make(Sign::None);
  let minus = make(Sign::Negative);
  let mut plus = make(Sign::Positive);
  if !plus.before.iter().chain(plus.after.iter()).any(|(k, _)| *k == "plusSign") {
    // No plus pattern: the minus pattern with the plus sign (as ICU derives it).
    let swap = |v: &Vec<(&'static str, String)>| -> Vec<(&'static str, String)> {
      v.iter()
        .map(
          |(k, t)| if *k == "minusSign" { ("plusSign", f.plus.clone()) } else { (*k, t.clone()) },
        )
        .collect()
    };
    plus = Affix { before: swap(&minus.before), after: swap(&minus.after) };
  }
  Ok([none, minus, plus])
}

/// CLDR's name pattern for `unit` in `width` for the plural form of `value`, with `mark`
/// where the number goes; `None` when ICU4X has no names for the unit (its data covers
/// area, duration, length, mass and volume).
fn unit_text(
  loc: &icu_locale_core::Locale,
  unit: &str,
  width: &str,
  value: &Decimal,
  rules: &PluralRules,
  mark: &str,
) -> Option<String> {
  use icu_experimental::dimension::provider::units::categorized_display_names::*;
  use icu_provider::prelude::*;
  let attr = format!("{width}-{unit}");
  let attrs = DataMarkerAttributes::try_from_str(&attr).ok()?;
  let dl = DataLocale::from(loc);
  // Each marker falls back to the root locale on its own: the first answer for the
  // locale's language wins, the root's only when no marker has better.
  let mut root: Option<String> = None;
  macro_rules! try_markers {
    ($($m:ident),*) => {
      $(
        let req = DataRequest {
          id: DataIdentifierBorrowed::for_marker_attributes_and_locale(attrs, &dl),
          ..Default::default()
        };
        if let Ok(resp) = DataProvider::<$m>::load(&icu_experimental::provider::Baked, req) {
          let text = resp.payload.get().get(value.into(), rules).interpolate_to_string((mark,));
          match resp.metadata.locale {
            Some(found) if found.language.is_unknown() => {
              root.get_or_insert(text);
            }
            _ => return Some(text),
          }
        }
      )*
    };
  }
  try_markers!(
    UnitsNamesLengthCoreV1,
    UnitsNamesLengthExtendedV1,
    UnitsNamesLengthOutlierV1,
    UnitsNamesMassCoreV1,
    UnitsNamesMassExtendedV1,
    UnitsNamesMassOutlierV1,
    UnitsNamesDurationCoreV1,
    UnitsNamesDurationExtendedV1,
    UnitsNamesDurationOutlierV1,
    UnitsNamesVolumeCoreV1,
    UnitsNamesVolumeExtendedV1,
    UnitsNamesVolumeOutlierV1,
    UnitsNamesAreaCoreV1,
    UnitsNamesAreaExtendedV1,
    UnitsNamesAreaOutlierV1
  );
  root
}

/// English short forms for the units ICU4X has no names for (digital, temperature, angle,
/// percent) and compound `-per-` units: CLDR's `en` patterns, used for every locale.
fn fallback_unit(unit: &str, width: &str, mark: &str) -> String {
  let short = match unit {
    "percent" => return format!("{mark}%"),
    "celsius" => {
      return if width == "long" { format!("{mark} degrees Celsius") } else { format!("{mark}°C") }
    }
    "fahrenheit" => {
      return if width == "long" {
        format!("{mark} degrees Fahrenheit")
      } else {
        format!("{mark}°F")
      }
    }
    "degree" => {
      return if width == "long" { format!("{mark} degrees") } else { format!("{mark} deg") }
    }
    "bit" => "bit",
    "byte" => "byte",
    "kilobit" => "kb",
    "kilobyte" => "kB",
    "megabit" => "Mb",
    "megabyte" => "MB",
    "gigabit" => "Gb",
    "gigabyte" => "GB",
    "terabit" => "Tb",
    "terabyte" => "TB",
    "petabyte" => "PB",
    other => other,
  };
  if width == "long" {
    format!("{mark} {unit}s")
  } else {
    format!("{mark} {short}")
  }
}

/// The digits ISO 4217 (as CLDR has it) gives a currency's minor unit.
fn currency_digits(code: &str) -> u8 {
  use icu_experimental::dimension::currency::CurrencyType;
  use icu_experimental::dimension::provider::currency::fractions::CurrencyFractionsV1;
  use icu_provider::prelude::*;
  let Ok(code) = CurrencyType::try_from_str(&code.to_ascii_lowercase()) else { return 2 };
  let Ok(resp) = DataProvider::<CurrencyFractionsV1>::load(
    &icu_experimental::provider::Baked,
    DataRequest::default(),
  ) else {
    return 2;
  };
  resp.payload.get().resolve(code).digits
}

/// The cached formatter for a record.
fn formatter(ctx: &Ctx<'_>, record: &Object<'_>) -> rquickjs::Result<Rc<Formatter>> {
  let key = get_str(record, "key");
  FORMATTERS.with(|cache| cache.get(&key, || Formatter::new(ctx, spec_of(record))))
}

pub(crate) fn define<'js>(ctx: &Ctx<'js>, n: &Object<'js>) -> rquickjs::Result<()> {
  n.set(
    "numberFormatParts",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, record: Object<'js>, x: Value<'js>| -> rquickjs::Result<Value<'js>> {
        let f = formatter(&ctx, &record)?;
        let x = num_of(&ctx, &x)?;
        let parts = f.format(&ctx, &x)?;
        parts::array(&ctx, &parts)
      },
    )?,
  )?;
  n.set(
    "numberFormat",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, record: Object<'js>, x: Value<'js>| -> rquickjs::Result<String> {
        let f = formatter(&ctx, &record)?;
        let x = num_of(&ctx, &x)?;
        let parts = f.format(&ctx, &x)?;
        Ok(parts.into_iter().map(|(_, t)| t).collect())
      },
    )?,
  )?;
  n.set(
    "currencyDigits",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, code: Value<'js>| -> rquickjs::Result<u32> {
      Ok(currency_digits(&common::utf8(&ctx, &code)?) as u32)
    })?,
  )?;
  n.set(
    "numberingSystem",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, tag: Value<'js>| -> rquickjs::Result<String> {
      let loc = common::locale(&common::utf8(&ctx, &tag)?);
      let df = DecimalFormatter::try_new((&loc).into(), Default::default())
        .map_err(|_| data_error(&ctx))?;
      // The digits tell the system: ICU4X resolves the -u-nu- key and the locale default;
      // a system it writes in Latin digits is still the one asked for (its digits replace them).
      if let Some(d) = requested_digits(&loc, &df) {
        return Ok(numbering_system_of(d[0]).to_owned());
      }
      let zero = df.format(&Decimal::from(0)).to_string();
      Ok(numbering_system_of(zero.chars().next().unwrap_or('0')).to_owned())
    })?,
  )?;
  Ok(())
}

/// CLDR's exponential symbol (ICU4X's decimal data has none): "E" but for a few locales.
fn exponent_symbol(locale: &str, minus: &str) -> &'static str {
  let lang = locale.split('-').next().unwrap_or("");
  match lang {
    "sv" | "lt" | "nb" | "no" | "nn" | "fo" | "kl" => {
      if lang == "sv" || lang == "lt" {
        "×10^"
      } else {
        "E"
      }
    }
    "se" => "·10^",
    // Arabic with Arabic-Indic digits (its minus sign carries the ALM mark).
    "ar" if minus.contains('\u{061c}') => "أس",
    "fa" => "×۱۰^",
    _ => "E",
  }
}

/// The numbering system whose zero digit is `zero`.
/// CLDR's NaN symbol where it is not `NaN` (ICU4X's decimal data has none).
fn nan_symbol(locale: &str) -> &'static str {
  let loc = common::locale(locale);
  let hant = || {
    loc.id.script.is_some_and(|s| s.as_str() == "Hant")
      || (loc.id.script.is_none()
        && loc.id.region.is_some_and(|r| matches!(r.as_str(), "TW" | "HK" | "MO")))
  };
  match loc.id.language.as_str() {
    "am" => "በቁጥር ሊገለጽ የማይችል",
    "ar" => "ليس رقمًا",
    "dz" => "ཨང་མད",
    "fa" => "ناعدد",
    "fi" => "epäluku",
    "ga" => "Nuimh",
    "hy" => "ՈչԹ",
    "ka" => "არ არის რიცხვი",
    "kk" => "сан емес",
    "ky" => "сан эмес",
    "lo" => "ບໍ່\u{200b}ແມ່ນ\u{200b}ໂຕ\u{200b}ເລກ",
    "lv" => "NS",
    "my" => "ဂဏန်းမဟုတ်သော",
    "ru" => "не число",
    "so" => "MaL",
    "tk" => "san däl",
    "uz" => "son emas",
    "yue" if loc.id.script.is_some_and(|s| s.as_str() == "Hans") => "非数值",
    "yue" => "非數值",
    "zh" if hant() => "非數值",
    _ => "NaN",
  }
}

/// The numbering systems of simple decimal digits (CLDR's numbers.xml), by the code point of
/// their zero (contiguous digits from there); `hanidec` has its own.
const DIGIT_ZEROS: &[(&str, u32)] = &[
  ("adlm", 0x1E950),
  ("ahom", 0x11730),
  ("arab", 0x0660),
  ("arabext", 0x06F0),
  ("bali", 0x1B50),
  ("beng", 0x09E6),
  ("bhks", 0x11C50),
  ("brah", 0x11066),
  ("cakm", 0x11136),
  ("cham", 0xAA50),
  ("deva", 0x0966),
  ("diak", 0x11950),
  ("fullwide", 0xFF10),
  ("gara", 0x10D40),
  ("gong", 0x11DA0),
  ("gonm", 0x11D50),
  ("gujr", 0x0AE6),
  ("gukh", 0x16130),
  ("guru", 0x0A66),
  ("hmng", 0x16B50),
  ("hmnp", 0x1E140),
  ("java", 0xA9D0),
  ("kali", 0xA900),
  ("kawi", 0x11F50),
  ("khmr", 0x17E0),
  ("knda", 0x0CE6),
  ("krai", 0x16D70),
  ("lana", 0x1A80),
  ("lanatham", 0x1A90),
  ("laoo", 0x0ED0),
  ("latn", 0x30),
  ("lepc", 0x1C40),
  ("limb", 0x1946),
  ("mathbold", 0x1D7CE),
  ("mathdbl", 0x1D7D8),
  ("mathmono", 0x1D7F6),
  ("mathsanb", 0x1D7EC),
  ("mathsans", 0x1D7E2),
  ("mlym", 0x0D66),
  ("modi", 0x11650),
  ("mong", 0x1810),
  ("mroo", 0x16A60),
  ("mtei", 0xABF0),
  ("mymr", 0x1040),
  ("mymrepka", 0x116DA),
  ("mymrpao", 0x116D0),
  ("mymrshan", 0x1090),
  ("mymrtlng", 0xA9F0),
  ("nagm", 0x1E4F0),
  ("newa", 0x11450),
  ("nkoo", 0x07C0),
  ("olck", 0x1C50),
  ("onao", 0x1E5F1),
  ("orya", 0x0B66),
  ("osma", 0x104A0),
  ("outlined", 0x1CCF0),
  ("rohg", 0x10D30),
  ("saur", 0xA8D0),
  ("segment", 0x1FBF0),
  ("shrd", 0x111D0),
  ("sind", 0x112F0),
  ("sinh", 0x0DE6),
  ("sora", 0x110F0),
  ("sund", 0x1BB0),
  ("sunu", 0x11BF0),
  ("takr", 0x116C0),
  ("talu", 0x19D0),
  ("tamldec", 0x0BE6),
  ("telu", 0x0C66),
  ("thai", 0x0E50),
  ("tibt", 0x0F20),
  ("tirh", 0x114D0),
  ("tnsa", 0x16AC0),
  ("tols", 0x11DE0),
  ("vaii", 0xA620),
  ("wara", 0x118E0),
  ("wcho", 0x1E2F0),
];

const HANIDEC: [char; 10] = ['〇', '一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The ten digits of a numbering system, if it is one of simple decimal digits.
fn system_digits(name: &str) -> Option<[char; 10]> {
  if name == "hanidec" {
    return Some(HANIDEC);
  }
  let zero = DIGIT_ZEROS.iter().find(|(n, _)| *n == name)?.1;
  let mut out = ['0'; 10];
  for (i, d) in out.iter_mut().enumerate() {
    *d = char::from_u32(zero + i as u32)?;
  }
  Some(out)
}

/// The digits the locale's `-u-nu-` asks for where ICU4X wrote Latin ones instead (it has
/// symbols for a few systems only): `None` when ICU4X's own digits stand.
fn requested_digits(
  loc: &icu_locale_core::Locale,
  decimal: &DecimalFormatter,
) -> Option<[char; 10]> {
  let key = icu_locale_core::extensions::unicode::key!("nu");
  let nu = loc.extensions.unicode.keywords.get(&key)?.to_string();
  let zero = decimal.format(&Decimal::from(0)).to_string();
  if nu == "latn" || !zero.starts_with('0') {
    return None;
  }
  system_digits(&nu)
}

/// The numbering system whose zero is `zero`.
fn numbering_system_of(zero: char) -> &'static str {
  if zero == HANIDEC[0] {
    return "hanidec";
  }
  DIGIT_ZEROS.iter().find(|(_, z)| *z == zero as u32).map_or("latn", |(n, _)| n)
}

#[cfg(test)]
mod tests {
  use super::*;

  fn digits(rt: RoundingType, minf: i16, maxf: i16, mins: i16, maxs: i16) -> Digits {
    Digits {
      rounding_type: rt,
      min_integer: 1,
      min_fraction: minf,
      max_fraction: maxf,
      min_significant: mins,
      max_significant: maxs,
      increment: 1,
      mode: SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand),
      strip_if_integer: false,
    }
  }

  fn r(x: &str, d: Digits) -> String {
    let v: Decimal = x.parse().unwrap();
    round_signed(&v, &d).to_string()
  }

  #[test]
  fn rounding_follows_the_digit_options() {
    assert_eq!(r("1234.5678", digits(RoundingType::Fraction, 0, 3, 1, 21)), "1234.568");
    assert_eq!(r("1.005", digits(RoundingType::Fraction, 2, 2, 1, 21)), "1.01");
    assert_eq!(r("0.5", digits(RoundingType::Fraction, 0, 0, 1, 21)), "1");
    assert_eq!(r("123456", digits(RoundingType::Significant, 0, 3, 1, 2)), "120000");
    assert_eq!(r("0", digits(RoundingType::Significant, 0, 3, 3, 5)), "0.00");
    assert_eq!(r("1.5", digits(RoundingType::Fraction, 2, 3, 1, 21)), "1.50");
    let mut inc = digits(RoundingType::Fraction, 2, 2, 1, 21);
    inc.increment = 25;
    assert_eq!(r("1.13", inc), "1.25");
    inc.increment = 10;
    assert_eq!(r("1.16", inc), "1.20");
    let mut floor = digits(RoundingType::Fraction, 0, 0, 1, 21);
    floor.mode = SignedRoundingMode::Floor;
    assert_eq!(r("-1.5", floor), "2");
    assert_eq!(r("1.5", floor), "1");
  }
}

#[cfg(test)]
mod unit_tests {
  use super::*;

  #[test]
  fn nan_is_written_as_cldr_writes_it() {
    assert_eq!(nan_symbol("en-US"), "NaN");
    assert_eq!(nan_symbol("zh-TW"), "非數值");
    assert_eq!(nan_symbol("zh"), "NaN");
    assert_eq!(nan_symbol("ru"), "не число");
  }

  #[test]
  fn numbering_systems_icu4x_writes_in_latin_digits_get_their_own() {
    assert_eq!(system_digits("ahom").unwrap()[0], '\u{11730}');
    assert_eq!(system_digits("thai").unwrap()[9], '\u{0E59}');
    assert_eq!(system_digits("hanidec").unwrap()[0], '〇');
    assert_eq!(system_digits("roman"), None);
    assert_eq!(numbering_system_of('\u{0660}'), "arab");
    assert_eq!(numbering_system_of('〇'), "hanidec");
    let ahom = icu_locale_core::Locale::try_from_str("en-u-nu-ahom").unwrap();
    let df = DecimalFormatter::try_new((&ahom).into(), Default::default()).unwrap();
    assert_eq!(requested_digits(&ahom, &df).map(|d| d[1]), Some('\u{11731}'));
    let arab = icu_locale_core::Locale::try_from_str("en-u-nu-arab").unwrap();
    let df = DecimalFormatter::try_new((&arab).into(), Default::default()).unwrap();
    assert_eq!(requested_digits(&arab, &df), None);
  }

  #[test]
  fn unit_names_come_from_cldr_by_width_and_plural() {
    let loc = common::locale("en-US");
    let rules = PluralRules::try_new_cardinal((&loc).into()).unwrap();
    let t = |unit: &str, width: &str, n: i64| {
      unit_text(&loc, unit, width, &Decimal::from(n), &rules, "#")
    };
    assert_eq!(t("kilometer", "long", 5).as_deref(), Some("# kilometers"));
    assert_eq!(t("kilometer", "short", 5).as_deref(), Some("# km"));
    assert_eq!(t("kilogram", "long", 1).as_deref(), Some("# kilogram"));
    assert_eq!(t("byte", "short", 1), None);
  }
}
