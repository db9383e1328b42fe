// Host-call cost: 5,000 sequential awaited echo calls and a 5,000-way Promise.all of echo
// calls, µs per call, ours beside the worker-thread baseline (and the peers with --peers).
// Scenarios 2 and 3 of the harness (bench/run.mjs); prints JSON lines and a markdown table.
//
//   node bench/bindings.mjs [--calls 5000] [--reps 7] [--quick] [--peers]
process.argv.splice(2, 0, '--only', 'echo-seq,echo-all')
await import('./run.mjs')
