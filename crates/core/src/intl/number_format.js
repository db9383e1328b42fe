
  // ---- Intl.NumberFormat --------------------------------------------------------------

  /** Numbering systems with simple digits ICU4X has data for. */
  const NUMBERING_SYSTEMS = split(
    'adlm ahom arab arabext bali beng bhks brah cakm cham deva diak fullwide gara gong gonm gujr gukh guru hanidec hmng hmnp java kali kawi khmr knda krai lana lanatham laoo latn lepc limb mathbold mathdbl mathmono mathsanb mathsans mlym modi mong mroo mtei mymr mymrepka mymrpao mymrshan mymrtlng nagm newa nkoo olck onao orya osma outlined rohg saur segment shrd sind sinh sora sund sunu takr talu tamldec telu thai tibt tirh tnsa tols vaii wara wcho',
    ' ',
  )
  supportedValues.numberingSystem = NUMBERING_SYSTEMS
  /** ISO 4217 codes in current use (as ICU lists them). */
  supportedValues.currency = split(
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XDR XOF XPF XSU YER ZAR ZMW ZWG ZWL',
    ' ',
  )
  /** ECMA-402's sanctioned simple units. */
  const SIMPLE_UNITS = split(
    'acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon gigabit gigabyte gram hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter microsecond mile mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent petabyte pound second stone terabit terabyte week yard year',
    ' ',
  )
  supportedValues.unit = SIMPLE_UNITS

  const isWellFormedCurrency = (c) => test(/^[A-Za-z]{3}$/, c)
  function isWellFormedUnit(unit) {
    if (includes(SIMPLE_UNITS, unit)) return true
    const i = apply(strIndexOf, unit, ['-per-'])
    if (i === -1) return false
    const a = slice(unit, 0, i)
    const b = slice(unit, i + 5)
    return includes(SIMPLE_UNITS, a) && includes(SIMPLE_UNITS, b)
  }

  const INCREMENTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000]

  /** SetNumberFormatDigitOptions into `r`. */
  function setDigitOptions(r, options, mnfdDefault, mxfdDefault, notation) {
    const mnid = getNumberOption(options, 'minimumIntegerDigits', 1, 21, 1)
    let mnfd = options.minimumFractionDigits
    let mxfd = options.maximumFractionDigits
    const mnsd = options.minimumSignificantDigits
    const mxsd = options.maximumSignificantDigits
    r.minimumIntegerDigits = mnid
    const roundingIncrement = getNumberOption(options, 'roundingIncrement', 1, 5000, 1)
    if (!includes(INCREMENTS, roundingIncrement)) throw new RangeError('roundingIncrement value is out of range.')
    const roundingMode = getOption(options, 'roundingMode', 'string',
      ['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfExpand', 'halfTrunc', 'halfEven'], 'halfExpand', r.ctorName)
    const roundingPriority = getOption(options, 'roundingPriority', 'string', ['auto', 'morePrecision', 'lessPrecision'], 'auto', r.ctorName)
    const trailingZeroDisplay = getOption(options, 'trailingZeroDisplay', 'string', ['auto', 'stripIfInteger'], 'auto', r.ctorName)
    if (roundingIncrement !== 1) mxfdDefault = mnfdDefault
    r.roundingIncrement = roundingIncrement
    r.roundingMode = roundingMode
    r.trailingZeroDisplay = trailingZeroDisplay
    const hasSd = !(mnsd === undefined && mxsd === undefined)
    const hasFd = !(mnfd === undefined && mxfd === undefined)
    let needSd = true
    let needFd = true
    if (roundingPriority === 'auto') {
      needSd = hasSd
      if (needSd || (!hasFd && notation === 'compact')) needFd = false
    }
    if (needSd) {
      if (hasSd) {
        r.minimumSignificantDigits = defaultNumberOption(mnsd, 1, 21, 1, 'minimumSignificantDigits')
        r.maximumSignificantDigits = defaultNumberOption(mxsd, r.minimumSignificantDigits, 21, 21, 'maximumSignificantDigits')
      } else {
        r.minimumSignificantDigits = 1
        r.maximumSignificantDigits = 21
      }
    }
    if (needFd) {
      if (hasFd) {
        mnfd = defaultNumberOption(mnfd, 0, 100, undefined, 'minimumFractionDigits')
        mxfd = defaultNumberOption(mxfd, 0, 100, undefined, 'maximumFractionDigits')
        if (mnfd === undefined) mnfd = MathMin(mnfdDefault, mxfd)
        else if (mxfd === undefined) mxfd = MathMax(mxfdDefault, mnfd)
        else if (mnfd > mxfd) throw new RangeError('maximumFractionDigits value is out of range.')
        r.minimumFractionDigits = mnfd
        r.maximumFractionDigits = mxfd
      } else {
        r.minimumFractionDigits = mnfdDefault
        r.maximumFractionDigits = mxfdDefault
      }
    }
    if (!needSd && !needFd) {
      r.minimumFractionDigits = 0
      r.maximumFractionDigits = 0
      r.minimumSignificantDigits = 1
      r.maximumSignificantDigits = 2
      r.roundingType = 'morePrecision'
      r.roundingPriority = 'morePrecision'
    } else if (roundingPriority === 'auto') {
      r.roundingType = hasSd ? 'significantDigits' : 'fractionDigits'
      r.roundingPriority = 'auto'
    } else {
      r.roundingType = roundingPriority
      r.roundingPriority = roundingPriority
    }
    if (roundingIncrement !== 1) {
      if (r.roundingType !== 'fractionDigits') throw new TypeError('RoundingType is not fractionDigits')
      if (r.maximumFractionDigits !== r.minimumFractionDigits) {
        throw new RangeError('maximumFractionDigits not equal to minimumFractionDigits')
      }
    }
  }

  /** The resolved digit options in resolvedOptions order. */
  function digitOptionsInto(out, r) {
    createData(out, 'minimumIntegerDigits', r.minimumIntegerDigits)
    if (r.minimumFractionDigits !== undefined) {
      createData(out, 'minimumFractionDigits', r.minimumFractionDigits)
      createData(out, 'maximumFractionDigits', r.maximumFractionDigits)
    }
    if (r.minimumSignificantDigits !== undefined) {
      createData(out, 'minimumSignificantDigits', r.minimumSignificantDigits)
      createData(out, 'maximumSignificantDigits', r.maximumSignificantDigits)
    }
  }

  /** The cache key of a record's formatting options. */
  function numberKey(r) {
    return `${r.dataLocale}|${r.style}|${r.currency}|${r.currencyDisplay}|${r.currencySign}|${r.unit}|${r.unitDisplay}|${r.notation}|${r.compactDisplay}|${r.useGrouping}|${r.signDisplay}|${r.roundingType}|${r.minimumIntegerDigits}|${r.minimumFractionDigits}|${r.maximumFractionDigits}|${r.minimumSignificantDigits}|${r.maximumSignificantDigits}|${r.roundingIncrement}|${r.roundingMode}|${r.trailingZeroDisplay}`
  }

  function initNumberFormat(nf, locales, options) {
    const requested = canonicalizeLocaleList(locales)
    options = coerceOptions(options)
    const ctor = 'Intl.NumberFormat'
    const r = create(null)
    r.kind = 'NumberFormat'
    r.ctorName = ctor
    const resolved = resolveNumberingLocale(requested, options, ctor)
    r.locale = resolved.locale
    r.dataLocale = resolved.numberingLocale
    // SetNumberFormatUnitOptions
    const style = getOption(options, 'style', 'string', ['decimal', 'percent', 'currency', 'unit'], 'decimal', ctor)
    r.style = style
    const currency = getOption(options, 'currency', 'string', undefined, undefined, ctor)
    if (currency === undefined) {
      if (style === 'currency') throw new TypeError('Currency code is required with currency style.')
    } else if (!isWellFormedCurrency(currency)) throw new RangeError(`Invalid currency code : ${currency}`)
    const currencyDisplay = getOption(options, 'currencyDisplay', 'string', ['code', 'symbol', 'narrowSymbol', 'name'], 'symbol', ctor)
    const currencySign = getOption(options, 'currencySign', 'string', ['standard', 'accounting'], 'standard', ctor)
    const unit = getOption(options, 'unit', 'string', undefined, undefined, ctor)
    if (unit === undefined) {
      if (style === 'unit') throw new TypeError("Invalid unit argument for Intl.NumberFormat() ''")
    } else if (!isWellFormedUnit(unit)) throw new RangeError(`Invalid unit argument for Intl.NumberFormat() '${unit}'`)
    const unitDisplay = getOption(options, 'unitDisplay', 'string', ['short', 'narrow', 'long'], 'short', ctor)
    if (style === 'currency') {
      r.currency = upper(currency)
      r.currencyDisplay = currencyDisplay
      r.currencySign = currencySign
    }
    if (style === 'unit') {
      r.unit = unit
      r.unitDisplay = unitDisplay
    }
    const notation = getOption(options, 'notation', 'string', ['standard', 'scientific', 'engineering', 'compact'], 'standard', ctor)
    r.notation = notation
    let mnfdDefault
    let mxfdDefault
    if (style === 'currency' && notation === 'standard') {
      mnfdDefault = mxfdDefault = native.currencyDigits(r.currency)
    } else {
      mnfdDefault = 0
      mxfdDefault = style === 'percent' ? 0 : 3
    }
    setDigitOptions(r, options, mnfdDefault, mxfdDefault, notation)
    const compactDisplay = getOption(options, 'compactDisplay', 'string', ['short', 'long'], 'short', ctor)
    let defaultUseGrouping = 'auto'
    if (notation === 'compact') {
      r.compactDisplay = compactDisplay
      defaultUseGrouping = 'min2'
    }
    // GetBooleanOrStringNumberFormatOption
    let useGrouping = options.useGrouping
    if (useGrouping === undefined) useGrouping = defaultUseGrouping
    else if (useGrouping === true) useGrouping = 'always'
    else if (!useGrouping) useGrouping = false
    else {
      useGrouping = `${useGrouping}`
      if (!includes(['min2', 'auto', 'always', 'true', 'false'], useGrouping)) {
        throw new RangeError(`Value ${useGrouping} out of range for Intl.NumberFormat options property useGrouping`)
      }
      if (useGrouping === 'true' || useGrouping === 'false') useGrouping = defaultUseGrouping
    }
    r.useGrouping = useGrouping
    r.signDisplay = getOption(options, 'signDisplay', 'string', ['auto', 'never', 'always', 'exceptZero', 'negative'], 'auto', ctor)
    r.numberingSystem = native.numberingSystem(r.dataLocale)
    r.key = numberKey(r)
    r.boundFormat = undefined
    setSlot(nf, r)
    return nf
  }

  /** ToIntlMathematicalValue: a number, or a decimal string for BigInts and exact strings. */
  function toIntlMathematicalValue(value) {
    let prim = value
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) {
      const exotic = value[SymbolToPrimitive]
      if (exotic !== undefined) {
        prim = apply(exotic, value, ['number'])
        if (prim !== null && (typeof prim === 'object' || typeof prim === 'function')) throw new TypeError('Cannot convert object to primitive value')
      } else prim = NumberCtor(value) // OrdinaryToPrimitive(number) through ToNumber's path
      if (typeof prim === 'number') return prim
    }
    if (typeof prim === 'bigint') return apply(bigintToString, prim, [])
    if (typeof prim === 'string') {
      const s = apply(strReplace, prim, [/^[\s\uFEFF\u00A0]+|[\s\uFEFF\u00A0]+$/g, ''])
      if (test(/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/, s)) return s
      if (test(/^[+-]?Infinity$/, s)) return s
      return NumberCtor(prim)
    }
    return NumberCtor(prim)
  }

  function formatParts(r, x) {
    const flat = native.numberFormatParts(r, x)
    const out = []
    for (let i = 0; i < flat.length; i += 2) push(out, { type: flat[i], value: flat[i + 1] })
    return out
  }

  function NumberFormat(locales = undefined, options = undefined) {
    const target = new.target === undefined ? NumberFormat : new.target
    let proto = target.prototype
    if (proto === null || (typeof proto !== 'object' && typeof proto !== 'function')) proto = NumberFormat.prototype
    const nf = create(proto)
    return chain(initNumberFormat(nf, locales, options), new.target, this, NumberFormat)
  }
  const nfOf = (o, method) => unwrap(o, 'NumberFormat', method)
  defineMethods(NumberFormat.prototype, {
    get format() {
      const r = unwrapLegacy(this, 'NumberFormat', NumberFormat, 'get Intl.NumberFormat.prototype.format')
      if (r.boundFormat === undefined) {
        r.boundFormat = named((value) => native.numberFormat(r, toIntlMathematicalValue(value)), '')
      }
      return r.boundFormat
    },
    formatToParts(value) {
      const r = nfOf(this, 'Intl.NumberFormat.prototype.formatToParts')
      return formatParts(r, toIntlMathematicalValue(value))
    },
    formatRange(start, end) {
      const r = nfOf(this, 'Intl.NumberFormat.prototype.formatRange')
      const parts = rangeParts(r, start, end)
      let s = ''
      for (let i = 0; i < parts.length; i++) s += parts[i].value
      return s
    },
    formatRangeToParts(start, end) {
      const r = nfOf(this, 'Intl.NumberFormat.prototype.formatRangeToParts')
      return rangeParts(r, start, end)
    },
    resolvedOptions() {
      const r = unwrapLegacy(this, 'NumberFormat', NumberFormat, 'Intl.NumberFormat.prototype.resolvedOptions')
      const out = {}
      createData(out, 'locale', r.locale)
      createData(out, 'numberingSystem', r.numberingSystem)
      createData(out, 'style', r.style)
      if (r.style === 'currency') {
        createData(out, 'currency', r.currency)
        createData(out, 'currencyDisplay', r.currencyDisplay)
        createData(out, 'currencySign', r.currencySign)
      }
      if (r.style === 'unit') {
        createData(out, 'unit', r.unit)
        createData(out, 'unitDisplay', r.unitDisplay)
      }
      digitOptionsInto(out, r)
      createData(out, 'useGrouping', r.useGrouping)
      createData(out, 'notation', r.notation)
      if (r.notation === 'compact') createData(out, 'compactDisplay', r.compactDisplay)
      createData(out, 'signDisplay', r.signDisplay)
      createData(out, 'roundingIncrement', r.roundingIncrement)
      createData(out, 'roundingMode', r.roundingMode)
      createData(out, 'roundingPriority', r.roundingPriority)
      createData(out, 'trailingZeroDisplay', r.trailingZeroDisplay)
      return out
    },
  })
  named(Object.getOwnPropertyDescriptor(NumberFormat.prototype, 'format').get, 'get format')

  /** PartitionNumberRangePattern. */
  function rangeParts(r, start, end) {
    if (start === undefined || end === undefined) throw new TypeError('start or end is undefined')
    const x = toIntlMathematicalValue(start)
    const y = toIntlMathematicalValue(end)
    if ((typeof x === 'number' && isNaNFn(x)) || (typeof y === 'number' && isNaNFn(y))) throw new RangeError('Invalid time value')
    const a = formatParts(r, x)
    const b = formatParts(r, y)
    let sa = ''
    let sb = ''
    for (let i = 0; i < a.length; i++) sa += a[i].value
    for (let i = 0; i < b.length; i++) sb += b[i].value
    const out = []
    if (sa === sb) {
      // FormatApproximately: the approximately sign before the number.
      push(out, { type: 'approximatelySign', value: '~', source: 'shared' })
      for (let i = 0; i < a.length; i++) push(out, { type: a[i].type, value: a[i].value, source: 'shared' })
      return out
    }
    const plain = (parts) => {
      for (let i = 0; i < parts.length; i++) {
        const t = parts[i].type
        if (t !== 'integer' && t !== 'group' && t !== 'decimal' && t !== 'fraction' && t !== 'minusSign' && t !== 'plusSign') return false
      }
      return true
    }
    for (let i = 0; i < a.length; i++) push(out, { type: a[i].type, value: a[i].value, source: 'startRange' })
    push(out, { type: 'literal', value: plain(a) && plain(b) ? '–' : ' – ', source: 'shared' })
    for (let i = 0; i < b.length; i++) push(out, { type: b[i].type, value: b[i].value, source: 'endRange' })
    return out
  }

  defineService('NumberFormat', NumberFormat)

  /** The NumberFormat made for toLocaleString without locales or options (one per run). */
  let defaultNumberFormat
  function numberToLocale(x, locales, options) {
    if (locales === undefined && options === undefined) {
      if (defaultNumberFormat === undefined) defaultNumberFormat = slotOf(new NumberFormat())
      return native.numberFormat(defaultNumberFormat, x)
    }
    return native.numberFormat(slotOf(new NumberFormat(locales, options)), x)
  }
  localeMethods[NUMBER_TO_LOCALE_STRING] = function (locales, options) {
    let x
    if (typeof this === 'number') x = this
    else {
      try {
        x = apply(numberValueOf, this, [])
      } catch {
        throw new TypeError("Number.prototype.toLocaleString requires that 'this' be a Number")
      }
    }
    return numberToLocale(x, locales, options)
  }
  localeMethods[BIGINT_TO_LOCALE_STRING] = function (locales, options) {
    let x
    if (typeof this === 'bigint') x = this
    else {
      try {
        x = apply(bigintValueOf, this, [])
      } catch {
        throw new TypeError("BigInt.prototype.toLocaleString requires that 'this' be a BigInt")
      }
    }
    return numberToLocale(apply(bigintToString, x, []), locales, options)
  }
