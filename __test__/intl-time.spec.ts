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
  const script = `const programs = ${JSON.stringify(programs)};
    process.stdout.write(JSON.stringify(programs.map((p) => { try { return new Function(p)() } catch (e) { return 'throws ' + e.name } })))`
  const out = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { ...process.env, TZ: zone, NODE_OPTIONS: '' } })
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
      if (OFFSET_DIFFERENCES[zone]?.(PROGRAMS[i])) {
        expect(a).not.toBe(b)
        continue
      }
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

