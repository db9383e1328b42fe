// Loads a package installed in bench/peers/ (`npm run bench:peers`), with a clear error when
// it is not installed.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'

const peersRequire = createRequire(fileURLToPath(new URL('../peers/package.json', import.meta.url)))

export function requirePeer(name) {
  try {
    return { module: peersRequire(name), version: peersRequire(`${name}/package.json`).version }
  } catch (e) {
    const err = new Error(`peer ${name} is not installed (run \`npm run bench:peers\`): ${e.message.split('\n')[0]}`)
    err.code = 'PEER_NOT_INSTALLED'
    throw err
  }
}
