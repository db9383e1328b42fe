//! TypeScript program text → the JavaScript QuickJS evaluates.
//!
//! Owns the one place where the program's source is parsed. The program is the body of an
//! async function, so it is parsed *inside* the wrapper it will run in
//! (`(async () => {` … `\n})()`, the wrapper on line 1 so user line N stays line N), and the
//! parsed tree must be exactly that one call: a program that closes the wrapper early
//! (`}); evil(); (async () => {`) parses, but not into that shape, and is refused as a
//! syntax error. The `\n` before `})()` keeps a trailing `// comment` from swallowing it.
//!
//! Erasable TypeScript (annotations, interfaces, type aliases, generics, `as`, `satisfies`,
//! `!`, `declare`, overloads, `import type`, …) has its types replaced by whitespace in place
//! (`swc_ts_fast_strip`'s strip-only eraser, the approach of Node's own type stripping): the
//! engine runs the program's own text at its own positions, so stack positions need no
//! mapping (only line 1's columns shift by the wrapper's prefix), `Function.prototype.toString`
//! gives the text as written and QuickJS reports its own early errors. Only programs with
//! syntax that cannot be erased (`enum`, `namespace` with values, parameter properties,
//! `<T>expr`) are lowered by swc, which reprints the code; their positions are carried in a
//! [`PositionMap`] from the emitted JavaScript back to the program as written. Either way the
//! text is parsed once: the eraser reads the tree and tokens of the same parse the wrapper
//! check and the transform use. Nothing here recurses over the source beyond what swc
//! itself does; swc's parser is guarded against deep nesting by running on a thread with a
//! large stack (the caller's job, see the core crate's pool).
//!
//! [`transpile_session`] is the same transform for one run of a persistent session (runs in
//! one global object): the program's top-level declarations become global properties
//! (`session.rs`). That rewrite changes the text, so session runs always take the transform
//! path.

use std::cell::Cell;

use swc_core::common::sync::Lrc;
use swc_core::common::{
  BytePos, FileName, Globals, LineCol, Mark, SourceFile, SourceMap, Spanned, GLOBALS,
};
use swc_core::ecma::ast::{
  ArrowFunctionBody, CallExpr, Callee, EsVersion, Expr, Program, Script, Stmt,
};
use swc_core::ecma::codegen::{text_writer::JsWriter, Config as CodegenConfig, Emitter};
use swc_core::ecma::parser::error::SyntaxError;
use swc_core::ecma::parser::{lexer::Lexer, Parser, StringInput, Syntax, TsSyntax};
use swc_core::ecma::transforms::base::{fixer::fixer, hygiene::hygiene, resolver};
use swc_core::ecma::transforms::typescript::{typescript, Config as TsConfig};
use swc_core::ecma::visit::{Visit, VisitWith};
use swc_ecma_parser::unstable::{Capturing, Token, TokenAndSpan};

mod nesting;
pub mod normalize;
mod private_names;
mod session;
mod v8_syntax;

/// Text placed before the program. It stays on line 1, so only line 1's columns shift.
pub const PREFIX: &str = "(async () => {";
/// Text placed after the program; the newline ends a trailing line comment.
pub const SUFFIX: &str = "\n})()";

/// The file name QuickJS reports in stack frames of the program.
pub const PROGRAM_FILE: &str = "program.ts";

/// A successfully transformed program.
#[derive(Debug)]
pub struct Transpiled {
  /// JavaScript that evaluates (as a script) to the program's promise.
  pub code: String,
  /// Maps positions in `code` back to the program as written.
  pub positions: PositionMap,
  /// Whether the types were erased in place (`code` is the program's own text at its own
  /// positions) rather than the program lowered and reprinted.
  pub in_place: bool,
}

/// Why a program could not be transformed. Positions are 1-based, in the program as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TranspileError {
  pub kind: TranspileErrorKind,
  pub message: String,
  pub line: u32,
  pub column: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TranspileErrorKind {
  /// The text is not a valid TypeScript function body.
  Syntax,
  /// The program declares an `import` or `export`; programs have no module system. V8
  /// refuses such a declaration in a function body as a `SyntaxError`.
  Module,
  /// The program calls `import()`. It parses (in V8 it fails only when it runs), so it is
  /// refused as an `Error`.
  DynamicImport,
}

impl TranspileError {
  /// The text a program failure shows: `<class>: <message> (<line>:<column>)`, the class
  /// being the one V8 would throw (`SyntaxError`, or `Error` for `import()`).
  pub fn display(&self) -> String {
    let class = match self.kind {
      TranspileErrorKind::Syntax | TranspileErrorKind::Module => "SyntaxError",
      TranspileErrorKind::DynamicImport => "Error",
    };
    format!("{class}: {} ({}:{})", self.message, self.line, self.column)
  }
}

/// Sorted (generated line, generated column) → (original line, original column), all 1-based;
/// or, for a program whose types were erased in place, the identity but for line 1's prefix.
#[derive(Debug, Default, Clone)]
pub struct PositionMap {
  entries: Vec<(u32, u32, u32, u32)>,
  in_place: bool,
}

impl PositionMap {
  /// The map of a program run at its own positions inside the wrapper.
  pub fn in_place() -> PositionMap {
    PositionMap { entries: Vec::new(), in_place: true }
  }

  /// The program position of the emitted token at or before (`line`, `column`) on `line`.
  pub fn original(&self, line: u32, column: u32) -> Option<(u32, u32)> {
    if self.in_place {
      let column =
        if line == 1 { column.saturating_sub(PREFIX.len() as u32).max(1) } else { column };
      return Some((line, column));
    }
    let idx = self.entries.partition_point(|&(l, c, _, _)| (l, c) <= (line, column));
    let &(l, _, ol, oc) = self.entries.get(idx.checked_sub(1)?)?;
    if l != line {
      // No token starts on that line before the column: use the line's first token.
      let &(l2, _, ol2, oc2) = self.entries.get(idx)?;
      return (l2 == line).then_some((ol2, oc2));
    }
    Some((ol, oc))
  }
}

/// Transforms one program. Pure function of the text; safe to call from many threads.
///
/// swc panics on some malformed text (fuzzing found an `unreachable!()` in its template
/// literal parsing, `typeof\n`\\u``); such a panic is this program's syntax error, not an
/// engine failure, so it is caught here and reported as one, without a position.
pub fn transpile(program: &str) -> Result<Transpiled, TranspileError> {
  transpile_mode(program, Mode::Run)
}

/// Like [`transpile`], for one run of a persistent session: the program's top-level
/// declarations become properties of the global object, so later runs in the same global
/// object see them, and declaring a name again replaces it (see `session.rs`). The output
/// calls the wrapper with the global object: `(async (__global) => { … })(this)`.
pub fn transpile_session(program: &str) -> Result<Transpiled, TranspileError> {
  transpile_mode(program, Mode::Session)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
  Run,
  Session,
}

fn transpile_mode(program: &str, mode: Mode) -> Result<Transpiled, TranspileError> {
  let transformed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
    GLOBALS.set(&Globals::new(), || transpile_inner(program, mode))
  }));
  transformed.unwrap_or_else(|_| {
    Err(TranspileError {
      kind: TranspileErrorKind::Syntax,
      message: PARSER_FAILED.into(),
      line: 1,
      column: 1,
    })
  })
}

/// The message of a program on which the parser itself failed (panicked).
pub const PARSER_FAILED: &str = "the TypeScript parser could not read this program";

fn transpile_inner(program: &str, mode: Mode) -> Result<Transpiled, TranspileError> {
  if let Some(at) = nesting::too_deep(program) {
    let line = program[..at].matches('\n').count() as u32 + 1;
    let line_start = program[..at].rfind('\n').map_or(0, |p| p + 1);
    let column = utf16_units(&program.as_bytes()[line_start..at]) + 1;
    return Err(TranspileError {
      kind: TranspileErrorKind::Syntax,
      message: format!("the program nests more than {} levels deep", nesting::MAX_NESTING),
      line,
      column,
    });
  }
  let cm: Lrc<SourceMap> = Default::default();
  let wrapped = format!("{PREFIX}{program}{SUFFIX}");
  let fm = cm.new_source_file(Lrc::new(FileName::Custom(PROGRAM_FILE.into())), wrapped);
  let start = fm.start_pos;
  let columns = Columns::new(&fm);
  let to_user = |pos: BytePos| -> (u32, u32) {
    let (line, mut col) = columns.at(pos);
    if line == 1 {
      col = col.saturating_sub(PREFIX.len() as u32).max(1);
    }
    (line, col)
  };

  let (mut parsed, mut errors, mut tokens) = parse(&fm.src, start, fm.end_pos);
  // Valid JavaScript swc cannot read (`static async constructor() {}`, `for (using x = r;;)`)
  // is read again once with those words replaced by others of the same length, so every
  // position stays; the eraser then blanks the types of the text as written. Such a tree
  // cannot be lowered: a program that needs the transform gets swc's error.
  let mut unread = None;
  if let Err(e) = &parsed {
    if let Some(copy) = readable_copy(&fm.src) {
      let again = parse(&copy, start, fm.end_pos);
      if again.0.is_ok() {
        unread = Some(e.clone());
        (parsed, errors, tokens) = again;
      }
    }
  }
  // swc reads a static method named `constructor` as a (misplaced) constructor; it is valid
  // JavaScript, so such a program can run as written, but not be lowered from that tree.
  // Beside a real constructor, such a method also reads as a second constructor; QuickJS,
  // which gets the text as written, still refuses a class that has two.
  let mut static_constructor = None;
  errors.retain(|e| {
    let keep = !is_static_constructor_method(e.kind(), e.span().lo, &tokens);
    if !keep && static_constructor.is_none() {
      static_constructor = Some((e.kind().msg().into_owned(), e.span().lo));
    }
    keep
  });
  if static_constructor.is_some() {
    errors.retain(|e| !matches!(e.kind(), SyntaxError::DuplicateConstructor));
  }
  // swc's error in V8's words and at V8's position where V8 has them.
  let report = |e: swc_core::ecma::parser::error::Error| {
    let at = e.span().lo.0.saturating_sub(start.0) as usize;
    let (message, pos) = match v8_syntax::message(e.kind(), at, &fm.src, &tokens, start) {
      Some((message, at)) => (message, BytePos(start.0 + at as u32)),
      None => (e.kind().msg().into_owned(), e.span().lo),
    };
    syntax_or_module(program, message, to_user(pos))
  };
  // The first error in the text is the one V8 stops at: swc may have recovered from it and
  // failed later.
  let first = |errors: Vec<swc_core::ecma::parser::error::Error>| {
    errors.into_iter().min_by_key(|e| e.span().lo).expect("at least one error")
  };
  let script = match parsed {
    Ok(script) if errors.is_empty() => script,
    Ok(_) => return Err(report(first(errors))),
    Err(e) => {
      errors.push(e);
      return Err(report(first(errors)));
    }
  };

  if let Err(pos) = check_wrapper_shape(&script) {
    return Err(TranspileError {
      kind: TranspileErrorKind::Syntax,
      message: "Unexpected '}': the program closes the function it runs in".into(),
      line: to_user(pos).0,
      column: to_user(pos).1,
    });
  }
  let mut imports = ImportFinder::default();
  script.visit_with(&mut imports);
  if let Some(pos) = imports.found {
    let (line, column) = to_user(pos);
    return Err(module_error(TranspileErrorKind::DynamicImport, line, column));
  }
  if let Some((name, pos)) = private_names::undeclared(&script, &tokens) {
    let (line, column) = to_user(pos);
    return Err(TranspileError {
      kind: TranspileErrorKind::Syntax,
      message: format!("Private field '{name}' must be declared in an enclosing class"),
      line,
      column,
    });
  }

  let mut program_ast = Program::Script(script);
  if mode == Mode::Run {
    // Erasable: the text as written with its types blanked; otherwise lowered below.
    if let Ok(code) = swc_ts_fast_strip::strip_parsed(&program_ast, &fm.src, start, &tokens) {
      return Ok(Transpiled {
        code: code.into_owned(),
        positions: PositionMap::in_place(),
        in_place: true,
      });
    }
  }
  if let Some(e) = unread {
    return Err(report(e));
  }
  drop(tokens);
  if let Some((message, pos)) = static_constructor {
    let (line, column) = to_user(pos);
    return Err(TranspileError { kind: TranspileErrorKind::Syntax, message, line, column });
  }

  let unresolved = Mark::new();
  let top_level = Mark::new();
  let ts_config = TsConfig { native_class_properties: true, ..Default::default() };
  program_ast.mutate(resolver(unresolved, top_level, true));
  program_ast.mutate(typescript(ts_config, unresolved, top_level));
  if mode == Mode::Session {
    session::rewrite(&mut program_ast);
  }
  program_ast.mutate(hygiene());
  program_ast.mutate(fixer(None));

  let mut buf = Vec::with_capacity(program.len() + 64);
  let mut mappings: Vec<(BytePos, LineCol)> = Vec::new();
  {
    // No indentation: nested code would otherwise print in space quadratic in its depth.
    let mut writer = JsWriter::new(cm.clone(), "\n", &mut buf, Some(&mut mappings));
    writer.set_indent_str("");
    let mut emitter = Emitter {
      cfg: CodegenConfig::default().with_target(EsVersion::EsNext),
      cm: cm.clone(),
      comments: None,
      wr: writer,
    };
    if let Err(e) = emitter.emit_program(&program_ast) {
      return Err(TranspileError {
        kind: TranspileErrorKind::Syntax,
        message: format!("could not print the program: {e}"),
        line: 1,
        column: 1,
      });
    }
  }
  let code = String::from_utf8(buf).map_err(|_| TranspileError {
    kind: TranspileErrorKind::Syntax,
    message: "the printed program is not UTF-8".into(),
    line: 1,
    column: 1,
  })?;

  // In source order, so the columns are counted in one pass over each line.
  mappings.sort_unstable_by_key(|&(pos, _)| pos);
  let mut entries: Vec<(u32, u32, u32, u32)> = mappings
    .iter()
    .filter(|(pos, _)| !pos.is_dummy() && *pos >= start)
    .map(|&(pos, gen)| {
      let (ol, oc) = to_user(pos);
      (gen.line + 1, gen.col + 1, ol, oc)
    })
    .collect();
  entries.sort_unstable();
  entries.dedup_by_key(|e| (e.0, e.1));
  Ok(Transpiled { code, positions: PositionMap { entries, in_place: false }, in_place: false })
}

/// How many UTF-16 code units the UTF-8 text in `bytes` encodes (V8 counts columns in them):
/// one per byte that starts a character, two for a 4-byte character. Reads bytes, so a range
/// that does not start or end at a character boundary still counts.
fn utf16_units(bytes: &[u8]) -> u32 {
  bytes.iter().map(|&b| u32::from((b & 0xc0) != 0x80) + u32::from(b >= 0xf0)).sum()
}

/// Positions of the wrapped text as 1-based (line, column), the column in UTF-16 code units
/// from the line's start as V8 counts it (swc's own columns count characters). The units
/// before the last position asked for are kept and counted on from there, so positions
/// asked for in order cost each line's length once.
struct Columns<'a> {
  fm: &'a SourceFile,
  /// (line index, byte offset in the text, units from the line's start to it).
  last: Cell<Option<(usize, usize, u32)>>,
}

impl<'a> Columns<'a> {
  fn new(fm: &'a SourceFile) -> Columns<'a> {
    Columns { fm, last: Cell::new(None) }
  }

  fn at(&self, pos: BytePos) -> (u32, u32) {
    let src = self.fm.src.as_bytes();
    let Some(line) = self.fm.lookup_line(pos) else {
      return (1, 1);
    };
    let begin = self.fm.analyze().lines[line].0.saturating_sub(self.fm.start_pos.0) as usize;
    let to = (pos.0.saturating_sub(self.fm.start_pos.0) as usize).clamp(begin, src.len());
    let units = match self.last.get() {
      Some((l, from, units)) if l == line && from <= to => units + utf16_units(&src[from..to]),
      Some((l, from, units)) if l == line => units - utf16_units(&src[to..from]),
      _ => utf16_units(&src[begin..to]),
    };
    self.last.set(Some((line, to, units)));
    (line as u32 + 1, units + 1)
  }
}

/// One parse of the wrapped text (or a copy of it of the same length at the same positions):
/// the script, the errors swc recovered from, and the tokens, captured for the eraser, which
/// reads them beside the tree.
fn parse(
  text: &str,
  start: BytePos,
  end: BytePos,
) -> (
  swc_core::ecma::parser::PResult<Script>,
  Vec<swc_core::ecma::parser::error::Error>,
  Vec<TokenAndSpan>,
) {
  let lexer = Capturing::new(Lexer::new(
    Syntax::Typescript(TsSyntax::default()),
    EsVersion::EsNext,
    StringInput::new(text, start, end),
    None,
  ));
  let mut parser = Parser::new_from(lexer);
  let parsed = parser.parse_script();
  let errors = parser.take_errors();
  let tokens = parser.input_mut().iter_mut().take();
  (parsed, errors, tokens)
}

/// A copy of `text` in which the valid shapes swc refuses read as shapes it takes, each word
/// replaced by one of the same length: the name of a `static async [*] constructor` method
/// (swc reads it as an async constructor) and a `using`/`await using` declaration in a `for`
/// statement's head (swc reads only `let`, `const` and `var` there). `None` if there is none.
/// One pass over the text; a match inside a string or comment changes only what swc reads.
fn readable_copy(text: &str) -> Option<String> {
  let b = text.as_bytes();
  let mut copy = b.to_vec();
  let mut changed = false;
  let is_ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
  let word_at = |i: usize, w: &str| {
    b[i..].starts_with(w.as_bytes())
      && (i == 0 || !is_ident(b[i - 1]))
      && b.get(i + w.len()).is_none_or(|&c| !is_ident(c))
  };
  let skip_ws = |mut i: usize| {
    while i < b.len() && b[i].is_ascii_whitespace() {
      i += 1;
    }
    i
  };
  let mut i = 0;
  while i < b.len() {
    if word_at(i, "static") {
      let mut j = skip_ws(i + 6);
      // No line break after `async`: there it would be a field named `async`.
      if word_at(j, "async") && !b[j + 5..skip_ws(j + 5)].contains(&b'\n') {
        j = skip_ws(j + 5);
        if b.get(j) == Some(&b'*') {
          j = skip_ws(j + 1);
        }
        if word_at(j, "constructor") && b.get(skip_ws(j + 11)) == Some(&b'(') {
          copy[j + 10] = b'_';
          changed = true;
        }
      }
    } else if word_at(i, "for") {
      let j = skip_ws(i + 3);
      if b.get(j) == Some(&b'(') {
        let decl = skip_ws(j + 1);
        let mut k = decl;
        if word_at(k, "await") {
          k = skip_ws(k + 5);
        }
        if word_at(k, "using") {
          let name = skip_ws(k + 5);
          let binds = name < b.len()
            && is_ident(b[name])
            && !b[name].is_ascii_digit()
            && (!word_at(name, "of")
              || matches!(b.get(skip_ws(name + 2)), Some(b'=' | b';' | b',' | b':')));
          if binds {
            // `let` and spaces over the declaration's words; line breaks stay.
            for (n, c) in copy[decl..k + 5].iter_mut().enumerate() {
              if *c != b'\n' && *c != b'\r' {
                *c = if n < 3 { b"let"[n] } else { b' ' };
              }
            }
            changed = true;
          }
        }
      }
    }
    i += 1;
  }
  // Only ASCII bytes were replaced by ASCII bytes.
  changed.then(|| String::from_utf8(copy).expect("ASCII replaced by ASCII"))
}

/// Whether a parse error is swc's refusal of a *static* method named `constructor` (plain,
/// generator or accessor), which is a method like any other in JavaScript. swc reports it at
/// the `static` token or at the `get`/`set` right after it.
fn is_static_constructor_method(kind: &SyntaxError, at: BytePos, tokens: &[TokenAndSpan]) -> bool {
  let ours = match kind {
    SyntaxError::TS1089(word) => &**word == "static",
    SyntaxError::GeneratorConstructor | SyntaxError::ConstructorAccessor => true,
    _ => false,
  };
  if !ours {
    return false;
  }
  let i = tokens.partition_point(|t| t.span.lo < at);
  let is = |i: usize, token: Token| tokens.get(i).is_some_and(|t| t.token == token);
  is(i, Token::Static)
    || (i > 0 && is(i - 1, Token::Static) && (is(i, Token::Get) || is(i, Token::Set)))
}

/// The script must be exactly `(async () => { … })()`: one expression statement calling an
/// async arrow with no arguments. Returns the position of the first offending node.
fn check_wrapper_shape(script: &Script) -> Result<(), BytePos> {
  let first = match script.body.as_slice() {
    [only] => only,
    [_, second, ..] => return Err(second.span().lo),
    [] => return Err(BytePos(0)),
  };
  let Stmt::Expr(expr_stmt) = first else {
    return Err(first.span().lo);
  };
  let Expr::Call(CallExpr { callee: Callee::Expr(callee), args, .. }) = &*expr_stmt.expr else {
    return Err(expr_stmt.span.hi);
  };
  if !args.is_empty() {
    return Err(args[0].span().lo);
  }
  let Expr::Paren(paren) = &**callee else {
    return Err(callee.span().hi);
  };
  let Expr::Arrow(arrow) = &*paren.expr else {
    return Err(paren.span.hi);
  };
  if !arrow.is_async || !arrow.params.is_empty() {
    return Err(arrow.span.hi);
  }
  match &*arrow.body {
    ArrowFunctionBody::FunctionBody(_) => Ok(()),
    ArrowFunctionBody::Expr(e) => Err(e.span().lo),
  }
}

/// A parse error might be a module declaration in a function body; say so plainly.
fn syntax_or_module(program: &str, message: String, (line, column): (u32, u32)) -> TranspileError {
  if looks_like_module_syntax(program, line) {
    return module_error(TranspileErrorKind::Module, line, column);
  }
  TranspileError { kind: TranspileErrorKind::Syntax, message, line, column }
}

fn looks_like_module_syntax(program: &str, line: u32) -> bool {
  let Some(text) = program.lines().nth(line.saturating_sub(1) as usize) else {
    return false;
  };
  let text = text.trim_start();
  ["import ", "import{", "import\"", "import'", "import*", "export "]
    .iter()
    .any(|p| text.starts_with(p))
}

fn module_error(kind: TranspileErrorKind, line: u32, column: u32) -> TranspileError {
  TranspileError {
    kind,
    message: "modules are not available in programs: `import` and `export` cannot be used; \
              the tools you were given are globals"
      .into(),
    line,
    column,
  }
}

/// Finds dynamic `import()` (static imports do not parse inside a function body).
#[derive(Default)]
struct ImportFinder {
  found: Option<BytePos>,
}

impl Visit for ImportFinder {
  fn visit_call_expr(&mut self, call: &CallExpr) {
    if matches!(call.callee, Callee::Import(_)) && self.found.is_none() {
      self.found = Some(call.span.lo);
    }
    call.visit_children_with(self);
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  fn ok(src: &str) -> String {
    transpile(src).unwrap_or_else(|e| panic!("{src:?}: {e:?}")).code
  }

  fn err(src: &str) -> TranspileError {
    transpile(src).expect_err(src)
  }

  #[test]
  fn strips_types_and_lowers_enums_namespaces_parameter_properties() {
    let code = ok("enum E { A, B = 5 }\nnamespace N { export const x: number = 1 }\n\
                   class P { constructor(public a: string, private b = 2) {} }\n\
                   interface I { a: number }\nconst v = { a: 1 } satisfies I;\n\
                   function g<T>(x: T): T { return x as T }\nreturn [E.B, N.x, new P('q').a, g<number>(3)]");
    assert!(code.starts_with("(async ()=>{"), "{code}");
    assert!(!code.contains("interface"), "{code}");
    assert!(!code.contains("satisfies"), "{code}");
  }

  /// The program inside the wrapper as the engine gets it, and whether it was erased in place.
  fn inner(src: &str) -> (String, bool) {
    let t = transpile(src).unwrap_or_else(|e| panic!("{src:?}: {e:?}"));
    let body = t.code.strip_prefix(PREFIX).and_then(|c| c.strip_suffix(SUFFIX));
    (body.map_or(t.code.clone(), str::to_owned), t.in_place)
  }

  #[test]
  fn erasable_types_become_whitespace_in_place() {
    let program = "interface I { a: number }\ntype T<X> = X[];\n\
                   function g<T>(x: T): T { return x as T }\n\
                   declare const d: string;\nfunction o(a: string): void;\nfunction o(a: any) {}\n\
                   const v = { a: 1 } satisfies I;\nlet n!: number;\n\
                   class K<T> implements I { a!: number; private readonly b?: T; static s: string = 'x' }\n\
                   const f = (a?: number, ...r: string[]): number => a!;\nreturn g<number>(3)";
    let (body, in_place) = inner(program);
    assert!(in_place, "{body}");
    assert_eq!(body.len(), program.len(), "{body}");
    for (out, src) in body.lines().zip(program.lines()) {
      assert_eq!(out.len(), src.len(), "{out:?} / {src:?}");
    }
    assert!(
      !body.contains("interface") && !body.contains(": number") && !body.contains("satisfies")
    );
    assert!(body.contains("function g   (x   )    { return x      }"), "{body}");
    assert!(body.contains("return g        (3)"), "{body}");
  }

  #[test]
  fn plain_javascript_is_left_exactly_as_written() {
    // Comments, layout and what swc's printer used to change: early errors stay for the
    // engine to report, a parenthesized arrow stays parenthesized, a static method may be
    // named `constructor`, a U+0000 stays in its string.
    for program in [
      "function f(/* a */ x) { return x }\nreturn f.toString()",
      "{ let f; var f; }\nreturn 1",
      "class C extends (() => {}) {}",
      "var C = class { static constructor() { return 1 } }; return C.constructor()",
      "var C = class { static *constructor() {} static get constructor() {} }",
      "class C { static\nset constructor(v) {} }",
      "class C { constructor() {} static constructor() { return 1 } }",
      "while (false) async function f() {}",
      "return '\u{0}'.length + 'a\0b'.length",
    ] {
      assert_eq!(inner(program), (program.to_owned(), true), "{program:?}");
    }
  }

  /// Valid JavaScript swc's parser refuses is read from a copy with other words of the same
  /// length, and runs as written.
  #[test]
  fn shapes_swc_refuses_run_as_written() {
    for program in [
      "class C { static async constructor() {} constructor() {} }",
      "class C { static async * constructor() {} }\nlet t: number = 1",
      "for (using x = null;;) break;\nfor (using of = null;;) break;",
      "for (await using x = null, y: any = null;;) break;",
      "let using = [1]; for (using of using) {}\nfor (using x: any = null;;) break;",
    ] {
      let (body, in_place) = inner(program);
      assert!(in_place, "{program:?}");
      assert_eq!(body.len(), program.len(), "{program:?}");
      assert!(body.contains("constructor") || body.contains("using"), "{body}");
      assert!(!body.contains(": number") && !body.contains(": any"), "{body}");
    }
    // Still refused: they are not valid, or need the transform, which cannot read them.
    for program in [
      "class C { async constructor() {} }",
      "enum E { A }\nclass C { static async constructor() {} }",
    ] {
      assert_eq!(err(program).kind, TranspileErrorKind::Syntax, "{program:?}");
    }
    assert!(transpile_session("for (using x = null;;) break;").is_err());
  }

  #[test]
  fn only_static_methods_named_constructor_are_let_through() {
    for program in [
      "class C { *constructor() {} }",
      "class C { get constructor() {} }",
      "class C { static x = 1; set constructor(v) {} }",
      // Valid, but this tree cannot be lowered: the enum needs the transform.
      "enum E { A }\nclass C { static constructor() {} }",
    ] {
      assert_eq!(err(program).kind, TranspileErrorKind::Syntax, "{program:?}");
    }
    assert!(transpile_session("class C { static constructor() {} }").is_err());
  }

  #[test]
  fn non_erasable_syntax_is_lowered_with_a_position_map() {
    for program in [
      "enum E { A }\nthrow new Error('x')",
      "namespace N { export const x = 1 }\nthrow new Error('x')",
      "class P { constructor(public a: string) {} }\nthrow new Error('x')",
      "const a = <number>(1 as unknown);\nthrow new Error('x')",
    ] {
      let t = transpile(program).unwrap();
      assert!(!t.in_place, "{program:?}: {}", t.code);
      let (l, c) = t
        .code
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("throw").map(|c| (i as u32 + 1, c as u32 + 1)))
        .unwrap();
      assert_eq!(t.positions.original(l, c), Some((2, 1)), "{program:?}: {}", t.code);
    }
  }

  #[test]
  fn in_place_positions_are_the_programs_own() {
    let t = transpile("const a: number = 1; throw new Error('x')\nlet b: string").unwrap();
    assert!(t.in_place);
    let col = t.code.find("throw").unwrap() as u32 + 1;
    assert_eq!(t.positions.original(1, col), Some((1, 22)));
    assert_eq!(t.positions.original(2, 5), Some((2, 5)));
  }

  /// V8 counts columns in UTF-16 code units: `é` is one, `😀` two (swc counts characters,
  /// the text holds bytes).
  #[test]
  fn columns_count_utf16_units_as_v8_does() {
    let e = err("const s = 'é😀'; foo bar");
    assert_eq!((e.line, e.column), (1, 22), "{e:?}");
    let e = err("let a = 1\nconst s = '𝒳é'; const c = ;");
    assert_eq!((e.line, e.column), (2, 28), "{e:?}");
    // Lowered (an enum): the map's program columns are UTF-16 units, as are the emitted ones.
    let t = transpile("enum E { A }\nconst s = '😀é'; throw new Error(s)").unwrap();
    assert!(!t.in_place);
    let (l, line) = t.code.lines().enumerate().find(|(_, l)| l.contains("throw")).unwrap();
    let c = line[..line.find("throw").unwrap()].encode_utf16().count() as u32 + 1;
    assert_eq!(t.positions.original(l as u32 + 1, c), Some((2, 18)), "{}", t.code);
    assert_eq!(utf16_units("a😀é".as_bytes()), 4);
  }

  /// swc's errors worded and placed as V8's (Node 24's words and line:column; the message
  /// corpus in `__test__/messages.spec.ts` compares them with V8 itself).
  #[test]
  fn syntax_errors_read_and_sit_as_v8s() {
    for (program, v8) in [
      ("const o = { a: 1", "SyntaxError: Unexpected token ')' (2:2)"),
      ("function g() { await null }", "SyntaxError: await is only valid in async functions and the top level bodies of modules (1:16)"),
      ("const x = 1 +* 2", "SyntaxError: Unexpected token '*' (1:14)"),
      ("async function f() { yield 1 }", "SyntaxError: Unexpected strict mode reserved word (1:22)"),
      ("try { } ", "SyntaxError: Missing catch or finally after try (1:7)"),
      ("const x = a ?? b || c", "SyntaxError: Unexpected token '||' (1:18)"),
      ("let x = 1__0", "SyntaxError: Only one underscore is allowed as numeric separator (1:11)"),
      ("let x = 0x", "SyntaxError: Invalid or unexpected token (1:9)"),
      ("function f(...a, b) {}", "SyntaxError: Rest parameter must be last formal parameter (1:16)"),
      ("const { a }", "SyntaxError: Missing initializer in destructuring declaration (1:7)"),
      ("++1", "SyntaxError: Invalid left-hand side expression in prefix operation (1:3)"),
      ("this.#x", "SyntaxError: Private field '#x' must be declared in an enclosing class (1:5)"),
      ("let o = {}; o . #abc", "SyntaxError: Private field '#abc' must be declared in an enclosing class (1:15)"),
      ("class A { m() { return #y in this } }", "SyntaxError: Private field '#y' must be declared in an enclosing class (1:17)"),
      ("let o; o?.#x", "SyntaxError: Private field '#x' must be declared in an enclosing class (1:9)"),
      ("class A { #a; m() { class B { n() { return this.#b } } } }", "SyntaxError: Private field '#b' must be declared in an enclosing class (1:48)"),
      ("1 = 2", "SyntaxError: Invalid left-hand side in assignment (1:1)"),
      ("1++", "SyntaxError: Invalid left-hand side expression in postfix operation (1:1)"),
      ("with ({}) {}", "SyntaxError: Strict mode code may not include a with statement (1:1)"),
      ("break", "SyntaxError: Illegal break statement (1:1)"),
      ("for (const x of [1]) { break; } continue", "SyntaxError: Illegal continue statement: no surrounding iteration statement (1:33)"),
      ("x: while (true) { break y }", "SyntaxError: Undefined label 'y' (1:25)"),
      ("function () {}", "SyntaxError: Function statements require a function name (1:1)"),
      ("const n = 0777", "SyntaxError: Octal literals are not allowed in strict mode. (1:11)"),
      ("throw\nnew Error('x')", "SyntaxError: Illegal newline after throw (1:1)"),
      ("const x = -2 ** 2", "SyntaxError: Unary operator used immediately before exponentiation expression. Parenthesis must be used to disambiguate operator precedence (1:11)"),
      ("switch (x) { case 1: default: default: }", "SyntaxError: More than one default clause in switch statement (1:31)"),
      ("const o = { get x(a) { } }", "SyntaxError: Getter must not have any formal parameters. (1:18)"),
      ("const o = { set x() { } }", "SyntaxError: Setter must have exactly one formal parameter. (1:18)"),
      ("const t = `abc", "SyntaxError: Unexpected end of input (1:11)"),
    ] {
      assert_eq!(err(program).display(), v8, "{program:?}");
    }
  }

  #[test]
  fn top_level_await_and_return_are_allowed() {
    ok("const x = await Promise.resolve(1); return x");
  }

  #[test]
  fn wrapper_breakout_is_a_syntax_error() {
    let e = err("}); globalThis.x = 1; (async () => {");
    assert_eq!(e.kind, TranspileErrorKind::Syntax);
    let e = err("})(); (async () => {");
    assert_eq!(e.kind, TranspileErrorKind::Syntax);
  }

  #[test]
  fn trailing_line_comment_does_not_swallow_the_wrapper() {
    ok("return 1 // done");
  }

  #[test]
  fn syntax_error_names_line_and_column_as_written() {
    let e = err("const a = 1;\nconst b = 2;\nconst c = ;\n");
    assert_eq!(e.kind, TranspileErrorKind::Syntax);
    assert_eq!(e.line, 3, "{e:?}");
    assert_eq!(e.column, 11, "{e:?}");
    let e = err("let = ;");
    assert_eq!(e.line, 1, "{e:?}");
    assert!(e.display().starts_with("SyntaxError: "), "{e:?}");
  }

  #[test]
  fn imports_are_refused_with_a_clear_message() {
    assert_eq!(err("import fs from 'fs'\nreturn 1").kind, TranspileErrorKind::Module);
    assert_eq!(err("const m = await import('fs')").kind, TranspileErrorKind::DynamicImport);
    assert_eq!(err("export const a = 1").kind, TranspileErrorKind::Module);
    // The classes V8 throws: a declaration does not parse, `import()` fails when it runs.
    assert!(err("import fs from 'fs'\nreturn 1")
      .display()
      .starts_with("SyntaxError: modules are not available"));
    assert!(err("export const a = 1")
      .display()
      .starts_with("SyntaxError: modules are not available"));
    assert!(err("const m = await import('fs')")
      .display()
      .starts_with("Error: modules are not available"));
  }

  #[test]
  fn positions_map_back_to_the_program() {
    let t =
      transpile("interface A { x: number }\n\n\nconst a: A = { x: 1 };\nthrow new Error('x')")
        .unwrap();
    let (gen_line, gen_col) = t
      .code
      .lines()
      .enumerate()
      .find_map(|(i, l)| l.find("throw").map(|c| (i as u32 + 1, c as u32 + 1)))
      .unwrap();
    assert_eq!(t.positions.original(gen_line, gen_col), Some((5, 1)));
  }

  /// Found by `fuzz/` (target `transpile`): malformed programs on which a `debug_assert!` in
  /// swc's parser fires — `parser/expr.rs:2769` (`(a, b.c => 1)`: an arrow after a
  /// non-identifier in a parenthesized list), `parser/mod.rs:1381` (`assert_and_bump` on an
  /// unexpected token) and `parser/input.rs:328` (`store` with a token buffered). Release
  /// builds — what ships — report swc's own syntax error; in a debug build swc panics and
  /// `transpile` reports the panic as a syntax error. Either way: a syntax error.
  #[test]
  fn fuzz_swc_debug_assertions_are_syntax_errors() {
    for program in [
      "(a, b.c => 1)",
      "const rs = await P@omise.all(Array.from({ length: 09999 }, (_, i) => tools.echo => a + b, 1)",
      "\n      enum Color { Red, G2een = 5, Blue }\n      enum Dir { Up = 'UP', Down = !DOWN' }\n     Dir { Up = 'Ur(); Rect.count++ } Base { abstract amade()]W\n         retur(n [Color.Red, Color.Blue@ const enum K { A = 2 }\n      return [Color.Red, Color.Blue, Color[5], Dir.Down, K.A]\n    ",
      "\n      enum Color { Red, Greenown = 'DOWN' }\n      const enum K { A`= 1 }\n      repurn [Color.Red, Color.Blue, 'DOWN.A]\n    ",
    ] {
      assert_eq!(err(program).kind, TranspileErrorKind::Syntax, "{program}");
    }
  }

  /// Found by `fuzz/` (target `transpile`): swc reaches an `unreachable!()`
  /// (`parser/input.rs:175`, `expect_template_token_value`) on a template literal with a bad
  /// escape after `typeof`/`void` and a line break, in release builds too. Before the guard in
  /// `transpile` the run ended as `worker-exit` ("the engine failed unexpectedly").
  #[test]
  fn fuzz_swc_unreachable_in_template_after_line_break_is_a_syntax_error() {
    for program in ["typeof\n`\\u`", "typeof\r`\\u`", "x = void\n`\\u`"] {
      let e = err(program);
      assert_eq!(e.kind, TranspileErrorKind::Syntax, "{program:?}");
      assert_eq!((e.line, e.column), (1, 1), "{program:?}");
      assert!(e.display().starts_with("SyntaxError: "), "{e:?}");
    }
    // The thread that caught the panic keeps working.
    assert!(transpile("return 1").is_ok());
  }
}
