
  // ---- Intl.ListFormat ------------------------------------------------------------------

  const LIST_TYPES = ['conjunction', 'disjunction', 'unit']

  /** StringListFromIterable: every value a string, else a TypeError (the iterator closed). */
  function stringList(iterable) {
    const out = []
    if (iterable === undefined) return out
    const iterator = iterable[SymbolIterator]()
    const next = iterator.next
    for (;;) {
      const step = apply(next, iterator, [])
      if (step === null || (typeof step !== 'object' && typeof step !== 'function')) {
        throw new TypeError(`Iterator result ${describe(step)} is not an object`)
      }
      if (step.done) return out
      const value = step.value
      if (typeof value !== 'string') {
        const error = new TypeError(`Iterable yielded ${typeof value === 'symbol' ? 'Symbol()' : describe(value)} which is not a string`)
        const ret = iterator.return
        if (ret !== undefined && ret !== null) {
          try {
            apply(ret, iterator, [])
          } catch {}
        }
        throw error
      }
      push(out, value)
    }
  }

  function ListFormat(locales = undefined, options = undefined) {
    if (new.target === undefined) throw new TypeError("Constructor Intl.ListFormat requires 'new'")
    const requested = canonicalizeLocaleList(locales)
    options = getOptionsObject(options)
    const ctor = 'Intl.ListFormat'
    const r = create(null)
    r.kind = 'ListFormat'
    getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', ctor)
    const resolved = resolveLocale(requested, create(null), [], create(null))
    r.locale = resolved.locale
    r.dataLocale = resolved.dataLocale
    r.type = getOption(options, 'type', 'string', LIST_TYPES, 'conjunction', ctor)
    r.style = getOption(options, 'style', 'string', WIDTHS, 'long', ctor)
    setSlot(this, r)
  }
  const lfOf = (o, method) => unwrap(o, 'ListFormat', method)
  const listFormat = (r, list, toParts) =>
    native.listFormat(r.dataLocale, indexOf(LIST_TYPES, r.type), indexOf(WIDTHS, r.style), list, toParts)
  defineMethods(ListFormat.prototype, {
    format(list) {
      const r = lfOf(this, 'Intl.ListFormat.prototype.format')
      return listFormat(r, stringList(list), false)
    },
    formatToParts(list) {
      const r = lfOf(this, 'Intl.ListFormat.prototype.formatToParts')
      const flat = listFormat(r, stringList(list), true)
      const out = []
      for (let i = 0; i < flat.length; i += 2) push(out, { type: flat[i], value: flat[i + 1] })
      return out
    },
    resolvedOptions() {
      const r = lfOf(this, 'Intl.ListFormat.prototype.resolvedOptions')
      return { locale: r.locale, type: r.type, style: r.style }
    },
  })
  defineService('ListFormat', ListFormat)
