// Intl (ECMA-402) for programs, loaded lazily into a run's context on first use (see
// intl/mod.rs). This file opens the factory and defines what every service shares; each
// service's file follows (intl/mod.rs lists them), and end.js closes the factory, which
// returns { Intl, localeMethods } to the loader. Option reading follows ECMA-402's
// abstract operations step by step (test262 checks the order of getter calls); error
// messages are V8's.
;(function (native) {
  'use strict'
  const { defineProperty, create, freeze, getPrototypeOf, setPrototypeOf, keys: objectKeys } = Object
  const ObjectCtor = Object
  const StringCtor = String
  const NumberCtor = Number
  const BigIntCtor = BigInt
  const ArrayIsArray = Array.isArray
  const apply = Reflect.apply
  const ownKeys = Reflect.ownKeys
  const WeakMapCtor = WeakMap
  const { get: wmGet, set: wmSet, has: wmHas } = WeakMap.prototype
  const { slice: strSlice, indexOf: strIndexOf, split: strSplit, toLowerCase: strLower, toUpperCase: strUpper, replace: strReplace } = String.prototype
  const regexpTest = RegExp.prototype.test
  const numberValueOf = Number.prototype.valueOf
  const bigintValueOf = BigInt.prototype.valueOf
  const bigintToString = BigInt.prototype.toString
  const SymbolToStringTag = Symbol.toStringTag
  const SymbolToPrimitive = Symbol.toPrimitive
  const MathMin = Math.min
  const MathMax = Math.max
  const MathFloor = Math.floor
  const isNaNFn = Number.isNaN

  /** CreateDataProperty: an own data property, never a setter a program put on a prototype. */
  const createData = (o, key, value) => defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true })
  /** Appends to an array as CreateDataProperty does (programs' setters on Array.prototype stay out). */
  const push = (arr, v) => createData(arr, arr.length, v)
  // Array methods as loops of our own: the prelude loads when a program first touches Intl,
  // by which time Array.prototype's methods may be the program's (test262 taints them).
  function indexOf(arr, v) {
    for (let i = 0; i < arr.length; i++) if (arr[i] === v) return i
    return -1
  }
  const includes = (arr, v) => indexOf(arr, v) !== -1
  function join(arr, sep) {
    let s = ''
    for (let i = 0; i < arr.length; i++) s += i === 0 ? arr[i] : `${sep}${arr[i]}`
    return s
  }
  /** Sorts strings in place by code units (insertion sort: the lists are short). */
  function sortStrings(arr) {
    for (let i = 1; i < arr.length; i++) {
      const v = arr[i]
      let j = i - 1
      while (j >= 0 && arr[j] > v) {
        arr[j + 1] = arr[j]
        j--
      }
      arr[j + 1] = v
    }
    return arr
  }
  const lower = (s) => apply(strLower, s, [])
  const upper = (s) => apply(strUpper, s, [])
  const slice = (s, a, b) => apply(strSlice, s, [a, b])
  const split = (s, sep) => apply(strSplit, s, [sep])
  const test = (re, s) => apply(regexpTest, re, [s])

  /** Internal slots: each Intl object's record, by object (programs cannot reach it). */
  const slots = new WeakMapCtor()
  const slotOf = (o) => (o !== null && (typeof o === 'object' || typeof o === 'function') ? apply(wmGet, slots, [o]) : undefined)
  const setSlot = (o, record) => apply(wmSet, slots, [o, record])

  /** The default locale: a run never sees the host's. */
  const DEFAULT_LOCALE = 'en-US'

  /** V8's rendering of a receiver in "incompatible receiver" messages. */
  function describe(v) {
    if (v === null) return 'null'
    if (v === undefined) return 'undefined'
    if (typeof v === 'object' || typeof v === 'function') {
      let name = 'Object'
      try {
        const tag = v[SymbolToStringTag]
        if (typeof tag === 'string') name = tag
        else {
          const c = v.constructor
          if (typeof c === 'function' && typeof c.name === 'string' && c.name) name = c.name
        }
      } catch {}
      return `#<${name}>`
    }
    if (typeof v === 'string') return v
    if (typeof v === 'symbol') return 'Symbol()'
    return `${v}`
  }
  const incompatible = (method, v) => new TypeError(`Method ${method} called on incompatible receiver ${describe(v)}`)

  /** The record of `o` if it is a `kind` object, else a TypeError naming `method`. */
  function unwrap(o, kind, method) {
    const r = slotOf(o)
    if (r === undefined || r.kind !== kind) throw incompatible(method, o)
    return r
  }

  /** %Intl%.[[FallbackSymbol]]: where a legacy-constructed NumberFormat/DateTimeFormat keeps its object. */
  const FALLBACK = Symbol('IntlLegacyConstructedSymbol')

  /** OrdinaryHasInstance(C, o). */
  function ordinaryHasInstance(C, o) {
    if (o === null || (typeof o !== 'object' && typeof o !== 'function')) return false
    const p = C.prototype
    for (let q = getPrototypeOf(o); q !== null; q = getPrototypeOf(q)) if (q === p) return true
    return false
  }

  /** ChainNumberFormat/ChainDateTimeFormat: `Ctor.call(obj)` on an object that inherits from
   * its prototype keeps the new object under the fallback symbol and returns `obj`. */
  function chain(made, newTarget, self, Ctor) {
    if (newTarget === undefined && ordinaryHasInstance(Ctor, self)) {
      defineProperty(self, FALLBACK, { value: made, writable: false, enumerable: false, configurable: false })
      return self
    }
    return made
  }

  /** UnwrapNumberFormat/UnwrapDateTimeFormat: the record, through the fallback symbol for a
   * legacy-constructed object. */
  function unwrapLegacy(o, kind, Ctor, method) {
    if (o === null || (typeof o !== 'object' && typeof o !== 'function')) throw incompatible(method, o)
    const r = slotOf(o)
    if ((r === undefined || r.kind !== kind) && ordinaryHasInstance(Ctor, o)) return unwrap(o[FALLBACK], kind, method)
    return unwrap(o, kind, method)
  }

  /** GetPrototypeFromConstructor(newTarget, the intrinsic's prototype). */
  function protoOf(newTarget, intrinsic) {
    const p = newTarget.prototype
    return p !== null && (typeof p === 'object' || typeof p === 'function') ? p : intrinsic.prototype
  }

  const toObject = (v) => {
    if (v === null || v === undefined) throw new TypeError('Cannot convert undefined or null to object')
    return ObjectCtor(v)
  }

  /** The `style` values of the services that name things in three widths, in the order the
   * natives take them (common.rs's `Width`). */
  const WIDTHS = ['long', 'short', 'narrow']

  /** CoerceOptionsToObject. */
  const coerceOptions = (options) => (options === undefined ? create(null) : toObject(options))

  /** GetOptionsObject. */
  function getOptionsObject(options) {
    if (options === undefined) return create(null)
    if (options !== null && (typeof options === 'object' || typeof options === 'function')) return options
    throw new TypeError('Options must be an object')
  }

  /** GetOption(options, property, type, values, default) for the constructor `ctor`. */
  function getOption(options, property, type, values, fallback, ctor) {
    let value = options[property]
    if (value === undefined) return fallback
    if (type === 'boolean') value = !!value
    else value = `${value}`
    if (values !== undefined && !includes(values, value)) {
      throw new RangeError(`Value ${value} out of range for ${ctor} options property ${property}`)
    }
    return value
  }

  /** DefaultNumberOption. */
  function defaultNumberOption(value, minimum, maximum, fallback, property) {
    if (value === undefined) return fallback
    value = NumberCtor(value)
    if (isNaNFn(value) || value < minimum || value > maximum) throw new RangeError(`${property} value is out of range.`)
    return MathFloor(value)
  }

  /** GetNumberOption. */
  const getNumberOption = (options, property, minimum, maximum, fallback) =>
    defaultNumberOption(options[property], minimum, maximum, fallback, property)

  /** A `type` nonterminal of UTS #35 (3-8 alphanumerics, hyphen-separated): numberingSystem, collation, calendar. */
  const TYPE = /^[0-9A-Za-z]{3,8}(-[0-9A-Za-z]{3,8})*$/

  /** CanonicalizeLocaleList. */
  function canonicalizeLocaleList(locales, v8Canonical = false) {
    const seen = []
    if (locales === undefined) return seen
    let O
    if (typeof locales === 'string' || (slotOf(locales) !== undefined && slotOf(locales).kind === 'Locale')) O = [locales]
    else O = toObject(locales)
    const len = toLength(O.length)
    for (let k = 0; k < len; k++) {
      if (!(k in O)) continue
      const kValue = O[k]
      if (typeof kValue !== 'string' && (kValue === null || (typeof kValue !== 'object' && typeof kValue !== 'function'))) {
        throw new TypeError('Language ID should be string or object.')
      }
      const r = slotOf(kValue)
      const tag = r !== undefined && r.kind === 'Locale' ? r.locale : `${kValue}`
      const canonical = canonicalizeTag(tag, v8Canonical)
      if (!includes(seen, canonical)) push(seen, canonical)
    }
    return seen
  }

  function toLength(v) {
    const n = NumberCtor(v)
    if (!(n > 0)) return 0
    return n > 2 ** 53 - 1 ? 2 ** 53 - 1 : MathFloor(n)
  }

  /** A structurally valid tag, canonicalized; RangeError otherwise. */
  function canonicalizeTag(tag, v8Canonical = false) {
    const c = native.canonicalizeTag(tag)
    if (c === undefined) {
      // V8's wordings: constructors say one thing; getCanonicalLocales another once ICU
      // can read the tag and ECMA-402 refuses it.
      if (!v8Canonical || tag === '' || apply(strIndexOf, tag, ['_']) !== -1 || slice(tag, 0, 2) === 'x-') {
        throw new RangeError('Incorrect locale information provided')
      }
      throw new RangeError(`Invalid language tag: ${tag}`)
    }
    return c
  }

  /** The tag without its Unicode extension (`-u-…`) and the extension's keywords. */
  function splitExtension(tag) {
    const parts = split(tag, '-')
    const base = []
    const others = []
    const keywords = create(null)
    let i = 0
    // language, script, region, variants
    while (i < parts.length && parts[i].length !== 1) push(base, parts[i++])
    while (i < parts.length) {
      const singleton = parts[i]
      if (singleton === 'x') {
        while (i < parts.length) push(others, parts[i++])
        break
      }
      if (singleton !== 'u') {
        push(others, parts[i++])
        while (i < parts.length && parts[i].length !== 1) push(others, parts[i++])
        continue
      }
      i++
      // attributes are kept out; keywords: a 2-char key then values
      while (i < parts.length && parts[i].length > 2) i++
      while (i < parts.length && parts[i].length === 2) {
        const key = parts[i++]
        const vals = []
        while (i < parts.length && parts[i].length > 2) push(vals, parts[i++])
        if (!(key in keywords)) keywords[key] = join(vals, '-')
      }
    }
    return { base: join(base, '-'), others, keywords }
  }

  /** The locale data serves for `tag` (without extensions), or '' when it has none. */
  const availableCache = create(null)
  function available(tag) {
    let a = availableCache[tag]
    if (a === undefined) availableCache[tag] = a = native.availableLocale(tag)
    return a
  }

  /** LookupMatcher/BestFitMatcher, then the relevant extension keys (ResolveLocale). */
  function resolveLocale(requested, options, relevantKeys, keyValues) {
    let found = ''
    let keywords = create(null)
    for (let i = 0; i < requested.length; i++) {
      const parts = splitExtension(requested[i])
      const a = available(parts.base)
      if (a !== '') {
        found = a
        keywords = parts.keywords
        break
      }
    }
    if (found === '') found = DEFAULT_LOCALE
    const result = create(null)
    let supportedExtension = ''
    for (let i = 0; i < relevantKeys.length; i++) {
      const key = relevantKeys[i]
      const allowed = keyValues[key]
      let value
      let addition = ''
      if (key in keywords) {
        let requestedValue = keywords[key]
        if (requestedValue === '') requestedValue = 'true'
        if (allowed === undefined || includes(allowed, requestedValue)) {
          value = requestedValue
          addition = requestedValue === 'true' ? `-${key}` : `-${key}-${requestedValue}`
        }
      }
      const optionsValue = options[key]
      if (optionsValue === null) {
        // An option that overrides the keyword without a value of its own (DateTimeFormat's
        // hour12 over -u-hc-): the keyword leaves the locale.
        value = undefined
        addition = ''
      } else if (optionsValue !== undefined) {
        const v = optionsValue === '' ? 'true' : optionsValue
        if (allowed === undefined || includes(allowed, v)) {
          if (v !== value) addition = ''
          value = v
        }
      }
      result[key] = value
      supportedExtension += addition
    }
    result.dataLocale = found
    result.locale = supportedExtension === '' ? found : insertExtension(found, supportedExtension)
    return result
  }

  /**
   * The `localeMatcher` and `numberingSystem` options, read in ECMA-402's order, and the
   * locale resolved with the `nu` key: `numberingLocale` is the data locale carrying a
   * numbering system ICU4X has as `-nu-` (NUMBERING_SYSTEMS, number_format.js).
   */
  function resolveNumberingLocale(requested, options, ctor) {
    getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', ctor)
    const numberingSystem = getOption(options, 'numberingSystem', 'string', undefined, undefined, ctor)
    if (numberingSystem !== undefined && !test(TYPE, numberingSystem)) throw new RangeError(`Invalid numberingSystem : ${numberingSystem}`)
    const opt = create(null)
    opt.nu = numberingSystem
    const resolved = resolveLocale(requested, opt, ['nu'], { nu: NUMBERING_SYSTEMS })
    const nu = resolved.nu
    const numberingLocale =
      nu !== undefined && includes(NUMBERING_SYSTEMS, nu) ? insertExtension(resolved.dataLocale, `-nu-${nu}`) : resolved.dataLocale
    return { locale: resolved.locale, dataLocale: resolved.dataLocale, numberingLocale }
  }

  const insertExtension = (locale, ext) => `${locale}-u${ext}`

  /** SupportedLocales. */
  function supportedLocales(requested, options) {
    options = coerceOptions(options)
    getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', 'Intl.supportedLocalesOf')
    const out = []
    for (let i = 0; i < requested.length; i++) {
      if (available(splitExtension(requested[i]).base) !== '') push(out, requested[i])
    }
    return out
  }

  /** Defines `name` on `obj` as built-ins are: writable, configurable, not enumerable. */
  const defineValue = (obj, name, value) =>
    defineProperty(obj, name, { value, writable: true, enumerable: false, configurable: true })

  /** Makes `fn`'s name `name` (built-in methods' names). */
  const named = (fn, name) => defineProperty(fn, 'name', { value: name, configurable: true })

  /** Defines methods (non-enumerable) and getters on a prototype from an object literal. */
  function defineMethods(proto, methods) {
    const names = ownKeys(methods)
    for (let i = 0; i < names.length; i++) {
      const d = Object.getOwnPropertyDescriptor(methods, names[i])
      d.enumerable = false
      defineProperty(proto, names[i], d)
    }
  }

  const Intl = {}
  defineProperty(Intl, SymbolToStringTag, { value: 'Intl', configurable: true })

  /** Registers a service's constructor on `Intl` (one call per service file). */
  function defineService(name, Ctor) {
    defineValue(Intl, name, Ctor)
    defineProperty(Ctor.prototype, SymbolToStringTag, { value: `Intl.${name}`, configurable: true })
    defineProperty(Ctor, 'prototype', { writable: false, enumerable: false, configurable: false })
    // A method (no prototype, not a constructor), as built-in functions are.
    defineValue(Ctor, 'supportedLocalesOf', {
      supportedLocalesOf(locales, options = undefined) {
        return supportedLocales(canonicalizeLocaleList(locales), options)
      },
    }.supportedLocalesOf)
  }

  /**
   * The built-in methods the vendored QuickJS hands to us (its locale hook's method
   * numbers): each is called with the method's receiver and arguments.
   */
  const NUMBER_TO_LOCALE_STRING = 0
  const BIGINT_TO_LOCALE_STRING = 1
  const STRING_LOCALE_COMPARE = 2
  const STRING_TO_LOCALE_LOWER_CASE = 3
  const STRING_TO_LOCALE_UPPER_CASE = 4
  const DATE_TO_LOCALE_STRING = 5
  const DATE_TO_LOCALE_DATE_STRING = 6
  const DATE_TO_LOCALE_TIME_STRING = 7
  const localeMethods = create(null)

  /** `Intl.supportedValuesOf` answers, by key; a service adds its own. */
  const supportedValues = create(null)

  defineValue(Intl, 'getCanonicalLocales', {
    getCanonicalLocales(locales) {
      const ll = canonicalizeLocaleList(locales, true)
      const out = []
      for (let i = 0; i < ll.length; i++) push(out, ll[i])
      return out
    },
  }.getCanonicalLocales)

  defineValue(Intl, 'supportedValuesOf', {
    supportedValuesOf(key) {
      key = `${key}`
      const values = supportedValues[key]
      if (values === undefined) throw new RangeError(`Invalid key : ${key}`)
      const list = typeof values === 'function' ? values() : values
      const out = []
      for (let i = 0; i < list.length; i++) push(out, list[i])
      return out
    },
  }.supportedValuesOf)

  /** Locale-sensitive case mapping (toLocaleLowerCase/toLocaleUpperCase). */
  function localeCase(that, locales, toUpper) {
    if (that === null || that === undefined) {
      throw new TypeError(`String.prototype.${toUpper ? 'toLocaleUpperCase' : 'toLocaleLowerCase'} called on null or undefined`)
    }
    const s = `${that}`
    const requested = canonicalizeLocaleList(locales)
    const tag = requested.length > 0 ? requested[0] : DEFAULT_LOCALE
    return native.caseMap(s, splitExtension(tag).base, toUpper)
  }
  localeMethods[STRING_TO_LOCALE_LOWER_CASE] = function (locales) {
    return localeCase(this, locales, false)
  }
  localeMethods[STRING_TO_LOCALE_UPPER_CASE] = function (locales) {
    return localeCase(this, locales, true)
  }
