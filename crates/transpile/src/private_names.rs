//! The early error V8 reports for a private name no enclosing class declares (`this.#x`
//! outside a class that has `#x`): `Private field '#x' must be declared in an enclosing
//! class`. QuickJS finds it too, but only after parsing, where it keeps no position; here it
//! is found in swc's tree, and placed where V8 places it, at the token before the name
//! (the `.` of `o.#x`, the `?.` of `o?.#x`).
//!
//! The walk is swc's visitor over the tree swc built (no deeper than swc's own parse), run
//! only when the text has a `#` token at all.

use swc_core::common::{BytePos, Spanned};
use swc_core::ecma::ast::{
  BinExpr, Class, ClassMember, Expr, Key, MemberExpr, MemberProp, PrivateName, Script,
};
use swc_core::ecma::visit::{Visit, VisitWith};
use swc_ecma_parser::unstable::{Token, TokenAndSpan};

/// The first private name used outside every class that declares it: its name (with `#`)
/// and the position V8 reports it at.
pub(crate) fn undeclared(script: &Script, tokens: &[TokenAndSpan]) -> Option<(String, BytePos)> {
  if !tokens.iter().any(|t| t.token == Token::Hash) {
    return None;
  }
  let mut walk = Walk { classes: Vec::new(), found: None };
  script.visit_with(&mut walk);
  let (name, at) = walk.found?;
  // At the token before the name.
  let i = tokens.partition_point(|t| t.span.lo < at);
  let pos = match i.checked_sub(1) {
    // `?.`, which swc may read as `?` and `.`.
    Some(j)
      if j > 0
        && tokens[j].token == Token::Dot
        && tokens[j - 1].token == Token::QuestionMark
        && tokens[j - 1].span.hi == tokens[j].span.lo =>
    {
      tokens[j - 1].span.lo
    }
    Some(j) => tokens[j].span.lo,
    None => at,
  };
  let name = if name.starts_with('#') { name } else { format!("#{name}") };
  Some((name, pos))
}

struct Walk {
  /// The private names each enclosing class declares, innermost last.
  classes: Vec<Vec<String>>,
  found: Option<(String, BytePos)>,
}

impl Walk {
  fn used(&mut self, name: &PrivateName) {
    if self.found.is_some() {
      return;
    }
    let declared = self.classes.iter().any(|c| c.iter().any(|n| **n == *name.name));
    if !declared {
      self.found = Some((name.name.to_string(), name.span().lo));
    }
  }
}

impl Visit for Walk {
  fn visit_class(&mut self, class: &Class) {
    // The heritage is outside the class's own private names.
    class.decorators.visit_with(self);
    class.super_class.visit_with(self);
    let names = class
      .body
      .iter()
      .filter_map(|m| match m {
        ClassMember::PrivateMethod(m) => Some(m.key.name.to_string()),
        ClassMember::PrivateProp(p) => Some(p.key.name.to_string()),
        ClassMember::AutoAccessor(a) => match &a.key {
          Key::Private(p) => Some(p.name.to_string()),
          Key::Public(_) => None,
        },
        _ => None,
      })
      .collect();
    self.classes.push(names);
    class.body.visit_with(self);
    self.classes.pop();
  }

  fn visit_member_expr(&mut self, e: &MemberExpr) {
    if let MemberProp::PrivateName(name) = &e.prop {
      self.used(name);
    }
    e.visit_children_with(self);
  }

  fn visit_bin_expr(&mut self, e: &BinExpr) {
    if let Expr::PrivateName(name) = &*e.left {
      self.used(name);
    }
    e.visit_children_with(self);
  }
}
