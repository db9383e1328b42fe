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
    ['threads', 0, RangeError],
    ['threads', 1.5, RangeError],
    ['threads', -2, RangeError],
    ['threads', '4', TypeError],
  ])('%s = %s throws %o naming the field', (field, value, type) => {
    const make = () => new CodeRuntime({ [field]: value } as any)
    expect(make).toThrow(type as any)
    expect(make).toThrow(new RegExp(`config\\.${field}`))
  })
})
