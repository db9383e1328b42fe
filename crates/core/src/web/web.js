// Web-platform globals for programs, loaded lazily into a run's context on first use (see
// web.rs). Evaluates to a factory: given the natives, it returns the globals to define.
// Behaviour and error messages follow Node's implementations of the same globals.
;(function (native) {
  'use strict'
  const { defineProperty, getPrototypeOf, keys: objectKeys, freeze } = Object
  const TypedArray = getPrototypeOf(Uint8Array)
  const isView = ArrayBuffer.isView

  const codeError = (Ctor, code, message) => {
    const e = new Ctor(message)
    defineProperty(e, 'code', { value: code, writable: true, enumerable: true, configurable: true })
    return e
  }
  const domError = (message, name) => new DOMException(message, name)

  /** How Node's argument errors describe the value they got ("Received …"). */
  function received(value) {
    if (value === null) return 'Received null'
    if (value === undefined) return 'Received undefined'
    switch (typeof value) {
      case 'bigint':
        return `Received type bigint (${value}n)`
      case 'number':
        if (value === 0) return 1 / value === -Infinity ? 'Received type number (-0)' : 'Received type number (0)'
        return `Received type number (${value})`
      case 'boolean':
        return `Received type boolean (${value})`
      case 'symbol':
        return `Received type symbol (${String(value)})`
      case 'function':
        return `Received function ${value.name}`
      case 'object':
        if (value.constructor && 'name' in value.constructor) return `Received an instance of ${value.constructor.name}`
        return 'Received [object Object]'
      case 'string': {
        const shown = value.length > 28 ? `${value.slice(0, 25)}...` : value
        return shown.indexOf("'") === -1 ? `Received type string ('${shown}')` : `Received type string (${JSON.stringify(shown)})`
      }
      default:
        return `Received type ${typeof value}`
    }
  }

  /** A well-formed (USV) string: lone surrogates become U+FFFD, as WebIDL's USVString. */
  const toWellFormed = String.prototype.toWellFormed
  function usv(value) {
    const s = `${value}`
    if (typeof toWellFormed === 'function') return toWellFormed.call(s)
    let out = ''
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        out += s[i] + s[i + 1]
        i++
      } else out += c >= 0xd800 && c <= 0xdfff ? '\ufffd' : s[i]
    }
    return out
  }

  // ---- TextEncoder / TextDecoder (UTF-8) -------------------------------------------------

  class TextEncoder {
    get encoding() {
      return 'utf-8'
    }
    encode(input = '') {
      return native.utf8Encode(`${input}`)
    }
    encodeInto(source, destination) {
      if (!(destination instanceof Uint8Array)) {
        throw codeError(
          TypeError,
          'ERR_INVALID_ARG_TYPE',
          `The "dest" argument must be an instance of Uint8Array. ${received(destination)}`,
        )
      }
      const text = `${source}`
      // A view of a detached buffer has room for nothing.
      const ab = call(taBuffer, destination)
      if (Object.prototype.toString.call(ab) === '[object ArrayBuffer]' && call(abDetached, ab)) return { read: 0, written: 0 }
      const [read, written] = native.utf8EncodeInto(text, destination)
      return { read, written }
    }
  }
  defineProperty(TextEncoder.prototype, Symbol.toStringTag, { value: 'TextEncoder', configurable: true })

  // Every encoding of the Encoding Standard (encoding_rs): the decoder's state is a native
  // object in a private field; labels are ASCII, so anything else is refused here.
  const NON_ASCII = /[^\x00-\x7f]/

  class TextDecoder {
    #decoder
    #encoding
    #fatal
    #ignoreBOM
    constructor(encoding = 'utf-8', options = {}) {
      const label = `${encoding}`
      if (options !== undefined && options !== null && typeof options !== 'object') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options" argument must be of type object.')
      }
      const fatal = Boolean(options?.fatal)
      const ignoreBOM = Boolean(options?.ignoreBOM)
      const decoder = NON_ASCII.test(label) ? null : native.decoderOpen(label, fatal, ignoreBOM)
      if (decoder === null || typeof decoder === 'string') {
        const shown = decoder === null ? label : decoder
        throw codeError(RangeError, 'ERR_ENCODING_NOT_SUPPORTED', `The "${shown}" encoding is not supported`)
      }
      this.#decoder = decoder
      this.#encoding = native.decoderEncoding(decoder)
      this.#fatal = fatal
      this.#ignoreBOM = ignoreBOM
    }
    get encoding() {
      return this.#encoding
    }
    get fatal() {
      return this.#fatal
    }
    get ignoreBOM() {
      return this.#ignoreBOM
    }
    decode(input = new Uint8Array(0), options = {}) {
      // As WebIDL converts the arguments: the input is only checked before the options are
      // read (their getters may detach its buffer: then there are no bytes), and read after.
      if (bufferSourceBytes(input) === undefined) {
        throw codeError(
          TypeError,
          'ERR_INVALID_ARG_TYPE',
          'The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.',
        )
      }
      const stream = Boolean(options?.stream)
      const bytes = bufferSourceBytes(input)
      const text = native.decoderDecode(this.#decoder, bytes, stream)
      if (text === null) {
        throw codeError(TypeError, 'ERR_ENCODING_INVALID_ENCODED_DATA', `The encoded data was not valid for encoding ${this.#encoding}`)
      }
      return text
    }
  }
  defineProperty(TextDecoder.prototype, Symbol.toStringTag, { value: 'TextDecoder', configurable: true })

  // ---- atob / btoa (forgiving base64, Node's messages) -----------------------------------

  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
  const B64_INDEX = new Int16Array(128).fill(-1)
  for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i

  function btoa(...args) {
    if (args.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "input" argument must be specified')
    const input = `${args[0]}`
    let out = ''
    for (let i = 0; i < input.length; i += 3) {
      const a = input.charCodeAt(i)
      const b = i + 1 < input.length ? input.charCodeAt(i + 1) : 0
      const c = i + 2 < input.length ? input.charCodeAt(i + 2) : 0
      if (a > 0xff || b > 0xff || c > 0xff) throw domError('Invalid character', 'InvalidCharacterError')
      const n = (a << 16) | (b << 8) | c
      out += B64[n >> 18] + B64[(n >> 12) & 63]
      out += i + 1 < input.length ? B64[(n >> 6) & 63] : '='
      out += i + 2 < input.length ? B64[n & 63] : '='
    }
    return out
  }

  function atob(...args) {
    if (args.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "input" argument must be specified')
    const input = `${args[0]}`
    let data = ''
    let equals = 0
    for (let i = 0; i < input.length; i++) {
      const ch = input.charCodeAt(i)
      if (ch === 0x09 || ch === 0x0a || ch === 0x0c || ch === 0x0d || ch === 0x20) continue
      if (ch === 0x3d) {
        equals++
        if (equals > 2) throw domError('Invalid character', 'InvalidCharacterError')
      } else if (ch >= 128 || B64_INDEX[ch] < 0 || equals > 0) {
        throw domError('Invalid character', 'InvalidCharacterError')
      }
      data += input[i]
    }
    let remainder = data.length % 4
    if (remainder === 0) {
      remainder = (data.length - equals) % 4
    } else if (equals > 0) {
      throw domError('Invalid character', 'InvalidCharacterError')
    }
    if (remainder === 1) throw domError('The string to be decoded is not correctly encoded.', 'InvalidCharacterError')
    let out = ''
    let bits = 0
    let acc = 0
    for (let i = 0; i < data.length - equals; i++) {
      acc = (acc << 6) | B64_INDEX[data.charCodeAt(i)]
      bits += 6
      if (bits >= 8) {
        bits -= 8
        out += String.fromCharCode((acc >> bits) & 0xff)
      }
    }
    return out
  }

  // ---- URLSearchParams / URL (WHATWG, parsing by ada, as Node's) --------------------------

  const LIST = Symbol('list')
  const OWNER = Symbol('owner')
  const UPDATE = Symbol('update')

  class URLSearchParams {
    constructor(init = undefined) {
      this[LIST] = []
      this[OWNER] = null
      if (init === undefined || init === null) return
      if (typeof init === 'object' || typeof init === 'function') {
        const iter = init[Symbol.iterator]
        if (iter !== undefined && iter !== null) {
          if (typeof iter !== 'function') throw codeError(TypeError, 'ERR_ARG_NOT_ITERABLE', 'Query pairs must be iterable')
          for (const pair of init) {
            if (pair === null || (typeof pair !== 'object' && typeof pair !== 'function') || typeof pair[Symbol.iterator] !== 'function') {
              throw codeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple')
            }
            const parts = [...pair]
            if (parts.length !== 2) {
              throw codeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple')
            }
            this[LIST].push([usv(parts[0]), usv(parts[1])])
          }
        } else {
          // record<USVString, USVString>: keys that become the same USV string (lone
          // surrogates as U+FFFD) are one entry, at the first one's place, with the last value.
          const at = new Map()
          for (const key of Reflect.ownKeys(init)) {
            if (typeof key !== 'string') continue
            const d = Object.getOwnPropertyDescriptor(init, key)
            if (!d || !d.enumerable) continue
            const name = usv(key)
            const value = usv(init[key])
            if (at.has(name)) this[LIST][at.get(name)][1] = value
            else {
              at.set(name, this[LIST].length)
              this[LIST].push([name, value])
            }
          }
        }
        return
      }
      let s = usv(init)
      if (s.startsWith('?')) s = s.slice(1)
      this[LIST] = pairsOf(s)
    }
    get size() {
      return this[LIST].length
    }
    append(name, value) {
      checkArgs(arguments.length, 2, 'name', 'value')
      this[LIST].push([usv(name), usv(value)])
      this[UPDATE]()
    }
    delete(name, value = undefined) {
      checkArgs(arguments.length, 1, 'name')
      name = usv(name)
      const hasValue = value !== undefined
      value = hasValue ? usv(value) : value
      this[LIST] = this[LIST].filter(([k, v]) => !(k === name && (!hasValue || v === value)))
      this[UPDATE]()
    }
    get(name) {
      checkArgs(arguments.length, 1, 'name')
      name = usv(name)
      const hit = this[LIST].find(([k]) => k === name)
      return hit === undefined ? null : hit[1]
    }
    getAll(name) {
      checkArgs(arguments.length, 1, 'name')
      name = usv(name)
      return this[LIST].filter(([k]) => k === name).map(([, v]) => v)
    }
    has(name, value = undefined) {
      checkArgs(arguments.length, 1, 'name')
      name = usv(name)
      const hasValue = value !== undefined
      value = hasValue ? usv(value) : value
      return this[LIST].some(([k, v]) => k === name && (!hasValue || v === value))
    }
    set(name, value) {
      checkArgs(arguments.length, 2, 'name', 'value')
      name = usv(name)
      value = usv(value)
      const list = this[LIST]
      const first = list.findIndex(([k]) => k === name)
      if (first < 0) list.push([name, value])
      else {
        list[first][1] = value
        this[LIST] = list.filter(([k], i) => i <= first || k !== name)
      }
      this[UPDATE]()
    }
    sort() {
      const list = this[LIST]
      // Stable sort by UTF-16 code units of the name.
      const indexed = list.map((pair, i) => [pair, i])
      indexed.sort(([a, i], [b, j]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : i - j))
      this[LIST] = indexed.map(([pair]) => pair)
      this[UPDATE]()
    }
    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') {
        throw codeError(
          TypeError,
          'ERR_INVALID_ARG_TYPE',
          `The "callback" argument must be of type function. ${received(callback)}`,
        )
      }
      for (let i = 0; i < this[LIST].length; i++) {
        const [k, v] = this[LIST][i]
        callback.call(thisArg, v, k, this)
      }
    }
    entries() {
      return new URLSearchParamsIterator(this, 'key+value')
    }
    keys() {
      return new URLSearchParamsIterator(this, 'key')
    }
    values() {
      return new URLSearchParamsIterator(this, 'value')
    }
    toString() {
      const flat = []
      for (const [k, v] of this[LIST]) flat.push(k, v)
      return native.formSerialize(flat)
    }
    [UPDATE]() {
      const owner = this[OWNER]
      if (owner !== null) owner[UPDATE](this.toString())
    }
  }
  URLSearchParams.prototype[Symbol.iterator] = URLSearchParams.prototype.entries

  // Node's URLSearchParams Iterator: live over the list (a pair added while iterating is
  // seen), `next` its only own enumerable method, on %IteratorPrototype%, printed by its
  // inspect method as Node prints it.
  class URLSearchParamsIterator {
    #target
    #kind
    #index = 0
    constructor(target, kind) {
      this.#target = target
      this.#kind = kind
    }
    #pick([name, value]) {
      return this.#kind === 'key' ? name : this.#kind === 'value' ? value : [name, value]
    }
    next() {
      if (typeof this !== 'object' || this === null || !(#target in this)) {
        throw codeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator')
      }
      const list = this.#target[LIST]
      if (this.#index >= list.length) return { value: undefined, done: true }
      return { value: this.#pick(list[this.#index++]), done: false }
    }
    [Symbol.for('nodejs.util.inspect.custom')](recurseTimes, ctx, inspect) {
      if (typeof this !== 'object' || this === null || !(#target in this)) {
        throw codeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator')
      }
      if (typeof recurseTimes === 'number' && recurseTimes < 0) return ctx.stylize('[Object]', 'special')
      const innerOpts = { ...ctx }
      if (recurseTimes !== null) innerOpts.depth = recurseTimes - 1
      const output = this.#target[LIST].slice(this.#index).map((pair) => this.#pick(pair))
      const strs = output.map((p) => inspect(p, innerOpts))
      const body = inspect(output, innerOpts).includes('\n') ? `\n  ${strs.join(',\n  ')}` : ` ${strs.join(', ')}`
      return `${this[Symbol.toStringTag]} {${body} }`
    }
  }
  delete URLSearchParamsIterator.prototype.constructor
  Object.setPrototypeOf(URLSearchParamsIterator.prototype, getPrototypeOf(getPrototypeOf([][Symbol.iterator]())))
  defineProperty(URLSearchParamsIterator.prototype, Symbol.toStringTag, { value: 'URLSearchParams Iterator', configurable: true })
  defineProperty(URLSearchParamsIterator.prototype, 'next', { enumerable: true })
  defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true })

  function pairsOf(s) {
    const flat = native.formParse(s)
    const list = []
    for (let i = 0; i < flat.length; i += 2) list.push([flat[i], flat[i + 1]])
    return list
  }

  function checkArgs(got, need, ...names) {
    if (got < need) {
      const what = names.slice(0, need).map((n) => `"${n}"`).join(' and ')
      throw codeError(TypeError, 'ERR_MISSING_ARGS', `The ${what} argument${need > 1 ? 's' : ''} must be specified`)
    }
  }

  const PARTS = ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']
  const COMPONENTS = Symbol('components')
  const PARAMS = Symbol('params')

  function invalidUrl(input, base) {
    const e = codeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL')
    defineProperty(e, 'input', { value: input, writable: true, enumerable: true, configurable: true })
    if (base !== undefined) defineProperty(e, 'base', { value: base, writable: true, enumerable: true, configurable: true })
    return e
  }

  class URL {
    constructor(url, base = undefined) {
      if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "url" argument must be specified')
      const input = `${url}`
      const baseText = base === undefined ? undefined : `${base}`
      const parts = native.urlParse(input, baseText)
      if (parts === null) throw invalidUrl(input, baseText)
      this[COMPONENTS] = parts
      this[PARAMS] = null
    }
    static canParse(url, base = undefined) {
      return native.urlParse(`${url}`, base === undefined ? undefined : `${base}`) !== null
    }
    static parse(url, base = undefined) {
      const parts = native.urlParse(`${url}`, base === undefined ? undefined : `${base}`)
      if (parts === null) return null
      const u = Object.create(URL.prototype)
      u[COMPONENTS] = parts
      u[PARAMS] = null
      return u
    }
    get searchParams() {
      if (this[PARAMS] === null) {
        const params = new URLSearchParams(this[COMPONENTS][9])
        params[OWNER] = this
        this[PARAMS] = params
      }
      return this[PARAMS]
    }
    toString() {
      return this[COMPONENTS][0]
    }
    toJSON() {
      return this[COMPONENTS][0]
    }
    [UPDATE](query) {
      // From searchParams: an empty query removes the `?`.
      const next = native.urlSet(this[COMPONENTS][0], 'search', query)
      if (next !== null) this[COMPONENTS] = next
    }
  }
  PARTS.forEach((part, index) => {
    const descriptor = {
      get() {
        return this[COMPONENTS][index]
      },
      enumerable: true,
      configurable: true,
    }
    if (part !== 'origin') {
      descriptor.set = function (value) {
        const next = native.urlSet(this[COMPONENTS][0], part, `${value}`)
        if (next === null) {
          if (part === 'href') throw invalidUrl(`${value}`)
          return
        }
        this[COMPONENTS] = next
        if (this[PARAMS] !== null && (part === 'href' || part === 'search')) {
          this[PARAMS][LIST] = pairsOf(next[9].startsWith('?') ? next[9].slice(1) : next[9])
        }
      }
    }
    defineProperty(URL.prototype, part, descriptor)
  })
  defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true })

  // ---- structuredClone -------------------------------------------------------------------

  function describe(value) {
    if (typeof value === 'symbol') return value.toString()
    if (typeof value === 'function') return `${value}`
    return Object.prototype.toString.call(value).replace(/^\[object (.*)\]$/, '#<$1>')
  }

  function uncloneable(value) {
    return domError(`${describe(value)} could not be cloned.`, 'DataCloneError')
  }

  const ERROR_TYPES = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError }

  // ArrayBuffer internals read through the intrinsic accessors (a program's own
  // `byteLength` getters on a buffer do not change what is cloned).
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get
  const abByteLength = getter(ArrayBuffer.prototype, 'byteLength')
  const abMaxByteLength = getter(ArrayBuffer.prototype, 'maxByteLength')
  const abResizable = getter(ArrayBuffer.prototype, 'resizable')
  const abDetached = getter(ArrayBuffer.prototype, 'detached')
  const abResize = ArrayBuffer.prototype.resize
  const abTransfer = ArrayBuffer.prototype.transfer
  const taBuffer = getter(TypedArray.prototype, 'buffer')
  const taByteOffset = getter(TypedArray.prototype, 'byteOffset')
  const taLength = getter(TypedArray.prototype, 'length')
  const taByteLength = getter(TypedArray.prototype, 'byteLength')
  const taSubarray = TypedArray.prototype.subarray
  const dvBuffer = getter(DataView.prototype, 'buffer')
  const dvByteOffset = getter(DataView.prototype, 'byteOffset')
  const dvByteLength = getter(DataView.prototype, 'byteLength')
  const call = (f, self, ...a) => Reflect.apply(f, self, a)
  const taTag = getter(TypedArray.prototype, Symbol.toStringTag)
  const sabByteLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : undefined

  /** Whether `value` is an ArrayBuffer (a SharedArrayBuffer is not), by its internal slot. */
  function isArrayBuffer(value) {
    try {
      call(abByteLength, value)
      return true
    } catch {
      return false
    }
  }

  function isSharedArrayBuffer(value) {
    if (sabByteLength === undefined) return false
    try {
      call(sabByteLength, value)
      return true
    } catch {
      return false
    }
  }

  /** The buffer a typed array or DataView views, read through the intrinsic accessor. */
  function viewBuffer(view) {
    return call(taTag, view) !== undefined ? call(taBuffer, view) : call(dvBuffer, view)
  }

  /**
   * The bytes of a BufferSource (an ArrayBuffer, a SharedArrayBuffer, or a typed array or
   * DataView over one) as a Uint8Array over them, not a copy, read through the intrinsic
   * accessors (a program's own `buffer` or `byteOffset` getters change nothing); a detached
   * buffer has no bytes. Undefined for anything else.
   */
  function bufferSourceBytes(value) {
    if (isView(value)) {
      const ab = viewBuffer(value)
      if (isArrayBuffer(ab) && call(abDetached, ab)) return new Uint8Array(0)
      return call(taTag, value) !== undefined
        ? new Uint8Array(ab, call(taByteOffset, value), call(taByteLength, value))
        : new Uint8Array(ab, call(dvByteOffset, value), call(dvByteLength, value))
    }
    if (isArrayBuffer(value)) return call(abDetached, value) ? new Uint8Array(0) : new Uint8Array(value)
    if (isSharedArrayBuffer(value)) return new Uint8Array(value)
    return undefined
  }
  const cloneError = (message) => domError(message, 'DataCloneError')

  /** A copy of an ArrayBuffer's bytes, resizable with the same maximum when it is. */
  function copyBuffer(ab) {
    if (call(abDetached, ab)) throw cloneError('An ArrayBuffer is detached and could not be cloned.')
    const length = call(abByteLength, ab)
    const copy = call(abResizable, ab) ? new ArrayBuffer(length, { maxByteLength: call(abMaxByteLength, ab) }) : new ArrayBuffer(length)
    new Uint8Array(copy).set(new Uint8Array(ab, 0, length))
    return copy
  }

  /**
   * Whether a view over a resizable buffer tracks its length: it grows when the buffer does
   * (probed by growing, or else shrinking, the buffer by one element of `step` bytes and restoring it).
   */
  function tracksLength(ab, step, readLength) {
    const length = call(abByteLength, ab)
    const before = readLength()
    if (length + step <= call(abMaxByteLength, ab)) {
      call(abResize, ab, length + step)
      const after = readLength()
      call(abResize, ab, length)
      return after !== before
    }
    if (length < step) return false
    const tail = new Uint8Array(ab, length - step, step).slice()
    call(abResize, ab, length - step)
    let after
    try {
      after = readLength()
    } catch {
      after = 0 // a fixed-length DataView out of bounds
    }
    call(abResize, ab, length)
    new Uint8Array(ab, length - step, step).set(tail)
    // A fixed-length typed array out of bounds reads as empty; a tracking one shrank.
    return after !== 0 && after !== before
  }

  function structuredClone(...args) {
    if (args.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The value argument must be specified')
    const options = args[1]
    if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options" argument must be of type object. ${received(options)}`)
    }
    const transferList = options?.transfer
    const transfer = []
    if (transferList !== undefined) {
      if (transferList === null || (typeof transferList !== 'object' && typeof transferList !== 'function') || typeof transferList[Symbol.iterator] !== 'function') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "options.transfer" property must be of type Array-like object.')
      }
      for (const item of transferList) {
        if (portState.is(item)) {
          if (transfer.includes(item)) throw cloneError('Transfer list contains duplicate MessagePort')
          if (portState.detached(item)) throw cloneError('MessagePort in transfer list is already detached')
          transfer.push(item)
          continue
        }
        if (Object.prototype.toString.call(item) !== '[object ArrayBuffer]' || !(item instanceof ArrayBuffer)) {
          throw cloneError('Value not transferable')
        }
        if (transfer.includes(item)) throw cloneError('Duplicate ArrayBuffer in the transfer list.')
        if (call(abDetached, item)) throw cloneError('An ArrayBuffer is detached and could not be cloned.')
        transfer.push(item)
      }
    }
    const seen = new Map()
    // An explicit work list: deep values clone without deep native recursion.
    const work = []
    const cloneShallow = (value) => {
      if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
        if (typeof value === 'symbol') throw uncloneable(value)
        return value
      }
      if (typeof value === 'function') throw uncloneable(value)
      if (seen.has(value)) return seen.get(value)
      let copy
      if (isBlob(value)) {
        copy = cloneBlob(value)
        seen.set(value, copy)
        return copy
      }
      if (portState.is(value)) {
        if (!transfer.includes(value)) {
          throw cloneError('Object that needs transfer was found in message but not listed in transferList')
        }
        // A placeholder until the whole value has cloned; the move happens then.
        copy = new MessagePort(PORT_KEY)
        seen.set(value, copy)
        return copy
      }
      const tag = Object.prototype.toString.call(value)
      if (Array.isArray(value)) {
        copy = new Array(value.length)
        seen.set(value, copy)
        for (const key of objectKeys(value)) work.push([copy, key, value[key]])
        return copy
      }
      switch (tag) {
        case '[object Date]':
          copy = new Date(value.getTime())
          break
        case '[object RegExp]':
          copy = new RegExp(value.source, value.flags)
          break
        case '[object Boolean]':
          copy = new Boolean(value.valueOf())
          break
        case '[object Number]':
          copy = new Number(value.valueOf())
          break
        case '[object String]':
          copy = new String(value.valueOf())
          break
        case '[object BigInt]':
          copy = Object(value.valueOf())
          break
        case '[object ArrayBuffer]':
          copy = copyBuffer(value)
          break
        case '[object Map]':
          copy = new Map()
          seen.set(value, copy)
          for (const [k, v] of value) work.push([copy, MAP_ENTRY, k, v])
          return copy
        case '[object Set]':
          copy = new Set()
          seen.set(value, copy)
          for (const v of value) work.push([copy, SET_ENTRY, v])
          return copy
        case '[object Error]': {
          const name = value.name
          const Ctor = Object.prototype.hasOwnProperty.call(ERROR_TYPES, name) ? ERROR_TYPES[name] : Error
          copy = new Ctor()
          seen.set(value, copy)
          // Only an own `message` is cloned (an inherited empty one is not).
          if (Object.prototype.hasOwnProperty.call(value, 'message')) {
            defineProperty(copy, 'message', { value: `${value.message}`, writable: true, configurable: true })
          }
          if (typeof value.stack === 'string') {
            defineProperty(copy, 'stack', { value: value.stack, writable: true, configurable: true })
          }
          if ('cause' in value) work.push([copy, ERROR_CAUSE, value.cause])
          return copy
        }
        default:
          if (value instanceof TypedArray) {
            const Ctor = value.constructor
            const ab = call(taBuffer, value)
            // Out of bounds (its buffer shrank under it): subarray(0) cannot make its view.
            try {
              call(taSubarray, value, 0)
            } catch {
              throw cloneError('An ArrayBuffer is detached and could not be cloned.')
            }
            const offset = call(taByteOffset, value)
            const length = call(taLength, value)
            const element = length > 0 ? call(taByteLength, value) / length : 8
            const tracks = call(abResizable, ab) && tracksLength(ab, element, () => call(taLength, value))
            const buffer = cloneShallow(ab)
            copy = tracks ? new Ctor(buffer, offset) : new Ctor(buffer, offset, length)
          } else if (value instanceof DataView) {
            const ab = call(dvBuffer, value)
            let offset, length
            try {
              offset = call(dvByteOffset, value)
              length = call(dvByteLength, value)
            } catch {
              throw cloneError('An ArrayBuffer is detached and could not be cloned.')
            }
            const tracks = call(abResizable, ab) && tracksLength(ab, 1, () => call(dvByteLength, value))
            const buffer = cloneShallow(ab)
            copy = tracks ? new DataView(buffer, offset) : new DataView(buffer, offset, length)
          } else if (tag === '[object Object]' || tag === '[object Arguments]') {
            copy = {}
            seen.set(value, copy)
            for (const key of objectKeys(value)) work.push([copy, key, value[key]])
            return copy
          } else {
            throw uncloneable(value)
          }
      }
      seen.set(value, copy)
      return copy
    }
    const root = cloneShallow(args[0])
    // First in, first out: properties and entries keep their order.
    for (let next = 0; next < work.length; next++) {
      const item = work[next]
      work[next] = undefined
      const target = item[0]
      if (item[1] === MAP_ENTRY) target.set(cloneShallow(item[2]), cloneShallow(item[3]))
      else if (item[1] === SET_ENTRY) target.add(cloneShallow(item[2]))
      else if (item[1] === ERROR_CAUSE) {
        defineProperty(target, 'cause', { value: cloneShallow(item[2]), writable: true, configurable: true })
      } else {
        target[item[1]] = cloneShallow(item[2])
      }
    }
    // Transferred buffers are detached once the whole value has cloned (their clones above
    // took their bytes, resizability and maximum).
    for (const item of transfer) {
      if (!portState.is(item)) call(abTransfer, item)
      else {
        const moved = portState.move(item)
        const placeholder = seen.get(item)
        if (placeholder !== undefined) portState.adopt(placeholder, moved)
      }
    }
    return root
  }
  const MAP_ENTRY = Symbol('map entry')
  const SET_ENTRY = Symbol('set entry')
  const ERROR_CAUSE = Symbol('error cause')

  // ---- Event, EventTarget, CustomEvent, AbortController, AbortSignal (DOM, as Node's) ------

  const hostQueueMicrotask = globalThis.queueMicrotask
  const hostSetTimeout = globalThis.setTimeout
  const hostNow = typeof performance === 'object' && typeof performance.now === 'function' ? performance.now.bind(performance) : Date.now
  const EVENT = Symbol('event state')
  const TRUSTED = Symbol('trusted')
  const LISTENERS = Symbol('listeners')
  const illegal = () => new TypeError('Illegal constructor')
  const argType = (name, what, value) =>
    codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be ${what}. ${received(value)}`)

  function eventState(e) {
    const st = e !== null && typeof e === 'object' ? e[EVENT] : undefined
    if (st === undefined) throw codeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type Event')
    return st
  }

  // One getter for every event's own `isTrusted` (the standard's [LegacyUnforgeable]).
  const isTrustedGetter = {
    get isTrusted() {
      const st = this !== null && typeof this === 'object' ? this[EVENT] : undefined
      return st !== undefined && st.trusted
    },
  }
  const isTrustedDescriptor = { get: Object.getOwnPropertyDescriptor(isTrustedGetter, 'isTrusted').get, enumerable: true, configurable: false }

  class Event {
    constructor(type, options = undefined) {
      if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified')
      if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
        throw argType('options', 'of type object', options)
      }
      defineProperty(this, EVENT, {
        value: {
          type: `${type}`,
          bubbles: Boolean(options?.bubbles),
          cancelable: Boolean(options?.cancelable),
          composed: Boolean(options?.composed),
          target: null,
          currentTarget: null,
          phase: 0,
          canceled: false,
          stop: false,
          stopImmediate: false,
          passive: false,
          dispatching: false,
          trusted: options?.[TRUSTED] === true,
          timeStamp: hostNow(),
        },
      })
      defineProperty(this, 'isTrusted', isTrustedDescriptor)
    }
    get type() {
      return eventState(this).type
    }
    get target() {
      return eventState(this).target
    }
    get currentTarget() {
      return eventState(this).currentTarget
    }
    get srcElement() {
      return eventState(this).target
    }
    get eventPhase() {
      return eventState(this).phase
    }
    get bubbles() {
      return eventState(this).bubbles
    }
    get cancelable() {
      return eventState(this).cancelable
    }
    get composed() {
      return eventState(this).composed
    }
    get defaultPrevented() {
      const st = eventState(this)
      return st.cancelable && st.canceled
    }
    get returnValue() {
      const st = eventState(this)
      return !(st.cancelable && st.canceled)
    }
    set returnValue(value) {
      const st = eventState(this)
      if (!value && st.cancelable && !st.passive) st.canceled = true
    }
    get cancelBubble() {
      return eventState(this).stop
    }
    set cancelBubble(value) {
      if (value) eventState(this).stop = true
    }
    get timeStamp() {
      return eventState(this).timeStamp
    }
    composedPath() {
      const st = eventState(this)
      return st.dispatching && st.currentTarget !== null ? [st.currentTarget] : []
    }
    preventDefault() {
      const st = eventState(this)
      if (st.cancelable && !st.passive) st.canceled = true
    }
    stopPropagation() {
      eventState(this).stop = true
    }
    stopImmediatePropagation() {
      const st = eventState(this)
      st.stop = true
      st.stopImmediate = true
    }
    initEvent(type, bubbles = false, cancelable = false) {
      const st = eventState(this)
      if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified')
      if (st.dispatching) return
      st.type = `${type}`
      st.bubbles = Boolean(bubbles)
      st.cancelable = Boolean(cancelable)
      st.canceled = false
      st.stop = false
      st.stopImmediate = false
      st.target = null
    }
  }
  const PHASES = { NONE: 0, CAPTURING_PHASE: 1, AT_TARGET: 2, BUBBLING_PHASE: 3 }
  for (const [name, value] of Object.entries(PHASES)) {
    defineProperty(Event, name, { value, enumerable: true })
    defineProperty(Event.prototype, name, { value, enumerable: true })
  }
  defineProperty(Event.prototype, Symbol.toStringTag, { value: 'Event', configurable: true })

  class CustomEvent extends Event {
    #detail
    constructor(type, options = undefined) {
      if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" argument must be specified')
      super(type, options)
      this.#detail = options?.detail ?? null
    }
    get detail() {
      return this.#detail
    }
  }
  defineProperty(CustomEvent.prototype, Symbol.toStringTag, { value: 'CustomEvent', configurable: true })

  function flattenOptions(options) {
    if (typeof options === 'boolean' || options === undefined || options === null || (typeof options !== 'object' && typeof options !== 'function')) {
      return { capture: Boolean(options), once: false, passive: false, signal: undefined }
    }
    return { capture: Boolean(options.capture), once: Boolean(options.once), passive: Boolean(options.passive), signal: options.signal }
  }

  // The run's own `performance` (QuickJS's, so that reading `performance.now` loads none of
  // this) and its prototype, as they were made: its listeners are kept here, not on it (a
  // program may have frozen it before this loaded).
  const perf = native.performance
  const perfProto = native.performancePrototype
  const perfListeners = new Map()

  function listenersOf(target) {
    const map = target !== null && (typeof target === 'object' || typeof target === 'function') ? target[LISTENERS] : undefined
    if (map === undefined) {
      if (target === perf && perf !== undefined) return perfListeners
      throw codeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type EventTarget')
    }
    return map
  }

  /** A listener throwing is reported as Node reports it: an uncaught exception (the run fails). */
  function report(error) {
    hostQueueMicrotask(() => {
      throw error
    })
  }

  class EventTarget {
    constructor() {
      defineProperty(this, LISTENERS, { value: new Map() })
    }
    addEventListener(type, listener, options = undefined) {
      if (arguments.length < 2) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" and "listener" arguments must be specified')
      const map = listenersOf(this)
      const { capture, once, passive, signal } = flattenOptions(options)
      if (signal !== undefined && !(signal instanceof AbortSignal)) throw argType('options.signal', 'an instance of AbortSignal', signal)
      if (listener === null || listener === undefined) return
      if (typeof listener !== 'function' && typeof listener !== 'object') throw argType('listener', 'an instance of EventListener', listener)
      if (signal?.aborted) return
      type = `${type}`
      let list = map.get(type)
      if (list === undefined) map.set(type, (list = []))
      if (list.some((l) => l.callback === listener && l.capture === capture)) return
      const entry = { callback: listener, capture, once, passive, removed: false }
      list.push(entry)
      if (signal !== undefined) {
        signal.addEventListener('abort', () => this.removeEventListener(type, listener, { capture }), { once: true })
      }
    }
    removeEventListener(type, listener, options = undefined) {
      if (arguments.length < 2) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "type" and "listener" arguments must be specified')
      const map = listenersOf(this)
      // Only `capture` is read (the standard's "flatten").
      const capture = options !== null && (typeof options === 'object' || typeof options === 'function') ? Boolean(options.capture) : Boolean(options)
      type = `${type}`
      const list = map.get(type)
      if (list === undefined) return
      const i = list.findIndex((l) => l.callback === listener && l.capture === capture)
      if (i < 0) return
      list[i].removed = true
      list.splice(i, 1)
    }
    dispatchEvent(event) {
      const map = listenersOf(this)
      if (!(event instanceof Event) || event[EVENT] === undefined) throw argType('event', 'an instance of Event', event)
      const st = event[EVENT]
      if (st.dispatching) throw domError('The event is already being dispatched', 'InvalidStateError')
      st.dispatching = true
      st.target = this
      st.currentTarget = this
      st.phase = 2
      const list = map.get(st.type)
      if (list !== undefined) {
        // Listeners added during the dispatch wait for the next one; removed ones are skipped.
        for (const entry of list.slice()) {
          if (entry.removed) continue
          if (entry.once) this.removeEventListener(st.type, entry.callback, { capture: entry.capture })
          st.passive = entry.passive
          try {
            const callback = entry.callback
            if (typeof callback === 'function') Reflect.apply(callback, this, [event])
            else {
              const handle = callback.handleEvent
              if (typeof handle === 'function') Reflect.apply(handle, callback, [event])
              else throw argType('listener', 'an instance of EventListener', callback)
            }
          } catch (error) {
            report(error)
          }
          st.passive = false
          if (st.stopImmediate) break
        }
      }
      st.dispatching = false
      st.currentTarget = null
      st.phase = 0
      st.stop = false
      st.stopImmediate = false
      return !(st.cancelable && st.canceled)
    }
  }
  defineProperty(EventTarget.prototype, Symbol.toStringTag, { value: 'EventTarget', configurable: true })

  // `Performance`, as Node's a subclass of EventTarget that cannot be constructed, whose
  // prototype is `performance`'s. Its methods waited on that prototype (the web group's
  // lazy names, so that any of them, or reading its prototype or keys, loads this); they go
  // first (until then, setting its prototype would load this again), and the prototype
  // inherits EventTarget's.
  function Performance() {
    if (new.target === undefined) throw new TypeError("Class constructor Performance cannot be invoked without 'new'")
    throw codeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor')
  }
  if (perfProto !== undefined) {
    defineProperty(Performance, 'prototype', { value: perfProto, writable: false })
    Reflect.setPrototypeOf(Performance, EventTarget)
    native.settleLazy(perfProto, { constructor: Performance })
    Reflect.setPrototypeOf(perfProto, EventTarget.prototype)
  }

  // `onabort`: an event handler attribute, a listener at the place it was first set.
  const HANDLER = Symbol('onabort')

  const SIGNAL = Symbol('signal state')
  let constructingSignal = false

  function newSignal() {
    constructingSignal = true
    try {
      return new AbortSignal()
    } finally {
      constructingSignal = false
    }
  }

  function signalState(s) {
    const st = s !== null && typeof s === 'object' ? s[SIGNAL] : undefined
    if (st === undefined) throw codeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type AbortSignal')
    return st
  }

  /** The standard's "signal abort": the signal and then every signal that depends on it. */
  function abortSignal(signal, reason) {
    const st = signal[SIGNAL]
    if (st.aborted) return
    st.aborted = true
    st.reason = reason === undefined ? domError('This operation was aborted', 'AbortError') : reason
    const dependents = []
    for (const d of st.dependents) {
      const ds = d[SIGNAL]
      if (!ds.aborted) {
        ds.aborted = true
        ds.reason = st.reason
        dependents.push(d)
      }
    }
    fireAbort(signal)
    for (const d of dependents) fireAbort(d)
  }

  function fireAbort(signal) {
    signal.dispatchEvent(new Event('abort', { [TRUSTED]: true }))
  }

  class AbortSignal extends EventTarget {
    constructor() {
      if (!constructingSignal) throw illegal()
      super()
      defineProperty(this, SIGNAL, { value: { aborted: false, reason: undefined, dependent: false, sources: [], dependents: new Set(), handler: null } })
    }
    get aborted() {
      return signalState(this).aborted
    }
    get reason() {
      return signalState(this).reason
    }
    throwIfAborted() {
      const st = signalState(this)
      if (st.aborted) throw st.reason
    }
    get onabort() {
      return signalState(this).handler
    }
    set onabort(value) {
      const st = signalState(this)
      const handler = typeof value === 'function' || (value !== null && typeof value === 'object') ? value : null
      if (st.handler === null && handler !== null && this[HANDLER] === undefined) {
        const self = this
        defineProperty(this, HANDLER, {
          value: function (event) {
            const h = self[SIGNAL].handler
            if (typeof h === 'function') return Reflect.apply(h, self, [event])
          },
          configurable: true,
        })
        this.addEventListener('abort', this[HANDLER])
      } else if (handler === null && this[HANDLER] !== undefined) {
        this.removeEventListener('abort', this[HANDLER])
        delete this[HANDLER]
      }
      st.handler = handler
    }
    static abort(reason = undefined) {
      const signal = newSignal()
      const st = signal[SIGNAL]
      st.aborted = true
      st.reason = reason === undefined ? domError('This operation was aborted', 'AbortError') : reason
      return signal
    }
    static timeout(delay) {
      const ms = Number(delay)
      if (!Number.isFinite(ms) || ms < 0 || ms > Number.MAX_SAFE_INTEGER) {
        throw codeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "delay" is out of range. It must be >= 0 && <= ${Number.MAX_SAFE_INTEGER}. Received ${delay}`)
      }
      const signal = newSignal()
      hostSetTimeout(() => abortSignal(signal, domError('The operation was aborted due to timeout', 'TimeoutError')), Math.trunc(ms))
      return signal
    }
    static any(signals) {
      if (signals === null || (typeof signals !== 'object' && typeof signals !== 'function') || typeof signals[Symbol.iterator] !== 'function') {
        throw argType('signals', 'an instance of Array', signals)
      }
      const list = [...signals]
      for (const s of list) if (!(s instanceof AbortSignal)) throw argType('signals', 'an instance of AbortSignal', s)
      const result = newSignal()
      const rs = result[SIGNAL]
      for (const s of list) {
        if (s[SIGNAL].aborted) {
          rs.aborted = true
          rs.reason = s[SIGNAL].reason
          return result
        }
      }
      rs.dependent = true
      for (const s of list) {
        const ss = s[SIGNAL]
        const sources = ss.dependent ? ss.sources : [s]
        for (const source of sources) {
          if (rs.sources.includes(source)) continue
          rs.sources.push(source)
          source[SIGNAL].dependents.add(result)
        }
      }
      return result
    }
  }
  defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: 'AbortSignal', configurable: true })

  class AbortController {
    #signal = newSignal()
    get signal() {
      return this.#signal
    }
    abort(reason = undefined) {
      abortSignal(this.#signal, reason)
    }
  }
  defineProperty(AbortController.prototype, Symbol.toStringTag, { value: 'AbortController', configurable: true })

  // ---- Blob, File (the bytes live in the object; no streams) -----------------------------
  // As Node 24's (Node 20 differs: it keeps a lone CR under `endings: 'native'` and words the
  // not-a-sequence error otherwise).

  // Filled in by Blob's static block: a brand check, the bytes, and a Blob made from bytes.
  let isBlob, blobBytes, blobType, setBlob, isFile, fileName, fileLastModified
  const NOT_TYPE_CHARACTERS = /[^\u0020-\u007E]/
  const NEWLINES = /\r\n|\r/g

  /** Node's "must be a dictionary" check of an options argument. */
  function dictionary(options, name) {
    if (options !== undefined && options !== null && typeof options !== 'object' && typeof options !== 'function') {
      throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" argument must be a dictionary. ${received(options)}`)
    }
    return options ?? {}
  }

  /** The bytes of one Blob part, copied (a detached buffer has none). */
  function partBytes(part, endings) {
    if (isBlob(part)) return blobBytes(part)
    const bytes = bufferSourceBytes(part)
    if (bytes !== undefined) return new Uint8Array(bytes)
    let text = `${part}`
    if (endings === 'native') text = text.replace(NEWLINES, '\n')
    return native.utf8Encode(text)
  }

  class Blob {
    #bytes
    #type
    constructor(sources = [], options = undefined) {
      if (sources === null || typeof sources === 'string' || (typeof sources !== 'object' && typeof sources !== 'function') || typeof sources[Symbol.iterator] !== 'function') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'Value cannot be converted to sequence.')
      }
      const dict = dictionary(options, 'options')
      const type = dict.type === undefined ? '' : `${dict.type}`
      const endings = dict.endings === undefined ? 'transparent' : `${dict.endings}`
      if (endings !== 'transparent' && endings !== 'native') {
        throw codeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.endings' is invalid. Received '${endings}'`)
      }
      const parts = []
      let total = 0
      for (const source of sources) {
        const bytes = partBytes(source, endings)
        parts.push(bytes)
        total += bytes.length
      }
      const bytes = new Uint8Array(total)
      let at = 0
      for (const part of parts) {
        bytes.set(part, at)
        at += part.length
      }
      this.#bytes = bytes
      this.#type = NOT_TYPE_CHARACTERS.test(type) ? '' : type.toLowerCase()
    }
    get size() {
      return this.#bytes.length
    }
    get type() {
      return this.#type
    }
    slice(start = 0, end = undefined, contentType = '') {
      const size = this.#bytes.length
      const clamp = (n) => {
        n = Math.trunc(Number(n)) || 0
        return n < 0 ? Math.max(size + n, 0) : Math.min(n, size)
      }
      const from = clamp(start)
      const to = end === undefined ? size : clamp(end)
      const type = `${contentType}`
      return setBlob(new Blob(), this.#bytes.slice(from, Math.max(from, to)), NOT_TYPE_CHARACTERS.test(type) ? '' : type.toLowerCase())
    }
    text() {
      const bytes = this.#bytes
      return new Promise((resolve) => resolve(new TextDecoder().decode(bytes)))
    }
    arrayBuffer() {
      const bytes = this.#bytes
      return new Promise((resolve) => resolve(bytes.slice().buffer))
    }
    bytes() {
      const bytes = this.#bytes
      return new Promise((resolve) => resolve(bytes.slice()))
    }
    static {
      isBlob = (v) => v !== null && typeof v === 'object' && #bytes in v
      blobBytes = (b) => b.#bytes
      blobType = (b) => b.#type
      setBlob = (b, bytes, type) => {
        b.#bytes = bytes
        b.#type = type
        return b
      }
    }
  }
  defineProperty(Blob.prototype, Symbol.toStringTag, { value: 'Blob', configurable: true })

  class File extends Blob {
    #name
    #lastModified
    constructor(fileBits, fileName, options = undefined) {
      if (arguments.length < 2) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "fileBits" and "fileName" arguments must be specified')
      super(fileBits, options)
      const dict = options ?? {}
      let lastModified = dict.lastModified
      if (lastModified === undefined) lastModified = Date.now()
      else {
        lastModified = +lastModified
        if (Number.isNaN(lastModified)) lastModified = 0
      }
      this.#name = `${fileName}`
      this.#lastModified = lastModified
    }
    get name() {
      return this.#name
    }
    get lastModified() {
      return this.#lastModified
    }
    static {
      isFile = (v) => v !== null && typeof v === 'object' && #name in v
      fileName = (f) => f.#name
      fileLastModified = (f) => f.#lastModified
    }
  }
  defineProperty(File.prototype, Symbol.toStringTag, { value: 'File', configurable: true })

  /** A structured clone of a Blob or File: the same bytes (shared: a Blob never changes them). */
  function cloneBlob(value) {
    const copy = isFile(value) ? new File([], fileName(value), { lastModified: fileLastModified(value) }) : new Blob()
    return setBlob(copy, blobBytes(value), blobType(value))
  }

  // ---- MessageChannel, MessagePort, MessageEvent -----------------------------------------
  // Messages are structured clones (transferred buffers detach at the post), delivered one
  // per macrotask to the other port once it is started (`start()`, or setting `onmessage`).

  class MessageEvent extends Event {
    #data
    #origin
    #lastEventId
    #source
    #ports
    constructor(type, options = undefined) {
      super(type, options)
      const init = options ?? {}
      this.#data = init.data ?? null
      this.#origin = init.origin === undefined ? '' : `${init.origin}`
      this.#lastEventId = init.lastEventId === undefined ? '' : `${init.lastEventId}`
      this.#source = init.source ?? null
      this.#ports = init.ports === undefined ? [] : [...init.ports]
    }
    get data() {
      return this.#data
    }
    get origin() {
      return this.#origin
    }
    get lastEventId() {
      return this.#lastEventId
    }
    get source() {
      return this.#source
    }
    get ports() {
      return this.#ports
    }
  }
  defineProperty(MessageEvent.prototype, Symbol.toStringTag, { value: 'MessageEvent', configurable: true })

  const PORT_KEY = Symbol('port')
  let portState

  class MessagePort extends EventTarget {
    #other = null
    #queue = []
    #started = false
    #closed = false
    #handler = null
    #listener = null
    #scheduled = false
    #detached = false
    constructor(key = undefined) {
      if (key !== PORT_KEY) throw codeError(TypeError, 'ERR_CONSTRUCT_CALL_INVALID', 'Constructor cannot be called')
      super()
    }
    postMessage(message, transfer = undefined) {
      if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'Not enough arguments to MessagePort.postMessage')
      const list = transfer === undefined || transfer === null ? undefined : Array.isArray(transfer) ? transfer : transfer.transfer
      if (list !== undefined && list !== null && typeof list[Symbol.iterator] === 'function' && [...list].includes(this)) {
        throw cloneError('Transfer list contains source port')
      }
      const data = structuredClone(message, list === undefined ? undefined : { transfer: list })
      const other = this.#other
      if (this.#closed || other === null) return
      other.#queue.push(data)
      other.#schedule()
    }
    start() {
      this.#started = true
      this.#schedule()
    }
    // As Node's ports (not the HTML standard's): a 'message' listener starts the port.
    addEventListener(type, listener, options = undefined) {
      const r = super.addEventListener(...arguments)
      if (`${type}` === 'message' && listener !== null && listener !== undefined) this.start()
      return r
    }
    close() {
      if (this.#closed) return
      this.#closed = true
      const other = this.#other
      this.#other = null
      if (other !== null) {
        other.#other = null
        other.#closed = true
      }
    }
    ref() {
      return this
    }
    unref() {
      return this
    }
    hasRef() {
      return false
    }
    get onmessage() {
      return this.#handler
    }
    set onmessage(value) {
      const handler = typeof value === 'function' || (value !== null && typeof value === 'object') ? value : null
      if (this.#listener === null) {
        this.#listener = (event) => {
          const h = this.#handler
          if (typeof h === 'function') return Reflect.apply(h, this, [event])
        }
        this.addEventListener('message', this.#listener)
      }
      this.#handler = handler
      if (handler !== null) this.start()
    }
    #schedule() {
      if (!this.#started || this.#scheduled || this.#queue.length === 0) return
      this.#scheduled = true
      hostSetTimeout(() => this.#deliver(), 0)
    }
    #deliver() {
      this.#scheduled = false
      if (this.#queue.length === 0) return
      const data = this.#queue.shift()
      this.dispatchEvent(new MessageEvent('message', { data }))
      this.#schedule()
    }
    static {
      portState = {
        pair(a, b) {
          a.#other = b
          b.#other = a
        },
        is: (v) => v !== null && typeof v === 'object' && #queue in v,
        detached: (port) => port.#detached,
        /** The placeholder a clone holds becomes the transferred port. */
        adopt(placeholder, moved) {
          placeholder.#other = moved.#other
          if (placeholder.#other !== null) placeholder.#other.#other = placeholder
          placeholder.#queue = moved.#queue
        },
        /** A transfer: `port`'s entanglement and queued messages move to a new port. */
        move(port) {
          const copy = new MessagePort(PORT_KEY)
          copy.#other = port.#other
          if (copy.#other !== null) copy.#other.#other = copy
          copy.#queue = port.#queue
          port.#other = null
          port.#queue = []
          port.#detached = true
          port.#closed = true
          return copy
        },
      }
    }
  }
  defineProperty(MessagePort.prototype, Symbol.toStringTag, { value: 'MessagePort', configurable: true })

  class MessageChannel {
    #port1 = new MessagePort(PORT_KEY)
    #port2 = new MessagePort(PORT_KEY)
    constructor() {
      portState.pair(this.#port1, this.#port2)
    }
    get port1() {
      return this.#port1
    }
    get port2() {
      return this.#port2
    }
  }
  defineProperty(MessageChannel.prototype, Symbol.toStringTag, { value: 'MessageChannel', configurable: true })

  // ---- crypto ----------------------------------------------------------------------------

  const INTEGER_ARRAYS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'BigInt64Array', 'BigUint64Array']

  const crypto = {
    getRandomValues(typedArray) {
      if (arguments.length === 0) throw codeError(TypeError, 'ERR_MISSING_ARGS', 'The "typedArray" argument must be specified')
      const tag = isView(typedArray) ? Object.prototype.toString.call(typedArray).slice(8, -1) : ''
      if (!INTEGER_ARRAYS.includes(tag)) {
        throw domError('The data argument must be an integer-type TypedArray', 'TypeMismatchError')
      }
      if (typedArray.byteLength > 65536) throw domError('The requested length exceeds 65,536 bytes', 'QuotaExceededError')
      native.randomFill(typedArray)
      return typedArray
    },
    randomUUID() {
      return native.randomUUID()
    },
  }
  defineProperty(crypto, Symbol.toStringTag, { value: 'Crypto', configurable: true })

  // crypto.subtle: digest only (SHA-1, SHA-256, SHA-384, SHA-512). As the standard orders it:
  // the algorithm is read first, then the bytes are taken (hashed at once), and the promise
  // settles later; every error rejects it.
  const DIGESTS = ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']
  class SubtleCrypto {
    constructor(key) {
      if (key !== SUBTLE_KEY) throw illegal()
    }
    digest(algorithm, data) {
      // As Node's WebIDL converters, in their order: the arguments' types, then the
      // algorithm's name (its getter runs after the data was checked).
      return new Promise((resolve) => {
        if (this !== subtle) throw codeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type SubtleCrypto')
        const prefix = "Failed to execute 'digest' on 'SubtleCrypto'"
        if (arguments.length < 2) {
          throw codeError(TypeError, 'ERR_MISSING_ARGS', `${prefix}: 2 arguments required, but only ${arguments.length} present.`)
        }
        const isObject = (algorithm !== null && typeof algorithm === 'object') || typeof algorithm === 'function'
        if (!isObject && typeof algorithm === 'symbol') {
          throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `${prefix}: 1st argument is a Symbol and cannot be converted to a string.`)
        }
        const identifier = isObject ? algorithm : `${algorithm}`
        if (isView(data) && isSharedArrayBuffer(viewBuffer(data))) {
          throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `${prefix}: 2nd argument is a view on a SharedArrayBuffer, which is not allowed.`)
        }
        const bytes = isSharedArrayBuffer(data) ? undefined : bufferSourceBytes(data)
        if (bytes === undefined) {
          throw codeError(TypeError, 'ERR_INVALID_ARG_TYPE', `${prefix}: 2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.`)
        }
        let name = identifier
        if (isObject) {
          name = identifier.name
          if (name === undefined) {
            throw codeError(
              TypeError,
              'ERR_MISSING_OPTION',
              "Failed to normalize algorithm: passed algorithm cannot be converted to 'Algorithm' because 'name' is required in 'Algorithm'.",
            )
          }
          name = `${name}`
        }
        const upper = name.toUpperCase()
        if (!DIGESTS.includes(upper)) throw domError('Unrecognized algorithm name', 'NotSupportedError')
        const out = native.digest(upper, bytes)
        hostQueueMicrotask(() => resolve(out))
      })
    }
  }
  defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true })
  const SUBTLE_KEY = Symbol('subtle')
  const subtle = new SubtleCrypto(SUBTLE_KEY)
  defineProperty(crypto, 'subtle', { value: subtle, enumerable: true, configurable: true })

  // ---- util.inspect: what Node's own [nodejs.util.inspect.custom] methods print ------------
  // (the console calls them in this realm with an `inspect` of this realm).

  const INSPECT = Symbol.for('nodejs.util.inspect.custom')
  const ctorName = (o, fallback) => {
    const c = Object.getPrototypeOf(o)?.constructor
    return typeof c === 'function' && typeof c.name === 'string' && c.name !== '' ? c.name : fallback
  }
  const inspectMethod = (fn) => ({ value: fn, writable: true, configurable: true })
  defineProperty(
    URL.prototype,
    INSPECT,
    inspectMethod(function (depth, options, inspect) {
      if (typeof depth === 'number' && depth < 0) return this
      const obj = {}
      for (const part of PARTS) {
        if (part === 'hash') obj.searchParams = this.searchParams
        obj[part] = this[part]
      }
      return `${ctorName(this, 'URL')} ${inspect(obj, options)}`
    }),
  )
  defineProperty(
    URLSearchParams.prototype,
    INSPECT,
    inspectMethod(function (recurseTimes, ctx, inspect) {
      if (typeof recurseTimes === 'number' && recurseTimes < 0) return ctx.stylize('[Object]', 'special')
      const innerOpts = { ...ctx }
      if (recurseTimes !== null) innerOpts.depth = recurseTimes - 1
      const output = this[LIST].map(([k, v]) => `${inspect(k, innerOpts)} => ${inspect(v, innerOpts)}`)
      const length = output.reduce((n, s) => n + s.length + 2, -2)
      const name = ctorName(this, 'URLSearchParams')
      if (length > ctx.breakLength) return `${name} {\n  ${output.join(',\n  ')} }`
      if (output.length) return `${name} { ${output.join(', ')} }`
      return `${name} {}`
    }),
  )
  defineProperty(
    TextEncoder.prototype,
    INSPECT,
    inspectMethod(function (depth, options, inspect) {
      if (typeof depth === 'number' && depth < 0) return this
      return inspect({ encoding: this.encoding }, options)
    }),
  )
  defineProperty(
    TextDecoder.prototype,
    INSPECT,
    inspectMethod(function (depth, options, inspect) {
      if (typeof depth === 'number' && depth < 0) return this
      const obj = { encoding: this.encoding, fatal: this.fatal, ignoreBOM: this.ignoreBOM }
      return `${ctorName(this, 'TextDecoder')} ${inspect(obj)}`
    }),
  )

  const nestedOptions = (options) => ({ ...options, depth: options?.depth == null ? null : options.depth - 1 })
  defineProperty(
    Blob.prototype,
    INSPECT,
    inspectMethod(function (depth, options, inspect) {
      if (typeof depth === 'number' && depth < 0) return this
      return `Blob ${inspect({ size: this.size, type: this.type }, nestedOptions(options))}`
    }),
  )
  defineProperty(
    File.prototype,
    INSPECT,
    inspectMethod(function (depth, options, inspect) {
      if (typeof depth === 'number' && depth < 0) return this
      return `File ${inspect({ size: this.size, type: this.type, name: this.name, lastModified: this.lastModified }, nestedOptions(options))}`
    }),
  )

  return freeze({
    structuredClone,
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
    atob,
    btoa,
    crypto,
    Event,
    EventTarget,
    CustomEvent,
    AbortController,
    AbortSignal,
    Blob,
    File,
    MessageChannel,
    MessagePort,
    MessageEvent,
    Performance,
  })
})
