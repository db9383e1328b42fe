//! swc's syntax errors in V8's words, at V8's position.
//!
//! A model reads the first line of a failed run and was trained on V8's messages, so a
//! program that does not parse is reported as V8 reports it where the parsers agree on
//! what is wrong: `Unexpected token '}'`, `Unexpected identifier 'foo'`, `Unexpected
//! string`, `Unexpected number`, `Unexpected end of input`, `missing ) after argument
//! list`, `Invalid or unexpected token`, and the specific early errors
//! (`Missing initializer in const declaration`, `Illegal newline after throw`, …). swc
//! words a generic parse error by what it expected (`Expected ',', got 'x'`); V8 by the
//! token it did not expect, which is read here from the text at swc's error position (a
//! small scanner: swc's own token there may not have been captured). Errors with no V8
//! counterpart (TypeScript's) keep swc's words. `docs/messages.md` lists what differs.

use swc_core::common::{BytePos, Spanned};
use swc_ecma_parser::error::SyntaxError;
use swc_ecma_parser::unstable::{Token, TokenAndSpan};

/// V8's message for swc's error `kind` at byte offset `at` of `text` (the wrapped program),
/// and the byte offset V8 reports it at; `None` keeps swc's.
pub(crate) fn message(
  kind: &SyntaxError,
  at: usize,
  text: &str,
  tokens: &[TokenAndSpan],
  start: BytePos,
) -> Option<(String, usize)> {
  use SyntaxError as E;
  let fixed = |m: &str| Some((m.to_owned(), at));
  match kind {
    E::WithLabel { inner, .. } => {
      let at = (inner.span().lo.0.saturating_sub(start.0)) as usize;
      message(inner.kind(), at, text, tokens, start)
    }
    // The scanner's errors: V8 reports the token as illegal.
    E::UnterminatedStrLit
    | E::UnexpectedChar { .. }
    | E::InvalidIdentChar
    | E::IdentAfterNum
    | E::Hash
    | E::UnterminatedBlockComment
    | E::ExpectedDigit { .. }
    | E::NumLitTerminatedWithExp => fixed("Invalid or unexpected token"),
    E::UnterminatedTpl => fixed("Unterminated template literal"),
    E::UnterminatedRegExp => fixed("Invalid regular expression: missing /"),
    E::LegacyOctal => fixed("Octal literals are not allowed in strict mode."),
    E::LegacyDecimal => fixed("Decimals with leading zeros are not allowed in strict mode."),
    E::InvalidStrEscape | E::BadCharacterEscapeSequence { .. } => {
      fixed("Invalid hexadecimal escape sequence")
    }
    E::InvalidUnicodeEscape | E::ExpectedUnicodeEscape => fixed("Invalid Unicode escape sequence"),
    E::NumericSeparatorIsAllowedOnlyBetweenTwoDigits => {
      fixed("Numeric separators are not allowed at the end of numeric literals")
    }
    E::EscapeInReservedWord { .. } => fixed("Keyword must not contain escaped characters"),
    // Early errors V8 names the same way.
    E::InvalidIdentInStrict(_) => fixed("Unexpected strict mode reserved word"),
    E::EvalAndArgumentsInStrict => fixed("Unexpected eval or arguments in strict mode"),
    E::WithInStrict => fixed("Strict mode code may not include a with statement"),
    E::LineBreakInThrow => fixed("Illegal newline after throw"),
    E::ConstDeclarationsRequireInitialization => fixed("Missing initializer in const declaration"),
    E::PatVarWithoutInit => fixed("Missing initializer in destructuring declaration"),
    E::DuplicateLabel(label) => Some((format!("Label '{label}' has already been declared"), at)),
    E::AwaitInFunction => {
      fixed("await is only valid in async functions and the top level bodies of modules")
    }
    E::InvalidSuper | E::InvalidSuperCall => fixed("'super' keyword unexpected here"),
    E::InvalidNewTarget => fixed("new.target expression is not allowed here"),
    E::DuplicateConstructor => fixed("A class may only have one constructor"),
    E::UnaryInExp { .. } => fixed(
      "Unary operator used immediately before exponentiation expression. Parenthesis must be \
       used to disambiguate operator precedence",
    ),
    E::NonLastRestParam => fixed("Rest parameter must be last formal parameter"),
    E::CommaAfterRestElement => fixed("Rest element must be last element"),
    E::GetterParam => fixed("Getter must not have any formal parameters."),
    E::SetterParam | E::SetterParamRequired => {
      fixed("Setter must have exactly one formal parameter.")
    }
    E::RestPatInSetter => fixed("Setter function argument must not be a rest parameter"),
    E::MultipleDefault { .. } => fixed("More than one default clause in switch statement"),
    E::TooManyVarInForInHead => {
      fixed("Invalid left-hand side in for-in loop: Must have a single binding.")
    }
    E::VarInitializerInForInHead => {
      fixed("for-in loop variable declaration may not have an initializer.")
    }
    E::NotSimpleAssign | E::InvalidAssignTarget => fixed("Invalid left-hand side in assignment"),
    E::ReturnNotAllowed => fixed("Illegal return statement"),
    E::AwaitStar | E::NullishCoalescingWithLogicalOp => unexpected(at, text, tokens, start),
    // Generic parse errors: V8 names the token it did not expect.
    E::Eof
    | E::Unexpected { .. }
    | E::UnexpectedTokenWithSuggestions { .. }
    | E::Expected(..)
    | E::ExpectedSemiForExprStmt { .. }
    | E::ExpectedIdent
    | E::ExpectedSemi
    | E::InvalidExpr
    | E::InvalidPat
    | E::TS1003
    | E::TS1005
    | E::TS1009
    | E::TS1109
    | E::TS1110
    | E::DeclNotAllowed
    | E::ArrowNotAllowed
    | E::LineBreakBeforeArrow
    | E::EmptyParenExpr
    | E::SpreadInParenExpr => unexpected(at, text, tokens, start),
    _ => None,
  }
}

/// The message for an unexpected token at `at`: V8's `ReportUnexpectedToken`, or `missing )
/// after argument list` (at the argument before it) inside a call's open argument list.
fn unexpected(
  at: usize,
  text: &str,
  tokens: &[TokenAndSpan],
  start: BytePos,
) -> Option<(String, usize)> {
  let at = skip_trivia(text, at);
  let offset = |t: &TokenAndSpan| t.span.lo.0.saturating_sub(start.0) as usize;
  let before: Vec<&TokenAndSpan> = tokens.iter().take_while(|t| offset(t) < at).collect();
  if let Some(prev) = in_open_arguments(&before) {
    return Some(("missing ) after argument list".into(), offset(prev)));
  }
  Some((token_message(text, at), at))
}

/// Whether the innermost open bracket before the error is a call's `(` with at least one
/// argument read (V8 reports a missing `)` only after an argument); returns the token
/// before the error.
fn in_open_arguments<'a>(before: &[&'a TokenAndSpan]) -> Option<&'a TokenAndSpan> {
  let prev = *before.last()?;
  if matches!(prev.token, Token::LParen | Token::Comma) {
    return None;
  }
  let mut depth = 0usize;
  for (i, t) in before.iter().enumerate().rev() {
    match t.token {
      Token::RParen | Token::RBracket | Token::RBrace => depth += 1,
      Token::LBracket | Token::LBrace | Token::DollarLBrace => {
        if depth == 0 {
          return None;
        }
        depth -= 1;
      }
      Token::LParen => {
        if depth > 0 {
          depth -= 1;
          continue;
        }
        let callee = i.checked_sub(1).map(|j| before[j].token)?;
        let is_call = matches!(
          callee,
          Token::Ident
            | Token::RParen
            | Token::RBracket
            | Token::OptionalChain
            | Token::Super
            | Token::Import
            | Token::NoSubstitutionTemplateLiteral
            | Token::TemplateTail
        ) || (callee.is_known_ident()
          && !matches!(before.get(i.wrapping_sub(2)).map(|t| t.token), Some(Token::Function)));
        let declares = i >= 2 && matches!(before[i - 2].token, Token::Function | Token::Asterisk);
        return (is_call && !declares).then_some(prev);
      }
      _ => {}
    }
  }
  None
}

/// Skips whitespace and comments from `at`.
fn skip_trivia(text: &str, mut at: usize) -> usize {
  let b = text.as_bytes();
  loop {
    while at < b.len() && (b[at] as char).is_ascii_whitespace() {
      at += 1;
    }
    if b[at..].starts_with(b"//") {
      while at < b.len() && b[at] != b'\n' {
        at += 1;
      }
    } else if b[at..].starts_with(b"/*") {
      match text[at + 2..].find("*/") {
        Some(end) => at += end + 4,
        None => return b.len(),
      }
    } else {
      return at.min(b.len());
    }
  }
}

/// JavaScript's punctuators, longest first.
const PUNCTUATORS: &[&str] = &[
  ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
  "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
  "<<", ">>", "**", "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&",
  "|", "^", "!", "~", "?", ":", "=", ".", "@", "#",
];

const KEYWORDS: &[&str] = &[
  "break",
  "case",
  "catch",
  "class",
  "const",
  "continue",
  "debugger",
  "default",
  "delete",
  "do",
  "else",
  "export",
  "extends",
  "false",
  "finally",
  "for",
  "function",
  "if",
  "import",
  "in",
  "instanceof",
  "new",
  "null",
  "return",
  "super",
  "switch",
  "this",
  "throw",
  "true",
  "try",
  "typeof",
  "var",
  "void",
  "while",
  "with",
];

const STRICT_RESERVED: &[&str] = &[
  "implements",
  "interface",
  "let",
  "package",
  "private",
  "protected",
  "public",
  "static",
  "yield",
];

/// V8's `ReportUnexpectedToken` for the token that starts at `at`.
fn token_message(text: &str, at: usize) -> String {
  let rest = &text[at.min(text.len())..];
  let Some(first) = rest.chars().next() else {
    return "Unexpected end of input".into();
  };
  if first.is_ascii_digit() || (first == '.' && rest[1..].starts_with(|c: char| c.is_ascii_digit()))
  {
    return "Unexpected number".into();
  }
  if first == '"' || first == '\'' {
    return "Unexpected string".into();
  }
  if first == '`' {
    return "Unexpected template string".into();
  }
  if first == '$' || first == '_' || first == '\\' || first.is_alphabetic() {
    let word: String =
      rest.chars().take_while(|&c| c == '$' || c == '_' || c.is_alphanumeric()).collect();
    if KEYWORDS.contains(&word.as_str()) {
      return format!("Unexpected token '{word}'");
    }
    if STRICT_RESERVED.contains(&word.as_str()) {
      return "Unexpected strict mode reserved word".into();
    }
    if word == "await" || word == "enum" {
      return "Unexpected reserved word".into();
    }
    return format!("Unexpected identifier '{word}'");
  }
  match PUNCTUATORS.iter().find(|p| rest.starts_with(**p)) {
    Some(p) => format!("Unexpected token '{p}'"),
    None => "Invalid or unexpected token".into(),
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn tokens_are_named_as_v8_names_them() {
    assert_eq!(token_message("a }", 2), "Unexpected token '}'");
    assert_eq!(token_message("x foo", 2), "Unexpected identifier 'foo'");
    assert_eq!(token_message("x 'a'", 2), "Unexpected string");
    assert_eq!(token_message("x 12", 2), "Unexpected number");
    assert_eq!(token_message("x", 1), "Unexpected end of input");
    assert_eq!(token_message("x else", 2), "Unexpected token 'else'");
    assert_eq!(token_message("x let", 2), "Unexpected strict mode reserved word");
    assert_eq!(token_message("x ===", 2), "Unexpected token '==='");
    assert_eq!(skip_trivia("a /* c */ // d\n b", 1), 16);
  }
}
