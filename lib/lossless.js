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
const { getPrototypeOf, getOwnPropertyNames, getOwnPropertySymbols, keys: objectKeys } = Object
const { isArray } = Array
const { ownKeys } = Reflect
const { isProxy } = types
const lookupGetter = Object.prototype.__lookupGetter__

// The walk's state, shared by every `isLossless` call: the walk runs no other code (no
// getter, trap or `toJSON`), so calls never nest, and answering a binding call allocates no
// set or stack of its own. `losslessStack` holds frames of FRAME slots, flattened: the
// container, its keys (an object's own names) or null (an array, read by index), the next
// index, and how many there are. Its first `losslessTop` slots are in use; the array never
// shrinks (setting an array's length is a call into the runtime, a measurable share of
// answering a call), and slots are emptied as frames leave. A container's ancestors are
// found by scanning the stack, and only those deeper than LOSSLESS_SCANNED_DEPTH levels
// also go into `losslessDeep`.
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

/** Whether a primitive `v` is lossless JSON: a string, a boolean, null, or a finite number other than -0. */
function acceptPrimitive(v) {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      // Finite (NaN and ±Infinity minus themselves are not 0), and not -0.
      return v - v === 0 && (v !== 0 || 1 / v > 0)
    default:
      return v === null
  }
}

/**
 * The own names of `v`, a non-array object, when it may be part of lossless JSON, else
 * null. Nothing here reads a property: the shape checks are own-key listings, the cheap ones
 * V8 answers from an object's map (names, enumerable names) and the symbols.
 */
function plainObjectNames(v) {
  if (isProxy(v)) return null
  const proto = getPrototypeOf(v)
  if (proto !== ObjectPrototype && proto !== null) return null
  // Every own key an enumerable string: no symbols, and as many enumerable names as names.
  const names = getOwnPropertyNames(v)
  if (objectKeys(v).length !== names.length || getOwnPropertySymbols(v).length !== 0) return null
  return names
}

/**
 * How many elements the array `v` has when it may be part of lossless JSON, else -1: its
 * indices, `length`, and nothing else, every index enumerable. Own names list the indices
 * first, ascending, then `length` (an array's first named property), then any other names:
 * `length` last, after `count` names, means exactly the indices below `count` come before it
 * (no hole, no other name); as many enumerable names as indices means each is enumerable.
 * Listing the names of a long array makes a string per index, but reading them one by one
 * costs more.
 */
function plainArrayLength(v) {
  if (isProxy(v)) return -1
  const count = v.length
  if (getPrototypeOf(v) !== ArrayPrototype || getOwnPropertySymbols(v).length !== 0) return -1
  const names = getOwnPropertyNames(v)
  if (names.length !== count + 1 || names[count] !== 'length' || objectKeys(v).length !== count) return -1
  return count
}

/**
 * Pushes container `v` (its names, or null for an array, read from index `next` of `count`)
 * for its members to be read; false when it is already on the walk's path (a cycle).
 */
function pushContainer(v, names, next, count) {
  if (onLosslessPath(v)) return false
  const top = losslessTop
  if (top >= FRAME * LOSSLESS_SCANNED_DEPTH) losslessDeep.add(v)
  losslessStack[top] = v
  losslessStack[top + 1] = names
  losslessStack[top + 2] = next
  losslessStack[top + 3] = count
  losslessTop = top + FRAME
  return true
}

/**
 * Whether container `v` may be part of lossless JSON, read as far as it can be without
 * going deeper: true with nothing pushed when it is an object whose members are all
 * primitives (the common leaf, such as one of 50,000 records: no frame, no cycle check,
 * since an object with no container member cannot be on the path), true with `v` pushed
 * at its first container member otherwise, false when refused.
 */
function acceptContainer(v) {
  if (isArray(v)) {
    const count = plainArrayLength(v)
    return count >= 0 && pushContainer(v, null, 0, count)
  }
  const names = plainObjectNames(v)
  if (names === null) return false
  const count = names.length
  for (let i = 0; i < count; i++) {
    const name = names[i]
    if (lookupGetter.call(v, name) !== undefined) return false
    const member = v[name]
    if (typeof member === 'object' && member !== null) return pushContainer(v, names, i, count)
    if (!acceptPrimitive(member)) return false
  }
  return true
}

/**
 * Whether `root` is lossless JSON (SPEC "Lossless JSON"): iterative, reads no getter. A
 * member is read only once it is known to have no getter (`__lookupGetter__` finds an own
 * accessor's before looking further); an accessor with only a setter reads as `undefined`
 * without running it, which is refused like any `undefined`. The members of the innermost
 * container are read in one loop until one is a container itself, which is checked there
 * and, unless it is a flat object, pushed and read first.
 */
function isLossless(root) {
  if (typeof root !== 'object' || root === null) return acceptPrimitive(root)
  try {
    return acceptContainer(root) && walk()
  } finally {
    endWalk()
  }
}

/** Reads the pushed containers to the end: whether all of them are lossless. */
function walk() {
  const stack = losslessStack
  while (losslessTop > 0) {
    const top = losslessTop - FRAME
    const obj = stack[top]
    const keys = stack[top + 1]
    const count = stack[top + 3]
    let i = stack[top + 2]
    let inner = false
    for (; i < count; i++) {
      const key = keys === null ? i : keys[i]
      if (lookupGetter.call(obj, key) !== undefined) return false
      const v = obj[key]
      if (typeof v === 'object' && v !== null) {
        stack[top + 2] = i + 1
        if (!acceptContainer(v)) return false
        if (losslessTop !== top + FRAME) {
          inner = true
          break
        }
      } else if (!acceptPrimitive(v)) return false
    }
    if (inner) continue
    if (top >= FRAME * LOSSLESS_SCANNED_DEPTH) losslessDeep.delete(obj)
    stack[top] = undefined
    stack[top + 1] = undefined
    losslessTop = top
  }
  return true
}

/** Empties the walk's state (a refusal leaves frames behind). */
function endWalk() {
  const stack = losslessStack
  for (let j = 0; j < losslessTop; j++) stack[j] = undefined
  losslessTop = 0
  if (losslessDeep.size !== 0) losslessDeep.clear()
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
