
  // ---- Intl.DateTimeFormat, Date.prototype.toLocale*String --------------------------------

  const CALENDARS = split(
    'buddhist chinese coptic dangi ethioaa ethiopic gregory hebrew indian islamic-civil islamic-tbla islamic-umalqura iso8601 japanese persian roc',
    ' ',
  )
  supportedValues.calendar = CALENDARS
  supportedValues.timeZone = () => {
    const all = native.timeZoneNames()
    const out = []
    for (let i = 0; i < all.length; i++) {
      const z = all[i]
      // The canonical zones as ICU lists them for V8: Area/City only (no US/…, Etc/…, UTC).
      if (apply(strIndexOf, z, ['/']) !== -1 && !test(/^(US|SystemV|Etc)\//, z)) push(out, z)
    }
    return out
  }
  const HOUR_CYCLES = ['h11', 'h12', 'h23', 'h24']
  /** CLDR's calendar aliases (bcp47/calendar.xml). */
  const canonicalCalendar = (ca) => (ca === 'islamicc' ? 'islamic-civil' : ca === 'ethiopic-amete-alem' ? 'ethioaa' : ca)
  const DATE_STYLES = ['full', 'long', 'medium', 'short']
  /** Table 7's components, in order, with their values. */
  const COMPONENTS = [
    ['weekday', ['narrow', 'short', 'long']],
    ['era', ['narrow', 'short', 'long']],
    ['year', ['2-digit', 'numeric']],
    ['month', ['2-digit', 'numeric', 'narrow', 'short', 'long']],
    ['day', ['2-digit', 'numeric']],
    ['dayPeriod', ['narrow', 'short', 'long']],
    ['hour', ['2-digit', 'numeric']],
    ['minute', ['2-digit', 'numeric']],
    ['second', ['2-digit', 'numeric']],
    ['fractionalSecondDigits', undefined],
    ['timeZoneName', ['short', 'long', 'shortOffset', 'longOffset', 'shortGeneric', 'longGeneric']],
  ]
  const dateGetTime = Date.prototype.getTime
  const DateNow = Date.now

  /** CreateDateTimeFormat(dtf, locales, options, required, defaults). */
  function initDateTimeFormat(dtf, locales, options, required, defaults) {
    const requested = canonicalizeLocaleList(locales)
    options = coerceOptions(options)
    const ctor = 'Intl.DateTimeFormat'
    const r = create(null)
    r.kind = 'DateTimeFormat'
    const opt = create(null)
    getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', ctor)
    const calendar = getOption(options, 'calendar', 'string', undefined, undefined, ctor)
    if (calendar !== undefined && !test(TYPE, calendar)) throw new RangeError(`Invalid calendar : ${calendar}`)
    // CanonicalizeUValue('ca', …): lower case, CLDR's aliases.
    opt.ca = calendar === undefined ? undefined : canonicalCalendar(lower(calendar))
    const numberingSystem = getOption(options, 'numberingSystem', 'string', undefined, undefined, ctor)
    if (numberingSystem !== undefined && !test(TYPE, numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`)
    opt.nu = numberingSystem
    const hour12 = getOption(options, 'hour12', 'boolean', undefined, undefined, ctor)
    let hourCycle = getOption(options, 'hourCycle', 'string', HOUR_CYCLES, undefined, ctor)
    // hour12 overrides hourCycle and a -u-hc- keyword (null: the keyword leaves the locale).
    opt.hc = hour12 !== undefined ? null : hourCycle
    const resolved = resolveLocale(requested, opt, ['ca', 'hc', 'nu'], { ca: CALENDARS, hc: HOUR_CYCLES, nu: NUMBERING_SYSTEMS })
    r.locale = resolved.locale
    r.dataLocale = resolved.dataLocale
    let timeZone = options.timeZone
    if (timeZone === undefined) timeZone = native.defaultTimeZone()
    else {
      timeZone = `${timeZone}`
      const canonical = native.canonicalTimeZone(timeZone)
      if (canonical === undefined) throw new RangeError(`Invalid time zone specified: ${timeZone}`)
      timeZone = canonical
    }
    r.timeZone = timeZone
    let hasExplicit = undefined
    for (let i = 0; i < COMPONENTS.length; i++) {
      const [prop, values] = COMPONENTS[i]
      const value = values === undefined
        ? getNumberOption(options, prop, 1, 3, undefined)
        : getOption(options, prop, 'string', values, undefined, ctor)
      r[prop] = value
      if (value !== undefined && hasExplicit === undefined) hasExplicit = prop
    }
    getOption(options, 'formatMatcher', 'string', ['basic', 'best fit'], 'best fit', ctor)
    const dateStyle = getOption(options, 'dateStyle', 'string', DATE_STYLES, undefined, ctor)
    const timeStyle = getOption(options, 'timeStyle', 'string', DATE_STYLES, undefined, ctor)
    r.dateStyle = dateStyle
    r.timeStyle = timeStyle
    if (dateStyle !== undefined || timeStyle !== undefined) {
      if (hasExplicit !== undefined) throw new TypeError(`Can't set option ${hasExplicit} when ${dateStyle !== undefined ? 'dateStyle' : 'timeStyle'} is used`)
      if (required === 'date' && timeStyle !== undefined) throw new TypeError('Invalid option : timeStyle')
      if (required === 'time' && dateStyle !== undefined) throw new TypeError('Invalid option : dateStyle')
    } else {
      let needDefaults = true
      if (required === 'date' || required === 'any') {
        if (r.weekday !== undefined || r.year !== undefined || r.month !== undefined || r.day !== undefined) needDefaults = false
      }
      if (required === 'time' || required === 'any') {
        if (r.dayPeriod !== undefined || r.hour !== undefined || r.minute !== undefined || r.second !== undefined || r.fractionalSecondDigits !== undefined) needDefaults = false
      }
      if (needDefaults && (defaults === 'date' || defaults === 'all')) r.year = r.month = r.day = 'numeric'
      if (needDefaults && (defaults === 'time' || defaults === 'all')) r.hour = r.minute = r.second = 'numeric'
    }
    // The clock: hour12 picks the locale's 12- or 24-hour clock (ICU4X chooses h11 or h12,
    // as the locale writes it), hourCycle or -u-hc- one cycle.
    const hc = hour12 === undefined ? resolved.hc : undefined
    r.hourCycle = hour12 === true ? 'h12' : hour12 === false ? 'h23' : hc === undefined ? '' : hc
    let ext = ''
    if (resolved.ca !== undefined && includes(CALENDARS, resolved.ca)) ext += `-ca-${resolved.ca}`
    if (hc !== undefined) ext += `-hc-${hc === 'h24' ? 'h23' : hc}`
    else if (hour12 !== undefined) ext += `-hc-${hour12 ? 'h12' : 'h23'}`
    if (resolved.nu !== undefined && includes(NUMBERING_SYSTEMS, resolved.nu)) ext += `-nu-${resolved.nu}`
    r.locale_ = ext === '' ? r.dataLocale : insertExtension(r.dataLocale, ext)
    dateTimeRecordKey(r)
    // What the pattern says (resolvedOptions): the components and clock actually shown.
    const info = native.dateTimeResolved(r.spec)
    r.pattern = info[0]
    // ICU4X formats the ISO calendar as the Gregorian one; the program asked for iso8601.
    r.calendar = resolved.ca === 'iso8601' && info[1] === 'gregory' ? 'iso8601' : info[1]
    r.numberingSystem = native.numberingSystem(r.locale_)
    r.boundFormat = undefined
    setSlot(dtf, r)
    return dtf
  }

  function dateTimeRecordKey(r) {
    // The natives read the record's strings (date_time_format.rs); `locale` there is the tag with its keywords.
    r.spec = create(null)
    const s = r.spec
    s.locale = r.locale_
    s.timeZone = r.timeZone
    s.dateStyle = r.dateStyle
    s.timeStyle = r.timeStyle
    for (let i = 0; i < COMPONENTS.length; i++) s[COMPONENTS[i][0]] = r[COMPONENTS[i][0]]
    s.hourCycle = r.hourCycle
    s.key = `${s.locale}|${s.timeZone}|${s.dateStyle}|${s.timeStyle}|${s.weekday}|${s.era}|${s.year}|${s.month}|${s.day}|${s.dayPeriod}|${s.hour}|${s.minute}|${s.second}|${s.fractionalSecondDigits}|${s.timeZoneName}|${s.hourCycle}`
  }

  /** The pattern's fields as resolvedOptions names them (V8 reads them off the pattern). */
  function patternComponents(pattern) {
    const out = create(null)
    let i = 0
    while (i < pattern.length) {
      const c = pattern[i]
      if (c === "'") {
        i++
        while (i < pattern.length && pattern[i] !== "'") i++
        i++
        continue
      }
      let n = 1
      while (i + n < pattern.length && pattern[i + n] === c) n++
      i += n
      switch (c) {
        case 'E': case 'c': case 'e':
          if (c === 'E' || n >= 3) out.weekday = n >= 5 ? 'narrow' : n === 4 ? 'long' : 'short'
          break
        case 'G': out.era = n >= 5 ? 'narrow' : n === 4 ? 'long' : 'short'; break
        case 'y': case 'u': case 'r': out.year = n === 2 ? '2-digit' : 'numeric'; break
        case 'M': case 'L': out.month = n === 1 ? 'numeric' : n === 2 ? '2-digit' : n === 3 ? 'short' : n === 4 ? 'long' : 'narrow'; break
        case 'd': out.day = n === 2 ? '2-digit' : 'numeric'; break
        case 'B': out.dayPeriod = n >= 5 ? 'narrow' : n === 4 ? 'long' : 'short'; break
        case 'h': case 'H': case 'K': case 'k':
          out.hour = n === 2 ? '2-digit' : 'numeric'
          out.hourCycle = c === 'h' ? 'h12' : c === 'H' ? 'h23' : c === 'K' ? 'h11' : 'h24'
          break
        case 'm': out.minute = n === 2 ? '2-digit' : 'numeric'; break
        case 's': out.second = n === 2 ? '2-digit' : 'numeric'; break
        case 'S': out.fractionalSecondDigits = n; break
        case 'z': out.timeZoneName = n >= 4 ? 'long' : 'short'; break
        case 'O': out.timeZoneName = n >= 4 ? 'longOffset' : 'shortOffset'; break
        case 'v': out.timeZoneName = n >= 4 ? 'longGeneric' : 'shortGeneric'; break
        case 'V': case 'X': case 'x': case 'Z': out.timeZoneName = 'shortOffset'; break
        default:
      }
    }
    return out
  }

  /** ToDateTimeFormattable's x: a time value, or a RangeError. */
  function timeValue(date) {
    const x = date === undefined ? DateNow() : +date
    if (!(x - x === 0) || x > 8.64e15 || x < -8.64e15) throw new RangeError('Invalid time value')
    return x < 0 ? -MathFloor(-x) + 0 : MathFloor(x)
  }

  function partsOf(flat, withSource) {
    const out = []
    const step = withSource ? 3 : 2
    for (let i = 0; i < flat.length; i += step) {
      const part = { type: flat[i], value: flat[i + 1] }
      if (withSource) createData(part, 'source', flat[i + 2])
      push(out, part)
    }
    return out
  }

  function DateTimeFormat(locales = undefined, options = undefined) {
    const dtf = create(protoOf(new.target === undefined ? DateTimeFormat : new.target, DateTimeFormat))
    return chain(initDateTimeFormat(dtf, locales, options, 'any', 'date'), new.target, this, DateTimeFormat)
  }
  const dtfOf = (o, method) => unwrap(o, 'DateTimeFormat', method)

  function rangeArgs(r, a, b) {
    if (a === undefined || b === undefined) throw new TypeError('Invalid time value')
    return [timeValue(a), timeValue(b)]
  }

  defineMethods(DateTimeFormat.prototype, {
    get format() {
      const r = unwrapLegacy(this, 'DateTimeFormat', DateTimeFormat, 'get Intl.DateTimeFormat.prototype.format')
      if (r.boundFormat === undefined) {
        r.boundFormat = named((date) => native.dateTimeFormat(r.spec, timeValue(date), false), '')
      }
      return r.boundFormat
    },
    formatToParts(date) {
      const r = dtfOf(this, 'Intl.DateTimeFormat.prototype.formatToParts')
      return partsOf(native.dateTimeFormat(r.spec, timeValue(date), true), false)
    },
    formatRange(startDate, endDate) {
      const r = dtfOf(this, 'Intl.DateTimeFormat.prototype.formatRange')
      const [a, b] = rangeArgs(r, startDate, endDate)
      // Ends that read the same are one date (PartitionDateTimeRangePattern).
      const one = native.dateTimeFormat(r.spec, a, false)
      if (one === native.dateTimeFormat(r.spec, b, false)) return one
      return native.dateTimeFormatRange(r.spec, a, b, false)
    },
    formatRangeToParts(startDate, endDate) {
      const r = dtfOf(this, 'Intl.DateTimeFormat.prototype.formatRangeToParts')
      const [a, b] = rangeArgs(r, startDate, endDate)
      if (native.dateTimeFormat(r.spec, a, false) === native.dateTimeFormat(r.spec, b, false)) {
        const parts = partsOf(native.dateTimeFormat(r.spec, a, true), false)
        for (let i = 0; i < parts.length; i++) createData(parts[i], 'source', 'shared')
        return parts
      }
      return partsOf(native.dateTimeFormatRange(r.spec, a, b, true), true)
    },
    resolvedOptions() {
      const r = unwrapLegacy(this, 'DateTimeFormat', DateTimeFormat, 'Intl.DateTimeFormat.prototype.resolvedOptions')
      const shown = patternComponents(r.pattern)
      const out = { locale: r.locale, calendar: r.calendar, numberingSystem: r.numberingSystem, timeZone: r.timeZone }
      if (shown.hourCycle !== undefined) {
        createData(out, 'hourCycle', shown.hourCycle)
        createData(out, 'hour12', shown.hourCycle === 'h11' || shown.hourCycle === 'h12')
      }
      if (r.dateStyle !== undefined || r.timeStyle !== undefined) {
        if (r.dateStyle !== undefined) createData(out, 'dateStyle', r.dateStyle)
        if (r.timeStyle !== undefined) createData(out, 'timeStyle', r.timeStyle)
        return out
      }
      for (let i = 0; i < COMPONENTS.length; i++) {
        const prop = COMPONENTS[i][0]
        if (r[prop] === undefined) continue
        const v = shown[prop] !== undefined ? shown[prop] : r[prop]
        createData(out, prop, v)
      }
      return out
    },
  })
  defineService('DateTimeFormat', DateTimeFormat)

  /** Date.prototype.toLocale{,Date,Time}String: a formatter per call, or the cached default. */
  const defaultFormats = create(null)
  function dateToLocale(that, locales, options, required, defaults, method) {
    let t
    try {
      t = apply(dateGetTime, that, [])
    } catch {
      throw incompatible(method, that)
    }
    if (t !== t) return 'Invalid Date'
    let dtf
    if (locales === undefined && options === undefined) {
      dtf = defaultFormats[required]
      if (dtf === undefined) defaultFormats[required] = dtf = initDateTimeFormat(create(DateTimeFormat.prototype), undefined, undefined, required, defaults)
    } else {
      dtf = initDateTimeFormat(create(DateTimeFormat.prototype), locales, options, required, defaults)
    }
    return native.dateTimeFormat(slotOf(dtf).spec, t, false)
  }
  localeMethods[DATE_TO_LOCALE_STRING] = function toLocaleString(locales = undefined, options = undefined) {
    return dateToLocale(this, locales, options, 'any', 'all', 'Date.prototype.toLocaleString')
  }
  localeMethods[DATE_TO_LOCALE_DATE_STRING] = function toLocaleDateString(locales = undefined, options = undefined) {
    return dateToLocale(this, locales, options, 'date', 'date', 'Date.prototype.toLocaleDateString')
  }
  localeMethods[DATE_TO_LOCALE_TIME_STRING] = function toLocaleTimeString(locales = undefined, options = undefined) {
    return dateToLocale(this, locales, options, 'time', 'time', 'Date.prototype.toLocaleTimeString')
  }
