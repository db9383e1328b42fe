//! What a Map or Set iterator has left, without advancing it: V8's `previewEntries`, which
//! Node's `util.inspect` uses to print `[Map Entries] { [ 1, 2 ] }`.
//!
//! JavaScript cannot look ahead in an iterator, so this reads QuickJS's own iterator and
//! collection records. Their layouts are mirrored below from quickjs.c of rquickjs-sys 0.14.0
//! (pinned by Cargo.lock); `__test__/console.spec.ts`'s iterator cases compare the result with
//! Node's, and `map_iterators_preview_what_is_left` in the engine tests walks every kind.

use crate::quickjs::raw;
use rquickjs::qjs;
use std::sync::atomic::{AtomicU32, Ordering};

#[repr(C)]
#[allow(dead_code)] // read through QuickJS's pointers, never built here
struct ListHead {
  prev: *mut ListHead,
  next: *mut ListHead,
}

/// `JSMapRecord`.
#[repr(C)]
#[allow(dead_code)] // read through QuickJS's pointers, never built here
struct MapRecord {
  ref_count: i32,
  empty: bool,
  map: *mut std::ffi::c_void,
  link: ListHead,
  hash_link: ListHead,
  key: qjs::JSValue,
  value: qjs::JSValue,
}

/// `JSMapState`.
#[repr(C)]
#[allow(dead_code)] // read through QuickJS's pointers, never built here
struct MapState {
  is_weak: bool,
  records: ListHead,
  record_count: u32,
}

/// `JSMapIteratorData`.
#[repr(C)]
#[allow(dead_code)] // read through QuickJS's pointers, never built here
struct MapIteratorData {
  obj: qjs::JSValue,
  kind: i32,
  cur_record: *mut MapRecord,
}

/// `JSIteratorKindEnum`.
const KIND_KEY: i32 = 0;
const KIND_KEY_AND_VALUE: i32 = 2;

/// Class ids of Map, Set and their iterators (read once from objects QuickJS made).
static CLASSES: [AtomicU32; 4] =
  [AtomicU32::new(0), AtomicU32::new(0), AtomicU32::new(0), AtomicU32::new(0)];

/// SAFETY (callers): `c` is a live context.
unsafe fn classes(c: *mut qjs::JSContext) -> Option<[u32; 4]> {
  if CLASSES[0].load(Ordering::Acquire) == 0 {
    let source = c"[new Map(), new Set(), new Map().keys(), new Set().values()]";
    let made = raw::Owned::new(
      c,
      qjs::JS_Eval(c, source.as_ptr(), source.to_bytes().len() as _, c"<previews>".as_ptr(), 0),
    );
    if raw::tag(made.v) == qjs::JS_TAG_EXCEPTION {
      raw::clear_exception(c);
      return None;
    }
    for (i, slot) in CLASSES.iter().enumerate() {
      let v = raw::Owned::new(c, qjs::JS_GetPropertyUint32(c, made.v, i as u32));
      slot.store(raw::class_id(v.v), Ordering::Release);
    }
  }
  Some([0, 1, 2, 3].map(|i| CLASSES[i].load(Ordering::Acquire)))
}

/// `previewEntries(iterator)`: `[entries, isKeyValue]` for a Map or Set iterator (entries
/// flat, `[k1, v1, k2, v2, …]` when `isKeyValue`), `undefined` for anything else.
///
/// SAFETY (QuickJS calling convention): `argv` holds `argc` live values of `c`'s runtime.
pub(crate) unsafe extern "C" fn preview_entries(
  c: *mut qjs::JSContext,
  _this: qjs::JSValue,
  argc: i32,
  argv: *mut qjs::JSValue,
) -> qjs::JSValue {
  let undefined = qjs::JS_MKVAL(qjs::JS_TAG_UNDEFINED, 0);
  let iter = raw::arg(argc, argv, 0);
  if !raw::is_object(iter) {
    return undefined;
  }
  let Some([map_class, set_class, map_iter, set_iter]) = classes(c) else {
    return undefined;
  };
  let id = raw::class_id(iter);
  let (collection_class, is_set) = match id {
    _ if id == map_iter => (map_class, false),
    _ if id == set_iter => (set_class, true),
    _ => return undefined,
  };
  // SAFETY: the class was checked, so the opaque pointer is the iterator's data; no JS runs
  // while we read it and the records below (we only duplicate values), so nothing can free
  // or move them meanwhile.
  let it = qjs::JS_GetOpaque(iter, id) as *const MapIteratorData;
  let entries = qjs::JS_NewArray(c);
  if raw::tag(entries) == qjs::JS_TAG_EXCEPTION {
    return entries;
  }
  let key_value = !it.is_null() && (*it).kind == KIND_KEY_AND_VALUE;
  if !it.is_null() && raw::is_object((*it).obj) {
    let state = qjs::JS_GetOpaque((*it).obj, collection_class) as *const MapState;
    if !state.is_null() {
      let head = std::ptr::addr_of!((*state).records) as *mut ListHead;
      let mut el =
        if (*it).cur_record.is_null() { (*head).next } else { (*(*it).cur_record).link.next };
      let mut n = 0u32;
      while el != head && !el.is_null() {
        let record = (el as *mut u8).sub(std::mem::offset_of!(MapRecord, link)) as *const MapRecord;
        if !(*record).empty {
          let value = if is_set { (*record).key } else { (*record).value };
          let shown: &[qjs::JSValue] = match (*it).kind {
            KIND_KEY => &[(*record).key],
            KIND_KEY_AND_VALUE => &[(*record).key, value],
            _ => &[value],
          };
          for &v in shown {
            qjs::JS_SetPropertyUint32(c, entries, n, qjs::JS_DupValue(c, v));
            n += 1;
          }
        }
        el = (*el).next;
      }
    }
  }
  let pair = qjs::JS_NewArray(c);
  qjs::JS_SetPropertyUint32(c, pair, 0, entries);
  qjs::JS_SetPropertyUint32(c, pair, 1, qjs::JS_MKVAL(qjs::JS_TAG_BOOL, key_value as i32));
  pair
}

/// What a Map or Set holds: `(is_set, size, [(key, value)])` with its first `limit` entries
/// in insertion order (a Set's value is its key), each value a new reference; `None` for
/// anything else. Reads QuickJS's records, as `previewEntries` does: no iterator is made and
/// no program code runs, and at most `limit` live records are visited.
pub(crate) fn collection_entries(
  c: *mut qjs::JSContext,
  obj: qjs::JSValue,
  limit: usize,
) -> Option<(bool, usize, Vec<(raw::Owned, raw::Owned)>)> {
  if !raw::is_object(obj) {
    return None;
  }
  // SAFETY: `c` is a live context; classes() only evaluates a literal on first use.
  let [map_class, set_class, _, _] = unsafe { classes(c) }?;
  let id = raw::class_id(obj);
  let is_set = match id {
    _ if id == map_class => false,
    _ if id == set_class => true,
    _ => return None,
  };
  let mut out = Vec::new();
  // SAFETY: the class was checked, so the opaque pointer is the collection's state; no JS
  // runs while we walk its records (we only duplicate their values).
  unsafe {
    let state = qjs::JS_GetOpaque(obj, id) as *const MapState;
    if state.is_null() {
      return None;
    }
    let size = (*state).record_count as usize;
    let head = std::ptr::addr_of!((*state).records) as *mut ListHead;
    let mut el = (*head).next;
    while el != head && !el.is_null() && out.len() < limit {
      let record = (el as *mut u8).sub(std::mem::offset_of!(MapRecord, link)) as *const MapRecord;
      if !(*record).empty {
        let key = raw::Owned::new(c, qjs::JS_DupValue(c, (*record).key));
        let value = if is_set { (*record).key } else { (*record).value };
        out.push((key, raw::Owned::new(c, qjs::JS_DupValue(c, value))));
      }
      el = (*el).next;
    }
    Some((is_set, size, out))
  }
}
