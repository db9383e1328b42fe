//! Session mode: the run's top-level declarations become properties of the global object.
//!
//! Runs of one session evaluate one after another in the same QuickJS global object, like
//! cells of a notebook. A declaration at the top of the program body would die with the
//! async function it runs in, so it is rewritten into an assignment to a global property,
//! and every reference to it in the run reads that property. A later run that declares the
//! same name simply assigns it again (no "already declared" error), as REPL kernels do.
//!
//! Runs after TypeScript lowering (enums and namespaces are `var`s by then) and before
//! hygiene. Bindings are matched by their resolved identity (name *and* syntax context from
//! swc's resolver), so an inner binding that shadows a session name is a different
//! identifier and is left alone.
//!
//! The global object is captured once, as a parameter of the wrapper arrow bound to the
//! script's top-level `this`: `(async (__global) => { … })(this)`. Global code's `this` is
//! the global object and, unlike `globalThis`, cannot be reassigned or shadowed by earlier
//! runs. The parameter carries a private syntax context, so hygiene renames whichever of it
//! and a program identifier of the same name would collide. The parameter is added after
//! parsing, so the text the program is parsed inside (and its line 1 columns) is unchanged.
//!
//! Rewrites (only bindings of the wrapper function's own scope):
//! - `let`/`const`/`var x = e` at the top of the body → `__global.x = e`; destructuring
//!   becomes an assignment pattern (`({ a: __global.a, ...__global.r } = o)`), defaults
//!   kept; `let x` → `__global.x = void 0`; `var x` → `"x" in __global || (__global.x =
//!   void 0)` (a `var` never clobbers an existing value). `var` in nested blocks and loop
//!   heads of the body shares the function's binding, so it is rewritten the same way.
//! - `function f() {}` → `__global.f = function f() {}`, hoisted to the top of the body
//!   (after any directive prologue), in source order.
//! - `class A {}` → `__global.A = class A {}` in place; inside the class body `A` keeps
//!   naming the class itself, as in a class declaration.
//! - References: `x` → `__global.x`, `x = 1` → `__global.x = 1`, `{ x }` → `{ x: __global.x }`;
//!   a call `f()` → `(0, __global.f)()` so `this` stays `undefined` as in a plain call;
//!   `x = <anonymous function, arrow or class>` (declarations included) → `__global.x =
//!   ({ x: … }).x`, so the function is still named `x` (`.name`, stack frames).
//!
//! Not rewritten: `let`/`const`/`class`/`function` inside blocks and loop heads, anything
//! inside nested functions, and `using`/`await using` (disposed at the end of the run, so
//! there is nothing to keep).
//!
//! Known differences from a REPL, whose `let`/`const`/`class` live in a global lexical scope:
//! session names are plain writable properties of the global object, so there is no TDZ
//! (reading before the declaration gives `undefined`), a `const` can be reassigned, and a
//! declaration replaces a built-in global of the same name for the rest of the session
//! (declaring a non-writable one, `undefined`/`NaN`/`Infinity`, throws a TypeError). Top-level
//! names are property reads and writes, slower than locals in hot loops. A function default
//! in a destructuring declaration (`const { f = () => {} } = o`) is not named `f`.

use std::collections::HashSet;

use swc_core::common::util::take::Take;
use swc_core::common::{Mark, Span, SyntaxContext, DUMMY_SP};
use swc_core::ecma::ast::{
  ArrowExpr, ArrowFunctionBody, AssignExpr, AssignOp, AssignPat, AssignPatProp, AssignTarget,
  BinExpr, BinaryOp, BlockStmt, Callee, ClassExpr, Decl, Expr, ExprOrSpread, ExprStmt, FnExpr,
  ForHead, Function, FunctionBody, Id, Ident, IdentName, KeyValuePatProp, KeyValueProp, Lit,
  MemberExpr, MemberProp, Number, ObjectLit, ObjectPatProp, OptChainBase, Pat, Program, Prop,
  PropName, PropOrSpread, SeqExpr, SimpleAssignTarget, Stmt, Str, ThisExpr, UnaryExpr, UnaryOp,
  VarDecl, VarDeclKind, VarDeclOrExpr,
};
use swc_core::ecma::utils::find_pat_ids;
use swc_core::ecma::visit::{Visit, VisitMut, VisitMutWith, VisitWith};

/// The parameter name the global object is bound to (hygiene may add a suffix).
const GLOBAL_PARAM: &str = "__global";

/// Rewrites the wrapper `(async () => { … })()` (already checked by the caller) in place.
pub fn rewrite(program: &mut Program) {
  let Some((params, body, args)) = wrapper_parts(program) else {
    return;
  };
  let global =
    Ident::new(GLOBAL_PARAM.into(), DUMMY_SP, SyntaxContext::empty().apply_mark(Mark::new()));
  params.push(Pat::Ident(global.clone().into()));
  args.push(ExprOrSpread { spread: None, expr: Box::new(Expr::This(ThisExpr { span: DUMMY_SP })) });

  let mut names = HashSet::new();
  collect_names(body, &mut names);
  let mut rewriter = Rewriter { global, names };

  // Function declarations are initialized before any statement runs; keep that by moving
  // their assignments to the top, after the directive prologue (`"use strict"` must stay first).
  let stmts = std::mem::take(&mut body.stmts);
  let directives = stmts.iter().take_while(|s| is_directive(s)).count();
  let mut hoisted = Vec::new();
  let mut rest = Vec::with_capacity(stmts.len());
  for stmt in stmts {
    match stmt {
      Stmt::Decl(Decl::Fn(f)) => {
        let span = f.function.span;
        let value = Expr::Fn(FnExpr { ident: Some(f.ident.clone()), function: f.function });
        hoisted.push(assign_stmt(span, rewriter.member(&f.ident), value));
      }
      other => rest.push(other),
    }
  }
  let tail = rest.split_off(directives.min(rest.len()));
  body.stmts = rest.into_iter().chain(hoisted).chain(tail).collect();
  body.visit_mut_with(&mut rewriter);
}

/// The arrow's parameters, body and the call's arguments of the checked wrapper.
fn wrapper_parts(
  program: &mut Program,
) -> Option<(&mut Vec<Pat>, &mut FunctionBody, &mut Vec<ExprOrSpread>)> {
  let Program::Script(script) = program else { return None };
  let Some(Stmt::Expr(stmt)) = script.body.first_mut() else { return None };
  let Expr::Call(call) = &mut *stmt.expr else { return None };
  let Callee::Expr(callee) = &mut call.callee else { return None };
  let Expr::Paren(paren) = &mut **callee else { return None };
  let Expr::Arrow(arrow) = &mut *paren.expr else { return None };
  let ArrowFunctionBody::FunctionBody(body) = &mut *arrow.body else { return None };
  Some((&mut arrow.params, body, &mut call.args))
}

fn is_directive(stmt: &Stmt) -> bool {
  matches!(stmt, Stmt::Expr(ExprStmt { expr, .. }) if matches!(&**expr, Expr::Lit(Lit::Str(_))))
}

/// The bindings that become global: every top-level declaration of the body, and every
/// `var` of the body's function scope (nested blocks and loop heads included).
fn collect_names(body: &FunctionBody, names: &mut HashSet<Id>) {
  for stmt in &body.stmts {
    match stmt {
      Stmt::Decl(Decl::Var(v)) => names.extend(find_pat_ids::<_, Id>(&v.decls)),
      Stmt::Decl(Decl::Fn(f)) => {
        names.insert(f.ident.to_id());
      }
      Stmt::Decl(Decl::Class(c)) => {
        names.insert(c.ident.to_id());
      }
      _ => {}
    }
  }
  body.visit_with(&mut FunctionScopeVars { names });
}

/// Collects `var` bindings, not descending into nested functions (their own var scopes).
struct FunctionScopeVars<'a> {
  names: &'a mut HashSet<Id>,
}

impl Visit for FunctionScopeVars<'_> {
  fn visit_var_decl(&mut self, v: &VarDecl) {
    if v.kind == VarDeclKind::Var {
      self.names.extend(find_pat_ids::<_, Id>(&v.decls));
    }
    v.visit_children_with(self);
  }
  fn visit_function(&mut self, _: &Function) {}
  fn visit_arrow_expr(&mut self, _: &ArrowExpr) {}
  fn visit_constructor(&mut self, _: &swc_core::ecma::ast::Constructor) {}
  fn visit_getter_prop(&mut self, _: &swc_core::ecma::ast::GetterProp) {}
  fn visit_setter_prop(&mut self, _: &swc_core::ecma::ast::SetterProp) {}
  fn visit_static_block(&mut self, _: &swc_core::ecma::ast::StaticBlock) {}
}

/// Turns session bindings into global properties, declarations and references alike.
struct Rewriter {
  global: Ident,
  names: HashSet<Id>,
}

impl Rewriter {
  fn is_session(&self, ident: &Ident) -> bool {
    self.names.contains(&ident.to_id())
  }

  /// `__global.<name>`, spanned like the identifier it replaces so positions still map.
  fn member(&self, ident: &Ident) -> MemberExpr {
    MemberExpr {
      span: ident.span,
      obj: Box::new(Expr::Ident(Ident { span: ident.span, ..self.global.clone() })),
      prop: MemberProp::Ident(IdentName::new(ident.sym.clone(), ident.span)),
    }
  }

  /// Whether this declaration declares session bindings (all its names share one scope).
  fn declares_session(&self, v: &VarDecl) -> bool {
    find_pat_ids::<_, Id>(&v.decls).iter().any(|id| self.names.contains(id))
  }

  /// The declaration as one expression of assignments, in declarator order. Targets are
  /// left as plain identifiers and patterns; visiting the result turns them into properties.
  fn assignments(&self, v: VarDecl) -> Box<Expr> {
    let mut exprs: Vec<Box<Expr>> = Vec::with_capacity(v.decls.len());
    for d in v.decls {
      let span = d.span;
      exprs.push(match (d.init, d.name) {
        (Some(init), name) => match AssignTarget::try_from(name) {
          Ok(left) => {
            Box::new(Expr::Assign(AssignExpr { span, op: AssignOp::Assign, left, right: init }))
          }
          Err(_) => init, // Not produced by the parser for a declarator; keep the side effects.
        },
        (None, Pat::Ident(id)) if v.kind == VarDeclKind::Var => {
          // `"x" in __global || (x = void 0)`: declare without clobbering an existing value.
          let name = Lit::Str(Str { span: id.span, value: id.sym.clone().into(), raw: None });
          let present = BinExpr {
            span,
            op: BinaryOp::In,
            left: Box::new(Expr::Lit(name)),
            right: Box::new(Expr::Ident(self.global.clone())),
          };
          let define = assign(span, id.id.into(), undefined(span));
          Box::new(Expr::Bin(BinExpr {
            span,
            op: BinaryOp::LogicalOr,
            left: Box::new(Expr::Bin(present)),
            right: Box::new(define),
          }))
        }
        (None, Pat::Ident(id)) => Box::new(assign(span, id.id.into(), undefined(span))),
        // A pattern without initializer is a syntax error the parser already reported.
        (None, _) => undefined(span),
      });
    }
    if exprs.len() == 1 {
      exprs.pop().unwrap_or_else(|| undefined(v.span))
    } else {
      Box::new(Expr::Seq(SeqExpr { span: v.span, exprs }))
    }
  }

  /// Takes `ids` out of the session names while a scope that rebinds them is visited;
  /// returns the ones taken, to put back after.
  fn shadow(&mut self, ids: impl IntoIterator<Item = Id>) -> Vec<Id> {
    ids.into_iter().filter(|id| self.names.remove(id)).collect()
  }

  /// A call through a session binding: `(0, __global.f)` so the callee gets no `this`.
  fn unbind_callee(&self, callee: &mut Expr) -> bool {
    let Expr::Ident(ident) = &*callee else { return false };
    if !self.is_session(ident) {
      return false;
    }
    let span = ident.span;
    let zero = Box::new(Expr::Lit(Lit::Num(Number { span, value: 0.0, raw: None })));
    let member = Box::new(Expr::Member(self.member(ident)));
    *callee = Expr::Seq(SeqExpr { span, exprs: vec![zero, member] });
    true
  }
}

/// Whether `const x = <expr>` would name the function `x` (an anonymous function, arrow or
/// class, possibly parenthesized). Assigning to a property does not name it.
fn is_anonymous_function(mut expr: &Expr) -> bool {
  while let Expr::Paren(p) = expr {
    expr = &p.expr;
  }
  matches!(
    expr,
    Expr::Arrow(_)
      | Expr::Fn(FnExpr { ident: None, .. })
      | Expr::Class(ClassExpr { ident: None, .. })
  )
}

/// `{ x: <function> }.x`: a property definition names the function `x`, as the declaration
/// did, so `.name` and stack frames still read `x`.
fn named(ident: &Ident, function: Box<Expr>) -> Box<Expr> {
  let key = || IdentName::new(ident.sym.clone(), ident.span);
  let prop = Prop::KeyValue(KeyValueProp { key: PropName::Ident(key()), value: function });
  let object = ObjectLit { span: ident.span, props: vec![PropOrSpread::Prop(Box::new(prop))] };
  Box::new(Expr::Member(MemberExpr {
    span: ident.span,
    obj: Box::new(Expr::Object(object)),
    prop: MemberProp::Ident(key()),
  }))
}

fn undefined(span: Span) -> Box<Expr> {
  let zero = Box::new(Expr::Lit(Lit::Num(Number { span, value: 0.0, raw: None })));
  Box::new(Expr::Unary(UnaryExpr { span, op: UnaryOp::Void, arg: zero }))
}

fn assign(span: Span, left: SimpleAssignTarget, right: Box<Expr>) -> Expr {
  Expr::Assign(AssignExpr { span, op: AssignOp::Assign, left: left.into(), right })
}

fn assign_stmt(span: Span, left: MemberExpr, right: Expr) -> Stmt {
  let expr = Box::new(assign(span, left.into(), Box::new(right)));
  Stmt::Expr(ExprStmt { span, expr })
}

impl VisitMut for Rewriter {
  fn visit_mut_stmt(&mut self, stmt: &mut Stmt) {
    match stmt {
      Stmt::Decl(Decl::Var(v)) if self.declares_session(v) => {
        let span = v.span;
        let decl = std::mem::take(&mut **v);
        *stmt = Stmt::Expr(ExprStmt { span, expr: self.assignments(decl) });
      }
      Stmt::Decl(Decl::Class(c)) if self.is_session(&c.ident) => {
        let span = c.class.span;
        let target = self.member(&c.ident);
        let class = std::mem::take(&mut c.class);
        let value = Expr::Class(ClassExpr { ident: Some(c.ident.clone()), class });
        *stmt = assign_stmt(span, target, value);
      }
      _ => {}
    }
    stmt.visit_mut_children_with(self);
  }

  fn visit_mut_var_decl_or_expr(&mut self, init: &mut VarDeclOrExpr) {
    if let VarDeclOrExpr::VarDecl(v) = init {
      if self.declares_session(v) {
        let decl = std::mem::take(&mut **v);
        *init = VarDeclOrExpr::Expr(self.assignments(decl));
      }
    }
    init.visit_mut_children_with(self);
  }

  fn visit_mut_for_head(&mut self, head: &mut ForHead) {
    if let ForHead::VarDecl(v) = head {
      if self.declares_session(v) && v.decls.len() == 1 {
        // `for (var x of xs)` → `for (x of xs)`; the pattern becomes a property below.
        let name = std::mem::replace(&mut v.decls[0].name, Pat::dummy());
        *head = ForHead::Pat(Box::new(name));
      }
    }
    head.visit_mut_children_with(self);
  }

  fn visit_mut_expr(&mut self, expr: &mut Expr) {
    if let Expr::Ident(ident) = expr {
      if self.is_session(ident) {
        *expr = Expr::Member(self.member(ident));
      }
      return;
    }
    expr.visit_mut_children_with(self);
  }

  fn visit_mut_callee(&mut self, callee: &mut Callee) {
    if let Callee::Expr(e) = callee {
      if self.unbind_callee(e) {
        return;
      }
    }
    callee.visit_mut_children_with(self);
  }

  fn visit_mut_tagged_tpl(&mut self, tpl: &mut swc_core::ecma::ast::TaggedTpl) {
    self.unbind_callee(&mut tpl.tag);
    tpl.visit_mut_children_with(self);
  }

  fn visit_mut_opt_chain_base(&mut self, base: &mut OptChainBase) {
    if let OptChainBase::Call(call) = base {
      self.unbind_callee(&mut call.callee);
    }
    base.visit_mut_children_with(self);
  }

  fn visit_mut_assign_expr(&mut self, assign: &mut AssignExpr) {
    // `x = () => {}` names the function `x`; `__global.x = () => {}` would not.
    let names_function = matches!(
      assign.op,
      AssignOp::Assign | AssignOp::AndAssign | AssignOp::OrAssign | AssignOp::NullishAssign
    );
    if let AssignTarget::Simple(SimpleAssignTarget::Ident(id)) = &assign.left {
      if names_function && self.is_session(&id.id) && is_anonymous_function(&assign.right) {
        let function = std::mem::take(&mut assign.right);
        assign.right = named(&id.id, function);
      }
    }
    assign.visit_mut_children_with(self);
  }

  fn visit_mut_simple_assign_target(&mut self, target: &mut SimpleAssignTarget) {
    if let SimpleAssignTarget::Ident(id) = target {
      if self.is_session(&id.id) {
        *target = SimpleAssignTarget::Member(self.member(&id.id));
      }
      return;
    }
    target.visit_mut_children_with(self);
  }

  fn visit_mut_pat(&mut self, pat: &mut Pat) {
    if let Pat::Ident(id) = pat {
      if self.is_session(&id.id) {
        *pat = Pat::Expr(Box::new(Expr::Member(self.member(&id.id))));
      }
      return;
    }
    pat.visit_mut_children_with(self);
  }

  fn visit_mut_object_pat_prop(&mut self, prop: &mut ObjectPatProp) {
    if let ObjectPatProp::Assign(AssignPatProp { span, key, value }) = prop {
      if self.is_session(&key.id) {
        // `{ x = d }` → `{ x: __global.x = d }`
        let target = Box::new(Pat::Expr(Box::new(Expr::Member(self.member(&key.id)))));
        let value = match value.take() {
          Some(right) => Box::new(Pat::Assign(AssignPat { span: *span, left: target, right })),
          None => target,
        };
        let key = PropName::Ident(IdentName::new(key.sym.clone(), key.span));
        *prop = ObjectPatProp::KeyValue(KeyValuePatProp { key, value });
      }
    }
    prop.visit_mut_children_with(self);
  }

  fn visit_mut_prop(&mut self, prop: &mut Prop) {
    if let Prop::Shorthand(ident) = prop {
      if self.is_session(ident) {
        // `{ x }` → `{ x: __global.x }`
        let key = PropName::Ident(IdentName::new(ident.sym.clone(), ident.span));
        let value = Box::new(Expr::Member(self.member(ident)));
        *prop = Prop::KeyValue(KeyValueProp { key, value });
        return;
      }
    }
    prop.visit_mut_children_with(self);
  }

  fn visit_mut_class_expr(&mut self, class: &mut ClassExpr) {
    // Inside its body a class's name is the class's own immutable binding, not the global.
    let own = class.ident.iter().map(Ident::to_id);
    let shadowed = self.shadow(own);
    class.visit_mut_children_with(self);
    self.names.extend(shadowed);
  }

  fn visit_mut_function(&mut self, function: &mut Function) {
    // TypeScript lowers `enum E` / `namespace N` to `function (E) { … }` whose parameter has
    // the very identity of the outer binding; inside, the name means the parameter.
    let shadowed = self.shadow(find_pat_ids::<_, Id>(&function.params));
    function.visit_mut_children_with(self);
    self.names.extend(shadowed);
  }

  fn visit_mut_block_stmt(&mut self, block: &mut BlockStmt) {
    // swc's resolver gives a function declared in a block the identity of a same-named
    // function of the enclosing scope (sloppy-mode hoisting); the code runs strict, where
    // the block's function is local to the block.
    let local_functions = block.stmts.iter().filter_map(|s| match s {
      Stmt::Decl(Decl::Fn(f)) => Some(f.ident.to_id()),
      _ => None,
    });
    let shadowed = self.shadow(local_functions);
    block.visit_mut_children_with(self);
    self.names.extend(shadowed);
  }

  fn visit_mut_arrow_expr(&mut self, arrow: &mut ArrowExpr) {
    let shadowed = self.shadow(find_pat_ids::<_, Id>(&arrow.params));
    arrow.visit_mut_children_with(self);
    self.names.extend(shadowed);
  }
}

#[cfg(test)]
#[path = "session_tests.rs"]
mod tests;
