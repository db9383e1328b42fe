import { beforeAll, describe, expect, test } from 'vitest'
// @ts-expect-error: a plain ES module of the repository's scripts, no typings
import { AREAS, areaOf, compareHarnesses, runWpt, testFiles, wptDir } from '../scripts/wpt.mjs'

// The Web Platform Tests of the web globals (scripts/wpt.mjs), read from the WPT subset beside
// the checkout (../shared/wpt or $WPT_DIR; none of it is in the repository). Each test file
// runs as one program through CodeRuntime and through plain Node: per area, at least as many
// subtests pass in the sandbox as in Node.
type Area = { files: number; subtests: number; ours: number; node: number }

const dir: string | null = wptDir()

/** The areas where the sandbox passes at least Node's subtests. */
const AT_LEAST_NODE = [
  'URL parsing',
  'URL host parsing (IDNA, toASCII)',
  'URL setters',
  'URLSearchParams',
  'structuredClone',
  'AbortController/AbortSignal',
  'Event/EventTarget/CustomEvent',
  'crypto.subtle.digest',
  'other encodings',
  'TextEncoder/TextDecoder (UTF-8)',
  'atob/btoa, crypto, queueMicrotask, timers, performance.now',
]

describe.runIf(dir !== null)('Web Platform Tests, CodeRuntime and Node', () => {
  let areas: Map<string, Area>
  let rows: { file: string; ours: { results: Map<string, { status: number }> } }[]
  beforeAll(async () => {
    ;({ areas, rows } = await runWpt({ dir }))
  }, 120_000)

  test('every covered test file belongs to one area, and every area has subtests in both', () => {
    const files: string[] = testFiles(dir)
    expect(files.length).toBeGreaterThan(60)
    expect(files.filter((f) => areaOf(f) === null)).toEqual([])
    for (const [name] of AREAS as [string][]) {
      const a = areas.get(name)
      expect(a, name).toBeDefined()
      expect(a!.subtests, name).toBeGreaterThan(0)
      expect(a!.node, name).toBeGreaterThan(0)
    }
  })

  test('our harness gives the verdicts of WPT\'s own testharness.js (in Node, on a sample)', async () => {
    const sample = ['dom/abort/event.any.js', 'dom/events/Event-constructors.any.js', 'encoding/textdecoder-streaming.any.js', 'url/urlsearchparams-constructor.any.js']
    const rows: { f: string; diff: unknown[]; ours: { results: Map<string, unknown> }; theirs: { results: Map<string, unknown> } }[] = await compareHarnesses(dir, sample)
    for (const r of rows) {
      expect(r.ours.results.size, r.f).toBeGreaterThan(0)
      expect(r.ours.results.size, r.f).toBe(r.theirs.results.size)
      expect(r.diff, r.f).toEqual([])
    }
  })

  test('hr-time/basic.any.js passes whole: performance is an EventTarget (Node 24 passes it, Node 20 not)', () => {
    const row = rows.find((r) => r.file === 'hr-time/basic.any.js')!
    const verdicts = [...row.ours.results].map(([name, r]) => [name, r.status])
    expect(verdicts).toContainEqual(['Performance interface extends EventTarget.', 0])
    expect(verdicts.filter(([, status]) => status !== 0)).toEqual([])
  })

  test.each(AT_LEAST_NODE)('%s: the sandbox passes at least the subtests Node passes', (name) => {
    const a = areas.get(name)!
    expect(a.ours, `${name}: ours ${a.ours}, Node ${a.node} of ${a.subtests}`).toBeGreaterThanOrEqual(a.node)
  })
})
