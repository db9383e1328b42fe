// Regenerates crates/core/src/console/inspect.js from the pinned devDependency
// node-inspect-extracted (Node's own util.inspect with its internals emulated, MIT). The
// engine runs it in a separate realm of each run's runtime (see crates/core/src/console/inspector.rs),
// followed by the hand-ported console methods of crates/core/src/console/console.js.
//
// The emulated internals that a browser cannot implement are replaced by the engine's
// natives (each patch must match exactly once, or this script fails):
// - getPromiseDetails: the promise's real state and result (the browser emulation always
//   says pending);
// - getProxyDetails: a Proxy's real target and handler (the emulation only knows proxies it
//   made itself), so a logged Proxy prints its target without running its traps, as Node 24
//   does (the vendored version wraps it in `Proxy(…)`, as later Node versions do);
// - the realm has no `URL`, which the bundle reads for its URL check.
//
//   node scripts/vendor-inspect.mjs
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// The column width of every code point from U+007F on that is not 1, as this Node's ICU
// computes it (GetColumnWidth: East_Asian_Width W/F and Emoji_Presentation 2; marks,
// format and control characters and emoji modifiers 0), as ranges `start,length-1,width`
// (base 36) joined by `;`. Code points that NFC changes are read as part of their
// normalised form and may fall in either neighbouring range; surrogates are 1.
function widthTable() {
  const program = `
    const { getStringWidth } = require('internal/util/inspect')
    const ranges = []
    let cur = null
    for (let c = 0x7f; c < 0x110000; c++) {
      const surrogate = c >= 0xd800 && c <= 0xdfff
      const s = String.fromCodePoint(c)
      if (!surrogate && s.normalize('NFC') !== s) continue
      const w = surrogate ? 1 : getStringWidth(s)
      if (cur && cur.w === w) cur.end = c
      else ranges.push((cur = { w, start: c, end: c }))
    }
    process.stdout.write(ranges.filter((r) => r.w !== 1)
      .map((r) => r.start.toString(36) + ',' + (r.end - r.start).toString(36) + ',' + r.w).join(';'))`
  return execFileSync(process.execPath, ['--expose-internals', '-e', program], { encoding: 'utf8' })
}
const pkgDir = join(root, 'node_modules', 'node-inspect-extracted')
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'))
const license = readFileSync(join(pkgDir, 'LICENSE'), 'utf8').trim()
let bundle = readFileSync(join(pkgDir, 'dist', 'inspect.js'), 'utf8')

const patches = [
  [
    'getPromiseDetails:()=>[g,void 0]',
    'getPromiseDetails:t=>{const s=__natives.promiseState(t);return 0===s?[g,void 0]:[2===s?h:1,__natives.promiseResult(t)]}',
  ],
  ['getProxyDetails:y.getProxyDetails', 'getProxyDetails:(t,e=!0)=>__natives.proxyDetails(t,e)'],
  // What a Map or Set iterator has left, read by the engine without advancing it.
  [
    'previewEntries:t=>[[],!1]',
    'previewEntries:(t,e)=>{const r=__natives.previewEntries(t);return void 0===r?e?[[],!1]:[]:e?r:r[0]}',
  ],
  // Node 24 prints a Proxy as its target; the bundle's newer Node wraps it in `Proxy(…)`.
  ['c=je(e=c,!1),s+=1', 'c=je(e=c,!1)'],
  // The realm has no URL (a web global of the program's realm only): nothing is a URL here.
  ['878(t){t.exports=URL}', '878(t){t.exports=class{}}'],
  // Function kinds by the engine's class of the function, not its source text (a generator
  // method's source does not start with `function*`).
  [
    'isAsyncFunction:t=>"function"==typeof t&&a.toString.call(t).startsWith("async")',
    'isAsyncFunction:t=>__natives.sameClass(t,async function(){})||__natives.sameClass(t,async function*(){})',
  ],
  [
    'isGeneratorFunction:t=>"function"==typeof t&&a.toString.call(t).match(/^(async\\s+)?function *\\*/)',
    'isGeneratorFunction:t=>__natives.sameClass(t,function*(){})||__natives.sameClass(t,async function*(){})',
  ],
  // Built-in types by the engine's class of the object (its internal slots), not by
  // `instanceof` or constructor names: `{ __proto__: Promise.resolve(1) }` is no promise, a
  // program's `class RegExp {}` no regexp, and the program's objects are no instances of this
  // realm's classes anyway. Each name is checked against a sample object the realm makes.
  [
    'function A(t,...e){for(const n of e){const e=S[n];if(e&&t instanceof e)return!0}for(;t;){if("object"!=typeof t)return!1;if(e.indexOf(x(t))>=0)return!0;t=g(t)}return!1}',
    'const K={};for(const[n,f]of[["ArrayBuffer",()=>new ArrayBuffer(0)],["SharedArrayBuffer",()=>new SharedArrayBuffer(0)],["DataView",()=>new DataView(new ArrayBuffer(0))],["Map",()=>new Map],["Set",()=>new Set],["WeakMap",()=>new WeakMap],["WeakSet",()=>new WeakSet],["RegExp",()=>/x/],["Date",()=>new Date(0)],["Promise",()=>Promise.resolve()],["Error",()=>new Error],["String",()=>new String("")],["Number",()=>new Number(0)],["Boolean",()=>new Boolean(!1)],["BigInt",()=>Object(0n)],["Symbol",()=>Object(Symbol())],...["Int8Array","Uint8Array","Uint8ClampedArray","Int16Array","Uint16Array","Int32Array","Uint32Array","Float16Array","Float32Array","Float64Array","BigInt64Array","BigUint64Array"].map(n=>[n,()=>new S[n](0)])])try{K[n]=f()}catch{}' +
      'function A(t,...e){if(null===t||"object"!=typeof t&&"function"!=typeof t)return!1;for(const n of e)if(void 0!==K[n]&&__natives.sameClass(t,K[n]))return!0;return!1}',
  ],
  ['isNativeError:t=>t instanceof c&&A(t,', 'isNativeError:t=>A(t,'],
  // V8's constructor name of an object whose prototype chain names no constructor (what
  // `[X: null prototype]` shows) comes from the function that made it, never from a
  // `constructor` property's value: `Object.create(null)` with a `constructor` key holding an
  // error or a string prints `[Object: null prototype]`.
  ['if(t.constructor?.name)return t.constructor.name;', ''],
  // Node 24's getPrefix: a tag is shown unless the constructor's name is its last dotted
  // segment (then the tag stands alone), so `class MyPromise extends Promise` prints
  // `MyPromise [Promise]` (the vendored version dropped a tag the name ends with).
  [
    'let o=`${t}${r} `;if(""!==e){const n=t.indexOf(e);if(-1===n)o+=`[${e}] `;else{const r=n+e.length;r!==t.length&&t[r]===t[r].toLowerCase()&&(o+=`[${e}] `)}}return o}',
    'if(""!==e){const n=e.lastIndexOf(".");return t===(n>=1?e.slice(n+1):e)?`${e}${r} `:`${t}${r} [${e}] `}return`${t}${r} `}',
  ],
  // A custom [nodejs.util.inspect.custom] method is the program's: the engine calls it in
  // the program's realm (natives.callCustom) with a null-prototype copy of the options (as
  // Node passes a value of another realm) whose `stylize`, and whose `inspect` argument, are
  // functions of the program's realm: it never receives an object of this realm.
  ['i=D(n,l,e,function(t,e){', 'i=__natives.callCustom(n,l,e,function(t,e){'],
  ['return n}(t,r),Nn);if(i!==l)', 'return n}(t,!0));if(i!==l)'],
  // V8 gives an error an own `stack` accessor before its `message`; the engine's `stack` is an
  // accessor until first read (then data) and comes after `message`. Under showHidden the
  // keys list `stack` first and show it as V8's `[Getter/Setter]`.
  ['if(e)n=yt(t),0!==r.length&&$(n,r);', 'if(e){n=yt(t);if(tn(t)){const i=n.indexOf("stack");i>0&&(n.splice(i,1),n.unshift("stack"))}0!==r.length&&$(n,r)}'],
  [
    'let s,c,a=" ";if(void 0!==(i=i||pt(e,r)).value){',
    'let s,c,a=" ";if(void 0===i&&"stack"===r&&tn(e)&&(i=pt(e,r),i&&!i.enumerable&&"string"==typeof i.value&&(i=(v=>({get:()=>v,set:()=>{},enumerable:!1}))(i.value))),void 0!==(i=i||pt(e,r)).value){',
  ],
  // getStringWidth (array grouping, console.table's columns) as Node built with ICU counts
  // (node: src/node_i18n.cc GetStringWidth): ASCII directly; from the first other character
  // on, the per-code-point widths of the NFC form, from widthTable().
  [
    'Mn=function(e,n=!0){let r=0;n&&(e=Cr(e)),e=Kt(e,"NFC");for(const n of new Nt(e)){const e=Vt(n,0);t(e)?r+=2:Fr(e)||r++}return r}',
    `Mn=(()=>{let S;const E=[],V=[],load=()=>{S=[];for(const r of ${JSON.stringify(widthTable())}.split(";")){const[a,b,w]=r.split(","),s=parseInt(a,36);S.push(s),E.push(s+parseInt(b,36)),V.push(+w)}},` +
      'cw=c=>{if(c<32)return 0;let l=0,h=S.length-1;for(;l<=h;){const m=l+h>>1;if(c<S[m])h=m-1;else{if(!(c>E[m]))return V[m];l=m+1}}return 1};' +
      'return function(e,n=!0){let r=0;n&&(e=Cr(e));for(let o=0;o<e.length;o++){const i=e.charCodeAt(o);if(i<127){r+=i>=32?1:0;continue}' +
      'S||load();for(const s of e.slice(o).normalize("NFC"))r+=cw(s.codePointAt(0));break}return r}})()',
  ],
]
for (const [from, to] of patches) {
  const at = bundle.indexOf(from)
  if (at < 0 || bundle.indexOf(from, at + 1) >= 0) throw new Error(`patch anchor not found exactly once: ${from}`)
  bundle = bundle.replace(from, to)
}

const out = `// GENERATED by scripts/vendor-inspect.mjs from node-inspect-extracted@${version} (string widths
// from Node ${process.version}'s ICU); do not edit.
// The completion value is a factory: (natives) => Node's util module (inspect, format,
// formatWithOptions, getStringWidth, ...); console/console.js builds the console on it.
/*
${license}
*/
(function (__natives) {
  'use strict'
  const holder = {}
  ;(function () {
${bundle}
  }).call(holder)
  return holder.util
})
`
writeFileSync(join(root, 'crates', 'core', 'src', 'console', 'inspect.js'), out)
console.log(`wrote crates/core/src/console/inspect.js from node-inspect-extracted@${version} (${out.length} bytes)`)
