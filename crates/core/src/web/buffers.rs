//! Typed arrays as the web natives read and make them: a view's bytes, a new `Uint8Array`,
//! and the `TypeError` a native throws for a wrong argument. Uses only `quickjs`.

use crate::quickjs::raw::{self, Owned};
use rquickjs::{qjs, Ctx, Exception, Value};

pub(crate) fn throw_type<T>(ctx: &Ctx<'_>, message: &str) -> rquickjs::Result<T> {
  Err(Exception::throw_type(ctx, message))
}

pub(crate) fn new_uint8_array<'js>(ctx: &Ctx<'js>, bytes: &[u8]) -> rquickjs::Result<Value<'js>> {
  let c = ctx.as_raw().as_ptr();
  // SAFETY: JS_NewUint8ArrayCopy copies `bytes` and returns a new reference or an exception.
  let v = unsafe {
    Value::from_raw(ctx.clone(), qjs::JS_NewUint8ArrayCopy(c, bytes.as_ptr(), bytes.len() as _))
  };
  if raw::tag(v.as_raw()) == qjs::JS_TAG_EXCEPTION {
    return Err(rquickjs::Error::Exception);
  }
  Ok(v)
}

/// The bytes a typed array views: (pointer, length). Null for anything else or a detached
/// buffer. Valid until program code runs again.
pub(crate) fn view_bytes(ctx: &Ctx<'_>, v: &Value<'_>) -> Option<(*mut u8, usize)> {
  let c = ctx.as_raw().as_ptr();
  if !raw::is_object(v.as_raw()) || raw::is_proxy(v.as_raw()) {
    return None;
  }
  // SAFETY: JS_GetTypedArrayType only inspects the class.
  if unsafe { qjs::JS_GetTypedArrayType(v.as_raw()) } < 0 {
    return None;
  }
  let (mut offset, mut length, mut per) = (0 as qjs::size_t, 0 as qjs::size_t, 0 as qjs::size_t);
  // SAFETY: for a typed array JS_GetTypedArrayBuffer returns its buffer (new reference) and
  // the view's byte offset and length; JS_GetArrayBuffer gives the buffer's memory.
  unsafe {
    let buffer =
      Owned::new(c, qjs::JS_GetTypedArrayBuffer(c, v.as_raw(), &mut offset, &mut length, &mut per));
    if raw::tag(buffer.v) == qjs::JS_TAG_EXCEPTION {
      raw::clear_exception(c);
      return None;
    }
    let mut size: qjs::size_t = 0;
    let data = qjs::JS_GetArrayBuffer(c, &mut size, buffer.v);
    if data.is_null() {
      raw::clear_exception(c);
      return None;
    }
    if offset as usize + length as usize > size as usize {
      return None;
    }
    Some((data.add(offset as usize), length as usize))
  }
}
