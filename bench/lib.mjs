// Small helpers shared by the benchmark harness (no dependencies).
import { performance } from 'node:perf_hooks'

export const now = () => performance.now()
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  if (s.length === 0) return NaN
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Nearest-rank percentile of an already sorted array. */
export function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export const rssMb = () => process.memoryUsage.rss() / 1048576

/** Full collection when the process runs with --expose-gc (the harness's children do). */
export async function settleHeap() {
  for (let i = 0; i < 2; i++) {
    globalThis.gc?.()
    await sleep(20)
  }
}

/** Samples RSS every `everyMs` until stopped; `stop()` returns the peak in MB. */
export function rssPeak(everyMs = 10) {
  let peak = rssMb()
  const timer = setInterval(() => {
    peak = Math.max(peak, rssMb())
  }, everyMs)
  return () => {
    clearInterval(timer)
    return Math.max(peak, rssMb())
  }
}

/** Three significant digits, no exponent, thousands separators for big numbers. */
export function fmt(x) {
  if (x === null || x === undefined || Number.isNaN(x)) return '—'
  const a = Math.abs(x)
  if (a >= 1000) return Math.round(x).toLocaleString('en-US')
  if (a >= 100) return x.toFixed(0)
  if (a >= 10) return x.toFixed(1)
  if (a >= 1) return x.toFixed(2)
  if (a === 0) return '0'
  return x.toPrecision(2)
}

/** A wrong answer is an error, never a number. */
export function check(ok, what, got) {
  if (!ok) throw new Error(`wrong answer: ${what}; got ${JSON.stringify(got)?.slice(0, 300)}`)
}

/** `--name value` / `--name=value` / `--flag` parsing. */
export function parseArgs(argv) {
  const out = { _: [] }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (!a.startsWith('--')) {
      out._.push(a)
      continue
    }
    const eq = a.indexOf('=')
    if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1)
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[a.slice(2)] = argv[++i]
    else out[a.slice(2)] = true
  }
  return out
}
