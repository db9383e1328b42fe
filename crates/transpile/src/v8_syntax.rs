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
  let offset = |t: &TokenAndSpan| t.span.lo.0.saturating_sub(start.0) as usize;
  // The last token of `kind` that starts at or before the error, as V8 reports some rules
  // at a token swc has passed.
  let last =
    |kind: Token| tokens.iter().take_while(|t| offset(t) <= at).filter(|t| t.token == kind).last();
  // The first token of `kind` at or after the error.
  let next = |kind: Token| tokens.iter().find(|t| offset(t) >= at && t.token == kind);
  let word_after = |from: usize| {
    let rest = text.get(from..).unwrap_or("");
    let rest = rest.trim_start_matches([' ', '\t']);
    let word: String =
      rest.chars().take_while(|&c| c == '$' || c == '_' || c.is_alphanumeric()).collect();
    (!word.is_empty()).then(|| (word, text.len() - rest.len()))
  };
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
    | E::UnterminatedBlockComment => fixed("Invalid or unexpected token"),
    // A number that ends early (`0x`): at the number, where V8's scanner starts the token.
    E::ExpectedDigit { .. } | E::NumLitTerminatedWithExp => {
      Some(("Invalid or unexpected token".into(), number_start(text, at)))
    }
    // At the end of the text: V8 runs out of input inside the template.
    E::UnterminatedTpl => fixed("Unexpected end of input"),
    E::UnterminatedRegExp => fixed("Invalid regular expression: missing /"),
    E::LegacyOctal | E::TS1085 => fixed("Octal literals are not allowed in strict mode."),
    E::LegacyDecimal => fixed("Decimals with leading zeros are not allowed in strict mode."),
    E::InvalidStrEscape | E::BadCharacterEscapeSequence { .. } => {
      fixed("Invalid hexadecimal escape sequence")
    }
    E::InvalidUnicodeEscape | E::ExpectedUnicodeEscape => fixed("Invalid Unicode escape sequence"),
    E::NumericSeparatorIsAllowedOnlyBetweenTwoDigits => Some(separator(text, at)),
    E::EscapeInReservedWord { .. } => fixed("Keyword must not contain escaped characters"),
    // Early errors V8 names the same way.
    E::InvalidIdentInStrict(_) => fixed("Unexpected strict mode reserved word"),
    E::EvalAndArgumentsInStrict => fixed("Unexpected eval or arguments in strict mode"),
    E::WithInStrict | E::TS2410 => fixed("Strict mode code may not include a with statement"),
    // At the `throw`, which V8 has not passed yet.
    E::LineBreakInThrow => {
      Some(("Illegal newline after throw".into(), last(Token::Throw).map_or(at, offset)))
    }
    E::ConstDeclarationsRequireInitialization
      if text.get(at..).is_some_and(|r| r.starts_with(['{', '['])) =>
    {
      fixed("Missing initializer in destructuring declaration")
    }
    E::ConstDeclarationsRequireInitialization => fixed("Missing initializer in const declaration"),
    E::PatVarWithoutInit => fixed("Missing initializer in destructuring declaration"),
    E::DuplicateLabel(label) => Some((format!("Label '{label}' has already been declared"), at)),
    E::AwaitInFunction => {
      fixed("await is only valid in async functions and the top level bodies of modules")
    }
    E::InvalidSuper | E::InvalidSuperCall => fixed("'super' keyword unexpected here"),
    E::InvalidNewTarget => fixed("new.target expression is not allowed here"),
    E::DuplicateConstructor => fixed("A class may only have one constructor"),
    E::UnaryInExp { .. } => Some((
      "Unary operator used immediately before exponentiation expression. Parenthesis must be \
       used to disambiguate operator precedence"
        .into(),
      unary_before_exp(at, tokens, start).unwrap_or(at),
    )),
    // At what follows the rest parameter.
    E::NonLastRestParam | E::TS1014 => Some((
      "Rest parameter must be last formal parameter".into(),
      next(Token::Comma).map_or(at, offset),
    )),
    E::CommaAfterRestElement => fixed("Rest element must be last element"),
    // At the parameter list.
    E::GetterParam => Some((
      "Getter must not have any formal parameters.".into(),
      next(Token::LParen).map_or(at, offset),
    )),
    E::SetterParam | E::SetterParamRequired => Some((
      "Setter must have exactly one formal parameter.".into(),
      next(Token::LParen).map_or(at, offset),
    )),
    E::RestPatInSetter => fixed("Setter function argument must not be a rest parameter"),
    // At the second `default`.
    E::MultipleDefault { .. } => Some((
      "More than one default clause in switch statement".into(),
      last(Token::Default).map_or(at, offset),
    )),
    // `break`/`continue` where they cannot jump; a label that is not there, at the label.
    E::TS1105 => fixed("Illegal break statement"),
    E::TS1115 if word_after(at + "continue".len()).is_none() => {
      fixed("Illegal continue statement: no surrounding iteration statement")
    }
    E::TS1116 | E::TS1107 => {
      let keyword =
        if text.get(at..).is_some_and(|r| r.starts_with("break")) { "break" } else { "continue" };
      let (label, label_at) = word_after(at + keyword.len())?;
      Some((format!("Undefined label '{label}'"), label_at))
    }
    E::TS2406
      if tokens
        .iter()
        .take_while(|t| offset(t) < at)
        .last()
        .is_some_and(|t| matches!(t.token, Token::PlusPlus | Token::MinusMinus)) =>
    {
      fixed("Invalid left-hand side expression in prefix operation")
    }
    E::TS2406 => {
      // A postfix `++`/`--` after the operand, or else an assignment.
      let mut depth = 0usize;
      for t in tokens.iter().filter(|t| offset(t) >= at) {
        match t.token {
          Token::LParen | Token::LBracket | Token::LBrace => depth += 1,
          Token::RParen | Token::RBracket | Token::RBrace if depth > 0 => depth -= 1,
          Token::PlusPlus | Token::MinusMinus if depth == 0 => {
            return fixed("Invalid left-hand side expression in postfix operation");
          }
          _ if depth == 0 && t.token.is_assign_op() => break,
          Token::RParen | Token::RBracket | Token::RBrace | Token::Semi | Token::Comma => break,
          _ => {}
        }
      }
      fixed("Invalid left-hand side in assignment")
    }
    E::TooManyVarInForInHead => {
      fixed("Invalid left-hand side in for-in loop: Must have a single binding.")
    }
    E::VarInitializerInForInHead => {
      fixed("for-in loop variable declaration may not have an initializer.")
    }
    E::NotSimpleAssign | E::InvalidAssignTarget => fixed("Invalid left-hand side in assignment"),
    E::ReturnNotAllowed => fixed("Illegal return statement"),
    E::AwaitStar => unexpected(at, text, tokens, start, kind),
    // At the operator that mixes `??` with `||`/`&&`.
    E::NullishCoalescingWithLogicalOp => match mixed_operator(at, tokens, start) {
      Some(op) => unexpected(op, text, tokens, start, kind),
      None => unexpected(at, text, tokens, start, kind),
    },
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
    | E::SpreadInParenExpr => unexpected(at, text, tokens, start, kind),
    _ => None,
  }
}

/// Where the number literal that `at` ends or is inside starts.
fn number_start(text: &str, at: usize) -> usize {
  let b = text.as_bytes();
  let mut i = at.min(b.len());
  while i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.') {
    i -= 1;
  }
  i
}

/// V8's message for a misplaced numeric separator in the number at or around `at`: two in a
/// row (at the second), or one at the end (at it).
fn separator(text: &str, at: usize) -> (String, usize) {
  let from = number_start(text, at);
  let b = text.as_bytes();
  let mut end = from;
  while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_' || b[end] == b'.') {
    end += 1;
  }
  let literal = &text[from..end];
  if let Some(i) = literal.find("__") {
    return ("Only one underscore is allowed as numeric separator".into(), from + i + 1);
  }
  match literal.find('_') {
    Some(i) if literal.ends_with('_') => {
      ("Numeric separators are not allowed at the end of numeric literals".into(), from + i)
    }
    _ => ("Numeric separators are not allowed at the end of numeric literals".into(), at),
  }
}

/// The unary operator whose operand `**` follows (`-2 ** 2`, `typeof a.b ** 2`): V8 reports
/// the expression where it starts. Walks back from the last `**` before `at` over a postfix
/// expression (names, literals, `.`, calls and indexing); `None` if no unary operator is there.
fn unary_before_exp(at: usize, tokens: &[TokenAndSpan], start: BytePos) -> Option<usize> {
  let offset = |t: &TokenAndSpan| t.span.lo.0.saturating_sub(start.0) as usize;
  let exp = tokens.iter().rposition(|t| offset(t) <= at && t.token == Token::Exp)?;
  let mut depth = 0usize;
  for t in tokens[..exp].iter().rev() {
    match t.token {
      Token::RParen | Token::RBracket => depth += 1,
      Token::LParen | Token::LBracket if depth > 0 => depth -= 1,
      _ if depth > 0 => {}
      Token::Minus
      | Token::Plus
      | Token::Bang
      | Token::Tilde
      | Token::TypeOf
      | Token::Void
      | Token::Delete
      | Token::Await => return Some(offset(t)),
      Token::Ident
      | Token::Num
      | Token::BigInt
      | Token::Str
      | Token::Dot
      | Token::OptionalChain
      | Token::This
      | Token::Null
      | Token::True
      | Token::False => {}
      token if token.is_known_ident() => {}
      _ => return None,
    }
  }
  None
}

/// The operator that mixes `??` with `||` or `&&` in the expression at `at` (not parenthesized
/// apart): the first at its depth whose kind differs from the first one's.
fn mixed_operator(at: usize, tokens: &[TokenAndSpan], start: BytePos) -> Option<usize> {
  let offset = |t: &TokenAndSpan| t.span.lo.0.saturating_sub(start.0) as usize;
  let mut depth = 0usize;
  let mut first: Option<bool> = None;
  for t in tokens.iter().filter(|t| offset(t) >= at) {
    match t.token {
      Token::LParen | Token::LBracket | Token::LBrace | Token::DollarLBrace => depth += 1,
      Token::RParen | Token::RBracket | Token::RBrace => {
        if depth == 0 {
          return None;
        }
        depth -= 1;
      }
      Token::NullishCoalescing | Token::LogicalOr | Token::LogicalAnd if depth == 0 => {
        let nullish = t.token == Token::NullishCoalescing;
        match first {
          None => first = Some(nullish),
          Some(f) if f != nullish => return Some(offset(t)),
          Some(_) => {}
        }
      }
      Token::Semi | Token::Comma if depth == 0 => return None,
      _ => {}
    }
  }
  None
}

/// The message for an unexpected token at `at`: V8's `ReportUnexpectedToken`, or `missing )
/// after argument list` (at the argument before it) inside a call's open argument list.
fn unexpected(
  at: usize,
  text: &str,
  tokens: &[TokenAndSpan],
  start: BytePos,
  kind: &SyntaxError,
) -> Option<(String, usize)> {
  let at = skip_trivia(text, at);
  let offset = |t: &TokenAndSpan| t.span.lo.0.saturating_sub(start.0) as usize;
  let before: Vec<&TokenAndSpan> = tokens.iter().take_while(|t| offset(t) < at).collect();
  if let Some(message) = misread_before(&before, text, at, offset, kind) {
    return Some(message);
  }
  if let Some(prev) = in_open_arguments(&before) {
    return Some(("missing ) after argument list".into(), offset(prev)));
  }
  Some((token_message(text, at), at))
}

/// Rules V8 checks at a token before the one swc stopped at: a `yield` outside a generator
/// (a strict mode reserved word; swc read it as a name), `await` outside an async function
/// where a `;` should follow it (V8's ExpectSemicolon), a `try` block with no `catch` or
/// `finally`, a function statement with no name.
fn misread_before(
  before: &[&TokenAndSpan],
  text: &str,
  at: usize,
  offset: impl Fn(&TokenAndSpan) -> usize,
  kind: &SyntaxError,
) -> Option<(String, usize)> {
  let prev = *before.last()?;
  let word = |t: &TokenAndSpan, w: &str| text.get(offset(t)..).is_some_and(|r| r.starts_with(w));
  // What swc stopped at could be an operand of `yield`/`await` (in a generator or an async
  // function it would have been one).
  let operand = text
    .get(at..)
    .unwrap_or("")
    .starts_with(|c: char| c.is_alphanumeric() || matches!(c, '_' | '$' | '"' | '\'' | '`'));
  match prev.token {
    Token::Yield if operand && word(prev, "yield") => {
      Some(("Unexpected strict mode reserved word".into(), offset(prev)))
    }
    Token::Await
      if operand
        && matches!(
          kind,
          SyntaxError::Expected(..)
            | SyntaxError::ExpectedSemi
            | SyntaxError::ExpectedSemiForExprStmt { .. }
            | SyntaxError::TS1005
            | SyntaxError::Unexpected { .. }
        )
        && word(prev, "await") =>
    {
      Some((
        "await is only valid in async functions and the top level bodies of modules".into(),
        offset(prev),
      ))
    }
    Token::RBrace => {
      // The `{` it closes, and whether `try` opens that block.
      let mut depth = 0usize;
      for (i, t) in before.iter().enumerate().rev().skip(1) {
        match t.token {
          Token::RBrace => depth += 1,
          Token::LBrace if depth > 0 => depth -= 1,
          Token::LBrace => {
            let is_try = i > 0 && before[i - 1].token == Token::Try;
            return is_try.then(|| ("Missing catch or finally after try".into(), offset(prev)));
          }
          _ => {}
        }
      }
      None
    }
    Token::Function
      if text
        .get(offset(prev) + "function".len()..)
        .is_some_and(|r| r.trim_start().starts_with('(')) =>
    {
      Some(("Function statements require a function name".into(), offset(prev)))
    }
    _ => None,
  }
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
