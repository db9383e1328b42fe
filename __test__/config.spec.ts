import { describe, expect, test } from 'vitest'
import { CodeRuntime } from './helpers'

describe('config validation', () => {
  test('no config and an empty config use the defaults', async () => {
    for (const config of [undefined, {}]) {
      const rt = new CodeRuntime(config)
      expect(rt.language).toBe('typescript')
      expect(rt.isolation).toBe('quickjs')
      await rt.dispose()
    }
  })

  test('every field accepts a valid value', async () => {
    const rt = new CodeRuntime({ computeMs: 1.5, maxWallMs: 2147483647, maxOutputBytes: 4, maxHeapMb: 0.5, threads: 1 })
    await rt.dispose()
  })

  test('unknown keys are rejected', () => {
    expect(() => new CodeRuntime({ computeMS: 10 } as any)).toThrow(TypeError)
    expect(() => new CodeRuntime({ computeMS: 10 } as any)).toThrow(/unknown key "computeMS"/)
    expect(() => new CodeRuntime({ [Symbol('x')]: 1 } as any)).toThrow(/unknown key/)
  })

  test('a config that is not an object is rejected', () => {
    expect(() => new CodeRuntime(5 as any)).toThrow(TypeError)
    expect(() => new CodeRuntime([] as any)).toThrow(TypeError)
    expect(() => new CodeRuntime('x' as any)).toThrow(TypeError)
  })

  test.each([
    ['computeMs', 'abc', TypeError],
    ['computeMs', 0, RangeError],
    ['computeMs', -1, RangeError],
    ['computeMs', NaN, RangeError],
    ['computeMs', Infinity, RangeError],
    ['maxWallMs', null, TypeError],
    ['maxWallMs', 0, RangeError],
    ['maxWallMs', 2147483648, RangeError],
    ['maxWallMs', Infinity, RangeError],
    ['maxOutputBytes', 3, RangeError],
    ['maxOutputBytes', 4.5, RangeError],
    ['maxOutputBytes', 2 ** 53, RangeError],
    ['maxOutputBytes', '100', TypeError],
    ['maxHeapMb', 0, RangeError],
    ['maxHeapMb', -5, RangeError],
    ['maxHeapMb', NaN, RangeError],
    ['maxHeapMb', 10n, TypeError],
    ['maxProgramBytes', 0, RangeError],
    ['maxProgramBytes', 1.5, RangeError],
    ['maxProgramBytes', Infinity, RangeError],
    ['maxProgramBytes', '1024', TypeError],
    ['threads', 0, RangeError],
    ['threads', 1.5, RangeError],
    ['threads', -2, RangeError],
    ['threads', '4', TypeError],
    ['timeZone', 5, TypeError],
    ['timeZone', null, TypeError],
    ['timeZone', { name: 'UTC' }, TypeError],
    ['timeZone', '', RangeError],
    ['timeZone', 'Mars/Olympus_Mons', RangeError],
    ['timeZone', 'America/New York', RangeError],
    ['timeZone', '+05:30', RangeError],
    ['timeZone', '/etc/localtime', RangeError],
    ['timeZone', 'x'.repeat(10_000), RangeError],
  ])('%s = %s throws %o naming the field', (field, value, type) => {
    const make = () => new CodeRuntime({ [field]: value } as any)
    expect(make).toThrow(type as any)
    expect(make).toThrow(new RegExp(`config\\.${field}`))
  })
})

describe('timeZone', () => {
  test('an unknown zone is refused with a message naming the option and showing the form', () => {
    expect(() => new CodeRuntime({ timeZone: 'Europe/Berln' })).toThrow(
      "CodeRuntime config.timeZone must be an IANA time zone name such as 'UTC', 'Europe/Berlin' or 'America/New_York' (got \"Europe/Berln\")",
    )
    expect(() => new CodeRuntime({ timeZone: 7 } as any)).toThrow('CodeRuntime config.timeZone must be a string naming an IANA time zone (got 7)')
  })

  test('names are taken in any ASCII case, and a getter is read once', async () => {
    let reads = 0
    const config = {
      get timeZone() {
        reads++
        return reads === 1 ? 'america/new_YORK' : 'nowhere'
      },
    }
    const rt = new CodeRuntime(config)
    try {
      expect(reads).toBe(1)
      expect(await rt.run({ program: 'return new Date(0).getHours()', bindings: [] })).toEqual({ logs: [], value: 19 })
    } finally {
      await rt.dispose()
    }
  })

  test('a session takes no timeZone of its own: it runs in its runtime zone', () => {
    const rt = new CodeRuntime({ timeZone: 'Asia/Tokyo' })
    try {
      expect(() => rt.openSession({ timeZone: 'UTC' } as any)).toThrow(/unknown key "timeZone"/)
    } finally {
      void rt.dispose()
    }
  })
})

describe('maxProgramBytes', () => {
  test('a program over the limit fails as exception before it is transformed; one at the limit runs', async () => {
    const rt = new CodeRuntime({ maxProgramBytes: 64 })
    try {
      const at = 'return 1 //' + 'x'.repeat(64 - 11)
      expect(Buffer.byteLength(at)).toBe(64)
      expect(await rt.run({ program: at, bindings: [] })).toEqual({ logs: [], value: 1 })
      // Counted in UTF-8 bytes: 30 two-byte characters are 60 bytes, plus 11.
      const over = 'return 1 //' + 'é'.repeat(30)
      expect(await rt.run({ program: over, bindings: [] })).toEqual({
        logs: [],
        error: { kind: 'exception', message: 'program is 71 bytes of UTF-8, over the maxProgramBytes limit of 64 bytes' },
      })
    } finally {
      await rt.dispose()
    }
  })

  test('defaults to 1 MiB, also for a session', async () => {
    const rt = new CodeRuntime()
    try {
      const big = 'return 2 //' + 'x'.repeat(1048576)
      const r = await rt.run({ program: big, bindings: [] })
      expect(r.error?.kind).toBe('exception')
      expect(r.error?.message).toMatch(/over the maxProgramBytes limit of 1048576 bytes$/)
      const session = rt.openSession()
      const s = await session.run({ program: big, bindings: [] })
      expect(s.error?.message).toMatch(/maxProgramBytes/)
      expect(await session.run({ program: 'return 3', bindings: [] })).toEqual({ logs: [], value: 3 })
      await session.dispose()
    } finally {
      await rt.dispose()
    }
  })
})
