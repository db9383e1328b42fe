
  // ---- Intl.Locale --------------------------------------------------------------------

  const LANGUAGE = /^([A-Za-z]{2,3}|[A-Za-z]{5,8})$/
  const SCRIPT = /^[A-Za-z]{4}$/
  const REGION = /^([A-Za-z]{2}|[0-9]{3})$/
  /** unicode_variant_subtag, hyphen-separated. */
  const VARIANTS = /^([0-9A-Za-z]{5,8}|[0-9][0-9A-Za-z]{3})(-([0-9A-Za-z]{5,8}|[0-9][0-9A-Za-z]{3}))*$/

  /** CLDR's calendarPreferenceData: a region's calendars, most preferred first. */
  const CALENDAR_PREFERENCES = create(null)
  {
    const rows = [
      ['BD', 'gregory islamic-civil islamic-tbla'],
      ['DJ DZ EH ER IQ JO KM LB LY MA MR OM PS SD SY TD TN YE', 'gregory islamic islamic-civil islamic-tbla'],
      ['AL AZ MV TJ TM TR UZ XK', 'gregory islamic-civil islamic-tbla'],
      ['AE BH KW QA', 'gregory islamic-umalqura islamic islamic-civil islamic-tbla'],
      ['AF IR', 'persian gregory islamic islamic-civil islamic-tbla'],
      ['CN CX HK MO SG', 'gregory chinese'],
      ['EG', 'gregory coptic islamic islamic-civil islamic-tbla'],
      ['ET', 'gregory ethiopic'],
      ['IL', 'gregory hebrew islamic islamic-civil islamic-tbla'],
      ['IN', 'gregory indian'],
      ['JP', 'gregory japanese'],
      ['KR', 'gregory dangi'],
      ['SA', 'gregory islamic-umalqura islamic islamic-rgsa'],
      ['TH', 'buddhist gregory'],
      ['TW', 'gregory roc chinese'],
    ]
    for (let i = 0; i < rows.length; i++) {
      const regions = split(rows[i][0], ' ')
      for (let j = 0; j < regions.length; j++) CALENDAR_PREFERENCES[regions[j]] = rows[i][1]
    }
  }
  /** CLDR's collations other than the standard and search ones, by language (emoji and eor are everyone's). */
  const COLLATIONS_BY_LANGUAGE = {
    __proto__: null,
    ar: 'compat', bn: 'trad', de: 'phonebk', es: 'trad', fa: 'ar', fi: 'trad', hi: 'trad', ja: 'unihan',
    kn: 'trad', ko: 'searchjl unihan', ln: 'phonetic', si: 'dict', sv: 'trad', ta: 'trad', te: 'trad',
    zh: 'pinyin stroke unihan zhuyin',
  }
  /** Scripts written right to left. */
  const RTL_SCRIPTS = split('Adlm Arab Armi Avst Chrs Cprt Elym Hatr Hebr Hung Khar Lydi Mand Mani Mend Merc Mero Narb Nbat Nkoo Orkh Ougr Palm Phli Phlp Phnx Prti Rohg Samr Sarb Sogd Sogo Syrc Thaa Yezi', ' ')

  /** RegionPreference: -u-rg-, the region subtag, -u-sd-, the likely region, else 001. */
  function regionPreference(tag) {
    const { keywords } = splitExtension(tag)
    const rg = keywords.rg
    if (rg !== undefined && rg.length === 6 && test(/^[a-z]{2}zzzz$/, rg)) return upper(slice(rg, 0, 2))
    const p = localeParts(tag)
    if (p.region !== undefined) return p.region
    const sd = keywords.sd
    if (sd !== undefined && test(/^[a-z]{2}/, sd)) return upper(slice(sd, 0, 2))
    const likely = localeParts(native.likelySubtags(baseNameOf(tag), true)).region
    return likely === undefined ? '001' : likely
  }

  /** A fresh array of the values (CreateArrayFromList). */
  function arrayOf(list) {
    const out = []
    for (let i = 0; i < list.length; i++) push(out, list[i])
    return out
  }

  /** The parts of a canonical tag. */
  function localeParts(tag) {
    const parts = split(tag, '-')
    let i = 1
    const out = { language: parts[0], script: undefined, region: undefined, variants: [], rest: '' }
    if (i < parts.length && parts[i].length === 4 && !test(/^[0-9]/, parts[i])) out.script = parts[i++]
    if (i < parts.length && (parts[i].length === 2 || (parts[i].length === 3 && test(/^[0-9]{3}$/, parts[i])))) out.region = parts[i++]
    while (i < parts.length && parts[i].length > 1) push(out.variants, parts[i++])
    const rest = []
    while (i < parts.length) push(rest, parts[i++])
    out.rest = join(rest, '-')
    return out
  }

  function baseNameOf(tag) {
    const p = localeParts(tag)
    let s = p.language
    if (p.script !== undefined) s += `-${p.script}`
    if (p.region !== undefined) s += `-${p.region}`
    for (let i = 0; i < p.variants.length; i++) s += `-${p.variants[i]}`
    return s
  }

  /** Rebuilds a tag with its -u- keywords replaced by `keywords` (sorted by key). */
  function withKeywords(tag, keywords) {
    const { base, others } = splitExtension(tag)
    const keys = objectKeys(keywords)
    sortStrings(keys)
    let u = ''
    for (let i = 0; i < keys.length; i++) {
      const v = keywords[keys[i]]
      if (v === undefined) continue
      u += v === '' || v === 'true' ? `-${keys[i]}` : `-${keys[i]}-${v}`
    }
    // Singletons in order: those before 'u', then u, then the rest.
    let before = ''
    let after = ''
    let j = 0
    while (j < others.length) {
      const single = others[j]
      let chunk = single
      j++
      if (single === 'x') {
        while (j < others.length) chunk += `-${others[j++]}`
        after += `-${chunk}`
        continue
      }
      while (j < others.length && others[j].length !== 1) chunk += `-${others[j++]}`
      if (single < 'u') before += `-${chunk}`
      else after += `-${chunk}`
    }
    return base + before + (u === '' ? '' : `-u${u}`) + after
  }

  function Locale(tag, options = undefined) {
    {
      if (new.target === undefined) throw new TypeError("Constructor Intl.Locale requires 'new'")
      const self = create(protoOf(new.target, Locale))
      if (typeof tag !== 'string' && (tag === null || (typeof tag !== 'object' && typeof tag !== 'function'))) {
        throw new TypeError("First argument to Intl.Locale constructor can't be empty or missing")
      }
      const r = slotOf(tag)
      tag = r !== undefined && r.kind === 'Locale' ? r.locale : `${tag}`
      if (tag === '') throw new RangeError("First argument to Intl.Locale constructor can't be empty or missing")
      options = coerceOptions(options)
      // ApplyOptionsToTag
      if (native.canonicalizeTag(tag) === undefined) throw new RangeError('Incorrect locale information provided')
      const language = getOption(options, 'language', 'string', undefined, undefined, 'Intl.Locale')
      if (language !== undefined && !test(LANGUAGE, language)) throw new RangeError('Incorrect locale information provided')
      const script = getOption(options, 'script', 'string', undefined, undefined, 'Intl.Locale')
      if (script !== undefined && !test(SCRIPT, script)) throw new RangeError('Incorrect locale information provided')
      const region = getOption(options, 'region', 'string', undefined, undefined, 'Intl.Locale')
      if (region !== undefined && !test(REGION, region)) throw new RangeError('Incorrect locale information provided')
      const variants = getOption(options, 'variants', 'string', undefined, undefined, 'Intl.Locale')
      if (variants !== undefined) {
        if (!test(VARIANTS, variants)) throw new RangeError('Incorrect locale information provided')
        const seen = split(lower(variants), '-')
        for (let i = 0; i < seen.length; i++) {
          for (let j = 0; j < i; j++) if (seen[i] === seen[j]) throw new RangeError('Incorrect locale information provided')
        }
      }
      tag = canonicalizeTag(tag)
      if (language !== undefined || script !== undefined || region !== undefined || variants !== undefined) {
        const p = localeParts(tag)
        if (language !== undefined) p.language = language
        if (script !== undefined) p.script = script
        if (region !== undefined) p.region = region
        if (variants !== undefined) p.variants = split(variants, '-')
        let s = p.language
        if (p.script !== undefined) s += `-${p.script}`
        if (p.region !== undefined) s += `-${p.region}`
        for (let i = 0; i < p.variants.length; i++) s += `-${p.variants[i]}`
        if (p.rest !== '') s += `-${p.rest}`
        tag = canonicalizeTag(s)
      }
      // ApplyUnicodeExtensionToTag
      const ca = getOption(options, 'calendar', 'string', undefined, undefined, 'Intl.Locale')
      if (ca !== undefined && !test(TYPE, ca)) throw new RangeError(`Incorrect locale information provided`)
      const co = getOption(options, 'collation', 'string', undefined, undefined, 'Intl.Locale')
      if (co !== undefined && !test(TYPE, co)) throw new RangeError(`Incorrect locale information provided`)
      let fw = getOption(options, 'firstDayOfWeek', 'string', undefined, undefined, 'Intl.Locale')
      if (fw !== undefined) {
        // WeekdayToString: the digits 0-7 name days (0 and 7 Sunday).
        const days = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
        if (test(/^[0-7]$/, fw)) fw = days[NumberCtor(fw)]
        if (!test(TYPE, fw)) throw new RangeError('Incorrect locale information provided')
      }
      const hc = getOption(options, 'hourCycle', 'string', ['h11', 'h12', 'h23', 'h24'], undefined, 'Intl.Locale')
      const kf = getOption(options, 'caseFirst', 'string', ['upper', 'lower', 'false'], undefined, 'Intl.Locale')
      let kn = getOption(options, 'numeric', 'boolean', undefined, undefined, 'Intl.Locale')
      if (kn !== undefined) kn = `${kn}`
      const nu = getOption(options, 'numberingSystem', 'string', undefined, undefined, 'Intl.Locale')
      if (nu !== undefined && !test(TYPE, nu)) throw new RangeError(`Incorrect locale information provided`)
      const { keywords } = splitExtension(tag)
      const set = { ca, co, fw, hc, kf, kn, nu }
      let changed = false
      const names = ['ca', 'co', 'fw', 'hc', 'kf', 'kn', 'nu']
      for (let i = 0; i < names.length; i++) {
        const v = set[names[i]]
        if (v !== undefined) {
          keywords[names[i]] = lower(v)
          changed = true
        }
      }
      if (changed) tag = canonicalizeTag(withKeywords(tag, keywords))
      setSlot(self, { kind: 'Locale', locale: tag })
      return self
    }
  }
  const localeOf = (o, method) => unwrap(o, 'Locale', `Intl.Locale.prototype.${method}`).locale
  const keyword = (o, method, key) => {
    const v = splitExtension(localeOf(o, method)).keywords[key]
    return v === undefined ? undefined : v === '' ? 'true' : v
  }
  defineMethods(Locale.prototype, {
    toString() {
      return localeOf(this, 'toString')
    },
    maximize() {
      const tag = localeOf(this, 'maximize')
      return new Locale(native.likelySubtags(tag, true))
    },
    minimize() {
      const tag = localeOf(this, 'minimize')
      return new Locale(native.likelySubtags(tag, false))
    },
    get baseName() {
      return baseNameOf(localeOf(this, 'baseName'))
    },
    get language() {
      return localeParts(localeOf(this, 'language')).language
    },
    get script() {
      return localeParts(localeOf(this, 'script')).script
    },
    get region() {
      return localeParts(localeOf(this, 'region')).region
    },
    get variants() {
      const v = localeParts(localeOf(this, 'variants')).variants
      return v.length === 0 ? undefined : join(v, '-')
    },
    get calendar() {
      return keyword(this, 'calendar', 'ca')
    },
    get caseFirst() {
      return keyword(this, 'caseFirst', 'kf')
    },
    get collation() {
      return keyword(this, 'collation', 'co')
    },
    get hourCycle() {
      return keyword(this, 'hourCycle', 'hc')
    },
    get numeric() {
      const v = keyword(this, 'numeric', 'kn')
      return v === 'true'
    },
    get numberingSystem() {
      return keyword(this, 'numberingSystem', 'nu')
    },
    get firstDayOfWeek() {
      return keyword(this, 'firstDayOfWeek', 'fw')
    },
    getCalendars() {
      const tag = localeOf(this, 'getCalendars')
      const ca = splitExtension(tag).keywords.ca
      if (ca !== undefined) return arrayOf([ca])
      const preferred = CALENDAR_PREFERENCES[regionPreference(tag)]
      return arrayOf(split(preferred === undefined ? 'gregory' : preferred, ' '))
    },
    getCollations() {
      const tag = localeOf(this, 'getCollations')
      const co = splitExtension(tag).keywords.co
      if (co !== undefined) return arrayOf([co])
      const own = COLLATIONS_BY_LANGUAGE[localeParts(tag).language]
      const list = split(own === undefined ? 'emoji eor' : `emoji eor ${own}`, ' ')
      sortStrings(list)
      return arrayOf(list)
    },
    getHourCycles() {
      const tag = localeOf(this, 'getHourCycles')
      const { keywords } = splitExtension(tag)
      if (keywords.hc !== undefined) return arrayOf([keywords.hc])
      const o = create(null)
      o.hour = 'numeric'
      o.timeZone = 'UTC'
      // The region override (-u-rg-) picks the region's clock, as the region subtag would.
      const rg = keywords.rg
      const p = localeParts(tag)
      const base = rg !== undefined && test(/^[a-z]{2}zzzz$/, rg) ? `${p.language}-${upper(slice(rg, 0, 2))}` : baseNameOf(tag)
      const hourCycle = patternComponents(slotOf(new DateTimeFormat(base, o)).pattern).hourCycle
      return arrayOf([hourCycle === undefined ? 'h23' : hourCycle])
    },
    getNumberingSystems() {
      const tag = localeOf(this, 'getNumberingSystems')
      const nu = splitExtension(tag).keywords.nu
      if (nu !== undefined) return arrayOf([nu])
      return arrayOf([native.numberingSystem(baseNameOf(tag))])
    },
    getTimeZones() {
      const tag = localeOf(this, 'getTimeZones')
      const region = localeParts(tag).region
      if (region === undefined) return undefined
      return arrayOf(native.regionTimeZones(region))
    },
    getTextInfo() {
      const tag = localeOf(this, 'getTextInfo')
      const script = localeParts(native.likelySubtags(baseNameOf(tag), true)).script
      const out = {}
      createData(out, 'direction', script !== undefined && includes(RTL_SCRIPTS, script) ? 'rtl' : 'ltr')
      return out
    },
    getWeekInfo() {
      const tag = localeOf(this, 'getWeekInfo')
      const { keywords } = splitExtension(tag)
      const days = native.weekInfo(tag)
      const out = {}
      const fw = keywords.fw
      const names = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']
      const named = fw === undefined ? -1 : indexOf(names, fw)
      createData(out, 'firstDay', named === -1 ? days[0] : named + 1)
      const weekend = []
      for (let i = 1; i < days.length; i++) push(weekend, days[i])
      createData(out, 'weekend', weekend)
      return out
    },
  })
  named(Object.getOwnPropertyDescriptor(Locale.prototype, 'toString').value, 'toString')
  defineService('Locale', Locale)
  delete Locale.supportedLocalesOf
