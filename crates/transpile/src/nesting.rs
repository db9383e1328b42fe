//! A bound on how deeply a program nests, checked before swc sees it.
//!
//! swc's parser, passes, printer and the AST's `Drop` recurse once per nesting level, and
//! some passes are quadratic in block depth (5,000 nested blocks take about a second,
//! 50,000 overflow a 64 MiB stack and abort the process). Real programs nest a few dozen
//! levels, so a program whose *nesting score* exceeds [`MAX_NESTING`] is refused as a syntax
//! error before parsing.
//!
//! The score is computed by a small lexer (strings, template literals, comments and regular
//! expression literals are skipped) as the bracket depth plus the length of the current
//! chain of right-nesting tokens (prefix operators such as `!` or `typeof`, `?`, `=`, `=>`,
//! a type's `<` until its `>`, and statement keywords like `if` that nest without brackets). Chains end at `;`, `,` and
//! closing brackets, and at a line break after a complete value. The estimate errs on the
//! high side, and only for code no one writes.

/// The highest nesting score a program may have.
pub const MAX_NESTING: usize = 1000;

const CHAIN_KEYWORDS: &[&str] = &[
  "typeof", "void", "delete", "await", "new", "yield", "if", "else", "for", "while", "with", "do",
];

/// The position (byte offset) where the program first nests deeper than [`MAX_NESTING`].
pub fn too_deep(src: &str) -> Option<usize> {
  let b = src.as_bytes();
  let mut i = 0;
  // Bracket stack: b'(' b'[' b'{', or b'$' for a template substitution `${`.
  let mut brackets: Vec<u8> = Vec::new();
  // Chain length saved at each open bracket, restored when it closes.
  let mut chains: Vec<usize> = Vec::new();
  let mut chain = 0usize;
  // Whether a `/` here would start a regular expression (no value just before it).
  let mut expect_value = true;
  while i < b.len() {
    let c = b[i];
    if brackets.len() + chain > MAX_NESTING {
      return Some(i);
    }
    match c {
      b'\n' => {
        // A line break after a complete value ends the statement (ASI-style programs).
        if !expect_value {
          chain = 0;
        }
        i += 1;
      }
      b' ' | b'\t' | b'\r' => i += 1,
      b'/' if b.get(i + 1) == Some(&b'/') => {
        while i < b.len() && b[i] != b'\n' {
          i += 1;
        }
      }
      b'/' if b.get(i + 1) == Some(&b'*') => {
        i += 2;
        while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
          i += 1;
        }
        i += 2;
      }
      b'/' if expect_value => {
        i = skip_regex(b, i);
        expect_value = false;
      }
      b'\'' | b'"' => {
        i = skip_string(b, i);
        expect_value = false;
      }
      b'`' => {
        i = skip_template(b, i + 1, &mut brackets, &mut chains, &mut chain);
        expect_value = false;
      }
      b'(' | b'[' | b'{' => {
        brackets.push(c);
        chains.push(chain);
        chain = 0;
        expect_value = true;
        i += 1;
      }
      b')' | b']' | b'}' => {
        let open = brackets.pop();
        chain = chains.pop().unwrap_or(0);
        i += 1;
        expect_value = c == b'}';
        if open == Some(b'$') {
          i = skip_template(b, i, &mut brackets, &mut chains, &mut chain);
          expect_value = false;
        }
      }
      b';' | b',' => {
        chain = 0;
        expect_value = true;
        i += 1;
      }
      b'!' | b'~' | b'?' => {
        if b.get(i + 1) != Some(&b'=')
          && !(c == b'?' && matches!(b.get(i + 1), Some(b'.') | Some(b'?')))
        {
          chain += 1;
        }
        expect_value = true;
        i += 1;
      }
      b'=' => {
        match b.get(i + 1) {
          Some(b'>') => {
            chain += 1;
            i += 2;
          }
          Some(b'=') => i += 2,
          _ => {
            chain += 1;
            i += 1;
          }
        }
        expect_value = true;
      }
      b'<' | b'>' if b.get(i + 1) == Some(&b'=') => {
        expect_value = true;
        i += 2;
      }
      b'<' if b.get(i + 1) == Some(&b'<') => {
        expect_value = true;
        i += 2;
      }
      // A type's generic arguments nest (`Array<Array<…>>`); a `>` closes one. Comparisons
      // count as well, which only a statement of a thousand unclosed `<` would notice.
      b'<' => {
        chain += 1;
        expect_value = true;
        i += 1;
      }
      b'>' => {
        chain = chain.saturating_sub(1);
        expect_value = true;
        i += 1;
      }
      b'+' | b'-' => {
        // Unary when no value precedes it (`- - -x`); binary chains are iterative in swc.
        if expect_value {
          chain += 1;
        }
        expect_value = true;
        i += 1;
      }
      c if c == b'_' || c == b'$' || c.is_ascii_alphanumeric() || c >= 0x80 => {
        let start = i;
        while i < b.len()
          && (b[i] == b'_' || b[i] == b'$' || b[i].is_ascii_alphanumeric() || b[i] >= 0x80)
        {
          i += 1;
        }
        let word = &src[start..i];
        if CHAIN_KEYWORDS.contains(&word) {
          chain += 1;
          expect_value = true;
        } else {
          expect_value = matches!(word, "return" | "case" | "in" | "of" | "instanceof" | "throw");
        }
      }
      _ => {
        expect_value = true;
        i += 1;
      }
    }
  }
  None
}

fn skip_string(b: &[u8], mut i: usize) -> usize {
  let quote = b[i];
  i += 1;
  while i < b.len() && b[i] != quote && b[i] != b'\n' {
    i += if b[i] == b'\\' { 2 } else { 1 };
  }
  i + 1
}

fn skip_regex(b: &[u8], mut i: usize) -> usize {
  i += 1;
  let mut class = false;
  while i < b.len() && b[i] != b'\n' {
    match b[i] {
      b'\\' => i += 1,
      b'[' => class = true,
      b']' => class = false,
      b'/' if !class => return i + 1,
      _ => {}
    }
    i += 1;
  }
  i
}

/// Skips template text from `i` up to the closing backtick, or up to a `${`, which it
/// pushes as a bracket (the matching `}` resumes the template).
fn skip_template(
  b: &[u8],
  mut i: usize,
  brackets: &mut Vec<u8>,
  chains: &mut Vec<usize>,
  chain: &mut usize,
) -> usize {
  while i < b.len() {
    match b[i] {
      b'\\' => i += 2,
      b'`' => return i + 1,
      b'$' if b.get(i + 1) == Some(&b'{') => {
        brackets.push(b'$');
        chains.push(*chain);
        *chain = 0;
        return i + 2;
      }
      _ => i += 1,
    }
  }
  i
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn ordinary_programs_pass() {
    for src in [
      "const a = [1, [2, [3]]]; if (a) { for (const x of a) { console.log(`${x} ${`${x}`}`) } }",
      "const r = /[(\\[]/g; const s = '((((('; return a ? b : c ? d : e",
      "x = y = z = 1; const f = () => () => 1; return !!typeof x",
      "// ((((((\n/* [[[[[ */ return 1",
      "const m: Map<string, Set<Array<number>>> = new Map(); x <<= 1; return a < b && c >= d >> 2",
    ] {
      assert_eq!(too_deep(src), None, "{src}");
    }
    let asi = "let x = 1\nif (x) x = 2\nconst y = x ? 1 : 2\n".repeat(2000);
    let semis = "let a = b = c = 1; if (a) f(); else g();\n".repeat(2000);
    let generics = format!("type T = {};", "Array<Map<K, V>> | ".repeat(2000));
    for src in [asi.as_str(), semis.as_str(), generics.as_str()] {
      assert_eq!(too_deep(src), None, "{src}");
    }
  }

  #[test]
  fn deep_nesting_of_every_kind_is_refused() {
    let n = MAX_NESTING + 10;
    for src in [
      format!("return {}1{}", "[".repeat(n), "]".repeat(n)),
      format!("return {}1{}", "(".repeat(n), ")".repeat(n)),
      format!("{}{}", "{".repeat(n), "}".repeat(n)),
      format!("return {}1", "!".repeat(n)),
      format!("return {}1", "typeof ".repeat(n)),
      format!("return {}1", "a?b:".repeat(n)),
      format!("return {}1", "()=>".repeat(n)),
      format!("{}return 1", "if(1)".repeat(n)),
      format!("let x; return {}1", "x=".repeat(n)),
      format!("return {}1", "- ".repeat(n)),
      format!("return `{}{}`", "${`".repeat(n), "`}".repeat(n)),
      format!("type T = {}number{}", "Array<".repeat(n), ">".repeat(n)),
    ] {
      assert!(too_deep(&src).is_some(), "{}", &src[..40]);
    }
  }

  #[test]
  fn long_flat_programs_pass() {
    let sum = format!("return {}1", "1+".repeat(100_000));
    assert_eq!(too_deep(&sum), None);
    let stmts = "x = 1;\n".repeat(100_000);
    assert_eq!(too_deep(&stmts), None);
    let array = format!("return [{}]", "[1],".repeat(100_000));
    assert_eq!(too_deep(&array), None);
  }
}
