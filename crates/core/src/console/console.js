// The console methods that render in the inspector realm (crates/core/src/console/inspector.rs), run
// after console/inspect.js. Ported from Node.js v24: lib/internal/cli_table.js (whole),
// lib/internal/console/constructor.js (`dir`, `table`, the console's inspect options) and
// lib/internal/errors.js (`ERR_INVALID_ARG_TYPE`'s message), as the run's console is Node's
// `new Console({ stdout, stderr, groupIndentation: 2,
//   inspectOptions: { depth: 4, maxArrayLength: 100, maxStringLength: 10000 } })`.
// Deliberate changes, all for the realm's safety: `colors` is always off; a program's
// [inspect.custom] method is called by the engine in the program's realm with options and an
// `inspect` of that realm (natives.callCustom), never with this realm's objects; `dir` takes
// only Node's documented inspect options from the program's options object (never
// `stylize`, which inspect would call with `this` = its internal state object); failures
// come back as values, never as this realm's exceptions.
//
// The completion value is a factory: (util, natives) => [format, dir, table, assertFormat].
/*
Node.js is licensed for use as follows:

"""
Copyright Node.js contributors. All rights reserved.

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to
deal in the Software without restriction, including without limitation the
rights to use, copy, modify, merge, publish, distribute, sublicense, and/or
sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
IN THE SOFTWARE.
"""
*/
(function (util, natives) {
  'use strict'
  // This realm's built-ins are pristine: the program has no reference into the realm, and
  // no object of the realm is ever handed to program code.
  const { inspect, formatWithOptions, getStringWidth } = util
  const ObjectKeys = Object.keys
  const ObjectValues = Object.values
  const ArrayIsArray = Array.isArray
  const hasOwn = Object.hasOwn

  // this[kGetInspectOptions](this._stdout) of the run's console (colors resolved to false).
  const consoleOptions = () => ({
    depth: 4,
    maxArrayLength: 100,
    maxStringLength: 10000,
    colors: false,
  })
  const logOptions = consoleOptions()

  // What this realm's own code throws while formatting (a `%j` of a bigint, a `%d` of an
  // object without a primitive value) becomes `[name, message]`, in V8's words, which the
  // engine throws as an error of the program's realm; what the program throws (a getter,
  // a `valueOf`) passes through.
  const v8Message = (message) =>
    /bigint/i.test(message)
      ? 'Do not know how to serialize a BigInt'
      : /^toPrimitive$|to primitive/i.test(message)
        ? 'Cannot convert object to primitive value'
        : /symbol to string/i.test(message)
          ? 'Cannot convert a Symbol value to a string'
          : message
  const realmError = (e) => (e instanceof Error ? [e.name, v8Message(e.message)] : undefined)

  // console.log's formatting: util.formatWithOptions with the console's inspect options.
  function format(...args) {
    try {
      return formatWithOptions(logOptions, ...args)
    } catch (e) {
      const mine = realmError(e)
      if (mine === undefined) throw e
      return mine
    }
  }

  // console.assert's: `Assertion failed: ${first}` becomes the format string (the caller
  // converted `first` to a string in the program's realm).
  function assertFormat(first, ...rest) {
    try {
      return formatWithOptions(logOptions, `Assertion failed: ${first}`, ...rest)
    } catch (e) {
      const mine = realmError(e)
      if (mine === undefined) throw e
      return mine
    }
  }

  // The `inspect` a program's custom inspect method receives (called from the program's
  // realm with the program's values): util.inspect with the console's options and the
  // primitive options the program passes (read by the engine without running code).
  natives.inspectFor = function inspectFor(value, options) {
    const opts = { ...logOptions, ...natives.dataOptions(options) }
    opts.colors = false
    try {
      return inspect(value, opts)
    } catch (e) {
      if (e instanceof Object) return '[Inspection failed]'
      throw e
    }
  }

  // util.inspect's options a program may pass to console.dir (inspectDefaultOptions' keys
  // but colors).
  const DIR_OPTIONS = [
    'showHidden',
    'depth',
    'showProxy',
    'maxArrayLength',
    'maxStringLength',
    'breakLength',
    'compact',
    'sorted',
    'getters',
    'numericSeparator',
    'customInspect',
  ]

  // dir(object, options) {
  //   this[kWriteToConsole](kUseStdout, inspect(object, {
  //     customInspect: false, ...this[kGetInspectOptions](this._stdout), ...options }))
  // }
  function dir(object, options) {
    const opts = { ...consoleOptions(), customInspect: false }
    if (options !== null && (typeof options === 'object' || typeof options === 'function')) {
      // The own enumerable keys the spread would copy, read the way it reads them.
      for (const key of ObjectKeys(options)) {
        if (DIR_OPTIONS.includes(key)) opts[key] = options[key]
      }
    }
    return inspect(object, opts)
  }

  // --- lib/internal/cli_table.js ---------------------------------------------------------
  const tableChars = {
    middleMiddle: '─',
    rowMiddle: '┼',
    topRight: '┐',
    topLeft: '┌',
    leftMiddle: '├',
    topMiddle: '┬',
    bottomRight: '┘',
    bottomLeft: '└',
    bottomMiddle: '┴',
    rightMiddle: '┤',
    left: '│ ',
    right: ' │',
    middle: ' │ ',
  }

  const renderRow = (row, columnWidths) => {
    let out = tableChars.left
    for (let i = 0; i < row.length; i++) {
      const cell = row[i]
      const len = getStringWidth(cell)
      const needed = columnWidths[i] - len
      // round(needed) + ceil(needed) will always add up to the amount
      // of spaces we need while also left justifying the output.
      out += cell + ' '.repeat(Math.ceil(needed))
      if (i !== row.length - 1) out += tableChars.middle
    }
    out += tableChars.right
    return out
  }

  const cliTable = (head, columns) => {
    const rows = []
    const columnWidths = head.map((h) => getStringWidth(h))
    const longestColumn = Math.max(...columns.map((a) => a.length))

    for (let i = 0; i < head.length; i++) {
      const column = columns[i]
      for (let j = 0; j < longestColumn; j++) {
        if (rows[j] === undefined) rows[j] = []
        const value = (rows[j][i] = hasOwn(column, j) ? column[j] : '')
        const width = columnWidths[i] || 0
        const counted = getStringWidth(value)
        columnWidths[i] = Math.max(width, counted)
      }
    }

    const divider = columnWidths.map((i) => tableChars.middleMiddle.repeat(i + 2))

    let result =
      tableChars.topLeft +
      divider.join(tableChars.topMiddle) +
      tableChars.topRight +
      '\n' +
      renderRow(head, columnWidths) +
      '\n' +
      tableChars.leftMiddle +
      divider.join(tableChars.rowMiddle) +
      tableChars.rightMiddle +
      '\n'

    for (const row of rows) result += `${renderRow(row, columnWidths)}\n`

    result += tableChars.bottomLeft + divider.join(tableChars.bottomMiddle) + tableChars.bottomRight

    return result
  }

  // --- console.table (lib/internal/console/constructor.js) -------------------------------
  const keyKey = 'Key'
  const valuesKey = 'Values'
  const indexKey = '(index)'
  const iterKey = '(iteration index)'

  // Engine classes, compared realm-independently (a program's Map is a Map here too).
  const sameClassAs = (samples) => (v) => samples.some((s) => natives.sameClass(v, s))
  const isTypedArray = sameClassAs([
    new Int8Array(0),
    new Uint8Array(0),
    new Uint8ClampedArray(0),
    new Int16Array(0),
    new Uint16Array(0),
    new Int32Array(0),
    new Uint32Array(0),
    new Float32Array(0),
    new Float64Array(0),
    new BigInt64Array(0),
    new BigUint64Array(0),
  ])
  const isMap = sameClassAs([new Map()])
  const isSet = sameClassAs([new Set()])
  const isMapIterator = sameClassAs([new Map().entries()])
  const isSetIterator = sameClassAs([new Set().values()])
  // An iterator's remaining entries, read by the engine without advancing it (as V8's).
  const previewEntries = (iterator, isIterator) => {
    const preview = natives.previewEntries(iterator)
    if (preview === undefined) return isIterator ? [[], false] : []
    return isIterator ? preview : preview[0]
  }
  // (no Buffer in the program's realm)
  const isArray = (v) => ArrayIsArray(v) || isTypedArray(v)

  // Returns the log entry, or `[message]` when `properties` is not an array (the caller
  // throws Node's ERR_INVALID_ARG_TYPE in the program's realm).
  function table(tabularData, properties) {
    if (properties !== undefined && !ArrayIsArray(properties))
      return [invalidArgType('properties', 'Array', properties)]

    if (tabularData === null || typeof tabularData !== 'object') return format(tabularData)

    const final = (k, v) => cliTable(k, v)

    const _inspect = (v) => {
      const depth = v !== null && typeof v === 'object' && !isArray(v) && ObjectKeys(v).length > 2 ? -1 : 0
      const opt = {
        depth,
        maxArrayLength: 3,
        breakLength: Infinity,
        ...consoleOptions(),
      }
      return inspect(v, opt)
    }
    const getIndexArray = (length) => Array.from({ length }, (_, i) => _inspect(i))

    const mapIter = isMapIterator(tabularData)
    let isKeyValue = false
    let i = 0
    if (mapIter) {
      const res = previewEntries(tabularData, true)
      tabularData = res[0]
      isKeyValue = res[1]
    }

    if (isKeyValue || isMap(tabularData)) {
      const keys = []
      const values = []
      let length = 0
      if (mapIter) {
        for (; i < tabularData.length / 2; ++i) {
          keys.push(_inspect(tabularData[i * 2]))
          values.push(_inspect(tabularData[i * 2 + 1]))
          length++
        }
      } else {
        for (const { 0: k, 1: v } of tabularData) {
          keys.push(_inspect(k))
          values.push(_inspect(v))
          length++
        }
      }
      return final([iterKey, keyKey, valuesKey], [getIndexArray(length), keys, values])
    }

    const setIter = isSetIterator(tabularData)
    if (setIter) tabularData = previewEntries(tabularData)

    const setlike = setIter || mapIter || isSet(tabularData)
    if (setlike) {
      const values = []
      let length = 0
      for (const v of tabularData) {
        values.push(_inspect(v))
        length++
      }
      return final([iterKey, valuesKey], [getIndexArray(length), values])
    }

    const map = { __proto__: null }
    let hasPrimitives = false
    const valuesKeyArray = []
    const indexKeyArray = ObjectKeys(tabularData)

    for (; i < indexKeyArray.length; i++) {
      const item = tabularData[indexKeyArray[i]]
      const primitive = item === null || (typeof item !== 'function' && typeof item !== 'object')
      if (properties === undefined && primitive) {
        hasPrimitives = true
        valuesKeyArray[i] = _inspect(item)
      } else {
        const keys = properties || ObjectKeys(item)
        for (const key of keys) {
          map[key] ??= []
          if ((primitive && properties) || !hasOwn(item, key)) map[key][i] = ''
          else map[key][i] = _inspect(item[key])
        }
      }
    }

    const keys = ObjectKeys(map)
    const values = ObjectValues(map)
    if (hasPrimitives) {
      keys.push(valuesKey)
      values.push(valuesKeyArray)
    }
    keys.unshift(indexKey)
    values.unshift(indexKeyArray)

    return final(keys, values)
  }

  // --- ERR_INVALID_ARG_TYPE (lib/internal/errors.js), for one expected class --------------
  function determineSpecificType(value) {
    if (value === null) {
      return 'null'
    } else if (value === undefined) {
      return 'undefined'
    }

    const type = typeof value

    switch (type) {
      case 'bigint':
        return `type bigint (${value}n)`
      case 'number':
        if (value === 0) {
          return 1 / value === -Infinity ? 'type number (-0)' : 'type number (0)'
        } else if (value !== value) {
          return 'type number (NaN)'
        } else if (value === Infinity) {
          return 'type number (Infinity)'
        } else if (value === -Infinity) {
          return 'type number (-Infinity)'
        }
        return `type number (${value})`
      case 'boolean':
        return value ? 'type boolean (true)' : 'type boolean (false)'
      case 'symbol':
        return `type symbol (${String(value)})`
      case 'function':
        return `function ${value.name}`
      case 'object':
        if (value.constructor && 'name' in value.constructor) {
          return `an instance of ${value.constructor.name}`
        }
        return `${inspect(value, { depth: -1, customInspect: false })}`
      case 'string':
        value.length > 28 && (value = `${value.slice(0, 25)}...`)
        if (value.indexOf("'") === -1) {
          return `type string ('${value}')`
        }
        return `type string (${JSON.stringify(value)})`
      default:
        value = inspect(value, { colors: false, customInspect: false })
        if (value.length > 28) {
          value = `${value.slice(0, 25)}...`
        }

        return `type ${type} (${value})`
    }
  }

  function invalidArgType(name, expected, actual) {
    return `The "${name}" argument must be an instance of ${expected}. Received ${determineSpecificType(actual)}`
  }

  // Lockdown. Code the realm runs on the program's behalf (a getter, a `toString`, a
  // `sorted` comparator) may be a callable Proxy, and the engine builds the `argumentsList`
  // its `apply` trap receives in the calling realm: this one. From that array a program
  // reaches this realm's intrinsics (and, through its Function constructor, everything
  // else here), so every intrinsic, methods included, is frozen (natives.lockdown, in the
  // engine: walking them here would cost a millisecond per run): nothing a program does
  // here can change how a later log renders. What the functions above keep in their
  // closures no program can reach.
  const hidden = [
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf((function* () {})()),
    Object.getPrototypeOf(async function* () {}),
    Object.getPrototypeOf((async function* () {})()),
    Object.getPrototypeOf(async function () {}),
    [][Symbol.iterator](),
    new Map().entries(),
    new Set().values(),
    ''[Symbol.iterator](),
    ''.matchAll(/a/g),
  ]
  if (typeof Iterator === 'function') {
    if (typeof Iterator.from === 'function') hidden.push(Iterator.from({ next: () => ({ done: true }) }))
    if (typeof Iterator.prototype.map === 'function') hidden.push([].values().map((x) => x))
  }
  if (!natives.lockdown([globalThis, ...hidden])) throw new Error('lockdown failed')

  return [format, dir, table, assertFormat]
})
