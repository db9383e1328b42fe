//! A strict reader of the engine's result JSON: `{ logs }`, `{ logs, value }` or
//! `{ logs, error: { kind, message } }` and nothing else. Values are checked with an
//! explicit bracket stack (a 20,000-deep value costs a Vec, not native stack) and kept as
//! raw text for byte comparison.

pub const KINDS: &[&str] =
  &["exception", "timeout", "abort", "worker-exit", "invalid-output", "output-limit"];

#[derive(Debug, Default)]
pub struct Outcome {
  pub logs: Vec<String>,
  /// The completion's JSON text, exactly as the engine wrote it.
  pub value: Option<String>,
  /// `(kind, message)`.
  pub error: Option<(String, String)>,
}

/// Reads a result; `Err` says what is wrong with it.
pub fn parse(json: &str) -> Result<Outcome, String> {
  let mut r = Reader { b: json.as_bytes(), i: 0 };
  let mut out = Outcome::default();
  let mut seen_logs = false;
  r.expect(b'{')?;
  if r.peek() == Some(b'}') {
    return Err("result has no logs".into());
  }
  loop {
    let key = r.string()?;
    r.expect(b':')?;
    match key.as_str() {
      "logs" if !seen_logs => {
        seen_logs = true;
        r.expect(b'[')?;
        if r.peek() == Some(b']') {
          r.i += 1;
        } else {
          loop {
            out.logs.push(r.string()?);
            match r.next()? {
              b',' => {}
              b']' => break,
              c => return Err(format!("unexpected {:?} in logs", c as char)),
            }
          }
        }
      }
      "value" if out.value.is_none() && out.error.is_none() => {
        r.ws();
        let start = r.i;
        r.skip_value()?;
        out.value = Some(json[start..r.i].to_owned());
      }
      "error" if out.value.is_none() && out.error.is_none() => {
        r.expect(b'{')?;
        let (mut kind, mut message) = (None, None);
        loop {
          let k = r.string()?;
          r.expect(b':')?;
          let v = r.string()?;
          match k.as_str() {
            "kind" if kind.is_none() => kind = Some(v),
            "message" if message.is_none() => message = Some(v),
            _ => return Err(format!("unexpected error member {k:?}")),
          }
          match r.next()? {
            b',' => {}
            b'}' => break,
            c => return Err(format!("unexpected {:?} in error", c as char)),
          }
        }
        let (Some(kind), Some(message)) = (kind, message) else {
          return Err("error without kind or message".into());
        };
        if !KINDS.contains(&kind.as_str()) {
          return Err(format!("unknown error kind {kind:?}"));
        }
        out.error = Some((kind, message));
      }
      _ => return Err(format!("unexpected or repeated result member {key:?}")),
    }
    match r.next()? {
      b',' => {}
      b'}' => break,
      c => return Err(format!("unexpected {:?} in result", c as char)),
    }
  }
  r.ws();
  if r.i != r.b.len() {
    return Err("text after the result object".into());
  }
  if !seen_logs {
    return Err("result has no logs".into());
  }
  Ok(out)
}

/// Checks that `json` is exactly one JSON value.
pub fn is_json(json: &str) -> bool {
  let mut r = Reader { b: json.as_bytes(), i: 0 };
  r.skip_value().is_ok() && {
    r.ws();
    r.i == r.b.len()
  }
}

struct Reader<'a> {
  b: &'a [u8],
  i: usize,
}

impl Reader<'_> {
  fn ws(&mut self) {
    while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
      self.i += 1;
    }
  }

  fn peek(&mut self) -> Option<u8> {
    self.ws();
    self.b.get(self.i).copied()
  }

  fn next(&mut self) -> Result<u8, String> {
    let c = self.peek().ok_or("unexpected end")?;
    self.i += 1;
    Ok(c)
  }

  fn expect(&mut self, c: u8) -> Result<(), String> {
    match self.next()? {
      got if got == c => Ok(()),
      got => Err(format!("expected {:?}, got {:?} at {}", c as char, got as char, self.i - 1)),
    }
  }

  /// A string, decoded (a lone surrogate becomes U+FFFD).
  fn string(&mut self) -> Result<String, String> {
    self.expect(b'"')?;
    let mut units: Vec<u16> = Vec::new();
    let mut out = String::new();
    let flush = |units: &mut Vec<u16>, out: &mut String| {
      out.extend(char::decode_utf16(units.drain(..)).map(|c| c.unwrap_or('\u{FFFD}')));
    };
    loop {
      let c = *self.b.get(self.i).ok_or("unterminated string")?;
      self.i += 1;
      match c {
        b'"' => break,
        b'\\' => {
          let e = *self.b.get(self.i).ok_or("unterminated escape")?;
          self.i += 1;
          let unit = match e {
            b'"' => b'"' as u16,
            b'\\' => b'\\' as u16,
            b'/' => b'/' as u16,
            b'b' => 8,
            b'f' => 12,
            b'n' => 10,
            b'r' => 13,
            b't' => 9,
            b'u' => {
              let hex = self.b.get(self.i..self.i + 4).ok_or("short \\u escape")?;
              let hex = std::str::from_utf8(hex).map_err(|_| "bad \\u escape")?;
              self.i += 4;
              u16::from_str_radix(hex, 16).map_err(|_| "bad \\u escape")?
            }
            _ => return Err(format!("bad escape \\{}", e as char)),
          };
          units.push(unit);
        }
        0..=0x1F => return Err("raw control character in a string".into()),
        _ => {
          flush(&mut units, &mut out);
          // Copy the whole UTF-8 sequence (the input is a &str, so it is valid).
          let start = self.i - 1;
          while self.i < self.b.len() && (self.b[self.i] & 0xC0) == 0x80 {
            self.i += 1;
          }
          out.push_str(std::str::from_utf8(&self.b[start..self.i]).map_err(|_| "bad UTF-8")?);
        }
      }
    }
    flush(&mut units, &mut out);
    Ok(out)
  }

  fn number(&mut self) -> Result<(), String> {
    let digits = |r: &mut Self| {
      let s = r.i;
      while r.i < r.b.len() && r.b[r.i].is_ascii_digit() {
        r.i += 1;
      }
      r.i - s
    };
    if self.b.get(self.i) == Some(&b'-') {
      self.i += 1;
    }
    match self.b.get(self.i) {
      Some(b'0') => self.i += 1,
      Some(b'1'..=b'9') => {
        digits(self);
      }
      _ => return Err("bad number".into()),
    }
    if self.b.get(self.i) == Some(&b'.') {
      self.i += 1;
      if digits(self) == 0 {
        return Err("bad fraction".into());
      }
    }
    if matches!(self.b.get(self.i), Some(b'e' | b'E')) {
      self.i += 1;
      if matches!(self.b.get(self.i), Some(b'+' | b'-')) {
        self.i += 1;
      }
      if digits(self) == 0 {
        return Err("bad exponent".into());
      }
    }
    Ok(())
  }

  /// Skips one value without recursion.
  fn skip_value(&mut self) -> Result<(), String> {
    let mut open: Vec<u8> = Vec::new();
    loop {
      // A value starts here.
      match self.peek().ok_or("unexpected end")? {
        b'{' => {
          self.i += 1;
          if self.peek() == Some(b'}') {
            self.i += 1;
          } else {
            self.string()?;
            self.expect(b':')?;
            open.push(b'{');
            continue;
          }
        }
        b'[' => {
          self.i += 1;
          if self.peek() == Some(b']') {
            self.i += 1;
          } else {
            open.push(b'[');
            continue;
          }
        }
        b'"' => {
          self.string()?;
        }
        b't' | b'f' | b'n' => {
          let rest = &self.b[self.i..];
          let word: &[u8] = [&b"true"[..], b"false", b"null"]
            .into_iter()
            .find(|w| rest.starts_with(w))
            .ok_or("bad literal")?;
          self.i += word.len();
        }
        _ => self.number()?,
      }
      // A value ended: close brackets until another value is due.
      loop {
        let Some(&top) = open.last() else { return Ok(()) };
        match (self.next()?, top) {
          (b',', b'{') => {
            self.string()?;
            self.expect(b':')?;
            break;
          }
          (b',', _) => break,
          (b'}', b'{') | (b']', b'[') => {
            open.pop();
          }
          (c, _) => return Err(format!("unexpected {:?} at {}", c as char, self.i - 1)),
        }
      }
    }
  }
}

/// Checks a finished run's result against the contract's shape; panics (a fuzzer crash) with
/// the reason and the text otherwise.
pub fn checked(json: &str) -> Outcome {
  match parse(json) {
    Ok(o) => o,
    Err(why) => panic!("malformed result ({why}): {}", json.chars().take(2000).collect::<String>()),
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn reads_results() {
    let o =
      parse(r#"{"logs":["a\n","\ud800x"],"value":{"a":[1,-2.5e+3,"x",null,true,{}],"b":[]}}"#)
        .unwrap();
    assert_eq!(o.logs, vec!["a\n".to_string(), "\u{FFFD}x".to_string()]);
    assert_eq!(o.value.as_deref(), Some(r#"{"a":[1,-2.5e+3,"x",null,true,{}],"b":[]}"#));
    let o = parse(r#"{"logs":[],"error":{"kind":"timeout","message":"m"}}"#).unwrap();
    assert_eq!(o.error, Some(("timeout".into(), "m".into())));
    assert!(parse(r#"{"logs":[]}"#).is_ok());
    for bad in [
      r#"{"logs":[],"value":1,"error":{"kind":"timeout","message":"m"}}"#,
      r#"{"logs":[],"error":{"kind":"nope","message":"m"}}"#,
      r#"{"value":1}"#,
      r#"{"logs":[],"value":[1,]}"#,
      r#"{"logs":[],"value":01}"#,
      r#"{"logs":[],"x":1}"#,
      r#"{"logs":[]} x"#,
    ] {
      assert!(parse(bad).is_err(), "{bad}");
    }
    let deep = format!("{}1{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(is_json(&deep));
  }
}
