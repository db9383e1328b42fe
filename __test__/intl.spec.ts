import { spawnSync } from 'node:child_process'
import { afterAll, describe, expect, test } from 'vitest'
import { differential, runOn, runtime } from './helpers'

const rt = runtime()
afterAll(() => rt.dispose())
const J = JSON.stringify

/** Helpers every snippet may use, in the sandbox and in Node alike (JSON-able answers). */
const PRELUDE = `
const errorOf = (e) => ({ ctor: e.constructor.name, message: e.message })
const attempt = (f) => { try { return { ok: f() } } catch (e) { return { threw: errorOf(e) } } }
const sorted = (o) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)))
`
/**
 * Where ICU4X's CLDR (48) and the CLDR of the Node running the test differ, the sandbox's
 * answer is pinned here instead, by snippet; every other case must give exactly Node's
 * value. Keep this list short and say what differs.
 */
const CLDR_DIFFERENCES: Record<string, unknown> = {
  // ICU4X has no separators for Latin-script locales with Arabic-Indic digits: the digits
  // change, the separators stay English (ICU takes them from the digits' own locale data).
  [`return [new Intl.NumberFormat('en-u-nu-arab').format(1234.5), new Intl.NumberFormat('en', { numberingSystem: 'thai' }).format(12)]`]: ['١,٢٣٤.٥', '๑๒'],
}

/**
 * ICU4X's data leaves out currency symbols equal to the ISO code, so these locales show the
 * root locale's symbol (JP¥, US$) where ICU shows the code: the differential expects Node's
 * answer with that one replacement.
 */
const ISO_CODE_SYMBOLS: Record<string, [string, string]> = {
  [`fr-FR: new Intl.NumberFormat(L, { style: 'currency', currency: 'JPY' }).format(1234)`]: ['JPY', 'JP¥'],
  [`es-ES: new Intl.NumberFormat(L, { style: 'currency', currency: 'JPY' }).format(1234)`]: ['JPY', 'JP¥'],
  [`it-IT: new Intl.NumberFormat(L, { style: 'currency', currency: 'JPY' }).format(1234)`]: ['JPY', 'JP¥'],
  [`it-IT: new Intl.NumberFormat(L, { style: 'currency', currency: 'USD' }).format(1234.5)`]: ['USD', 'US$'],
  [`sv-SE: new Intl.NumberFormat(L, { style: 'currency', currency: 'JPY' }).format(1234)`]: ['JPY', 'JP¥'],
  [`pl-PL: new Intl.NumberFormat(L, { style: 'currency', currency: 'JPY' }).format(1234)`]: ['JPY', 'JP¥'],
  [`pl-PL: new Intl.NumberFormat(L, { style: 'currency', currency: 'USD' }).format(1234.5)`]: ['USD', 'US$'],
}

/**
 * Where Node 20's V8 predates the ECMA-402 edition Node 24 and the sandbox follow (the
 * order options are read in, PluralRules' rounding options), the sandbox's answer is
 * pinned for Node 20; under Node 24 it must be Node's.
 */
const OPTION_ORDER_BODY = `const seen = []; const o = new Proxy({}, { get(t, k) { seen.push(String(k)); return undefined } });
      new Intl.NumberFormat('en', o); new Intl.PluralRules('en', o); new Intl.Collator('en', o);
      return [seen, attempt(() => new Intl.NumberFormat('en', { get style() { throw new Error('boom') } }))]`
const NODE20_DIFFERENCES: Record<string, unknown> = {
  // Node 24's answers: ECMA-402 reads the rounding options after the digit options.
  [OPTION_ORDER_BODY]: [["localeMatcher","numberingSystem","style","currency","currencyDisplay","currencySign","unit","unitDisplay","notation","minimumIntegerDigits","minimumFractionDigits","maximumFractionDigits","minimumSignificantDigits","maximumSignificantDigits","roundingIncrement","roundingMode","roundingPriority","trailingZeroDisplay","compactDisplay","useGrouping","signDisplay","localeMatcher","type","minimumIntegerDigits","minimumFractionDigits","maximumFractionDigits","minimumSignificantDigits","maximumSignificantDigits","roundingIncrement","roundingMode","roundingPriority","trailingZeroDisplay","usage","localeMatcher","collation","numeric","caseFirst","sensitivity","ignorePunctuation"], { threw: { ctor: 'Error', message: 'boom' } }],
  // Node 24's answer: the rounding options, and the categories in CLDR's order.
  [`const o = new Intl.PluralRules('ar').resolvedOptions(); return [o.pluralCategories, o.roundingIncrement, o.roundingMode, o.roundingPriority, o.trailingZeroDisplay]`]: [
    ['zero', 'one', 'two', 'few', 'many', 'other'], 1, 'halfExpand', 'auto', 'auto',
  ],
}
const NODE20 = process.versions.node.startsWith('20.')

/** The differential: exactly Node's value, but where a list above pins another answer. */
const { inNode, inSandbox, same } = differential(rt, PRELUDE, (body) => {
  if (body in CLDR_DIFFERENCES) return { value: CLDR_DIFFERENCES[body] }
  if (NODE20 && body in NODE20_DIFFERENCES) return { value: NODE20_DIFFERENCES[body] }
  return undefined
})

type Cases = [string, string][]
const sameFor = (cases: Cases) => test.each(cases)('%s', (_, body) => same(body))

/**
 * For what only Node 24 has (Intl.DurationFormat, Intl.Locale's info methods): the sandbox
 * must give `expected` (Node 24's answer, written down), and Node's own answer too where the
 * Node running the test has the feature.
 */
const nodeHas = (feature: string) => new Function(`return ${feature}`)() === 'function'
async function sameAsNode24(feature: string, body: string, expected: unknown) {
  const sandbox = await inSandbox(body)
  expect(sandbox, body).toEqual(expected)
  if (nodeHas(feature)) expect(sandbox, body).toEqual(await inNode(body))
}

describe('Intl', () => {
  sameFor([
    ['Intl is an object tagged Intl', `return [typeof Intl, Object.prototype.toString.call(Intl)]`],
    [
      'getCanonicalLocales canonicalizes and dedupes',
      `return Intl.getCanonicalLocales(['EN-us', 'en-US', 'zh-hant-tw', 'iw', 'en-u-kn-true', 'de-DE-1996'])`,
    ],
    ['getCanonicalLocales of a string and of nothing', `return [Intl.getCanonicalLocales('fr-ca'), Intl.getCanonicalLocales()]`],
    [
      'getCanonicalLocales refuses malformed tags and non-strings',
      `return ['en_US', '', 'x-private', 'de-1996-1996', 'en-u'].map((t) => attempt(() => Intl.getCanonicalLocales(t))).concat([attempt(() => Intl.getCanonicalLocales([5]))])`,
    ],
    [
      'its functions print as built-ins (native code), not as the source that implements them',
      `const get = (o, k) => Object.getOwnPropertyDescriptor(o, k).get
return [Intl.getCanonicalLocales, Intl.DateTimeFormat, Intl.NumberFormat.prototype.formatToParts, get(Intl.NumberFormat.prototype, 'format'), Intl.Segmenter, Intl.Locale.prototype.maximize].map((f) => Function.prototype.toString.call(f).replace(/\\s+/g, ' '))`,
    ],
    [
      'supportedValuesOf',
      `return ['currency', 'unit', 'numberingSystem', 'collation'].map((k) => Intl.supportedValuesOf(k).length > 5).concat([attempt(() => Intl.supportedValuesOf('x')), Intl.supportedValuesOf('currency').includes('EUR')])`,
    ],
  ])
})

describe('built-in shapes and programs that tamper with prototypes', () => {
  sameFor([
    [
      'supportedLocalesOf, getCanonicalLocales and supportedValuesOf are methods: no prototype, not constructors',
      `return [Intl.NumberFormat.supportedLocalesOf, Intl.DateTimeFormat.supportedLocalesOf, Intl.getCanonicalLocales, Intl.supportedValuesOf].map((f) => [f.name, f.length, Object.hasOwn(f, 'prototype'), attempt(() => new f()).threw?.ctor ?? 'constructed'])`,
    ],
    [
      'setters on Object.prototype and Array.prototype see nothing of the results',
      `let seen = ''
      const trap = (o, k) => Object.defineProperty(o, k, { set(v) { seen += k + ' ' }, configurable: true })
      // Not 'value': property descriptors read it through Object.prototype.
      const keys = ['0', '1', 'locale', 'type', 'style', 'numberingSystem', 'source']
      try {
        for (const k of keys) { trap(Array.prototype, k); trap(Object.prototype, k) }
        const out = [Intl.NumberFormat.supportedLocalesOf(['en', 'de']), new Intl.NumberFormat('en').formatToParts(1234.5), new Intl.PluralRules('en').resolvedOptions().locale,
          new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).formatToParts(0).length, Intl.getCanonicalLocales(['en', 'fr']), new Intl.NumberFormat('en').resolvedOptions().style]
        return [seen, JSON.stringify(out).length > 0]
      } finally {
        for (const k of keys) { delete Array.prototype[k]; delete Object.prototype[k] }
      }`,
    ],
    [
      'NumberFormat and DateTimeFormat called on an object of their prototype keep the formatter under the fallback symbol',
      `const o = Object.create(Intl.NumberFormat.prototype); const r = Intl.NumberFormat.call(o)
      const d = Object.create(Intl.DateTimeFormat.prototype); const s = Intl.DateTimeFormat.call(d, 'en', { timeZone: 'UTC' })
      const sym = Object.getOwnPropertySymbols(o)[0]
      return [r === o, Object.getOwnPropertySymbols(o).map((x) => x.description), Object.getOwnPropertyDescriptor(o, sym).writable, o.format(1234.5), o.resolvedOptions().locale,
        s === d, d.format(0), d.resolvedOptions().timeZone, attempt(() => Intl.NumberFormat.prototype.formatToParts.call(o, 1)).threw?.ctor]`,
    ],
    [
      'extension values take CLDR aliases',
      `return Intl.getCanonicalLocales(['und-u-ca-ethiopic-amete-alem', 'und-u-tz-cnckg', 'und-u-ks-primary', 'und-u-ms-imperial', 'und-Latn-t-und-hani-m0-names', 'en-u-ca-islamicc'])`,
    ],
  ])
})

describe('Intl.DurationFormat', () => {
  const has = 'typeof Intl.DurationFormat'
  test('styles, digital clocks, fractions, signs and locales', () =>
    sameAsNode24(
      has,
      `const f = (l, o, d) => new Intl.DurationFormat(l, o).format(d)
      return [f('en', {}, { hours: 1, minutes: 2, seconds: 3 }), f('en', { style: 'long' }, { years: 1, days: 2, milliseconds: 5 }),
        f('en', { style: 'digital' }, { hours: 1, minutes: 2, seconds: 3, milliseconds: 45 }), f('de', { style: 'narrow' }, { hours: -1, minutes: -2 }),
        f('fr', { style: 'digital' }, { hours: 10, minutes: 2 }), f('en', { style: 'digital', fractionalDigits: 2 }, { minutes: 5, seconds: 7, milliseconds: 891 }),
        f('ja', { style: 'long' }, { weeks: 3, hours: 4 }), f('en', { style: 'short' }, { milliseconds: 1, microseconds: 2, nanoseconds: 3 }),
        f('en', { seconds: 'numeric' }, { seconds: 3, milliseconds: 5 }), f('fi', { style: 'digital' }, { hours: 1, minutes: 2, seconds: 3 }),
        f('en', { style: 'digital' }, { days: 1, hours: 0, minutes: 0, seconds: 0 })]`,
      ['1 hr, 2 min, 3 sec', '1 year, 2 days, 5 milliseconds', '1:02:03.045', '-1h, 2 Min.', '10:02:00', '0:05:07.89', '3 週間 4 時間', '1 ms, 2 μs, 3 ns', '3.005', '1.02.03', '1 day, 0:00:00'],
    ))
  test('formatToParts and resolvedOptions', () =>
    sameAsNode24(
      has,
      `return [new Intl.DurationFormat('en', { style: 'digital' }).formatToParts({ hours: 1, minutes: 2 }), new Intl.DurationFormat('es').resolvedOptions(),
        new Intl.DurationFormat('en', { hours: 'numeric' }).resolvedOptions().minutes]`,
      [
        [{ type: 'integer', value: '1', unit: 'hour' }, { type: 'literal', value: ':' }, { type: 'integer', value: '02', unit: 'minute' }, { type: 'literal', value: ':' }, { type: 'integer', value: '00', unit: 'second' }],
        { locale: 'es', numberingSystem: 'latn', style: 'short', years: 'short', yearsDisplay: 'auto', months: 'short', monthsDisplay: 'auto', weeks: 'short', weeksDisplay: 'auto', days: 'short', daysDisplay: 'auto', hours: 'short', hoursDisplay: 'auto', minutes: 'short', minutesDisplay: 'auto', seconds: 'short', secondsDisplay: 'auto', milliseconds: 'short', millisecondsDisplay: 'auto', microseconds: 'short', microsecondsDisplay: 'auto', nanoseconds: 'short', nanosecondsDisplay: 'auto' },
        '2-digit',
      ],
    ))
  test('bad durations and options are refused as V8 refuses them', () =>
    sameAsNode24(
      has,
      `const d = new Intl.DurationFormat('en')
      const name = (f) => { try { f(); return 'ok' } catch (e) { return e.name + (e.message.startsWith('Invalid object') ? ': ' + e.message : '') } }
      return [undefined, {}, 'PT1H', 5, { hours: 1.5 }, { hours: 1, minutes: -1 }, { years: 2 ** 32 }, { seconds: 2 ** 53 }].map((v) => name(() => d.format(v)))
        .concat([name(() => new Intl.DurationFormat('en', { style: 'bogus' })), name(() => new Intl.DurationFormat('en', { hours: 'numeric', minutes: 'long' })),
          name(() => new Intl.DurationFormat('en', { milliseconds: 'numeric', millisecondsDisplay: 'always' })), name(() => new Intl.DurationFormat('en', { fractionalDigits: 10 })),
          name(() => Intl.DurationFormat()), name(() => Intl.DurationFormat.prototype.format.call({}, { hours: 1 }))])`,
      ['TypeError', 'TypeError', 'RangeError: Invalid object : PT1H', 'TypeError', 'RangeError', 'RangeError: Invalid object : #<Object>', 'RangeError: Invalid object : #<Object>', 'RangeError: Invalid object : #<Object>',
        'RangeError', 'RangeError: Invalid object : #<Object>', 'RangeError: Invalid object : #<Object>', 'RangeError', 'TypeError', 'TypeError'],
    ))
})

describe('Intl.Locale', () => {
  const has = 'typeof Intl.Locale.prototype.getWeekInfo'
  // ECMA-402 2025's variants option (test262 checks it); Node 24's V8 still ignores it.
  test('the variants option replaces the variants', async () => {
    const body = `return [new Intl.Locale('en', { variants: 'spanglis-oxendict' }).toString(), new Intl.Locale('en-fonipa-u-ca-gregory', { variants: '1xyz' }).toString(), ...['fonipa-fonipa', 'ab', 'GB-scouse'].map((v) => attempt(() => new Intl.Locale('en', { variants: v })).threw?.ctor)]`
    expect(await inSandbox(body)).toEqual(['en-oxendict-spanglis', 'en-1xyz-u-ca-gregory', 'RangeError', 'RangeError', 'RangeError'])
  })
  test('calendars, week, text direction, clocks, collations, numbering systems and zones of a locale', () =>
    sameAsNode24(
      has,
      `const L = (t, o) => new Intl.Locale(t, o)
      return [['th-TH', 'ja-JP', 'en', 'fa', 'ar-SA', 'en-u-ca-roc', 'fa-JP-u-sd-inka-rg-thzzzz'].map((t) => L(t).getCalendars()),
        ['en-US', 'de', 'ar-EG', 'en-u-fw-wed'].map((t) => L(t).getWeekInfo()), ['en', 'ar', 'he-IL', 'fa'].map((t) => L(t).getTextInfo()),
        ['en-US', 'de', 'fr-CA', 'en-CA', 'ja', 'en-US-u-rg-gbzzzz'].map((t) => L(t).getHourCycles()), ['en', 'de', 'zh', 'ko'].map((t) => L(t).getCollations()),
        ['en', 'ar-EG', 'fa'].map((t) => L(t).getNumberingSystems()), [L('en').getTimeZones() ?? null, L('en-NZ').getTimeZones(), L('de-DE').getTimeZones(), L('en-US').getTimeZones().includes('America/New_York')],
        [L('en', { firstDayOfWeek: 1 }).toString(), L('en-u-fw-wed').firstDayOfWeek, L('en', { firstDayOfWeek: '0' }).getWeekInfo().firstDay, attempt(() => L('en', { firstDayOfWeek: 'mo' })).threw?.ctor]]`,
      [
        [['buddhist', 'gregory'], ['gregory', 'japanese'], ['gregory'], ['persian', 'gregory', 'islamic', 'islamic-civil', 'islamic-tbla'], ['gregory', 'islamic-umalqura', 'islamic', 'islamic-rgsa'], ['roc'], ['buddhist', 'gregory']],
        [{ firstDay: 7, weekend: [6, 7] }, { firstDay: 1, weekend: [6, 7] }, { firstDay: 6, weekend: [5, 6] }, { firstDay: 3, weekend: [6, 7] }],
        [{ direction: 'ltr' }, { direction: 'rtl' }, { direction: 'rtl' }, { direction: 'rtl' }],
        [['h12'], ['h23'], ['h23'], ['h12'], ['h23'], ['h23']],
        [['emoji', 'eor'], ['emoji', 'eor', 'phonebk'], ['emoji', 'eor', 'pinyin', 'stroke', 'unihan', 'zhuyin'], ['emoji', 'eor', 'searchjl', 'unihan']],
        [['latn'], ['arab'], ['arabext']],
        [null, ['Pacific/Auckland', 'Pacific/Chatham'], ['Europe/Berlin', 'Europe/Busingen'], true],
        ['en-u-fw-mon', 'wed', 7, 'RangeError'],
      ],
    ))
  sameFor([
    [
      'parts of a tag',
      `const l = new Intl.Locale('zh-Hant-TW-u-ca-chinese-nu-hanidec'); return [l.toString(), l.baseName, l.language, l.script, l.region, l.calendar, l.numberingSystem, l.numeric, l.caseFirst, l.collation, l.hourCycle].map((v) => v ?? null)`,
    ],
    [
      'options apply to the tag',
      `const l = new Intl.Locale('en', { region: 'GB', script: 'Latn', calendar: 'gregory', hourCycle: 'h23', numeric: true, caseFirst: 'upper' }); return [l.toString(), l.numeric, l.hourCycle]`,
    ],
    ['maximize and minimize', `return ['en', 'zh-TW', 'sr', 'und-Cyrl', 'en-Latn-US'].map((t) => [new Intl.Locale(t).maximize().toString(), new Intl.Locale(t).minimize().toString()])`],
    [
      'errors',
      `return [attempt(() => new Intl.Locale('')), attempt(() => new Intl.Locale(5)), attempt(() => Intl.Locale('en')), attempt(() => new Intl.Locale('en', { region: 'X' }))]`,
    ],
  ])
})

describe('Intl.NumberFormat', () => {
  sameFor([
    ['default locale en-US', `return [new Intl.NumberFormat().resolvedOptions().locale, new Intl.NumberFormat().format(1234567.891)]`],
    ['NaN takes a sign only where signDisplay always shows one', `return ['auto', 'always', 'exceptZero', 'negative', 'never'].map((s) => new Intl.NumberFormat('en', { signDisplay: s }).format(NaN))`],
    ['decimal digits', `const f = (o) => new Intl.NumberFormat('en-US', o).format(1234.5678); return [f(), f({ maximumFractionDigits: 1 }), f({ minimumFractionDigits: 6 }), f({ maximumSignificantDigits: 3 }), f({ minimumIntegerDigits: 6, useGrouping: false })]`],
    ['rounding modes', `return ['ceil', 'floor', 'expand', 'trunc', 'halfCeil', 'halfFloor', 'halfExpand', 'halfTrunc', 'halfEven'].map((m) => [2.5, -2.5, 1.15].map((x) => new Intl.NumberFormat('en', { roundingMode: m, maximumFractionDigits: x === 1.15 ? 1 : 0 }).format(x)))`],
    ['rounding increments', `return [[5, 1.23], [25, 1.13], [10, 1.16], [50, 1.26]].map(([i, x]) => new Intl.NumberFormat('en', { roundingIncrement: i, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(x))`],
    ['rounding priority', `return ['morePrecision', 'lessPrecision'].map((p) => new Intl.NumberFormat('en', { roundingPriority: p, maximumSignificantDigits: 2, maximumFractionDigits: 2 }).format(1.23456))`],
    ['trailing zeros', `return [1, 1.5].map((x) => new Intl.NumberFormat('en', { minimumFractionDigits: 2, trailingZeroDisplay: 'stripIfInteger' }).format(x))`],
    ['sign display', `return ['auto', 'always', 'exceptZero', 'negative', 'never'].map((s) => [-1, 0, -0, 1, -0.0001].map((x) => new Intl.NumberFormat('en', { signDisplay: s }).format(x)))`],
    ['NaN, infinities, -0', `const f = new Intl.NumberFormat('en'); return [f.format(NaN), f.format(Infinity), f.format(-Infinity), f.format(-0)]`],
    ['percent', `return [0.256, -0.5, 1].map((x) => new Intl.NumberFormat('en', { style: 'percent' }).format(x))`],
    ['currency', `return [['USD', 1234.5], ['EUR', -12.3], ['JPY', 1234.56], ['BHD', 1.2345]].map(([c, x]) => new Intl.NumberFormat('en-US', { style: 'currency', currency: c }).format(x))`],
    ['currency displays', `return ['symbol', 'narrowSymbol', 'code', 'name'].map((d) => [1, 2.5].map((x) => new Intl.NumberFormat('en-US', { style: 'currency', currency: 'CAD', currencyDisplay: d }).format(x)))`],
    ['units', `return [['kilometer', 'short', 5], ['kilogram', 'long', 1], ['kilogram', 'long', 2.5], ['liter', 'narrow', 3], ['hour', 'long', 1], ['byte', 'short', 512], ['celsius', 'short', -4], ['megabyte', 'short', 1.5]].map(([u, d, x]) => new Intl.NumberFormat('en', { style: 'unit', unit: u, unitDisplay: d }).format(x))`],
    ['units in German', `return [['kilometer', 'long', 5], ['second', 'short', 1], ['foot', 'narrow', 2]].map(([u, d, x]) => new Intl.NumberFormat('de', { style: 'unit', unit: u, unitDisplay: d }).format(x))`],
    ['accounting', `return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', currencySign: 'accounting' }).format(-5)`],
    ['compact', `return [999, 1234, 12345, 1234567, 0.5].map((x) => [new Intl.NumberFormat('en', { notation: 'compact' }).format(x), new Intl.NumberFormat('en', { notation: 'compact', compactDisplay: 'long' }).format(x)])`],
    ['scientific and engineering', `return [123456, 0.000123, 1, 0].map((x) => [new Intl.NumberFormat('en', { notation: 'scientific' }).format(x), new Intl.NumberFormat('en', { notation: 'engineering' }).format(x)])`],
    ['formatToParts', `return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).formatToParts(-1234.5)`],
    ['formatToParts percent', `return new Intl.NumberFormat('de', { style: 'percent', maximumFractionDigits: 1 }).formatToParts(0.1234)`],
    ['formatToParts scientific', `return new Intl.NumberFormat('en', { notation: 'scientific' }).formatToParts(-0.00123)`],
    ['formatRange', `const f = new Intl.NumberFormat('en'); return [f.formatRange(3, 5), f.formatRange(3, 3)]`],
    ['BigInt and exact strings', `const f = new Intl.NumberFormat('en'); return [f.format(12345678901234567890n), f.format('1234567890123456789.123'), f.format(' 42 '), f.format('abc')]`],
    ['format is a bound getter', `const f = new Intl.NumberFormat('en').format; return [[1, 2.5].map(f), f === new Intl.NumberFormat('en').format, typeof f, f.length]`],
    [
      'resolvedOptions',
      `return [new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'eur' }), new Intl.NumberFormat('en', { notation: 'compact' }), new Intl.NumberFormat('en-u-nu-arab')].map((f) => sorted(f.resolvedOptions()))`,
    ],
    ['numbering systems', `return [new Intl.NumberFormat('en-u-nu-arab').format(1234.5), new Intl.NumberFormat('en', { numberingSystem: 'thai' }).format(12)]`],
    [
      'errors',
      `const T = (o) => attempt(() => new Intl.NumberFormat('en', o)); return [T({ style: 'currency' }), T({ style: 'bogus' }), T({ maximumFractionDigits: 200 }), T({ currency: 'US' }), T({ style: 'unit' }), T({ style: 'unit', unit: 'foo' }), T({ roundingIncrement: 3 }), T({ minimumFractionDigits: 3, maximumFractionDigits: 1 }), T({ numberingSystem: 'a' }), attempt(() => new Intl.NumberFormat('x'))]`,
    ],
    ['callable without new', `return [Intl.NumberFormat('de').format(1.5), Intl.NumberFormat() instanceof Intl.NumberFormat]`],
    ['supportedLocalesOf', `return Intl.NumberFormat.supportedLocalesOf(['de-DE', 'zz', 'fr'])`],
  ])
})

describe('Intl.PluralRules', () => {
  sameFor([
    ['cardinal en', `const p = new Intl.PluralRules('en'); return [0, 1, 2, 1.5].map((n) => p.select(n))`],
    ['ordinal en', `const p = new Intl.PluralRules('en', { type: 'ordinal' }); return [1, 2, 3, 4, 11, 12, 21, 22, 23, 101].map((n) => p.select(n))`],
    ['cardinal ru, pl, ar', `return ['ru', 'pl', 'ar'].map((l) => [0, 1, 2, 5, 11, 21, 101, 1.5].map((n) => new Intl.PluralRules(l).select(n)))`],
    ['digits count', `return [new Intl.PluralRules('en', { minimumFractionDigits: 1 }).select(1), new Intl.PluralRules('en', { maximumFractionDigits: 0 }).select(1.2)]`],
    ['resolvedOptions', `return ['en', 'ar', 'ja'].map((l) => { const o = new Intl.PluralRules(l).resolvedOptions(); return [o.locale, o.type, o.minimumIntegerDigits, o.minimumFractionDigits, o.maximumFractionDigits, [...o.pluralCategories].sort()] })`],
    ['resolvedOptions: rounding options and CLDR order of categories', `const o = new Intl.PluralRules('ar').resolvedOptions(); return [o.pluralCategories, o.roundingIncrement, o.roundingMode, o.roundingPriority, o.trailingZeroDisplay]`],
    ['requires new', `return attempt(() => Intl.PluralRules())`],
  ])
})

describe('Intl.Collator', () => {
  const words = `['b', 'a', 'ä', 'A', 'z', 'Ä', 'ae', 'résumé', 'resume', 'Resume', 'item10', 'item2', 'ß', 'ss']`
  sameFor([
    ['sort en', `return ${words}.sort(new Intl.Collator('en').compare)`],
    ['sort de, sv', `return ['de', 'sv'].map((l) => ${words}.sort(new Intl.Collator(l).compare))`],
    ['numeric', `return ${words}.sort(new Intl.Collator('en', { numeric: true }).compare)`],
    ['caseFirst upper', `return ${words}.sort(new Intl.Collator('en', { caseFirst: 'upper' }).compare)`],
    ['sensitivity', `return ['base', 'accent', 'case', 'variant'].map((s) => { const c = new Intl.Collator('en', { sensitivity: s }).compare; return [c('a', 'A'), c('a', 'á'), c('a', 'b')] })`],
    ['ignorePunctuation', `return new Intl.Collator('en', { ignorePunctuation: true }).compare('a-b', 'ab')`],
    ['resolvedOptions', `return [new Intl.Collator('de-u-kn-true'), new Intl.Collator('en', { sensitivity: 'base', caseFirst: 'lower' })].map((c) => sorted(c.resolvedOptions()))`],
    ['compare is a bound getter', `const c = new Intl.Collator('en'); return [c.compare === c.compare, c.compare.length, ['b', 'a'].sort(c.compare)]`],
  ])
})

describe('the methods ECMA-402 redefines', () => {
  sameFor([
    ['Number.prototype.toLocaleString', `return [(1234567.891).toLocaleString(), (1234567.891).toLocaleString('en-US'), (1234.5).toLocaleString('de-DE'), (0.5).toLocaleString('en', { style: 'percent' })]`],
    ['BigInt.prototype.toLocaleString', `return [(12345678901234567890n).toLocaleString(), (1234n).toLocaleString('de'), (5n).toLocaleString('en', { style: 'currency', currency: 'EUR' })]`],
    ['Array.prototype.toLocaleString passes locales and options', `return [[1234.5, 1e6].toLocaleString('de'), [0.5, 1].toLocaleString('en', { style: 'percent' }), [{ toLocaleString() { return arguments.length } }].toLocaleString()]`],
    ['String.prototype.localeCompare', `return [['b', 'a', 'ä'].sort((a, b) => a.localeCompare(b)), 'a'.localeCompare('B'), 'ä'.localeCompare('z', 'sv'), 'a'.localeCompare('A', 'en', { sensitivity: 'base' })]`],
    ['toLocaleUpperCase and toLocaleLowerCase', `return ['I'.toLocaleLowerCase('tr'), 'i'.toLocaleUpperCase('tr'), 'i'.toLocaleUpperCase('en'), 'ΣΑΣ'.toLocaleLowerCase('el'), 'straße'.toLocaleUpperCase()]`],
    [
      'receivers',
      `return [attempt(() => Number.prototype.toLocaleString.call('x')), attempt(() => BigInt.prototype.toLocaleString.call(1)), attempt(() => String.prototype.localeCompare.call(null, 'x'))]`,
    ],
  ])
})

describe('first uses', () => {
  // In a fresh process (the prelude's bytecode is compiled once per process): runs that load
  // Intl together on a 2-thread pool each get their answer. They used to wait for ever, one
  // compiling the prelude (hot, waiting for a core) and the other blocked on its lock.
  test('four runs loading Intl at once on two threads all finish', () => {
    const script = `const { CodeRuntime } = require(${J(require.resolve('../index.js'))})
      const rt = new CodeRuntime({ threads: 2, computeMs: 5000, maxWallMs: 8000 })
      const programs = ['return (1n).toLocaleString()', 'return (2).toLocaleString()', 'return new Intl.NumberFormat().format(3)', 'return 4']
      Promise.all(programs.map((program) => rt.run({ program, bindings: [] }))).then((rs) => { console.log(JSON.stringify(rs)); rt.dispose() })`
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 30_000 })
    expect(out.status, out.stderr).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual([{ logs: [], value: '1' }, { logs: [], value: '2' }, { logs: [], value: '3' }, { logs: [], value: 4 }])
  })
})

describe('hostile programs', () => {
  test('option getters run once each, in order, and may throw', () => same(OPTION_ORDER_BODY))

  test('receivers that are not Intl objects are refused', async () => {
    const r = await inSandbox(`return [attempt(() => Intl.NumberFormat.prototype.resolvedOptions.call({})), attempt(() => Intl.Collator.prototype.resolvedOptions.call(5))]`)
    expect(r).toEqual([
      { threw: { ctor: 'TypeError', message: 'Method Intl.NumberFormat.prototype.resolvedOptions called on incompatible receiver #<Object>' } },
      { threw: { ctor: 'TypeError', message: 'Method Intl.Collator.prototype.resolvedOptions called on incompatible receiver 5' } },
    ])
  })

  test('a 10 MB string to localeCompare stops within its compute budget', async () => {
    const tight = runtime({ computeMs: 300, maxHeapMb: 512 })
    try {
      const started = Date.now()
      const r = await runOn(tight, `const s = 'a'.repeat(10_000_000); const t = s + 'b'; for (;;) s.localeCompare(t)`)
      expect(r.error?.kind).toBe('timeout')
      expect(Date.now() - started).toBeLessThan(3000)
    } finally {
      tight.dispose()
    }
  })

  test('a 10 MB string to toLocaleUpperCase is answered or stops within budget', async () => {
    const r = await runOn(rt, `return 'ab'.repeat(5_000_000).toLocaleUpperCase('tr').length`)
    expect(r.value).toBe(10_000_000)
  })
})

/** 20 locales, each through the same formatting calls: exact match with Node. */
describe('differential: 20 locales', () => {
  const LOCALES = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'ru-RU', 'ja-JP', 'zh-CN', 'ko-KR', 'ar-EG', 'hi-IN', 'nl-NL', 'sv-SE', 'pl-PL', 'tr-TR', 'he-IL', 'th-TH', 'id-ID']
  const CALLS = [
    `new Intl.NumberFormat(L).format(1234567.891)`,
    `new Intl.NumberFormat(L).format(-0.5)`,
    `new Intl.NumberFormat(L, { maximumFractionDigits: 2 }).format(3.14159)`,
    `new Intl.NumberFormat(L, { minimumFractionDigits: 2 }).format(42)`,
    `new Intl.NumberFormat(L, { style: 'percent' }).format(0.256)`,
    `new Intl.NumberFormat(L, { style: 'currency', currency: 'USD' }).format(1234.5)`,
    `new Intl.NumberFormat(L, { style: 'currency', currency: 'EUR' }).format(-12.3)`,
    `new Intl.NumberFormat(L, { style: 'currency', currency: 'JPY' }).format(1234)`,
    `new Intl.NumberFormat(L, { style: 'currency', currency: 'GBP', currencyDisplay: 'code' }).format(99.99)`,
    `new Intl.NumberFormat(L, { notation: 'compact' }).format(1234567)`,
    `new Intl.NumberFormat(L, { notation: 'scientific' }).format(123456)`,
    `new Intl.NumberFormat(L, { signDisplay: 'always' }).format(5)`,
    `new Intl.NumberFormat(L, { maximumSignificantDigits: 3 }).format(98765.4321)`,
    `new Intl.PluralRules(L).select(1) + ' ' + new Intl.PluralRules(L).select(2) + ' ' + new Intl.PluralRules(L).select(5)`,
    `new Intl.PluralRules(L, { type: 'ordinal' }).select(2)`,
    `['b', 'a', 'ä', 'z', 'A', 'é', 'e'].sort(new Intl.Collator(L).compare).join(' ')`,
  ]
  test.each(LOCALES)('%s', async (locale) => {
    const body = `const L = ${J(locale)}; return [${CALLS.join(',\n')}]`
    const [node, sandbox] = (await Promise.all([inNode(body), inSandbox(body)])) as [string[], string[]]
    const mismatches: string[] = []
    for (let i = 0; i < CALLS.length; i++) {
      const key = `${locale}: ${CALLS[i]}`
      const swap = ISO_CODE_SYMBOLS[key]
      const expected = key in CLDR_DIFFERENCES ? CLDR_DIFFERENCES[key] : swap ? node[i].replace(swap[0], swap[1]) : node[i]
      if (sandbox[i] !== expected) mismatches.push(`${key}\n  node:    ${J(node[i])}\n  sandbox: ${J(sandbox[i])}`)
    }
    expect(mismatches.join('\n')).toBe('')
  })
})
