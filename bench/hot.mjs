// Latency of trivial runs while 4 hot loops occupy the pool: scenario 8 of the harness
// (bench/run.mjs), ours beside the worker-thread baseline (and the peers with --peers).
//
//   node bench/hot.mjs [--quick] [--peers]
process.argv.splice(2, 0, '--only', 'hot')
await import('./run.mjs')
