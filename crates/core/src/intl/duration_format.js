
  // ---- Intl.DurationFormat ----------------------------------------------------------------
  // ECMA-402's DurationFormat is defined over NumberFormat (each unit's number, with its unit
  // or as digits) and ListFormat (the units joined as a unit list); so is this one, over the
  // records of the internal constructors (a program's changes to Intl cannot reach it).

  const DURATION_UNITS = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds', 'milliseconds', 'microseconds', 'nanoseconds']
  /** ToDurationRecord reads the fields in alphabetical order. */
  const DURATION_FIELDS_READ = ['days', 'hours', 'microseconds', 'milliseconds', 'minutes', 'months', 'nanoseconds', 'seconds', 'weeks', 'years']
  const DATE_UNIT_STYLES = ['long', 'short', 'narrow']
  const TIME_UNIT_STYLES = ['long', 'short', 'narrow', 'numeric', '2-digit']
  const SUBSECOND_UNIT_STYLES = ['long', 'short', 'narrow', 'numeric']
  const bigZero = BigIntCtor(0)
  const bigTen = BigIntCtor(10)

  /** GetDurationUnitOptions, ValidateDurationUnitStyle included. */
  function durationUnitOptions(unit, options, baseStyle, styles, digitalBase, prevStyle, ctor) {
    const conflict = () => new RangeError(`Invalid object : ${describe(options)}`)
    let style = getOption(options, unit, 'string', styles, undefined, ctor)
    let displayDefault = 'always'
    if (style === undefined) {
      if (baseStyle === 'digital') {
        if (unit !== 'hours' && unit !== 'minutes' && unit !== 'seconds') displayDefault = 'auto'
        style = digitalBase
      } else if (prevStyle === 'fractional' || prevStyle === 'numeric' || prevStyle === '2-digit') {
        if (unit !== 'minutes' && unit !== 'seconds') displayDefault = 'auto'
        style = 'numeric'
      } else {
        displayDefault = 'auto'
        style = baseStyle
      }
    }
    if (style === 'numeric' && (unit === 'milliseconds' || unit === 'microseconds' || unit === 'nanoseconds')) {
      style = 'fractional'
      displayDefault = 'auto'
    }
    const display = getOption(options, `${unit}Display`, 'string', ['auto', 'always'], displayDefault, ctor)
    if (display === 'always' && style === 'fractional') throw conflict()
    if (prevStyle === 'fractional' && style !== 'fractional') throw conflict()
    if ((prevStyle === 'numeric' || prevStyle === '2-digit') && style !== 'fractional' && style !== 'numeric' && style !== '2-digit') throw conflict()
    if ((unit === 'minutes' || unit === 'seconds') && (prevStyle === 'numeric' || prevStyle === '2-digit')) style = '2-digit'
    return { style, display }
  }

  function DurationFormat(locales = undefined, options = undefined) {
    if (new.target === undefined) throw new TypeError("Constructor Intl.DurationFormat requires 'new'")
    const self = create(protoOf(new.target, DurationFormat))
    const requested = canonicalizeLocaleList(locales)
    options = getOptionsObject(options)
    const ctor = 'Intl.DurationFormat'
    const r = create(null)
    r.kind = 'DurationFormat'
    const resolved = resolveNumberingLocale(requested, options, ctor)
    r.locale = resolved.locale
    r.dataLocale = resolved.dataLocale
    r.numberingSystem = native.numberingSystem(resolved.numberingLocale)
    r.style = getOption(options, 'style', 'string', ['long', 'short', 'narrow', 'digital'], 'short', ctor)
    let prevStyle = ''
    for (let i = 0; i < DURATION_UNITS.length; i++) {
      const unit = DURATION_UNITS[i]
      const styles = i < 4 ? DATE_UNIT_STYLES : i < 7 ? TIME_UNIT_STYLES : SUBSECOND_UNIT_STYLES
      const o = durationUnitOptions(unit, options, r.style, styles, i < 4 ? 'short' : 'numeric', prevStyle, ctor)
      r[unit] = o.style
      r[`${unit}Display`] = o.display
      if (i >= 4) prevStyle = o.style
    }
    r.fractionalDigits = getNumberOption(options, 'fractionalDigits', 0, 9, undefined)
    setSlot(self, r)
    return self
  }

  /** ToIntegerIfIntegral. */
  function integerIfIntegral(v) {
    const n = +v
    if (!(n - n === 0) || MathFloor(n) !== n) throw new RangeError('Invalid time value for Temporal')
    // A mathematical value: -0 is 0.
    return n + 0
  }

  /** ToDurationRecord, IsValidDuration included. */
  function toDurationRecord(input) {
    // V8 (Node 24) has no Temporal.Duration strings here: a string is a RangeError.
    if (typeof input === 'string') throw new RangeError(`Invalid object : ${input}`)
    if (input === null || (typeof input !== 'object' && typeof input !== 'function')) throw new TypeError('Invalid argument for Temporal')
    const d = create(null)
    let any = false
    for (let i = 0; i < DURATION_FIELDS_READ.length; i++) {
      const field = DURATION_FIELDS_READ[i]
      const v = input[field]
      if (v !== undefined) {
        any = true
        d[field] = integerIfIntegral(v)
      } else d[field] = 0
    }
    if (!any) throw new TypeError('Invalid argument for Temporal')
    let sign = 0
    for (let i = 0; i < DURATION_UNITS.length; i++) {
      const v = d[DURATION_UNITS[i]]
      if (v < 0) {
        if (sign > 0) throw new RangeError(`Invalid object : ${describe(input)}`)
        sign = -1
      } else if (v > 0) {
        if (sign < 0) throw new RangeError(`Invalid object : ${describe(input)}`)
        sign = 1
      }
    }
    const limit32 = 2 ** 32
    if (!(d.years < limit32 && d.years > -limit32 && d.months < limit32 && d.months > -limit32 && d.weeks < limit32 && d.weeks > -limit32)) {
      throw new RangeError(`Invalid object : ${describe(input)}`)
    }
    const total = totalNanoseconds(d, 'days')
    const bound = BigIntCtor(2 ** 53) * BigIntCtor(1000000000)
    if (total >= bound || -total >= bound) throw new RangeError(`Invalid object : ${describe(input)}`)
    return d
  }

  /** The duration from `from` (days or seconds or a subsecond unit) down, in nanoseconds. */
  function totalNanoseconds(d, from) {
    const scale = { days: 86400000000000, hours: 3600000000000, minutes: 60000000000, seconds: 1000000000, milliseconds: 1000000, microseconds: 1000, nanoseconds: 1 }
    let ns = bigZero
    for (let i = indexOf(DURATION_UNITS, from); i < DURATION_UNITS.length; i++) {
      ns += BigIntCtor(d[DURATION_UNITS[i]]) * BigIntCtor(scale[DURATION_UNITS[i]])
    }
    return ns
  }

  /** A seconds/milliseconds/microseconds value with the smaller units as its decimal fraction. */
  function fractionalValue(d, unit) {
    const i = indexOf(DURATION_UNITS, unit)
    let plain = true
    for (let j = i + 1; j < DURATION_UNITS.length; j++) if (d[DURATION_UNITS[j]] !== 0) plain = false
    if (plain) return d[unit]
    const exponent = 3 * (9 - i)
    const ns = totalNanoseconds(d, unit)
    const e = bigTen ** BigIntCtor(exponent)
    const negative = ns < bigZero
    const abs = negative ? -ns : ns
    const q = abs / e
    let rest = `${abs % e}`
    while (rest.length < exponent) rest = `0${rest}`
    return `${negative ? '-' : ''}${q}.${rest}`
  }

  /** The locale's separator of hours, minutes and seconds (`:`, Finnish `.`), read off its
   * 24-hour time pattern; one look-up per locale. */
  const timeSeparators = create(null)
  function timeSeparator(locale) {
    let sep = timeSeparators[locale]
    if (sep === undefined) {
      const o = create(null)
      o.hour = 'numeric'
      o.minute = '2-digit'
      o.hourCycle = 'h23'
      o.timeZone = 'UTC'
      const m = /[Hh]+([^Hhm']+)mm/.exec(slotOf(new DateTimeFormat(locale, o)).pattern)
      timeSeparators[locale] = sep = m === null ? ':' : m[1]
    }
    return sep
  }

  /** PartitionDurationFormatPattern: parts with the unit each number belongs to. */
  function durationParts(r, d) {
    const groups = []
    let needSeparator = false
    let displayNegativeSign = true
    let negative = false
    for (let i = 0; i < DURATION_UNITS.length; i++) if (d[DURATION_UNITS[i]] < 0) negative = true
    for (let i = 0; i < DURATION_UNITS.length; i++) {
      const unit = DURATION_UNITS[i]
      let value = d[unit]
      const style = r[unit]
      const display = r[`${unit}Display`]
      const nfUnit = slice(unit, 0, unit.length - 1)
      const nfOpts = create(null)
      let done = false
      if ((unit === 'seconds' || unit === 'milliseconds' || unit === 'microseconds') && r[DURATION_UNITS[i + 1]] === 'fractional') {
        value = fractionalValue(d, unit)
        nfOpts.maximumFractionDigits = r.fractionalDigits ?? 9
        nfOpts.minimumFractionDigits = r.fractionalDigits ?? 0
        nfOpts.roundingMode = 'trunc'
        done = true
      }
      let displayRequired = false
      if (unit === 'minutes' && needSeparator) {
        displayRequired = r.secondsDisplay === 'always' || d.seconds !== 0 || d.milliseconds !== 0 || d.microseconds !== 0 || d.nanoseconds !== 0
      }
      if (value !== 0 || display !== 'auto' || displayRequired) {
        if (displayNegativeSign) {
          displayNegativeSign = false
          if (value === 0 && negative) value = -0
        } else nfOpts.signDisplay = 'never'
        nfOpts.numberingSystem = r.numberingSystem
        if (style === '2-digit') nfOpts.minimumIntegerDigits = 2
        if (style !== 'numeric' && style !== '2-digit' && style !== 'fractional') {
          nfOpts.style = 'unit'
          nfOpts.unit = nfUnit
          nfOpts.unitDisplay = style
        } else nfOpts.useGrouping = false
        const nf = slotOf(new NumberFormat(r.dataLocale, nfOpts))
        let list
        if (!needSeparator) list = []
        else {
          list = groups[groups.length - 1]
          push(list, { type: 'literal', value: timeSeparator(r.dataLocale) })
        }
        const parts = formatParts(nf, value)
        for (let k = 0; k < parts.length; k++) push(list, { type: parts[k].type, value: parts[k].value, unit: nfUnit })
        if (!needSeparator) {
          if (style === '2-digit' || style === 'numeric') needSeparator = true
          push(groups, list)
        }
      }
      if (done) break
    }
    const listStyle = r.style === 'digital' ? 'short' : r.style
    const strings = []
    for (let i = 0; i < groups.length; i++) {
      let s = ''
      for (let k = 0; k < groups[i].length; k++) s += groups[i][k].value
      push(strings, s)
    }
    const flat = native.listFormat(r.dataLocale, 2, indexOf(WIDTHS, listStyle), strings, true)
    const out = []
    let next = 0
    for (let i = 0; i < flat.length; i += 2) {
      if (flat[i] === 'element') {
        const g = groups[next++]
        for (let k = 0; k < g.length; k++) push(out, g[k])
      } else push(out, { type: 'literal', value: flat[i + 1] })
    }
    return out
  }

  const dfOf = (o, method) => unwrap(o, 'DurationFormat', method)
  defineMethods(DurationFormat.prototype, {
    format(duration) {
      const r = dfOf(this, 'Intl.DurationFormat.prototype.format')
      const parts = durationParts(r, toDurationRecord(duration))
      let s = ''
      for (let i = 0; i < parts.length; i++) s += parts[i].value
      return s
    },
    formatToParts(duration) {
      const r = dfOf(this, 'Intl.DurationFormat.prototype.formatToParts')
      const parts = durationParts(r, toDurationRecord(duration))
      const out = []
      for (let i = 0; i < parts.length; i++) {
        const p = parts[i]
        const part = {}
        createData(part, 'type', p.type)
        createData(part, 'value', p.value)
        if (p.unit !== undefined) createData(part, 'unit', p.unit)
        createData(out, i, part)
      }
      return out
    },
    resolvedOptions() {
      const r = dfOf(this, 'Intl.DurationFormat.prototype.resolvedOptions')
      const out = {}
      createData(out, 'locale', r.locale)
      createData(out, 'numberingSystem', r.numberingSystem)
      createData(out, 'style', r.style)
      for (let i = 0; i < DURATION_UNITS.length; i++) {
        const unit = DURATION_UNITS[i]
        createData(out, unit, r[unit] === 'fractional' ? 'numeric' : r[unit])
        createData(out, `${unit}Display`, r[`${unit}Display`])
      }
      if (r.fractionalDigits !== undefined) createData(out, 'fractionalDigits', r.fractionalDigits)
      return out
    },
  })
  defineService('DurationFormat', DurationFormat)
