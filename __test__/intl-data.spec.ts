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

// What the data leaves out to keep the addon within 20 MB (tools/icu-data/src/main.rs): the
// names of withdrawn currencies, and of languages CLDR has no locale data for.
describe('the names compiled in', () => {
  test('current currencies and languages CLDR has locale data for are named as in Node', async () => {
    const body = `const c = new Intl.DisplayNames('de', { type: 'currency' })
      const l = new Intl.DisplayNames('fr', { type: 'language' })
      const n = (c, l) => new Intl.NumberFormat(l, { style: 'currency', currency: c, currencyDisplay: 'name' }).format(2)
      return [c.of('USD'), c.of('JPY'), c.of('CHF'), l.of('de'), l.of('fo'), l.of('br'), l.of('yue'), l.of('en-GB'), n('EUR', 'en'), n('USD', 'de')]`
    expect(await ours(body)).toEqual(inNode(body))
  })

  test('withdrawn currencies and languages without locale data answer their code', async () => {
    const body = `const c = new Intl.DisplayNames('en', { type: 'currency' })
      const l = new Intl.DisplayNames('en', { type: 'language' })
      const none = new Intl.DisplayNames('en', { type: 'language', fallback: 'none' })
      return [c.of('DEM'), c.of('FRF'), l.of('grc'), l.of('akk'), none.of('grc') === undefined, l.of('grc-GR')]`
    expect(await ours(body)).toEqual(['DEM', 'FRF', 'grc', 'akk', true, 'grc (Greece)'])
    // Node (full ICU) names them.
    expect(inNode(body).slice(0, 4)).toEqual(['German Mark', 'French Franc', 'Ancient Greek', 'Akkadian'])
  })
})

// ICU4X without its Chinese/Japanese dictionary: a run of Han and kana is one word segment.
const OURS_CJ = ['今日は良い天気です', '。', 'カタカナ']
test('word segments of Chinese and Japanese: no dictionary is compiled in', async () => {
  const body = `return [...new Intl.Segmenter('ja', { granularity: 'word' }).segment('今日は良い天気です。カタカナ')].map((s) => s.segment)`
  expect(await ours(body)).toEqual(OURS_CJ)
  // Node segments with ICU's dictionary: 今日 は 良い 天気 です 。 カタカナ
  expect(inNode(body)).not.toEqual(OURS_CJ)
})
