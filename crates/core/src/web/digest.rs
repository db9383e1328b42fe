//! `crypto.subtle.digest`'s native: SHA-1, SHA-256, SHA-384 and SHA-512 (RustCrypto's `sha1`
//! and `sha2`) over a typed array's bytes, hashed in chunks that poll the run's budgets. Uses
//! only `quickjs` and `buffers`.

use crate::quickjs::raw;
use crate::web::buffers::{throw_type, view_bytes};
use rquickjs::{qjs, Ctx, Function, Object, Value};
use sha2::Digest;

/// Input is hashed this many bytes at a time, polling the run's budgets in between.
const CHUNK: usize = 64 * 1024;

/// The digest of `bytes` by the algorithm the standard names `name` (already upper-case),
/// polling between chunks; `None` for an algorithm it does not know.
fn digest(c: *mut qjs::JSContext, name: &str, bytes: &[u8]) -> rquickjs::Result<Option<Vec<u8>>> {
  fn run<D: Digest>(c: *mut qjs::JSContext, bytes: &[u8]) -> rquickjs::Result<Vec<u8>> {
    let mut d = D::new();
    for chunk in bytes.chunks(CHUNK) {
      raw::poll_work(c, chunk.len() / 2)?;
      d.update(chunk);
    }
    Ok(d.finalize().to_vec())
  }
  Ok(Some(match name {
    "SHA-1" => run::<sha1::Sha1>(c, bytes)?,
    "SHA-256" => run::<sha2::Sha256>(c, bytes)?,
    "SHA-384" => run::<sha2::Sha384>(c, bytes)?,
    "SHA-512" => run::<sha2::Sha512>(c, bytes)?,
    _ => return Ok(None),
  }))
}

/// Defines `digest(name, view)` on `natives`: an ArrayBuffer with the digest, or null for an
/// algorithm other than the four.
pub fn define<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
  natives.set(
    "digest",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>, name: String, view: Value<'js>| -> rquickjs::Result<Value<'js>> {
        let Some((ptr, len)) = view_bytes(&ctx, &view) else {
          return throw_type(
            &ctx,
            "The \"data\" argument must be an instance of ArrayBuffer or ArrayBufferView.",
          );
        };
        let c = ctx.as_raw().as_ptr();
        // SAFETY: `ptr..ptr+len` is the view's memory (checked against its buffer's size);
        // hashing and polling run no program code, so it stays as it is until we return.
        let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
        let Some(out) = digest(c, &name, bytes)? else { return Ok(Value::new_null(ctx)) };
        // SAFETY: JS_NewArrayBufferCopy copies `out` and returns a new reference or an
        // exception, which Value takes.
        let v = unsafe {
          Value::from_raw(ctx.clone(), qjs::JS_NewArrayBufferCopy(c, out.as_ptr(), out.len() as _))
        };
        if raw::tag(v.as_raw()) == qjs::JS_TAG_EXCEPTION {
          return Err(rquickjs::Error::Exception);
        }
        Ok(v)
      },
    )?,
  )?;
  Ok(())
}

#[cfg(test)]
mod tests {
  use sha2::Digest;

  #[test]
  fn the_four_digests_of_abc() {
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    assert_eq!(hex(&sha1::Sha1::digest(b"abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
    assert_eq!(
      hex(&sha2::Sha256::digest(b"abc")),
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(hex(&sha2::Sha384::digest(b"abc"))[..16], *"cb00753f45a35e8b");
    assert_eq!(hex(&sha2::Sha512::digest(b"abc"))[..16], *"ddaf35a193617aba");
  }
}
