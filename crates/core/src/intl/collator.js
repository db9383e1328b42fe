
  // ---- Intl.Collator ------------------------------------------------------------------

  const COLLATIONS = ['compat', 'dict', 'emoji', 'eor', 'phonebk', 'phonetic', 'pinyin', 'searchjl', 'stroke', 'trad', 'unihan', 'zhuyin']
  supportedValues.collation = COLLATIONS

  function initCollator(c, locales, options) {
    const requested = canonicalizeLocaleList(locales)
    options = coerceOptions(options)
    const ctor = 'Intl.Collator'
    const r = create(null)
    r.kind = 'Collator'
    r.usage = getOption(options, 'usage', 'string', ['sort', 'search'], 'sort', ctor)
    getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', ctor)
    const collation = getOption(options, 'collation', 'string', undefined, undefined, ctor)
    if (collation !== undefined && !test(TYPE, collation)) throw new RangeError(`Invalid collation : ${collation}`)
    let numeric = getOption(options, 'numeric', 'boolean', undefined, undefined, ctor)
    if (numeric !== undefined) numeric = `${numeric}`
    const caseFirst = getOption(options, 'caseFirst', 'string', ['upper', 'lower', 'false'], undefined, ctor)
    const opt = create(null)
    opt.co = collation
    opt.kn = numeric
    opt.kf = caseFirst
    // Collations other than the default are not offered: -u-co- values resolve to 'default'.
    const resolved = resolveLocale(requested, opt, ['co', 'kf', 'kn'], { co: ['default'], kf: ['false', 'lower', 'upper'], kn: ['false', 'true'] })
    r.locale = resolved.locale
    r.dataLocale = resolved.dataLocale
    r.collation = 'default'
    r.numeric = resolved.kn === 'true'
    r.caseFirst = resolved.kf === undefined ? 'false' : resolved.kf
    let sensitivity = getOption(options, 'sensitivity', 'string', ['base', 'accent', 'case', 'variant'], undefined, ctor)
    if (sensitivity === undefined) sensitivity = 'variant'
    r.sensitivity = sensitivity
    const ignorePunctuation = getOption(options, 'ignorePunctuation', 'boolean', undefined, undefined, ctor)
    r.ignorePunctuation = ignorePunctuation === undefined ? native.collatorIgnoresPunctuation(r.dataLocale) : ignorePunctuation
    r.key = `${r.dataLocale}|${r.usage}|${r.sensitivity}|${r.ignorePunctuation}|${r.numeric}|${r.caseFirst}`
    r.boundCompare = undefined
    setSlot(c, r)
    return c
  }

  function Collator(locales = undefined, options = undefined) {
    const target = new.target === undefined ? Collator : new.target
    let proto = target.prototype
    if (proto === null || (typeof proto !== 'object' && typeof proto !== 'function')) proto = Collator.prototype
    return initCollator(create(proto), locales, options)
  }
  const collatorOf = (o, method) => unwrap(o, 'Collator', method)
  defineMethods(Collator.prototype, {
    get compare() {
      const r = collatorOf(this, 'get Intl.Collator.prototype.compare')
      if (r.boundCompare === undefined) {
        r.boundCompare = named((x, y) => native.collatorCompare(r, `${x}`, `${y}`), '')
      }
      return r.boundCompare
    },
    resolvedOptions() {
      const r = collatorOf(this, 'Intl.Collator.prototype.resolvedOptions')
      return {
        locale: r.locale,
        usage: r.usage,
        sensitivity: r.sensitivity,
        ignorePunctuation: r.ignorePunctuation,
        collation: r.collation,
        numeric: r.numeric,
        caseFirst: r.caseFirst,
      }
    },
  })
  named(Object.getOwnPropertyDescriptor(Collator.prototype, 'compare').get, 'get compare')
  defineService('Collator', Collator)

  /** The Collator made for localeCompare without locales or options (one per run). */
  let defaultCollator
  localeMethods[STRING_LOCALE_COMPARE] = function (that, locales = undefined, options = undefined) {
    if (this === null || this === undefined) throw new TypeError('String.prototype.localeCompare called on null or undefined')
    const s = `${this}`
    const t = `${that}`
    let r
    if (locales === undefined && options === undefined) {
      if (defaultCollator === undefined) defaultCollator = slotOf(new Collator())
      r = defaultCollator
    } else r = slotOf(new Collator(locales, options))
    return native.collatorCompare(r, s, t)
  }
