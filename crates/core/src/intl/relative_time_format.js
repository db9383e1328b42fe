
  // ---- Intl.RelativeTimeFormat ----------------------------------------------------------

  const RELATIVE_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']

  function RelativeTimeFormat(locales = undefined, options = undefined) {
    if (new.target === undefined) throw new TypeError("Constructor Intl.RelativeTimeFormat requires 'new'")
    const requested = canonicalizeLocaleList(locales)
    options = coerceOptions(options)
    const ctor = 'Intl.RelativeTimeFormat'
    const r = create(null)
    r.kind = 'RelativeTimeFormat'
    const resolved = resolveNumberingLocale(requested, options, ctor)
    r.locale = resolved.locale
    r.dataLocale = resolved.numberingLocale
    r.numberingSystem = native.numberingSystem(r.dataLocale)
    r.style = getOption(options, 'style', 'string', WIDTHS, 'long', ctor)
    r.numeric = getOption(options, 'numeric', 'string', ['always', 'auto'], 'always', ctor)
    setSlot(this, r)
  }

  /** PartitionRelativeTimePattern's checks: a finite value and a unit (singular or plural). */
  function relativeTime(r, value, unit, method, toParts) {
    value = +value
    unit = `${unit}`
    if (!(value - value === 0)) throw new RangeError(`Value need to be finite number for ${method}()`)
    let u = indexOf(RELATIVE_UNITS, unit)
    if (u === -1 && unit.length > 1 && unit[unit.length - 1] === 's') u = indexOf(RELATIVE_UNITS, slice(unit, 0, unit.length - 1))
    if (u === -1) throw new RangeError(`Invalid unit argument for ${method}() '${unit}'`)
    // `-0` reads as `0` where a named phrase (`now`) exists, as V8 has it.
    if (value === 0 && r.numeric === 'auto') value = 0
    const out = native.relativeTimeFormat(r.dataLocale, indexOf(WIDTHS, r.style), u, r.numeric === 'auto', value, toParts)
    if (!toParts) return out
    const parts = []
    for (let i = 0; i < out.length; i += 2) {
      const part = { type: out[i], value: out[i + 1] }
      if (out[i] !== 'literal') createData(part, 'unit', RELATIVE_UNITS[u])
      push(parts, part)
    }
    return parts
  }

  const rtfOf = (o, method) => unwrap(o, 'RelativeTimeFormat', method)
  defineMethods(RelativeTimeFormat.prototype, {
    format(value, unit) {
      const r = rtfOf(this, 'Intl.RelativeTimeFormat.prototype.format')
      return relativeTime(r, value, unit, 'Intl.RelativeTimeFormat.prototype.format', false)
    },
    formatToParts(value, unit) {
      const r = rtfOf(this, 'Intl.RelativeTimeFormat.prototype.formatToParts')
      return relativeTime(r, value, unit, 'Intl.RelativeTimeFormat.prototype.formatToParts', true)
    },
    resolvedOptions() {
      const r = rtfOf(this, 'Intl.RelativeTimeFormat.prototype.resolvedOptions')
      return { locale: r.locale, style: r.style, numeric: r.numeric, numberingSystem: r.numberingSystem }
    },
  })
  defineService('RelativeTimeFormat', RelativeTimeFormat)
