// Cold-run latency: `return 1` (and a first `console.log` of an object, ours only) run one
// after the other, a fresh sandbox each time, ours beside the worker-thread baseline (and the
// peers with --peers). Scenarios 1 and 1b of the harness (bench/run.mjs); prints JSON lines
// and a markdown table.
//
//   node bench/cold.mjs [--runs 1000] [--quick] [--peers]
process.argv.splice(2, 0, '--only', 'cold,cold-log')
await import('./run.mjs')
