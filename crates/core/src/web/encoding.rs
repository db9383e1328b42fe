//! `TextDecoder`'s natives over `encoding_rs` (the Encoding Standard as Firefox implements
//! it): every encoding and label of the standard, `fatal`, `ignoreBOM` and streaming. A
//! decoder's state lives in a Rust object the prelude's `TextDecoder` keeps in a private
//! field; it is freed with that object. Uses only `quickjs` and `buffers`.

use crate::quickjs::raw;
use crate::web::buffers::{throw_type, view_bytes};
use encoding_rs::{CoderResult, DecoderResult, Encoding};
use rquickjs::class::{JsClass, Trace, Tracer, Writable};
use rquickjs::{Class, Ctx, Function, JsLifetime, Object, Value};

/// Input is decoded this many bytes at a time, polling the run's budgets in between.
const CHUNK: usize = 64 * 1024;

/// One `TextDecoder`'s decoder: the encoding, its options and the bytes it holds back.
pub struct Decoding {
  encoding: &'static Encoding,
  fatal: bool,
  ignore_bom: bool,
  decoder: encoding_rs::Decoder,
}

impl Decoding {
  fn fresh(encoding: &'static Encoding, ignore_bom: bool) -> encoding_rs::Decoder {
    // The standard's decode: a BOM of the decoder's own encoding is skipped unless ignoreBOM
    // (encoding_rs's sniffing decoder would also switch encodings on another BOM).
    if ignore_bom {
      encoding.new_decoder_without_bom_handling()
    } else {
      encoding.new_decoder_with_bom_removal()
    }
  }

  fn reset(&mut self) {
    self.decoder = Self::fresh(self.encoding, self.ignore_bom);
  }
}

impl<'js> Trace<'js> for Decoding {
  fn trace<'a>(&self, _tracer: Tracer<'a, 'js>) {}
}

// SAFETY: `Decoding` holds no JavaScript values, so it is the same type at every lifetime.
unsafe impl<'js> JsLifetime<'js> for Decoding {
  type Changed<'to> = Decoding;
}

impl<'js> JsClass<'js> for Decoding {
  const NAME: &'static str = "Decoding";
  type Mutable = Writable;

  fn prototype(_ctx: &Ctx<'js>) -> rquickjs::Result<Option<Object<'js>>> {
    Ok(None)
  }

  fn constructor(_ctx: &Ctx<'js>) -> rquickjs::Result<Option<rquickjs::Constructor<'js>>> {
    Ok(None)
  }
}

/// The encoding a label names (ASCII whitespace around it ignored, as the standard says), by
/// its standard lower-case name; `None` for no encoding and for the replacement encoding,
/// which `TextDecoder` refuses.
pub fn encoding_for_label(label: &str) -> Option<&'static Encoding> {
  Encoding::for_label_no_replacement(label.as_bytes())
}

/// The standard's name of an encoding, as `TextDecoder#encoding` gives it.
pub fn standard_name(encoding: &'static Encoding) -> String {
  encoding.name().to_ascii_lowercase()
}

/// Defines `decoderOpen(label, fatal, ignoreBOM)` (a decoder; null for a label the standard
/// does not define, `'replacement'` for one of the replacement encoding), `decoderEncoding(decoder)` and `decoderDecode(decoder, view,
/// stream)` (the text, or null when `fatal` met malformed input) on `natives`.
pub fn define<'js>(ctx: &Ctx<'js>, natives: &Object<'js>) -> rquickjs::Result<()> {
  natives.set(
    "decoderOpen",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       label: String,
       fatal: bool,
       ignore_bom: bool|
       -> rquickjs::Result<Value<'js>> {
        let Some(encoding) = encoding_for_label(&label) else {
          // A label of the replacement encoding is refused by that name, as Node does.
          if Encoding::for_label(label.as_bytes()) == Some(encoding_rs::REPLACEMENT) {
            return Ok(rquickjs::String::from_str(ctx.clone(), "replacement")?.into_value());
          }
          return Ok(Value::new_null(ctx));
        };
        let decoder = Decoding::fresh(encoding, ignore_bom);
        let made = Class::instance(ctx, Decoding { encoding, fatal, ignore_bom, decoder })?;
        Ok(made.into_value())
      },
    )?,
  )?;
  natives.set(
    "decoderEncoding",
    Function::new(ctx.clone(), |ctx: Ctx<'js>, d: Value<'js>| -> rquickjs::Result<String> {
      let Ok(d) = Class::<Decoding>::from_value(&d) else {
        return throw_type(&ctx, "not a decoder");
      };
      let name = standard_name(d.borrow().encoding);
      Ok(name)
    })?,
  )?;
  natives.set(
    "decoderDecode",
    Function::new(
      ctx.clone(),
      |ctx: Ctx<'js>,
       d: Value<'js>,
       view: Value<'js>,
       stream: bool|
       -> rquickjs::Result<Value<'js>> {
        let Ok(d) = Class::<Decoding>::from_value(&d) else {
          return throw_type(&ctx, "not a decoder");
        };
        let Some((ptr, len)) = view_bytes(&ctx, &view) else {
          return throw_type(
            &ctx,
            "The \"input\" argument must be an instance of ArrayBuffer or ArrayBufferView.",
          );
        };
        let c = ctx.as_raw().as_ptr();
        // The text made (up to 3 bytes of UTF-8 per input byte) and the copy of the input counts against the heap.
        let _held = if len > 0 {
          Some(raw::hold_heap(c, len.saturating_mul(4)).ok_or(rquickjs::Error::Exception)?)
        } else {
          None
        };
        // SAFETY: `ptr..ptr+len` is the view's memory (checked against its buffer's size);
        // the bytes are copied before any program code can run again (polling runs none).
        let bytes: Vec<u8> = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
        let mut state = d.borrow_mut();
        match decode(c, &mut state, &bytes, !stream) {
          Ok(Some(text)) => Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value()),
          Ok(None) => {
            state.reset();
            Ok(Value::new_null(ctx.clone()))
          }
          Err(e) => {
            state.reset();
            Err(e)
          }
        }
      },
    )?,
  )?;
  Ok(())
}

/// Decodes `bytes` with the decoder's state; `last` flushes it (an incomplete sequence at
/// the end is an error) and starts it afresh. `Ok(None)`: malformed input under `fatal`.
fn decode(
  c: *mut rquickjs::qjs::JSContext,
  state: &mut Decoding,
  bytes: &[u8],
  last: bool,
) -> rquickjs::Result<Option<String>> {
  let mut out = String::new();
  let chunks: Vec<&[u8]> =
    if bytes.is_empty() { vec![&[][..]] } else { bytes.chunks(CHUNK).collect() };
  let count = chunks.len();
  for (i, chunk) in chunks.into_iter().enumerate() {
    raw::poll_work(c, chunk.len() / 4)?;
    let flush = last && i + 1 == count;
    let mut input = chunk;
    loop {
      let need = state.decoder.max_utf8_buffer_length(input.len()).unwrap_or(input.len() * 3 + 16);
      out.reserve(need);
      if state.fatal {
        let (result, read) =
          state.decoder.decode_to_string_without_replacement(input, &mut out, flush);
        input = &input[read..];
        match result {
          DecoderResult::InputEmpty => break,
          DecoderResult::OutputFull => continue,
          DecoderResult::Malformed(_, _) => return Ok(None),
        }
      } else {
        let (result, read, _) = state.decoder.decode_to_string(input, &mut out, flush);
        input = &input[read..];
        match result {
          CoderResult::InputEmpty => break,
          CoderResult::OutputFull => continue,
        }
      }
    }
  }
  if last {
    state.reset();
  }
  Ok(Some(out))
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn labels_are_the_standards_with_ascii_whitespace_only() {
    assert_eq!(
      encoding_for_label(" \t\n\x0c\rlatin1\r\n").map(standard_name).as_deref(),
      Some("windows-1252")
    );
    assert_eq!(encoding_for_label("SJIS").map(standard_name).as_deref(), Some("shift_jis"));
    assert_eq!(encoding_for_label("unicodefeff").map(standard_name).as_deref(), Some("utf-16le"));
    for padded in ["utf-8\u{0b}", "\u{a0}utf-8", "utf-8\u{2028}", "utf-8\u{0}"] {
      assert!(encoding_for_label(padded).is_none(), "{padded:?}");
    }
    // The replacement encoding's labels and its own name are refused.
    for refused in ["iso-2022-kr", "hz-gb-2312", "replacement", "x-user-defined2"] {
      assert!(encoding_for_label(refused).is_none(), "{refused}");
    }
  }
}
