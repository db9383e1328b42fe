
  // ---- Intl.PluralRules ---------------------------------------------------------------

  function PluralRules(locales = undefined, options = undefined) {
    {
      if (new.target === undefined) throw new TypeError("Constructor Intl.PluralRules requires 'new'")
      const self = create(protoOf(new.target, PluralRules))
      const requested = canonicalizeLocaleList(locales)
      options = coerceOptions(options)
      const ctor = 'Intl.PluralRules'
      const r = create(null)
      r.kind = 'PluralRules'
      r.ctorName = ctor
      getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', ctor)
      r.type = getOption(options, 'type', 'string', ['cardinal', 'ordinal'], 'cardinal', ctor)
      setDigitOptions(r, options, 0, 3, 'standard')
      const resolved = resolveLocale(requested, create(null), [], create(null))
      r.locale = resolved.locale
      r.dataLocale = resolved.dataLocale
      r.key = `${r.dataLocale}|${r.type}`
      setSlot(self, r)
      return self
    }
  }
  const prOf = (o, method) => unwrap(o, 'PluralRules', method)
  defineMethods(PluralRules.prototype, {
    select(value) {
      const r = prOf(this, 'Intl.PluralRules.prototype.select')
      return native.pluralSelect(r, +value)
    },
    selectRange(start, end) {
      const r = prOf(this, 'Intl.PluralRules.prototype.selectRange')
      if (start === undefined || end === undefined) throw new TypeError('start or end is undefined')
      const x = +start
      const y = +end
      if (isNaNFn(x) || isNaNFn(y)) throw new RangeError('Invalid time value')
      return native.pluralSelectRange(r, x, y)
    },
    resolvedOptions() {
      const r = prOf(this, 'Intl.PluralRules.prototype.resolvedOptions')
      const out = {}
      createData(out, 'locale', r.locale)
      createData(out, 'type', r.type)
      digitOptionsInto(out, r)
      createData(out, 'pluralCategories', native.pluralCategories(r))
      createData(out, 'roundingIncrement', r.roundingIncrement)
      createData(out, 'roundingMode', r.roundingMode)
      createData(out, 'roundingPriority', r.roundingPriority)
      createData(out, 'trailingZeroDisplay', r.trailingZeroDisplay)
      return out
    },
  })
  defineService('PluralRules', PluralRules)
