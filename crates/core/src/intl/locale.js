
  // ---- Intl.Locale --------------------------------------------------------------------

  const LANGUAGE = /^([A-Za-z]{2,3}|[A-Za-z]{5,8})$/
  const SCRIPT = /^[A-Za-z]{4}$/
  const REGION = /^([A-Za-z]{2}|[0-9]{3})$/

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
    apply(arraySort, keys, [])
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
      tag = canonicalizeTag(tag)
      if (language !== undefined || script !== undefined || region !== undefined) {
        const p = localeParts(tag)
        if (language !== undefined) p.language = language
        if (script !== undefined) p.script = script
        if (region !== undefined) p.region = region
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
      const hc = getOption(options, 'hourCycle', 'string', ['h11', 'h12', 'h23', 'h24'], undefined, 'Intl.Locale')
      const kf = getOption(options, 'caseFirst', 'string', ['upper', 'lower', 'false'], undefined, 'Intl.Locale')
      let kn = getOption(options, 'numeric', 'boolean', undefined, undefined, 'Intl.Locale')
      if (kn !== undefined) kn = `${kn}`
      const nu = getOption(options, 'numberingSystem', 'string', undefined, undefined, 'Intl.Locale')
      if (nu !== undefined && !test(TYPE, nu)) throw new RangeError(`Incorrect locale information provided`)
      const { keywords } = splitExtension(tag)
      const set = { ca, co, hc, kf, kn, nu }
      let changed = false
      const names = ['ca', 'co', 'hc', 'kf', 'kn', 'nu']
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
  })
  named(Object.getOwnPropertyDescriptor(Locale.prototype, 'toString').value, 'toString')
  defineService('Locale', Locale)
  delete Locale.supportedLocalesOf
