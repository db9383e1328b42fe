'use strict'
// Lossless values (SPEC "Lossless JSON"): whether a binding's resolved value is plain data
// that survives JSON exactly, checked without running any of its code (no getter, trap or
// `toJSON`), and the JSON text of the values accepted.

const { types } = require('node:util')

const { stringify: jsonStringify } = JSON
const BINDING_RESOLUTION_NOT_LOSSLESS = 'binding resolution must be lossless JSON'

/**
 * The JSON text of a value `isLossless` accepted (or of an array of such values). Checked:
 * only plain data, so the engine's own JSON.stringify gives exactly that text, unless
 * something gave the prototypes a `toJSON` (then `writeLosslessJson` writes it).
 */
function checkedJson(value) {
  if (ObjectPrototype.toJSON === undefined && ArrayPrototype.toJSON === undefined) {
    try {
      return jsonStringify(value)
    } catch {
      // V8's JSON.stringify recurses: a value nested thousands deep overflows its stack.
    }
  }
  return writeLosslessJson(value)
}

const ObjectPrototype = Object.prototype
const ArrayPrototype = Array.prototype
const { getPrototypeOf, getOwnPropertyNames, getOwnPropertySymbols, keys: objectKeys, is: sameValue } = Object
const { isArray } = Array
const { ownKeys } = Reflect
const lookupGetter = Object.prototype.__lookupGetter__
const lookupSetter = Object.prototype.__lookupSetter__
const isEnumerable = Object.prototype.propertyIsEnumerable

// The walk's state, shared by every `isLossless` call: the walk runs no other code (no
// getter, trap or `toJSON`), so calls never nest, and answering a binding call allocates no
// set or stack of its own. `losslessStack` holds frames of FRAME slots, flattened: the
// object, its keys, the next key's index, and whether each key still needs checking (an
// array's, from Reflect.ownKeys; an object's were checked as a whole). Its first
// `losslessTop` slots are in use; the array never shrinks (setting an array's length is a
// call into the runtime, a measurable share of answering a call), and slots are emptied as
// frames leave. An object's ancestors are found by scanning the stack, and only those
// deeper than LOSSLESS_SCANNED_DEPTH levels also go into `losslessDeep`.
const losslessStack = []
let losslessTop = 0
const losslessDeep = new Set()
const FRAME = 4
const LOSSLESS_SCANNED_DEPTH = 32

/** Whether `v` is already on the walk's path (a cycle). */
function onLosslessPath(v) {
  const stack = losslessStack
  const scanned = Math.min(losslessTop, FRAME * LOSSLESS_SCANNED_DEPTH)
  for (let j = 0; j < scanned; j += FRAME) if (stack[j] === v) return true
  return losslessDeep.size !== 0 && losslessDeep.has(v)
}

/** Whether `v` may be part of lossless JSON; an object is pushed for its keys to be read. */
function acceptLossless(v) {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(v) && !sameValue(v, -0)
    case 'object': {
      if (v === null) return true
      if (types.isProxy(v) || onLosslessPath(v)) return false
      const proto = getPrototypeOf(v)
      const array = isArray(v)
      let keys
      if (array) {
        keys = ownKeys(v)
        if (proto !== ArrayPrototype || keys.length !== v.length + 1) return false
        keys.pop() // 'length', last of an array's own keys
      } else {
        if (proto !== ObjectPrototype && proto !== null) return false
        // No own symbols, and as many enumerable names as names: every own key is an
        // enumerable string (together a fraction of Reflect.ownKeys' cost).
        if (getOwnPropertySymbols(v).length !== 0) return false
        keys = objectKeys(v)
        if (getOwnPropertyNames(v).length !== keys.length) return false
      }
      const top = losslessTop
      if (top >= FRAME * LOSSLESS_SCANNED_DEPTH) losslessDeep.add(v)
      losslessStack[top] = v
      losslessStack[top + 1] = keys
      losslessStack[top + 2] = 0
      losslessStack[top + 3] = array
      losslessTop = top + FRAME
      return true
    }
    default:
      return false
  }
}

/**
 * Whether `root` is lossless JSON (SPEC "Lossless JSON"): iterative, reads no getter (own
 * accessors are refused by looking them up, not calling them), no Proxy, no cycle.
 */
function isLossless(root) {
  if (typeof root !== 'object' || root === null) return acceptLossless(root)
  const stack = losslessStack
  try {
    if (!acceptLossless(root)) return false
    while (losslessTop > 0) {
      const top = losslessTop - FRAME
      const obj = stack[top]
      const keys = stack[top + 1]
      const i = stack[top + 2]
      if (i === keys.length) {
        stack[top] = undefined
        stack[top + 1] = undefined
        losslessTop = top
        if (top >= FRAME * LOSSLESS_SCANNED_DEPTH) losslessDeep.delete(obj)
        continue
      }
      stack[top + 2] = i + 1
      const key = keys[i]
      if (stack[top + 3] && (typeof key !== 'string' || !isEnumerable.call(obj, key))) return false
      if (lookupGetter.call(obj, key) !== undefined || lookupSetter.call(obj, key) !== undefined) return false
      if (!acceptLossless(obj[key])) return false
    }
    return true
  } finally {
    // A refusal leaves frames behind.
    for (let j = 0; j < losslessTop; j++) stack[j] = undefined
    losslessTop = 0
    if (losslessDeep.size !== 0) losslessDeep.clear()
  }
}

/** The JSON text of a value `isLossless` accepted, written without `toJSON`. */
function writeLosslessJson(root) {
  let out = ''
  const stack = []
  const open = (v) => {
    if (typeof v !== 'object' || v === null) {
      out += jsonStringify(v)
      return
    }
    const array = Array.isArray(v)
    const keys = array ? null : ownKeys(v)
    out += array ? '[' : '{'
    stack.push({ obj: v, keys, i: 0, len: array ? v.length : keys.length })
  }
  open(root)
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]
    if (frame.i === frame.len) {
      out += frame.keys === null ? ']' : '}'
      stack.pop()
      continue
    }
    const key = frame.keys === null ? frame.i : frame.keys[frame.i]
    if (frame.i > 0) out += ','
    if (frame.keys !== null) out += jsonStringify(key) + ':'
    frame.i++
    open(frame.obj[key])
  }
  return out
}

/**
 * The JSON text of a binding's resolved value when it is lossless JSON, else undefined (also
 * when reading it throws). Iterative (a 10,000-deep value is fine) and reads own property
 * descriptors only, so no getter, `toJSON` or Proxy trap runs.
 */
function answerJson(value) {
  try {
    return isLossless(value) ? checkedJson(value) : undefined
  } catch {
    return undefined
  }
}

/** `isLossless` for a binding's resolved value: false also when reading it throws. */
function isLosslessAnswer(value) {
  try {
    return isLossless(value)
  } catch {
    return false
  }
}

/**
 * The JSON array of `values` (the batch's accepted values, in the order of its calls marked
 * ok) written one by one; a value that fails becomes a refusal: its call's mark is cleared
 * and the message goes to its place among the rejections.
 */
function eachAnswerJson(values, oks, messages) {
  const texts = []
  let v = 0
  let rejected = 0
  for (let i = 0; i < oks.length; i++) {
    if (oks[i] === 0) {
      rejected++
      continue
    }
    let text
    try {
      text = checkedJson(values[v++])
    } catch {
      text = undefined
    }
    if (text === undefined) {
      oks[i] = 0
      messages.splice(rejected++, 0, BINDING_RESOLUTION_NOT_LOSSLESS)
    } else texts.push(text)
  }
  return `[${texts.join(',')}]`
}

module.exports = { BINDING_RESOLUTION_NOT_LOSSLESS, answerJson, checkedJson, eachAnswerJson, isLosslessAnswer }
