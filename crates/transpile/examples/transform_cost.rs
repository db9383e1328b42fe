//! What the transform costs on each path: `cargo run --release -p code-runtime-transpile
//! --example transform_cost`. A typical program of about 2 KB and one of 1 MB (the default
//! `maxProgramBytes`), erasable (types blanked in place) and with an `enum` (lowered and
//! reprinted with a position map). Prints the median of several runs of each.

use code_runtime_transpile::transpile;
use std::time::{Duration, Instant};

const TYPICAL: &str = r#"// Collects search hits, ranks them by tag weights and returns the top five with a summary.
interface Hit { id: string; score: number; tags?: string[]; source?: { url: string; fetchedAt: number } }
type Weights = ReadonlyArray<readonly [tag: string, weight: number]>
type Page<T> = { items: T[]; next?: string }
async function collect(q: string, limit: number = 20): Promise<Hit[]> {
  const out: Hit[] = [];
  let cursor: string | undefined;
  while (out.length < limit) {
    const page = (await tools.search({ q, cursor })) as Page<Hit>;
    for (const h of page.items) {
      if (h.score > 0.5 && !out.some((o) => o.id === h.id)) out.push(h);
    }
    if (!page.next) break;
    cursor = page.next!;
  }
  return out.slice(0, limit);
}
function summarize(hits: readonly Hit[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const h of hits) for (const t of h.tags ?? []) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
}
class Ranker<T extends Hit> {
  private readonly weights: Map<string, number> = new Map();
  constructor(weights: Weights) { for (const [k, v] of weights) this.weights.set(k, v) }
  rank(items: T[]): T[] {
    return [...items].sort((a: T, b: T) => this.weight(b) - this.weight(a));
  }
  private weight(h: T): number {
    return h.score * (h.tags ?? []).reduce((w: number, t: string) => w * (this.weights.get(t) ?? 1), 1);
  }
}
function isFresh(h: Hit, now: number = Date.now()): h is Hit & { source: { url: string; fetchedAt: number } } {
  return h.source !== undefined && now - h.source.fetchedAt < 86_400_000;
}
const hits = (await collect("quickjs", 50)).filter((h) => isFresh(h));
const byId = new Map<string, Hit>(hits.map((h): [string, Hit] => [h.id, h]));
if (byId.size !== hits.length) throw new Error(`duplicate ids among ${hits.length} hits`);
const ranked = new Ranker<Hit>([["rust", 2], ["c", 1.5]]).rank(hits);
const summary = summarize(ranked) satisfies Record<string, number>;
console.log(`found ${ranked.length}`, summary);
return { top: ranked.slice(0, 5).map((h) => h.id), summary };
"#;

fn median(program: &str, runs: usize) -> (Duration, bool) {
  let mut times = Vec::with_capacity(runs);
  let mut in_place = false;
  for _ in 0..runs {
    let t = Instant::now();
    let out = transpile(program).expect("the program transforms");
    times.push(t.elapsed());
    in_place = out.in_place;
  }
  times.sort();
  (times[runs / 2], in_place)
}

fn main() {
  // Statements of the typical program, wrapped so it can repeat (no top-level return).
  let body = TYPICAL.replace("return {", "void ({").replace("summary };", "summary });");
  let block = format!("{{\n{body}}}\n");
  let with_enum = |p: &str| format!("enum Level {{ Low, High = 5 }}\n{p}");
  let big = block.repeat((1 << 20) / block.len());
  let cases = [
    ("2 KB, erasable", TYPICAL.to_owned(), 200),
    ("2 KB, with an enum", with_enum(TYPICAL), 200),
    ("1 MB, erasable", big.clone(), 7),
    ("1 MB, with an enum", with_enum(&big), 7),
  ];
  // swc's parser recurses: run where the pool runs programs, on a large stack.
  std::thread::Builder::new()
    .stack_size(64 << 20)
    .spawn(move || {
      for (name, program, runs) in cases {
        let (t, in_place) = median(&program, runs);
        let path = if in_place { "in place" } else { "lowered" };
        println!("{name:<20} {:>8} bytes  {path:<8}  median {t:?} of {runs}", program.len());
      }
    })
    .unwrap()
    .join()
    .unwrap();
}
