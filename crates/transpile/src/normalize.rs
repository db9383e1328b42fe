//! Code Mode's `normalizeCode`, for TypeScript.
//!
//! `@cloudflare/codemode` turns whatever a model wrote (a fenced block, statements, an
//! `export default`, a function declaration, an expression) into one async arrow function
//! before its executors run it. It decides with acorn, which reads JavaScript only: typed code
//! fails to parse and falls back to `async () => {\n<code>\n}`, so a typed arrow becomes a
//! block that returns nothing. Here the same rules are applied to the code as if its types were
//! stripped first (it is parsed as TypeScript, and statements that only declare types do not
//! count), so typed code normalizes as its JavaScript would. The result may still hold types:
//! the run strips them.
//!
//! [`unwrap_fallback`] undoes that fallback when it was taken only because of types (the
//! package's `createCodeTool` normalizes before the executor sees the code).

use swc_core::common::sync::Lrc;
use swc_core::common::{BytePos, FileName, Globals, SourceMap, Spanned, GLOBALS};
use swc_core::ecma::ast::{
  Decl, DefaultDecl, EsVersion, Expr, Module, ModuleDecl, ModuleItem, Stmt,
};
use swc_core::ecma::parser::{lexer::Lexer, EsSyntax, Parser, StringInput, Syntax, TsSyntax};

use crate::nesting;

const EMPTY: &str = "async () => {}";
const FALLBACK_HEAD: &str = "async () => {\n";
const FALLBACK_TAIL: &str = "\n}";

/// The package's `normalizeCode(code)`, deciding on the code as TypeScript.
pub fn normalize_code(code: &str) -> String {
  // `export default <expression>` normalizes its expression: once, as no declaration nests
  // another `export default`.
  let mut source = strip_code_fences(code.trim()).trim().to_owned();
  for _ in 0..2 {
    if source.is_empty() {
      return EMPTY.to_owned();
    }
    match shape(&source) {
      Shape::Unparsed | Shape::Other => return fallback(&source),
      Shape::Arrow => return source,
      Shape::DefaultFunction(inner) => return format!("async () => {{\nreturn ({inner})();\n}}"),
      Shape::DefaultClass(inner) => return format!("async () => {{\nreturn ({inner});\n}}"),
      Shape::DefaultOther(inner) => source = inner,
      Shape::FunctionDeclaration(name) => {
        return format!("async () => {{\n{source}\nreturn {name}();\n}}");
      }
      Shape::LastExpression { statement_start, expression } => {
        return format!("async () => {{\n{}return ({expression})\n}}", &source[..statement_start]);
      }
    }
  }
  fallback(&source)
}

/// When `code` is the package's fallback wrap (`async () => {\n<inner>\n}`) of code that is
/// TypeScript but not JavaScript, `inner` normalized as TypeScript; otherwise `code` as is.
pub fn unwrap_fallback(code: &str) -> String {
  let mut code = code.to_owned();
  // createCodeTool's wrap of a typed arrow, and of a typed `export default` (two levels).
  for _ in 0..2 {
    let Some(inner) = code.strip_prefix(FALLBACK_HEAD).and_then(|c| c.strip_suffix(FALLBACK_TAIL))
    else {
      return code;
    };
    if parses(inner, Syntax::Es(EsSyntax::default())) || !parses(inner, typescript()) {
      return code;
    }
    let normalized = normalize_code(inner);
    if normalized == code {
      return code;
    }
    code = normalized;
  }
  code
}

fn fallback(source: &str) -> String {
  format!("{FALLBACK_HEAD}{source}{FALLBACK_TAIL}")
}

/// The package's `stripCodeFences`: the body of one ```` ``` ```` block (tagged js, javascript,
/// typescript, ts, tsx, jsx or untagged) that is the whole text.
fn strip_code_fences(code: &str) -> &str {
  let Some(rest) = code.strip_prefix("```") else {
    return code;
  };
  for tag in ["javascript", "typescript", "tsx", "jsx", "js", "ts", ""] {
    let Some(after_tag) = rest.strip_prefix(tag) else {
      continue;
    };
    // `\s*\n`: the body starts after the last line break of the whitespace that follows.
    let blank = after_tag.len() - after_tag.trim_start().len();
    let Some(newline) = after_tag[..blank].rfind('\n') else {
      continue;
    };
    let body = &after_tag[newline + 1..];
    // `([\s\S]*?)```\s*$`: up to the first ``` followed by nothing but whitespace.
    let mut from = 0;
    while let Some(at) = body[from..].find("```") {
      let end = from + at;
      if body[end + 3..].trim().is_empty() {
        return &body[..end];
      }
      from = end + 1;
    }
  }
  code
}

enum Shape {
  Unparsed,
  Arrow,
  DefaultFunction(String),
  DefaultClass(String),
  DefaultOther(String),
  FunctionDeclaration(String),
  LastExpression { statement_start: usize, expression: String },
  Other,
}

fn typescript() -> Syntax {
  Syntax::Typescript(TsSyntax::default())
}

fn parses(source: &str, syntax: Syntax) -> bool {
  with_module(source, syntax, |_, _| ()).is_some()
}

/// Parses `source` as a module and hands the tree and the position of its first byte to `f`;
/// `None` when it does not parse (or nests too deeply to parse safely, or swc panics).
fn with_module<T>(
  source: &str,
  syntax: Syntax,
  f: impl FnOnce(&Module, BytePos) -> T,
) -> Option<T> {
  if nesting::too_deep(source).is_some() {
    return None;
  }
  let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
    GLOBALS.set(&Globals::new(), || {
      let cm: Lrc<SourceMap> = Default::default();
      let fm = cm.new_source_file(Lrc::new(FileName::Anon), source.to_owned());
      let lexer = Lexer::new(syntax, EsVersion::EsNext, StringInput::from(&*fm), None);
      let mut parser = Parser::new_from(lexer);
      let module = parser.parse_module().ok()?;
      parser.take_errors().is_empty().then(|| f(&module, fm.start_pos))
    })
  }));
  parsed.ok().flatten()
}

fn shape(source: &str) -> Shape {
  with_module(source, typescript(), |module, start| {
    let text = |span: swc_core::common::Span| {
      source[(span.lo - start).0 as usize..(span.hi - start).0 as usize].to_owned()
    };
    let body: Vec<&ModuleItem> =
      module.body.iter().filter(|item| !declares_types_only(item)).collect();
    if let [only] = body.as_slice() {
      match only {
        ModuleItem::Stmt(Stmt::Expr(e)) if matches!(unwrap_types(&e.expr), Expr::Arrow(_)) => {
          return Shape::Arrow
        }
        ModuleItem::ModuleDecl(ModuleDecl::ExportDefaultDecl(d)) => match &d.decl {
          DefaultDecl::Fn(f) if f.ident.is_none() => return Shape::DefaultFunction(text(f.span())),
          DefaultDecl::Class(c) if c.ident.is_none() => return Shape::DefaultClass(text(c.span())),
          decl => return Shape::DefaultOther(text(decl.span())),
        },
        ModuleItem::ModuleDecl(ModuleDecl::ExportDefaultExpr(e)) => {
          return Shape::DefaultOther(text(e.expr.span()))
        }
        ModuleItem::Stmt(Stmt::Decl(Decl::Fn(f))) => {
          return Shape::FunctionDeclaration(f.ident.sym.to_string())
        }
        _ => {}
      }
    }
    match body.last() {
      Some(ModuleItem::Stmt(Stmt::Expr(e))) => Shape::LastExpression {
        statement_start: (e.span.lo - start).0 as usize,
        expression: text(unwrap_parens(&e.expr).span()),
      },
      _ => Shape::Other,
    }
  })
  .unwrap_or(Shape::Unparsed)
}

/// What stripping types leaves of an expression's outer layers (`x as T`, `x!`, `<T>x`,
/// `x satisfies T`), and parentheses, which acorn does not keep as nodes.
fn unwrap_types(mut expr: &Expr) -> &Expr {
  loop {
    expr = match expr {
      Expr::Paren(p) => &p.expr,
      Expr::TsAs(e) => &e.expr,
      Expr::TsNonNull(e) => &e.expr,
      Expr::TsTypeAssertion(e) => &e.expr,
      Expr::TsSatisfies(e) => &e.expr,
      Expr::TsConstAssertion(e) => &e.expr,
      _ => return expr,
    }
  }
}

fn unwrap_parens(mut expr: &Expr) -> &Expr {
  while let Expr::Paren(p) = expr {
    expr = &p.expr;
  }
  expr
}

/// Statements that stripping types removes: interfaces, type aliases, `declare`d names,
/// overload signatures, type-only imports and exports.
fn declares_types_only(item: &ModuleItem) -> bool {
  let decl = match item {
    ModuleItem::Stmt(Stmt::Decl(decl)) => decl,
    ModuleItem::ModuleDecl(ModuleDecl::ExportDecl(e)) => &e.decl,
    ModuleItem::ModuleDecl(ModuleDecl::Import(i)) => return i.type_only,
    ModuleItem::ModuleDecl(ModuleDecl::ExportNamed(e)) => return e.type_only,
    ModuleItem::ModuleDecl(ModuleDecl::ExportDefaultDecl(d)) => {
      return matches!(d.decl, DefaultDecl::TsInterfaceDecl(_))
    }
    _ => return false,
  };
  match decl {
    Decl::TsInterface(_) | Decl::TsTypeAlias(_) => true,
    Decl::Fn(f) => f.declare || f.function.body.is_none(),
    Decl::Class(c) => c.declare,
    Decl::Var(v) => v.declare,
    Decl::TsEnum(e) => e.declare,
    Decl::TsModule(m) => m.declare,
    _ => false,
  }
}

#[cfg(test)]
mod tests {
  use super::*;

  #[test]
  fn the_package_cases() {
    // normalize.test.ts of @cloudflare/codemode, the same inputs.
    assert_eq!(normalize_code("async () => { return 1 }"), "async () => { return 1 }");
    assert_eq!(normalize_code("42"), "async () => {\nreturn (42)\n}");
    assert_eq!(normalize_code(""), EMPTY);
    assert_eq!(normalize_code("   \n "), EMPTY);
    assert_eq!(normalize_code("```js\nasync () => 1\n```"), "async () => 1");
    assert_eq!(
      normalize_code("```typescript\n  const x = 1\n  x\n```\n"),
      "async () => {\nconst x = 1\n  return (x)\n}"
    );
    assert_eq!(
      normalize_code("const r = await codemode.f(); r"),
      "async () => {\nconst r = await codemode.f(); return (r)\n}"
    );
    assert_eq!(
      normalize_code("function main() { return 1 }"),
      "async () => {\nfunction main() { return 1 }\nreturn main();\n}"
    );
    assert_eq!(
      normalize_code("export default async function () { return 1 }"),
      "async () => {\nreturn (async function () { return 1 })();\n}"
    );
    assert_eq!(normalize_code("export default async () => 2"), "async () => 2");
    assert_eq!(
      normalize_code("export default function f() { return 3 }"),
      "async () => {\nfunction f() { return 3 }\nreturn f();\n}"
    );
    assert_eq!(normalize_code("export default class { }"), "async () => {\nreturn (class { });\n}");
    assert_eq!(normalize_code("const x = 1;"), "async () => {\nconst x = 1;\n}");
    assert_eq!(normalize_code("return (("), "async () => {\nreturn ((\n}");
    assert_eq!(normalize_code("(1 + 2)"), "async () => {\nreturn (1 + 2)\n}");
  }

  #[test]
  fn types_are_read_as_stripped() {
    let arrow = "async () => { const n: number = 42; return n }";
    assert_eq!(normalize_code(arrow), arrow);
    assert_eq!(normalize_code("(async () => 1) as any"), "(async () => 1) as any");
    assert_eq!(
      normalize_code("interface P { n: number }\nconst p: P = { n: 1 }\np.n"),
      "async () => {\ninterface P { n: number }\nconst p: P = { n: 1 }\nreturn (p.n)\n}"
    );
    assert_eq!(
      normalize_code("type T = number\nfunction f(): T { return 1 }"),
      "async () => {\ntype T = number\nfunction f(): T { return 1 }\nreturn f();\n}"
    );
    assert_eq!(
      normalize_code("```ts\nconst n: number = 5\nn\n```"),
      "async () => {\nconst n: number = 5\nreturn (n)\n}"
    );
  }

  #[test]
  fn the_fallback_wrap_of_typed_code_is_undone() {
    let arrow = "async () => { const n: number = 42; return n }";
    assert_eq!(unwrap_fallback(&fallback(arrow)), arrow);
    assert_eq!(
      unwrap_fallback(&fallback("const n: number = 1\nn")),
      "async () => {\nconst n: number = 1\nreturn (n)\n}"
    );
    // JavaScript (the wrap was the package's own decision) and broken code stay as they are.
    for code in
      [fallback("const x = 1"), fallback("return ((("), fallback("async () => 1"), "42".into()]
    {
      assert_eq!(unwrap_fallback(&code), code);
    }
  }

  #[test]
  fn deep_nesting_is_not_parsed() {
    let deep = format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000));
    assert_eq!(normalize_code(&deep), fallback(&deep));
  }
}
