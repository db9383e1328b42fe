
  // ---- Intl.DisplayNames ----------------------------------------------------------------

  const DISPLAY_TYPES = ['language', 'region', 'script', 'currency', 'calendar', 'dateTimeField']
  const DATE_TIME_FIELDS = ['era', 'year', 'quarter', 'month', 'weekOfYear', 'weekday', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'timeZoneName']

  function DisplayNames(locales, options) {
    if (new.target === undefined) throw new TypeError("Constructor Intl.DisplayNames requires 'new'")
    const requested = canonicalizeLocaleList(locales)
    options = getOptionsObject(options)
    const ctor = 'Intl.DisplayNames'
    const r = create(null)
    r.kind = 'DisplayNames'
    getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', ctor)
    const resolved = resolveLocale(requested, create(null), [], create(null))
    r.style = getOption(options, 'style', 'string', WIDTHS, 'long', ctor)
    const type = getOption(options, 'type', 'string', DISPLAY_TYPES, undefined, ctor)
    if (type === undefined) throw new TypeError('invalid_argument')
    r.type = type
    r.fallback = getOption(options, 'fallback', 'string', ['code', 'none'], 'code', ctor)
    r.locale = resolved.locale
    r.dataLocale = resolved.dataLocale
    const languageDisplay = getOption(options, 'languageDisplay', 'string', ['dialect', 'standard'], 'dialect', ctor)
    if (type === 'language') r.languageDisplay = languageDisplay
    setSlot(this, r)
  }

  const isAlpha = (s) => test(/^[A-Za-z]+$/, s)
  const isAlnum = (s) => test(/^[A-Za-z0-9]+$/, s)

  /** CanonicalCodeForDisplayNames: the code checked and in its canonical case. */
  function canonicalCode(type, code) {
    const invalid = () => new RangeError('invalid_argument')
    switch (type) {
      case 'language': {
        // A unicode_language_id: language[-script][-region](-variant)*, no extensions.
        if (!test(/^[A-Za-z]{2,3}([-_][A-Za-z]{4})?([-_]([A-Za-z]{2}|[0-9]{3}))?([-_]([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$/, code) &&
          !test(/^[A-Za-z]{5,8}([-_][A-Za-z]{4})?([-_]([A-Za-z]{2}|[0-9]{3}))?([-_]([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$/, code)) throw invalid()
        if (apply(strIndexOf, code, ['_']) !== -1 || lower(slice(code, 0, 4)) === 'root') throw invalid()
        return canonicalizeTag(code)
      }
      case 'region':
        if (!((code.length === 2 && isAlpha(code)) || (code.length === 3 && test(/^[0-9]{3}$/, code)))) throw invalid()
        return upper(code)
      case 'script':
        if (!(code.length === 4 && isAlpha(code))) throw invalid()
        return upper(slice(code, 0, 1)) + lower(slice(code, 1))
      case 'currency':
        if (!(code.length === 3 && isAlpha(code))) throw invalid()
        return upper(code)
      case 'calendar':
        if (!test(TYPE, code)) throw invalid()
        return lower(code)
      default:
        if (!includes(DATE_TIME_FIELDS, code)) throw invalid()
        return code
    }
  }

  const dnOf = (o, method) => unwrap(o, 'DisplayNames', method)
  defineMethods(DisplayNames.prototype, {
    of(code) {
      const r = dnOf(this, 'Intl.DisplayNames.prototype.of')
      code = `${code}`
      code = canonicalCode(r.type, code)
      const kind = indexOf(DISPLAY_TYPES, r.type)
      const name = kind <= 3
        ? native.displayName(r.dataLocale, indexOf(WIDTHS, r.style), kind, code, r.languageDisplay === 'dialect')
        : undefined
      if (name !== undefined) return name
      return r.fallback === 'code' ? code : undefined
    },
    resolvedOptions() {
      const r = dnOf(this, 'Intl.DisplayNames.prototype.resolvedOptions')
      const out = { locale: r.locale, style: r.style, type: r.type, fallback: r.fallback }
      if (r.type === 'language') createData(out, 'languageDisplay', r.languageDisplay)
      return out
    },
  })
  defineService('DisplayNames', DisplayNames)
