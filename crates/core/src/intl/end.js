
  // ---- end: what the loader receives (intl/mod.rs) ---------------------------------------
  return { Intl, localeMethods }
})
