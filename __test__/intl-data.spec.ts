import { afterAll, describe, expect, test } from 'vitest'
import { runOn, runtime } from './helpers'

// The ICU4X data compiled in covers CLDR's modern locales (tools/icu-data/modern.txt), with
// their regional variants, and no others: that keeps the addon within its size limit.
const rt = runtime()
afterAll(() => rt.dispose())

async function ours(body: string) {
  const r = await runOn(rt, body)
  expect(r.error, body).toBeUndefined()
  return r.value
}
const inNode = (body: string) => JSON.parse(JSON.stringify(new Function(body)()))

const FORMATS = (l: string) =>
  `return [new Intl.DateTimeFormat('${l}', { month: 'long', timeZone: 'UTC' }).format(0), new Intl.ListFormat('${l}').format(['a', 'b', 'c'])]`

describe('the locales compiled in', () => {
  test('modern locales outside the differential have their own data', async () => {
    for (const l of ['fil', 'zu', 'cy', 'uk', 'ka', 'en-AU', 'es-MX', 'pt-PT', 'zh-Hant']) {
      expect([l, await ours(FORMATS(l))]).toEqual([l, inNode(FORMATS(l))])
    }
  })

  test("locales beyond CLDR's modern set format with the root locale's data", async () => {
    // Faroese and Breton (CLDR's moderate coverage), Asturian (basic): Node has their names.
    for (const l of ['fo', 'br', 'ast']) {
      expect([l, await ours(FORMATS(l))]).toEqual([l, ['M01', 'a, b, c']])
      expect([l, inNode(FORMATS(l))]).not.toEqual([l, ['M01', 'a, b, c']])
    }
  })
})
