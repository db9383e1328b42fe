
  // ---- Intl.Segmenter -------------------------------------------------------------------

  const GRANULARITIES = ['grapheme', 'word', 'sentence']
  const SymbolIterator = Symbol.iterator
  /** UTF-16 units of string the natives see at once (segmenter.rs); doubled while a window holds no boundary. */
  const SEGMENT_WINDOW = 4096
  /** Boundaries this close after a window's start are not trusted when the window starts inside a segment. */
  const SEGMENT_WARMUP = 64

  function Segmenter(locales = undefined, options = undefined) {
    if (new.target === undefined) throw new TypeError("Constructor Intl.Segmenter requires 'new'")
    const requested = canonicalizeLocaleList(locales)
    options = getOptionsObject(options)
    const ctor = 'Intl.Segmenter'
    const r = create(null)
    r.kind = 'Segmenter'
    getOption(options, 'localeMatcher', 'string', ['lookup', 'best fit'], 'best fit', ctor)
    const resolved = resolveLocale(requested, create(null), [], create(null))
    r.locale = resolved.locale
    r.granularity = getOption(options, 'granularity', 'string', GRANULARITIES, 'grapheme', ctor)
    r.g = indexOf(GRANULARITIES, r.granularity)
    setSlot(this, r)
  }

  /**
   * The boundaries after `from` (a boundary of `s`), as absolute `2 * offset + wordLike`
   * numbers, from one window of the string: at least one unless `from` is the end.
   */
  function boundariesFrom(g, s, from) {
    let width = SEGMENT_WINDOW
    for (;;) {
      const end = from + width
      const atEnd = end >= s.length
      const found = native.segmentWindow(g, slice(s, from, atEnd ? s.length : end), atEnd)
      if (found.length > 0 || atEnd) {
        for (let i = 0; i < found.length; i++) found[i] += 2 * from
        return found
      }
      width *= 2
    }
  }

  /** A segment data object (CreateSegmentDataObject). */
  function segmentData(r, s, start, mark) {
    const out = { segment: slice(s, start, MathFloor(mark / 2)), index: start, input: s }
    if (r.granularity === 'word') createData(out, 'isWordLike', mark % 2 === 1)
    return out
  }

  class Segments {}
  delete Segments.prototype.constructor
  const segmentsOf = (o, method) => unwrap(o, 'Segments', method)
  defineMethods(Segments.prototype, {
    containing(index) {
      const st = segmentsOf(this, '%Segments.prototype%.containing')
      const s = st.string
      let n = +index
      n = isNaNFn(n) ? 0 : n < 0 ? -MathFloor(-n) : MathFloor(n)
      if (n < 0 || n >= s.length) return undefined
      // Scan from a little before n: from the start of the string, or from a point inside a
      // segment whose first boundaries are not trusted (widened back until one is found).
      let back = SEGMENT_WINDOW
      for (;;) {
        const from = n < back ? 0 : n - back
        const trusted = from === 0 ? 0 : from + SEGMENT_WARMUP
        let start = from === 0 ? 0 : -1
        let pos = from
        for (;;) {
          const marks = boundariesFrom(st.r.g, s, pos)
          for (let i = 0; i < marks.length; i++) {
            const b = MathFloor(marks[i] / 2)
            if (b > n) {
              if (start >= 0) return segmentData(st.r, s, start, marks[i])
              break
            }
            if (b >= trusted) start = b
          }
          const last = marks.length > 0 ? MathFloor(marks[marks.length - 1] / 2) : s.length
          if (last > n || last >= s.length) break
          pos = last
        }
        if (from === 0) return undefined
        back *= 2
      }
    },
    [SymbolIterator]() {
      const st = segmentsOf(this, '%Segments.prototype%[@@iterator]')
      const it = new SegmentIterator()
      setSlot(it, { kind: 'SegmentIterator', r: st.r, string: st.string, pos: 0, marks: [], at: 0 })
      return it
    },
  })

  class SegmentIterator {}
  delete SegmentIterator.prototype.constructor
  defineMethods(SegmentIterator.prototype, {
    next() {
      const st = unwrap(this, 'SegmentIterator', '%SegmentIterator.prototype%.next')
      const s = st.string
      if (st.pos >= s.length) return { value: undefined, done: true }
      if (st.at >= st.marks.length) {
        st.marks = boundariesFrom(st.r.g, s, st.pos)
        st.at = 0
      }
      const mark = st.marks[st.at++]
      const value = segmentData(st.r, s, st.pos, mark)
      st.pos = MathFloor(mark / 2)
      return { value, done: false }
    },
  })
  defineProperty(SegmentIterator.prototype, SymbolToStringTag, { value: 'Segmenter String Iterator', configurable: true })
  setPrototypeOf(SegmentIterator.prototype, getPrototypeOf(getPrototypeOf([][SymbolIterator]())))

  const sgOf = (o, method) => unwrap(o, 'Segmenter', method)
  defineMethods(Segmenter.prototype, {
    segment(string) {
      const r = sgOf(this, 'Intl.Segmenter.prototype.segment')
      const s = `${string}`
      const segments = new Segments()
      setSlot(segments, { kind: 'Segments', r, string: s })
      return segments
    },
    resolvedOptions() {
      const r = sgOf(this, 'Intl.Segmenter.prototype.resolvedOptions')
      return { locale: r.locale, granularity: r.granularity }
    },
  })
  defineService('Segmenter', Segmenter)
