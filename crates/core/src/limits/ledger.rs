//! The output ledger: what the run printed and returned, and what it costs in bytes.
//!
//! The contract measures output as `utf8(JSON.stringify(logs))` plus the completion's or
//! failure message's `JSON.stringify`, so the ledger keeps exactly that number as entries
//! arrive, and stops buffering the moment the cap is crossed (a log flood then costs
//! bounded memory). The finished result is emitted as JSON text whose bytes are the ones the
//! ledger counted: the JSON string writer here is the one `JSON.stringify` would be.
//!
//! Strings come from QuickJS as WTF-8 (UTF-8 that may encode lone surrogates as 3-byte
//! sequences), which this module writes as `\udXXX` escapes, as `JSON.stringify` does.

use crate::messages;

/// A run's ending, in the contract's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
  Exception,
  Timeout,
  Abort,
  WorkerExit,
  InvalidOutput,
  OutputLimit,
}

impl FailureKind {
  pub fn as_str(self) -> &'static str {
    match self {
      FailureKind::Exception => "exception",
      FailureKind::Timeout => "timeout",
      FailureKind::Abort => "abort",
      FailureKind::WorkerExit => "worker-exit",
      FailureKind::InvalidOutput => "invalid-output",
      FailureKind::OutputLimit => "output-limit",
    }
  }
}

/// A failed run's `error` field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
  pub kind: FailureKind,
  pub message: String,
}

impl Failure {
  pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
    Failure { kind, message: message.into() }
  }
}

/// How a run ended before the ledger turns it into the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
  /// The program returned; `None` for `undefined`, else the value's JSON text.
  Value(Option<String>),
  Failed(Failure),
}

/// Logs as they arrive, with the running byte count of `JSON.stringify(logs)`.
#[derive(Debug)]
pub struct Ledger {
  max_bytes: u64,
  /// The entries as QuickJS gave them (WTF-8: lone surrogates stay, and are written as the
  /// `\udXXX` escapes `JSON.stringify` writes, so the host's strings keep them).
  entries: Vec<Vec<u8>>,
  /// Bytes of `JSON.stringify(entries)`.
  logs_bytes: u64,
  overflowed: bool,
}

impl Ledger {
  pub fn new(max_bytes: u64) -> Self {
    Ledger { max_bytes, entries: Vec::new(), logs_bytes: 2, overflowed: false }
  }

  pub fn max_bytes(&self) -> u64 {
    self.max_bytes
  }

  /// Records one log entry (WTF-8). Returns false once the cap has been crossed; the entry
  /// that crossed it is kept only as far as needed to cut the final prefix.
  pub fn push(&mut self, entry: Vec<u8>) -> bool {
    if self.overflowed {
      return false;
    }
    let cost = json_string_len(&entry) + u64::from(!self.entries.is_empty());
    self.logs_bytes += cost;
    self.entries.push(entry);
    if self.logs_bytes > self.max_bytes {
      self.overflowed = true;
      return false;
    }
    true
  }

  pub fn overflowed(&self) -> bool {
    self.overflowed
  }

  /// Bytes left for the completion before the cap, if any.
  pub fn remaining(&self) -> u64 {
    self.max_bytes.saturating_sub(self.logs_bytes)
  }

  /// The result object as JSON text: `{"logs":[…]}`, `{"logs":[…],"value":…}` or
  /// `{"logs":[…],"error":{"kind":…,"message":…}}`, after the cap is applied.
  pub fn finish(self, completion: Completion) -> String {
    let completion_bytes = match &completion {
      Completion::Value(None) => 0,
      Completion::Value(Some(json)) => json.len() as u64,
      Completion::Failed(f) => json_string_len(f.message.as_bytes()),
    };
    let forced = matches!(&completion, Completion::Failed(f) if f.kind == FailureKind::OutputLimit);
    if forced || self.overflowed || self.logs_bytes + completion_bytes > self.max_bytes {
      return self.finish_over_cap();
    }
    let mut head = String::with_capacity(self.logs_bytes as usize + 40);
    head.push_str("{\"logs\":");
    write_logs(&mut head, &self.entries);
    let mut out = match completion {
      Completion::Value(None) => head,
      Completion::Value(Some(mut json)) => {
        // The value can be megabytes: the result is made in its buffer (moving it along to
        // make room for the head) rather than copied into fresh memory.
        head.push_str(",\"value\":");
        json.insert_str(0, &head);
        json
      }
      Completion::Failed(f) => {
        write_error(&mut head, &f);
        head
      }
    };
    out.push('}');
    out
  }

  /// The longest prefix of the logs (the last entry possibly cut at a code point) that fits
  /// beside the output-limit message, then that message, itself cut to what is left when
  /// even `[]` and the whole message would not fit: `bytes(logs) + bytes(message)` never
  /// exceeds the cap, down to the minimum cap of 4 (`[]` and `""`).
  fn finish_over_cap(self) -> String {
    let full_message = messages::output_exceeded(self.max_bytes);
    let budget = self.max_bytes.saturating_sub(json_string_len(full_message.as_bytes()));
    let mut entries: Vec<&[u8]> = Vec::new();
    let mut used: u64 = 2;
    for entry in &self.entries {
      let sep = u64::from(!entries.is_empty());
      let room = budget.saturating_sub(used + sep);
      let full = json_string_len(entry);
      if used + sep + full <= budget {
        used += sep + full;
        entries.push(entry);
        continue;
      }
      let cut = longest_fitting_prefix(entry, room);
      if !cut.is_empty() {
        used += sep + json_string_len(cut);
        entries.push(cut);
      }
      break;
    }
    let message =
      longest_fitting_prefix(full_message.as_bytes(), self.max_bytes.saturating_sub(used));
    // A prefix of UTF-8 cut at a code point is UTF-8.
    let failure = Failure::new(FailureKind::OutputLimit, String::from_utf8_lossy(message));
    let mut out = String::from("{\"logs\":");
    write_logs(&mut out, &entries);
    write_error(&mut out, &failure);
    out.push('}');
    out
  }
}

/// The longest prefix of WTF-8 `text`, cut at a code point (a lone surrogate is one), whose
/// JSON string (quotes included) takes at most `max_json_bytes`; empty when not even the
/// quotes and one character fit.
fn longest_fitting_prefix(text: &[u8], max_json_bytes: u64) -> &[u8] {
  let Some(mut room) = max_json_bytes.checked_sub(2) else {
    return &[];
  };
  let mut end = 0;
  while end < text.len() {
    let width = match text[end] {
      0x00..=0x7F => 1,
      0xC0..=0xDF => 2,
      0xE0..=0xEF => 3,
      _ => 4,
    };
    let next = (end + width).min(text.len());
    let cost = json_string_len(&text[end..next]) - 2;
    if cost > room {
      break;
    }
    room -= cost;
    end = next;
  }
  &text[..end]
}

fn write_logs<B: AsRef<[u8]>>(out: &mut String, entries: &[B]) {
  out.push('[');
  for (i, e) in entries.iter().enumerate() {
    if i > 0 {
      out.push(',');
    }
    write_json_string(out, e.as_ref());
  }
  out.push(']');
}

fn write_error(out: &mut String, f: &Failure) {
  out.push_str(",\"error\":{\"kind\":\"");
  out.push_str(f.kind.as_str());
  out.push_str("\",\"message\":");
  write_json_string(out, f.message.as_bytes());
  out.push('}');
}

/// A lone surrogate encoded WTF-8 style (ED A0..BF xx) decodes to this code unit.
fn lone_surrogate_at(bytes: &[u8], i: usize) -> Option<u16> {
  if bytes[i] == 0xED && i + 2 < bytes.len() && (0xA0..=0xBF).contains(&bytes[i + 1]) {
    let cu = 0xD000 | ((u16::from(bytes[i + 1]) & 0x3F) << 6) | (u16::from(bytes[i + 2]) & 0x3F);
    return Some(cu);
  }
  None
}

/// Bytes `JSON.stringify` produces for this string, quotes included.
pub fn json_string_len(bytes: &[u8]) -> u64 {
  let mut n: u64 = 2;
  let mut i = 0;
  while i < bytes.len() {
    let b = bytes[i];
    n += match b {
      b'"' | b'\\' | 0x08 | 0x0C | b'\n' | b'\r' | b'\t' => 2,
      0x00..=0x1F => 6,
      0xED if lone_surrogate_at(bytes, i).is_some() => {
        i += 3;
        n += 6;
        continue;
      }
      _ => 1,
    };
    i += 1;
  }
  n
}

/// Appends the string as `JSON.stringify` writes it.
pub fn write_json_string(out: &mut String, bytes: &[u8]) {
  let mut text = Vec::with_capacity(bytes.len() + 2);
  write_json_bytes(&mut text, bytes);
  match String::from_utf8(text) {
    Ok(text) => out.push_str(&text),
    // Only bytes that were not WTF-8 to begin with get here.
    Err(e) => out.push_str(&String::from_utf8_lossy(e.as_bytes())),
  }
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Appends the escape `JSON.stringify` writes for an ASCII `"`, `\\` or control character.
fn write_ascii_escape(out: &mut Vec<u8>, b: u8) {
  let esc: &[u8] = match b {
    b'"' => b"\\\"",
    b'\\' => b"\\\\",
    0x08 => b"\\b",
    0x0C => b"\\f",
    b'\n' => b"\\n",
    b'\r' => b"\\r",
    b'\t' => b"\\t",
    _ => {
      out.extend_from_slice(b"\\u00");
      out.extend_from_slice(&[HEX[(b >> 4) as usize], HEX[(b & 0xF) as usize]]);
      return;
    }
  };
  out.extend_from_slice(esc);
}

/// Appends WTF-8 `bytes` as `JSON.stringify` writes the string: the result is UTF-8 (lone
/// surrogates become `\uXXXX` escapes), and runs without escapes are copied whole.
pub fn write_json_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
  out.reserve(bytes.len() + 2);
  out.push(b'"');
  let mut start = 0;
  let mut i = 0;
  while i < bytes.len() {
    let b = bytes[i];
    if b >= 0x20 && b != b'"' && b != b'\\' && b != 0xED {
      i += 1;
      continue;
    }
    if b != 0xED {
      out.extend_from_slice(&bytes[start..i]);
      write_ascii_escape(out, b);
      i += 1;
      start = i;
    } else if let Some(cu) = lone_surrogate_at(bytes, i) {
      out.extend_from_slice(&bytes[start..i]);
      out.extend_from_slice(b"\\u");
      for shift in [12, 8, 4, 0] {
        out.push(HEX[((cu >> shift) & 0xF) as usize]);
      }
      i += 3;
      start = i;
    } else {
      i += 1;
    }
  }
  out.extend_from_slice(&bytes[start..]);
  out.push(b'"');
}

/// Appends a one-byte (Latin-1) string as `JSON.stringify` writes it, in UTF-8: what
/// [`write_json_bytes`] writes for the same characters, without QuickJS converting them to
/// UTF-8 first.
pub fn write_json_latin1(out: &mut Vec<u8>, chars: &[u8]) {
  out.reserve(chars.len() + 2);
  out.push(b'"');
  let mut start = 0;
  for (i, &c) in chars.iter().enumerate() {
    if (0x20..0x80).contains(&c) && c != b'"' && c != b'\\' {
      continue;
    }
    out.extend_from_slice(&chars[start..i]);
    start = i + 1;
    if c >= 0x80 {
      out.extend_from_slice(&[0xC0 | (c >> 6), 0x80 | (c & 0x3F)]);
    } else {
      write_ascii_escape(out, c);
    }
  }
  out.extend_from_slice(&chars[start..]);
  out.push(b'"');
}

#[cfg(test)]
mod tests {
  use super::*;

  fn s(b: &str) -> String {
    let mut out = String::new();
    write_json_string(&mut out, b.as_bytes());
    out
  }

  #[test]
  fn json_strings_escape_like_json_stringify() {
    assert_eq!(
      s("a\"b\\c\n\t\u{1}\u{1f}/\u{2028}é"),
      "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f/\u{2028}é\""
    );
    assert_eq!(json_string_len("a\"b\\c\n\t\u{1}".as_bytes()), s("a\"b\\c\n\t\u{1}").len() as u64);
  }

  #[test]
  fn lone_surrogates_are_escaped() {
    let mut out = String::new();
    write_json_string(&mut out, &[b'x', 0xED, 0xA0, 0x80, b'y']);
    assert_eq!(out, "\"x\\ud800y\"");
    assert_eq!(json_string_len(&[b'x', 0xED, 0xA0, 0x80, b'y']), out.len() as u64);
  }

  #[test]
  fn value_boundary_euro() {
    // "€" is 5 bytes of JSON, [] is 2.
    let l = Ledger::new(7);
    assert_eq!(l.finish(Completion::Value(Some("\"€\"".into()))), "{\"logs\":[],\"value\":\"€\"}");
    // [] and the message's quotes leave 2 bytes of message.
    let l = Ledger::new(6);
    let out = l.finish(Completion::Value(Some("\"€\"".into())));
    assert_eq!(out, r#"{"logs":[],"error":{"kind":"output-limit","message":"ou"}}"#);
  }

  #[test]
  fn logs_plus_value_boundary() {
    let mut l = Ledger::new(11);
    assert!(l.push(b"abc".to_vec()));
    assert_eq!(
      l.finish(Completion::Value(Some("\"xy\"".into()))),
      r#"{"logs":["abc"],"value":"xy"}"#
    );
    let mut l = Ledger::new(10);
    l.push(b"abc".to_vec());
    let out = l.finish(Completion::Value(Some("\"xy\"".into())));
    assert_eq!(out, r#"{"logs":[],"error":{"kind":"output-limit","message":"outer "}}"#);
    let mut l = Ledger::new(11);
    l.push(b"abc".to_vec());
    let out = l.finish(Completion::Failed(Failure::new(FailureKind::Exception, "xy")));
    assert_eq!(out, r#"{"logs":["abc"],"error":{"kind":"exception","message":"xy"}}"#);
  }

  #[test]
  fn over_cap_keeps_the_longest_fitting_prefix_cut_at_a_code_point() {
    let msg_len = json_string_len(messages::output_exceeded(60).as_bytes());
    let mut l = Ledger::new(60);
    l.push("€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€".as_bytes().to_vec());
    assert!(l.overflowed());
    let out = l.finish(Completion::Value(None));
    let budget = 60 - msg_len; // bytes for the logs array
    let logs_part = &out[8..out.find(",\"error\"").unwrap()];
    assert!(logs_part.len() as u64 <= budget, "{out}");
    assert!(logs_part.len() as u64 + 3 > budget, "{out}");
    assert!(logs_part.starts_with("[\"€"), "{out}");
  }

  /// Lone surrogates in a log (WTF-8 from QuickJS) reach the host as the escapes
  /// `JSON.stringify` writes, so the host's string holds the same code units (they used to
  /// become three U+FFFD each); a cut over the cap never splits one.
  #[test]
  fn lone_surrogates_in_logs_cross_as_escapes() {
    let lone_high = [0xED, 0xA0, 0x80]; // U+D800
    let lone_low = [0xED, 0xBF, 0xBF]; // U+DFFF
    let mut l = Ledger::new(1000);
    l.push([b"x".as_slice(), &lone_low, b"y"].concat());
    l.push([lone_high.as_slice(), b" lone"].concat());
    assert_eq!(l.finish(Completion::Value(None)), r#"{"logs":["x\udfffy","\ud800 lone"]}"#);
    let msg_len = json_string_len(messages::output_exceeded(60).as_bytes());
    let mut l = Ledger::new(60);
    l.push(lone_high.repeat(40));
    let out = l.finish(Completion::Value(None));
    let (logs, _) = over_cap_parts(&out);
    assert!(logs.len() as u64 <= 60 - msg_len, "{out}");
    assert!(logs.starts_with(r#"["\ud800"#) && logs.ends_with(r#"\ud800"]"#), "{out}");
  }

  #[test]
  fn pushes_stop_after_overflow() {
    let mut l = Ledger::new(10);
    assert!(l.push(b"12345".to_vec()));
    assert!(!l.push(b"67890".to_vec()));
    assert!(!l.push(b"x".to_vec()));
    assert_eq!(l.entries.len(), 2);
  }

  /// `bytes(logs)` and `bytes(message)` of an output-limit result.
  fn over_cap_parts(out: &str) -> (&str, &str) {
    let logs = &out["{\"logs\":".len()..out.find(",\"error\"").unwrap()];
    let message = &out[out.find("\"message\":").unwrap() + "\"message\":".len()..out.len() - 2];
    (logs, message)
  }

  #[test]
  fn the_minimum_cap_keeps_an_empty_log_list_and_an_empty_message() {
    let out = Ledger::new(4)
      .finish(Completion::Failed(Failure::new(FailureKind::Exception, "SyntaxError: x")));
    assert_eq!(out, r#"{"logs":[],"error":{"kind":"output-limit","message":""}}"#);
    let mut l = Ledger::new(4);
    assert!(!l.push(b"a".to_vec()));
    assert_eq!(
      l.finish(Completion::Value(None)),
      r#"{"logs":[],"error":{"kind":"output-limit","message":""}}"#
    );
  }

  #[test]
  fn logs_and_message_never_exceed_any_cap() {
    let logs: [&[u8]; 4] =
      [b"start-\xF0\x9F\x98\x80\"\\\n", "héllo €".as_bytes(), b"tab\there", b"\x01end"];
    for cap in 4..160u64 {
      for completion in [
        Completion::Value(Some(
          "\"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\""
            .into(),
        )),
        Completion::Failed(Failure::new(FailureKind::Exception, "x".repeat(200))),
      ] {
        let mut l = Ledger::new(cap);
        for entry in logs {
          if !l.push(entry.to_vec()) {
            break;
          }
        }
        let out = l.finish(completion);
        if !out.contains("\"output-limit\"") {
          assert!(out.len() - r#"{"logs":,"value":}"#.len() <= cap as usize, "cap {cap}: {out}");
          continue;
        }
        let (kept, message) = over_cap_parts(&out);
        assert!(kept.len() + message.len() <= cap as usize, "cap {cap}: {out}");
        let full = messages::output_exceeded(cap);
        let text = &message[1..message.len() - 1];
        assert!(full.starts_with(text), "cap {cap}: {out}");
        // A log is kept only beside the whole message; a cut message means nothing else fit.
        if kept != "[]" {
          assert_eq!(text, full, "cap {cap}: {out}");
        }
        if text != full {
          assert_eq!(message.len(), cap as usize - 2, "cap {cap}: {out}");
        }
      }
    }
  }

  #[test]
  fn a_cut_log_ends_at_a_code_point_and_escapes_stay_whole() {
    // The message ("outer output exceeded 52 bytes" and its quotes) is 32 bytes: 20 for the logs.
    let mut l = Ledger::new(52);
    l.push("ab😀\"\\cdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop".as_bytes().to_vec());
    let out = l.finish(Completion::Value(None));
    // [" + ab (2) + 😀 (4) + \" (2) + \\ (2) + cdefgh (6) + "] = 20.
    assert_eq!(
      out,
      r#"{"logs":["ab😀\"\\cdefgh"],"error":{"kind":"output-limit","message":"outer output exceeded 52 bytes"}}"#
    );
    let mut l = Ledger::new(35);
    l.push("😀".repeat(10).into_bytes());
    // 3 bytes for the logs: not even [""] fits, so no entry is kept.
    assert_eq!(
      l.finish(Completion::Value(None)),
      r#"{"logs":[],"error":{"kind":"output-limit","message":"outer output exceeded 35 bytes"}}"#
    );
  }
}
