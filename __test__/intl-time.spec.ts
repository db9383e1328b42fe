import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { CodeRuntime, runOn } from './helpers'

// Dates and times: the `timeZone` config (Date's local time in the configured zone, never the
// host's). Expectations come from this Node, run in a child process with `TZ` set to the same
// zone, wherever its ICU and our compiled-in data agree.

const ROOT = join(__dirname, '..')

/** Each program's return value when Node runs it (as a function body) with `TZ=zone`. */
function nodeAnswers(programs: string[], zone: string): unknown[] {
  // The programs go in on stdin: one argument holds at most 128 KiB.
  const script = `const programs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
    process.stdout.write(JSON.stringify(programs.map((p) => { try { return new Function(p)() } catch (e) { return 'throws ' + e.name } })))`
  const out = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    input: JSON.stringify(programs),
    env: { ...process.env, TZ: zone, NODE_OPTIONS: '' },
    maxBuffer: 64 * 1024 * 1024,
  })
  if (out.status !== 0) throw new Error(`node failed: ${out.stderr}`)
  return JSON.parse(out.stdout)
}

async function ourAnswers(rt: InstanceType<typeof CodeRuntime>, programs: string[]): Promise<unknown[]> {
  return Promise.all(
    programs.map(async (p) => {
      const r = await runOn(rt, `try { ${p} } catch (e) { return 'throws ' + e.name }`)
      if (r.error) throw new Error(`${p}: ${r.error.message}`)
      return r.value
    }),
  )
}

// Instants around transitions of the zones below (2024 unless said), and a few plain ones.
const INSTANTS = [
  0, 1e12, 1.7e12, 1_710_054_000_000, 1_710_053_999_999, 1_730_613_600_000, 1_730_613_599_999, 1_711_846_800_000,
  1_729_990_800_000, 1_712_415_600_000, 1_727_539_200_000, 1_325_239_200_000, 1_325_239_199_999, 4.1e12, 8.64e15, 2e14,
]
// Local wall-clock times given field by field, among them times transitions skip or repeat.
const LOCAL_FIELDS = [
  [2024, 2, 10, 2, 30], [2024, 2, 10, 1, 59, 59, 999], [2024, 2, 10, 3, 0], [2024, 10, 3, 1, 30], [2024, 10, 3, 0, 59],
  [2024, 2, 31, 2, 30], [2024, 9, 27, 2, 30], [2024, 9, 27, 3, 30], [2024, 3, 7, 2, 15], [2024, 8, 29, 2, 15],
  [2011, 11, 30, 12], [2011, 11, 29, 12], [1999, 11, 31, 23, 59, 59, 999], [2038, 0, 19, 3, 14, 8], [275760, 8, 12],
  [2024, 0, 1], [2024, 5, 15, 12, 0], [2100, 6, 4, 2, 30], [2024, 1, 29, 24, 0], [2024, 12, 1, -1, 0],
]
const PROGRAMS = [
  ...INSTANTS.map((t) => `const d = new Date(${t}); return [d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getTimezoneOffset()]`),
  ...INSTANTS.map((t) => `const d = new Date(${t}); return [String(d), d.toDateString(), d.toTimeString()]`),
  ...LOCAL_FIELDS.map((f) => `const d = new Date(${f.join(', ')}); return [d.getTime(), String(d)]`),
  ...LOCAL_FIELDS.map((f) => `const d = new Date(0); d.setFullYear(${f.slice(0, 3).join(', ')}); d.setHours(${[...f.slice(3), 0, 0].slice(0, 4).join(', ')}); return d.getTime()`),
  'const d = new Date(2024, 2, 9, 2, 30); d.setDate(10); return d.getTime()',
  'const d = new Date(2024, 10, 2, 1, 30); d.setDate(d.getDate() + 1); return [d.getTime(), d.getHours()]',
  'const d = new Date(2024, 2, 10); d.setMinutes(150); return [d.getTime(), d.getHours(), d.getMinutes()]',
  'const d = new Date(2024, 10, 3); const out = []; for (let h = 0; h < 5; h++) { d.setTime(d.getTime() + 1800000); out.push(d.getHours() * 100 + d.getMinutes()) } return out',
  "return ['2024-03-10T02:30', '2024-11-03T01:30:00', '2024-03-10', '2024-03-31T02:30:00.000', 'March 10, 2024 02:30:00', 'Sun Nov 03 2024 01:30:00', '2024/10/27 02:30', 'Oct 27 2024 02:30 GMT', '2024-10-27T02:30Z'].map(Date.parse)",
  'const d = new Date(1.7e12); return [d.toString(), Date(1.7e12).length > 0, new Date(d.toString()).getTime(), Date.parse(d.toString())]',
  'return new Date(2024, 5, 1).getTimezoneOffset() - new Date(2024, 0, 1).getTimezoneOffset()',
  'return [new Date(NaN).getHours(), new Date(NaN).getTimezoneOffset(), String(new Date(NaN))].map(String)',
]

const ZONES = [
  'America/New_York', 'Europe/Berlin', 'Europe/London', 'Asia/Kolkata', 'Australia/Lord_Howe', 'America/Sao_Paulo',
  'Pacific/Chatham', 'Asia/Kathmandu', 'America/St_Johns', 'Pacific/Apia', 'Africa/Casablanca', 'Etc/GMT+5', 'UTC',
]

/**
 * Zones whose long names (the end of `toString`) differ from this Node's ICU, offsets and
 * fields agreeing: there names are compared with the parenthesised name cut off, and some
 * program must still differ by name (so a fix fails until the entry goes).
 * - London 1970 (British Standard Time, +01 all year) and Lord Howe 1970 (on Australian
 *   Eastern time until 1981): ICU4X's CLDR has the historical metazones, Node's ICU names them
 *   as today.
 * - Sao Paulo 2099: Node's ICU predicts daylight time for Brazil (abolished in 2019).
 * - Apia: CLDR calls its metazone "West Samoa" in ICU4X's data, "Samoa" in Node's.
 * - Casablanca: Node's ICU names +00 and +01 by offset (`GMT+00:00`), CLDR's data as Western
 *   European time.
 */
const NAME_DIFFERENCES = new Set(['Europe/London', 'Australia/Lord_Howe', 'America/Sao_Paulo', 'Pacific/Apia', 'Africa/Casablanca'])
/**
 * Morocco after 2037: the compiled-in database (IANA's rearguard form, as jiff bundles it)
 * ends its predicted Ramadan transitions there and stays on +00; Node's ICU stays on +01.
 * These programs must still differ.
 */
const OFFSET_DIFFERENCES: Record<string, (program: string) => boolean> = {
  'Africa/Casablanca': (p) => /4100000000000|8640000000000000|200000000000000|2038, 0, 19|275760, 8, 12|2100, 6, 4/.test(p),
}
const withoutName = (v: unknown) => JSON.stringify(v).replace(/ \([^)]*\)/g, '')

describe('the timeZone config', () => {
  const runtimes: InstanceType<typeof CodeRuntime>[] = []
  afterAll(() => Promise.all(runtimes.map((rt) => rt.dispose())))

  test.each(ZONES)("Date's local time in %s is what Node prints with TZ set to it", async (zone) => {
    const rt = new CodeRuntime({ timeZone: zone, threads: 1 })
    runtimes.push(rt)
    const ours = await ourAnswers(rt, PROGRAMS)
    const node = nodeAnswers(PROGRAMS, zone)
    const mismatched = []
    let namesDiffer = false
    for (let i = 0; i < PROGRAMS.length; i++) {
      const [a, b] = [JSON.stringify(ours[i]), JSON.stringify(node[i])]
      // Past 2037 Node's own tz data changes with its version (Node 20 and 24 disagree on
      // some of these instants), so either answer is accepted there.
      if (OFFSET_DIFFERENCES[zone]?.(PROGRAMS[i])) continue
      if (a === b) continue
      if (NAME_DIFFERENCES.has(zone) && withoutName(ours[i]) === withoutName(node[i])) {
        namesDiffer = true
        continue
      }
      mismatched.push(`${PROGRAMS[i]}\n  ours: ${a}\n  node: ${b}`)
    }
    expect(mismatched.join('\n')).toBe('')
    expect(namesDiffer).toBe(NAME_DIFFERENCES.has(zone))
  })

  test('the default is UTC whatever the host TZ says, and a session sees the runtime zone', async () => {
    const script = `const { CodeRuntime } = require(${JSON.stringify(join(ROOT, 'index.js'))});
      (async () => {
        const program = 'const d = new Date(0); return [d.getHours(), d.getTimezoneOffset(), String(d), new Date(1970, 0, 1).getTime()]'
        const plain = new CodeRuntime({ threads: 1 })
        const zoned = new CodeRuntime({ threads: 1, timeZone: 'asia/tokyo' })
        const session = zoned.openSession()
        const out = [
          await plain.run({ program, bindings: [] }),
          await zoned.run({ program, bindings: [] }),
          await session.run({ program, bindings: [] }),
          new Date(0).getHours(),
        ]
        await session.dispose(); await plain.dispose(); await zoned.dispose()
        process.stdout.write(JSON.stringify(out))
      })()`
    const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, TZ: 'America/New_York', NODE_OPTIONS: '' } })
    expect(out.stderr).toBe('')
    const [plain, zoned, session, host] = JSON.parse(out.stdout)
    expect(host).toBe(19) // the child's own Node does see the host zone
    expect(plain).toEqual({ logs: [], value: [0, 0, 'Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)', 0] })
    const tokyo = { logs: [], value: [9, -540, 'Thu Jan 01 1970 09:00:00 GMT+0900 (Japan Standard Time)', -32400000] }
    expect(zoned).toEqual(tokyo)
    expect(session).toEqual(tokyo)
  })

  test('UTC and its aliases give the same answers', async () => {
    for (const zone of ['Etc/UTC', 'gmt', 'Zulu']) {
      const rt = new CodeRuntime({ timeZone: zone, threads: 1 })
      try {
        expect(await runOn(rt, 'return String(new Date(0))')).toEqual({ logs: [], value: 'Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)' })
      } finally {
        await rt.dispose()
      }
    }
  })

  test('a program cannot change the zone, and every run of a runtime sees it', async () => {
    const rt = new CodeRuntime({ timeZone: 'Europe/Berlin', threads: 1 })
    try {
      const program = `globalThis.process = { env: { TZ: 'UTC' } }; Date.prototype.getTimezoneOffset = () => 0;
        return [new Date(0).getHours(), new Date(2024, 6, 1, 12).getUTCHours()]`
      const results = await Promise.all(Array.from({ length: 8 }, () => runOn(rt, program)))
      for (const r of results) expect(r).toEqual({ logs: [], value: [1, 10] })
    } finally {
      await rt.dispose()
    }
  })
})

// ---- Intl's dates, lists, relative times, segments and display names ------------------------

/** Each program's value when this Node runs it (as a function body, TZ=UTC). */
function nodeValues(programs: string[]): unknown[] {
  return nodeAnswers(programs, 'UTC')
}

const LOCALES = [
  'en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'ru-RU', 'ja-JP', 'zh-CN',
  'ko-KR', 'ar-EG', 'hi-IN', 'tr-TR', 'pl-PL', 'nl-NL', 'sv-SE', 'th-TH', 'he-IL', 'id-ID',
]
const T = 1_718_201_045_678 // 2024-06-12T14:04:05.678Z, a Wednesday afternoon
const DATE_OPTIONS = [
  {}, { dateStyle: 'full' }, { dateStyle: 'long' }, { dateStyle: 'medium' }, { dateStyle: 'short' },
  { timeStyle: 'short' }, { timeStyle: 'medium' }, { dateStyle: 'medium', timeStyle: 'short' },
  { month: 'long', year: 'numeric' }, { weekday: 'long' }, { month: 'short', day: 'numeric' },
  { hour: 'numeric', minute: '2-digit' }, { year: 'numeric', month: '2-digit', day: '2-digit' },
]
const LISTS = [
  ['conjunction', 'long', ['Ann', 'Ben', 'Cy']], ['conjunction', 'short', ['Ann', 'Ben']], ['disjunction', 'long', ['Ann', 'Ben', 'Cy']],
  ['unit', 'narrow', ['1', '2', '3']], ['unit', 'long', ['5', '6']], ['conjunction', 'narrow', ['x', 'y', 'z']],
]
const RELATIVE = [
  [-1, 'day', 'auto'], [1, 'day', 'auto'], [2, 'hours', 'always'], [-3, 'month', 'always'], [1.5, 'year', 'always'],
  [0, 'second', 'auto'], [-10, 'minutes', 'always'], [1, 'quarter', 'always'], [-2, 'week', 'auto'],
]

/** The differential: for each locale, dates (formats and toLocale*), lists and relative times. */
function differentialPrograms(): { name: string; program: string }[] {
  const out: { name: string; program: string }[] = []
  for (const locale of LOCALES) {
    const L = JSON.stringify(locale)
    for (const o of DATE_OPTIONS) {
      const options = JSON.stringify({ ...o, timeZone: 'UTC' })
      out.push({ name: `${locale} DateTimeFormat ${JSON.stringify(o)}`, program: `return new Intl.DateTimeFormat(${L}, ${options}).format(${T})` })
    }
    out.push({ name: `${locale} toLocaleString`, program: `return new Date(${T}).toLocaleString(${L}, { timeZone: 'UTC' })` })
    out.push({ name: `${locale} toLocaleDateString`, program: `return new Date(${T}).toLocaleDateString(${L}, { timeZone: 'UTC' })` })
    out.push({ name: `${locale} toLocaleTimeString`, program: `return new Date(${T}).toLocaleTimeString(${L}, { timeZone: 'UTC' })` })
    for (const [type, style, list] of LISTS) {
      out.push({
        name: `${locale} ListFormat ${type} ${style} ${(list as string[]).length}`,
        program: `return new Intl.ListFormat(${L}, { type: '${type}', style: '${style}' }).format(${JSON.stringify(list)})`,
      })
    }
    for (const [value, unit, numeric] of RELATIVE) {
      for (const style of ['long', 'narrow']) {
        out.push({
          name: `${locale} RelativeTimeFormat ${value} ${unit} ${numeric} ${style}`,
          program: `return new Intl.RelativeTimeFormat(${L}, { numeric: '${numeric}', style: '${style}' }).format(${value}, '${unit}')`,
        })
      }
    }
  }
  return out
}

/** Per constructor: programs whose values must be what Node prints. */
const CASES: Record<string, string[]> = {
  DateTimeFormat: [
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', dateStyle: 'full', timeStyle: 'long' }).format(${T})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata', hour: 'numeric', minute: 'numeric', timeZoneName: 'short' }).format(${T})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', hour12: false }).format(${T})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }).format(${T})`,
    `return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: 'numeric', minute: 'numeric', hour12: true }).format(${T})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric', year: 'numeric' }).format(${T})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).formatToParts(${T})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3 }).formatToParts(${T})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).formatRange(${T}, ${T + 3 * 86400000})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', minute: 'numeric' }).formatRange(${T}, ${T + 3600000})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', minute: 'numeric' }).formatRangeToParts(${T}, ${T + 3600000})`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC' }).resolvedOptions()`,
    `return new Intl.DateTimeFormat('en-US', { timeZone: 'europe/BERLIN', hour: 'numeric', minute: 'numeric' }).resolvedOptions()`,
    `return new Intl.DateTimeFormat('ja-JP', { timeZone: 'UTC', hour: 'numeric', hour12: true }).resolvedOptions()`,
    `return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', timeStyle: 'long' }).resolvedOptions()`,
    `return new Intl.DateTimeFormat('th-TH', { timeZone: 'UTC' }).resolvedOptions().calendar`,
    `return new Intl.DateTimeFormat('en-US-u-ca-japanese', { timeZone: 'UTC', dateStyle: 'long' }).format(${T})`,
    `return new Intl.DateTimeFormat('ar-EG', { timeZone: 'UTC', dateStyle: 'full' }).format(${T})`,
    `return new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format(new Date(${T}))`,
    `return typeof Intl.DateTimeFormat.prototype.formatToParts === 'function' && Intl.DateTimeFormat.length === 0`,
    `return Intl.DateTimeFormat('en', { timeZone: 'UTC' }) instanceof Intl.DateTimeFormat`,
    `const f = new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format; return [f.name, f.length, f(${T}), f === new Intl.DateTimeFormat().format]`,
    `try { new Intl.DateTimeFormat('en', { timeZone: 'Mars/Olympus' }) } catch (e) { return [e.name, e.message] }`,
    // The name only: Node 20 says "Can't set option month when dateStyle is used" (as the
    // sandbox does), Node 24 "Invalid option : option".
    `try { new Intl.DateTimeFormat('en', { dateStyle: 'short', month: 'long' }) } catch (e) { return e.name }`,
    `try { new Intl.DateTimeFormat('en').format(NaN) } catch (e) { return [e.name, e.message] }`,
    `try { new Intl.DateTimeFormat('en', { hourCycle: 'h25' }) } catch (e) { return [e.name, e.message] }`,
    `try { new Intl.DateTimeFormat('en').formatRange(1) } catch (e) { return [e.name, e.message] }`,
    `try { new Date(0).toLocaleDateString('en', { timeStyle: 'short' }) } catch (e) { return [e.name, e.message] }`,
    `const seen = []; new Intl.DateTimeFormat('en', new Proxy({}, { get(t, k) { seen.push(String(k)) } })); return seen`,
    `return new Date(${T}).toLocaleString('en-US', { timeZone: 'UTC' })`,
    `return [new Date(${T}).toLocaleDateString('de-DE', { timeZone: 'UTC' }), new Date(${T}).toLocaleTimeString('de-DE', { timeZone: 'UTC' })]`,
    `return new Date(NaN).toLocaleString()`,
    `return new Date(${T}).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long' })`,
    `return new Date(${T}).toLocaleTimeString('en-US', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' })`,
  ],
  RelativeTimeFormat: [
    `return new Intl.RelativeTimeFormat('en').format(-1, 'day')`,
    `return new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-1, 'day')`,
    `return new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-0, 'second')`,
    `return new Intl.RelativeTimeFormat('en').format(-0, 'second')`,
    `return new Intl.RelativeTimeFormat('en').formatToParts(1234.5678, 'days')`,
    `return new Intl.RelativeTimeFormat('es', { style: 'short' }).format(3, 'month')`,
    `return new Intl.RelativeTimeFormat('en', { numberingSystem: 'arab' }).resolvedOptions()`,
    `return new Intl.RelativeTimeFormat('ar-EG').format(5, 'year')`,
    `try { new Intl.RelativeTimeFormat('en').format(Infinity, 'day') } catch (e) { return [e.name, e.message] }`,
    `try { new Intl.RelativeTimeFormat('en').format(1, 'dayz') } catch (e) { return [e.name, e.message] }`,
    `try { new Intl.RelativeTimeFormat('en', { style: 'bad' }) } catch (e) { return [e.name, e.message] }`,
    `const seen = []; new Intl.RelativeTimeFormat('en', new Proxy({}, { get(t, k) { seen.push(String(k)) } })); return seen`,
  ],
  ListFormat: [
    `return new Intl.ListFormat('en').format(['a', 'b', 'c'])`,
    `return new Intl.ListFormat('en', { type: 'disjunction' }).format(['a', 'b'])`,
    `return new Intl.ListFormat('es').format(['agua', 'hielo'])`,
    `return new Intl.ListFormat('en').formatToParts(['x', 'y', 'z'])`,
    `return new Intl.ListFormat('en').format(new Set(['p', 'q']))`,
    `return new Intl.ListFormat('en').format('ab')`,
    `return new Intl.ListFormat('en').format([])`,
    `return new Intl.ListFormat('de', { style: 'short', type: 'unit' }).resolvedOptions()`,
    `try { new Intl.ListFormat('en').format([1]) } catch (e) { return [e.name, e.message] }`,
    `try { Intl.ListFormat() } catch (e) { return [e.name, e.message] }`,
    `try { new Intl.ListFormat('en', { type: 'x' }) } catch (e) { return [e.name, e.message] }`,
  ],
  Segmenter: [
    `return [...new Intl.Segmenter('en', { granularity: 'word' }).segment('Hi, you 42!')]`,
    `return [...new Intl.Segmenter().segment('e\\u0301👍🏽🇺🇸x')].map((s) => [s.segment, s.index])`,
    `return [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment('One. Two? Three! Four')].map((s) => s.segment)`,
    `return [...new Intl.Segmenter('ja', { granularity: 'word' }).segment('今日は良い天気です')].map((s) => s.segment)`,
    `const s = new Intl.Segmenter('en', { granularity: 'word' }).segment('hello world'); return [s.containing(0), s.containing(5), s.containing(8), s.containing(11), s.containing(-1)]`,
    `return new Intl.Segmenter('fr', { granularity: 'sentence' }).resolvedOptions()`,
    `return Object.prototype.toString.call(new Intl.Segmenter().segment('abc')[Symbol.iterator]())`,
    `return Object.getPrototypeOf(new Intl.Segmenter().segment('abc')).constructor === Object`,
    `try { new Intl.Segmenter('en', { granularity: 'line' }) } catch (e) { return [e.name, e.message] }`,
    `const it = new Intl.Segmenter().segment('ab')[Symbol.iterator](); return [it.next(), it.next(), it.next()]`,
  ],
  DisplayNames: [
    `return new Intl.DisplayNames('en', { type: 'region' }).of('DE')`,
    `return new Intl.DisplayNames('de', { type: 'region' }).of('US')`,
    `return new Intl.DisplayNames('en', { type: 'language' }).of('en-GB')`,
    `return new Intl.DisplayNames('en', { type: 'language', languageDisplay: 'standard' }).of('en-GB')`,
    `return new Intl.DisplayNames('fr', { type: 'language' }).of('de')`,
    `return new Intl.DisplayNames('en', { type: 'script' }).of('Cyrl')`,
    `return new Intl.DisplayNames('en', { type: 'currency' }).of('usd')`,
    `return new Intl.DisplayNames('ja', { type: 'currency' }).of('EUR')`,
    `return new Intl.DisplayNames('en', { type: 'region' }).of('XX')`,
    `return new Intl.DisplayNames('en', { type: 'region', fallback: 'none' }).of('XX')`,
    `return new Intl.DisplayNames('en', { type: 'language' }).resolvedOptions()`,
    `try { new Intl.DisplayNames('en') } catch (e) { return [e.name, e.message] }`,
    `try { new Intl.DisplayNames('en', { type: 'region' }).of('1234') } catch (e) { return [e.name, e.message] }`,
  ],
}

/** A program's value as text, the same on both sides (`undefined` included). */
const asText = (body: string) => `const v = (() => { ${body} })(); return v === undefined ? '<undefined>' : JSON.stringify(v)`

/**
 * Differences between this Node's ICU (ICU4C with its CLDR) and ICU4X's CLDR data, by case
 * name: each is asserted to still differ under Node 20, so a fix fails until it is removed
 * from here (under Node 24 a listed case may match).
 */
const KNOWN_DIFFERENCES: Record<string, string> = {
  "DateTimeFormat #6: return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).formatToParts(1718201045678)": "a literal part differs in its space character",
  "DateTimeFormat #7: return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3 }).formatToParts(1718201045678)": "ICU4X's field sets always show the hour with minutes and seconds",
  "DateTimeFormat #9: return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', minute: 'numeric' }).formatRange(1718201045678, 1718204645678)": "ICU4X's range patterns repeat the day period",
  "DateTimeFormat #10: return new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: 'numeric', minute: 'numeric' }).formatRangeToParts(1718201045678, 1718204645678)": "ICU4X's range patterns repeat the day period",
  "DateTimeFormat #13: return new Intl.DateTimeFormat('ja-JP', { timeZone: 'UTC', hour: 'numeric', hour12: true }).resolvedOptions()": "hour12 takes h12 where Japanese data writes h11 (K)",
  "DateTimeFormat #28: const seen = []; new Intl.DateTimeFormat('en', new Proxy({}, { get(t, k) { seen.push(String(k)) } })); return seen": "Node 20's V8 reads the options in ToDateTimeOptions' older order (test262 checks ours)",
  "ko-KR DateTimeFormat {}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR DateTimeFormat {\"dateStyle\":\"medium\"}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR DateTimeFormat {\"dateStyle\":\"short\"}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR DateTimeFormat {\"timeStyle\":\"short\"}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR DateTimeFormat {\"timeStyle\":\"medium\"}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR DateTimeFormat {\"dateStyle\":\"medium\",\"timeStyle\":\"short\"}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR DateTimeFormat {\"hour\":\"numeric\",\"minute\":\"2-digit\"}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR DateTimeFormat {\"year\":\"numeric\",\"month\":\"2-digit\",\"day\":\"2-digit\"}": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR toLocaleString": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR toLocaleDateString": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "ko-KR toLocaleTimeString": "ICU4X's Korean data ('2024/6/12', \uc624\ud6c4) where Node's ICU has '2024. 6. 12.' and PM",
  "hi-IN DateTimeFormat {\"dateStyle\":\"full\"}": "CLDR version: Node's Hindi long dates have no comma",
  "hi-IN DateTimeFormat {\"dateStyle\":\"long\"}": "CLDR version: Node's Hindi long dates have no comma",
  "hi-IN ListFormat conjunction long 3": "CLDR version: Node's data has a serial comma in Hindi",
  "th-TH DateTimeFormat {\"dateStyle\":\"full\"}": "CLDR version: Thai Buddhist-era patterns ('\u0e1e.\u0e28.' in full, the short year)",
  "th-TH DateTimeFormat {\"dateStyle\":\"short\"}": "CLDR version: Thai Buddhist-era patterns ('\u0e1e.\u0e28.' in full, the short year)",
  "he-IL ListFormat conjunction long 3": "CLDR: ICU4X writes a non-breaking hyphen after \u05d5",
  "he-IL ListFormat conjunction short 2": "CLDR: ICU4X writes a non-breaking hyphen after \u05d5",
  "he-IL ListFormat conjunction narrow 3": "CLDR: ICU4X writes a non-breaking hyphen after \u05d5",
  "Segmenter #3: return [...new Intl.Segmenter('ja', { granularity: 'word' }).segment('今日は良い天気です')].map((s) => s.segment)": "no Chinese/Japanese dictionary compiled in (the size limit): intl-data.spec pins ours",
}

async function compare(rt: InstanceType<typeof CodeRuntime>, cases: { name: string; program: string }[]) {
  const programs = cases.map((c) => asText(c.program))
  const node = nodeValues(programs)
  const ours = await ourAnswers(rt, programs)
  const mismatched: string[] = []
  for (let i = 0; i < cases.length; i++) {
    const { name } = cases[i]
    if (name in KNOWN_DIFFERENCES) {
      // Listed against Node 20's ICU; Node 24's newer ICU agrees with ICU4X on some of them.
      if (process.version.startsWith('v20.')) expect([name, ours[i]]).not.toEqual([name, node[i]])
      continue
    }
    if (ours[i] !== node[i]) mismatched.push(`${name}\n  ours: ${ours[i]}\n  node: ${node[i]}`)
  }
  if (process.env.INTL_TIME_MISMATCHES) require('node:fs').appendFileSync(process.env.INTL_TIME_MISMATCHES, mismatched.map((m) => m.split('\n')[0] + '\n').join(''))
  expect(mismatched.join('\n')).toBe('')
}

describe('Intl: dates, lists, relative times, segments, display names', () => {
  const rt = new CodeRuntime({ threads: 2 })
  afterAll(() => rt.dispose())

  for (const [ctor, programs] of Object.entries(CASES)) {
    test(`${ctor} answers as Node does`, async () => {
      await compare(rt, programs.map((program, i) => ({ name: `${ctor} #${i}: ${program}`, program })))
    })
  }

  test('the differential: dates, lists and relative times across 20 locales', async () => {
    const cases = differentialPrograms()
    expect(cases.length).toBeGreaterThan(600)
    await compare(rt, cases)
  }, 120_000)

  test("DateTimeFormat's default zone is the runtime zone", async () => {
    const zoned = new CodeRuntime({ threads: 1, timeZone: 'America/New_York' })
    try {
      const r = await runOn(zoned, `const f = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });
        return [f.resolvedOptions().timeZone, f.format(0), new Date(0).toLocaleString('en-US')]`)
      expect(r).toEqual({ logs: [], value: ['America/New_York', '7:00 PM', '12/31/1969, 7:00:00 PM'] })
    } finally {
      await zoned.dispose()
    }
  })

  test('option getters that throw stop the constructor with their error', async () => {
    for (const ctor of ['DateTimeFormat', 'RelativeTimeFormat', 'ListFormat', 'Segmenter', 'DisplayNames']) {
      const r = await runOn(rt, `try { new Intl.${ctor}('en', { get localeMatcher() { throw new Error('boom') } }) } catch (e) { return e.message }`)
      expect(r).toEqual({ logs: [], value: 'boom' })
    }
  })

  test('a 10 MB string: Segmenter iterates in bounded steps and stops at the compute budget', async () => {
    const big = new CodeRuntime({ threads: 1, computeMs: 300 })
    try {
      const r = await runOn(big, `const s = 'ab, cd. '.repeat(1_310_720); let n = 0
        for (const seg of new Intl.Segmenter('en', { granularity: 'word' }).segment(s)) n++
        return n`)
      expect(r.error?.kind).toBe('timeout')
      const found = await runOn(rt, `const s = 'e\\u0301'.repeat(5_000_000) + 'xyz'
        const seg = new Intl.Segmenter().segment(s)
        const a = seg.containing(9_999_999), b = seg.containing(10_000_001)
        return [a.segment, a.index, b.segment, b.index, s.length]`)
      expect(found).toEqual({ logs: [], value: ['e\u0301', 9_999_998, 'y', 10_000_001, 10_000_003] })
    } finally {
      await big.dispose()
    }
  }, 60_000)
})
