//! The engine crate's layering: no two of its modules use each other, neither two files nor
//! two top-level folders, and no module uses the crate root (the `Engine`, which uses them;
//! its own `tests` module aside). Modules are files (`x.rs`, `x/mod.rs`, `x/y.rs`); a use is any path starting
//! `crate::`, `super::` or `self::` outside comments, resolved to the deepest module file it
//! names. `mod x;` declares a child and is not a use; `pub use` is.
//!
//! `CODE_RUNTIME_LAYERING_SRC=<dir>` checks another source tree (e.g. an older checkout).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type ModPath = Vec<String>;

/// Every `.rs` file under `src`, by module path, with its text.
fn modules(src: &Path) -> BTreeMap<ModPath, String> {
  let mut out = BTreeMap::new();
  let mut dirs = vec![src.to_path_buf()];
  while let Some(dir) = dirs.pop() {
    for entry in std::fs::read_dir(&dir).expect("read source dir") {
      let path = entry.expect("dir entry").path();
      if path.is_dir() {
        dirs.push(path);
      } else if path.extension().is_some_and(|e| e == "rs") {
        let text = std::fs::read_to_string(&path).expect("read source file");
        out.insert(module_path(src, &path), text);
      }
    }
  }
  out
}

fn module_path(src: &Path, file: &Path) -> ModPath {
  let rel = file.strip_prefix(src).expect("under src");
  let mut parts: ModPath = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
  let last = parts.pop().expect("a file name");
  let stem = last.trim_end_matches(".rs");
  if !(stem == "mod" || (stem == "lib" && parts.is_empty()) || (stem == "main" && parts.is_empty()))
  {
    parts.push(stem.to_string());
  }
  parts
}

/// The text without comments and without the contents of string and char literals.
fn code_only(text: &str) -> String {
  let b = text.as_bytes();
  let mut out = String::with_capacity(text.len());
  let mut i = 0;
  while i < b.len() {
    if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
      while i < b.len() && b[i] != b'\n' {
        i += 1;
      }
    } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
      let mut depth = 0;
      while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
          depth += 1;
          i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
          depth -= 1;
          i += 2;
          if depth == 0 {
            break;
          }
        } else {
          i += 1;
        }
      }
    } else if b[i] == b'"' {
      // Raw strings `r#"…"#` hold no quotes we stop early at in this crate's sources.
      out.push('"');
      i += 1;
      while i < b.len() && b[i] != b'"' {
        if b[i] == b'\\' {
          i += 1;
        }
        i += 1;
      }
      out.push('"');
      i += 1;
    } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
      // A char literal ('x' or an escape); lifetimes ('js) are left alone.
      i += 1;
      while i < b.len() && b[i] != b'\'' {
        if b[i] == b'\\' {
          i += 1;
        }
        i += 1;
      }
      out.push_str("' '");
      i += 1;
    } else {
      let ch = text[i..].chars().next().expect("a char");
      out.push(ch);
      i += ch.len_utf8();
    }
  }
  out
}

/// Byte ranges of inline `mod name { … }` blocks (inside them `super` is the file's module).
fn inline_modules(code: &str) -> Vec<(usize, usize)> {
  let b = code.as_bytes();
  let mut ranges = Vec::new();
  let mut from = 0;
  while let Some(at) = code[from..].find("mod ") {
    let start = from + at;
    from = start + 4;
    if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
      continue;
    }
    let rest = &code[from..];
    let name_len = rest.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
    let after = rest[name_len..].trim_start();
    if name_len == 0 || !after.starts_with('{') {
      continue;
    }
    let open = from + name_len + (rest[name_len..].len() - after.len());
    let mut depth = 0;
    let mut end = b.len();
    for (j, &c) in b.iter().enumerate().skip(open) {
      if c == b'{' {
        depth += 1;
      } else if c == b'}' {
        depth -= 1;
        if depth == 0 {
          end = j;
          break;
        }
      }
    }
    ranges.push((open, end));
  }
  ranges
}

/// Every path a file's code names from `crate`, `super` or `self`, expanded out of use
/// groups (`crate::{a, b::{c, d}}`), as absolute module-item paths.
fn used_paths(module: &ModPath, code: &str) -> Vec<ModPath> {
  let inline = inline_modules(code);
  let b = code.as_bytes();
  let mut out = Vec::new();
  for keyword in ["crate", "super", "self"] {
    let mut from = 0;
    while let Some(at) = code[from..].find(keyword) {
      let start = from + at;
      from = start + keyword.len();
      let before_ok = start == 0
        || !(b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_' || b[start - 1] == b':');
      if !before_ok || !code[from..].starts_with("::") {
        continue;
      }
      let base: ModPath = match keyword {
        "crate" => Vec::new(),
        "super" if inline.iter().any(|&(s, e)| s < start && start < e) => module.clone(),
        "super" => module[..module.len().saturating_sub(1)].to_vec(),
        _ if inline.iter().any(|&(s, e)| s < start && start < e) => continue,
        _ => module.clone(),
      };
      let mut leaves = Vec::new();
      parse_tree(&code[from + 2..], base, &mut leaves);
      out.extend(leaves);
    }
  }
  out
}

/// Parses a use tree after `prefix::`, pushing each leaf path. Returns the bytes read.
fn parse_tree(s: &str, prefix: ModPath, leaves: &mut Vec<ModPath>) -> usize {
  let b = s.as_bytes();
  let mut i = 0;
  let skip_ws = |i: &mut usize| {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
      *i += 1;
    }
  };
  skip_ws(&mut i);
  if i < b.len() && b[i] == b'{' {
    i += 1;
    loop {
      skip_ws(&mut i);
      if i >= b.len() || b[i] == b'}' {
        return i + 1;
      }
      i += parse_tree(&s[i..], prefix.clone(), leaves);
      skip_ws(&mut i);
      if i < b.len() && b[i] == b',' {
        i += 1;
      }
    }
  }
  let mut path = prefix;
  loop {
    let len = s[i..].bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
    if len == 0 {
      break;
    }
    let seg = &s[i..i + len];
    i += len;
    if seg != "self" {
      path.push(seg.to_string());
    }
    if s[i..].starts_with("::") {
      i += 2;
      if s[i..].starts_with('{') || s[i..].starts_with('*') {
        if s[i..].starts_with('*') {
          leaves.push(path.clone());
          return i + 1;
        }
        return i + parse_tree(&s[i..], path, leaves);
      }
    } else {
      break;
    }
  }
  // `as alias`, generics and the rest of the expression are not part of the path.
  leaves.push(path);
  i
}

/// The module a path lands in: its longest prefix that is a module file.
fn resolve<'a>(path: &ModPath, known: &'a BTreeMap<ModPath, String>) -> Option<&'a ModPath> {
  (0..=path.len()).rev().find_map(|n| known.get_key_value(&path[..n].to_vec()).map(|(k, _)| k))
}

/// Paths of `use child::…` in a module that has a child module file of that name (the
/// 2018 edition's relative use; `pub use child::Item` in a `mod.rs` is one).
fn child_uses(module: &ModPath, code: &str, known: &BTreeMap<ModPath, String>) -> Vec<ModPath> {
  let b = code.as_bytes();
  let mut out = Vec::new();
  let mut from = 0;
  while let Some(at) = code[from..].find("use ") {
    let start = from + at;
    from = start + 4;
    if start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_') {
      continue;
    }
    let rest = code[from..].trim_start();
    let len = rest.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
    let mut child = module.clone();
    child.push(rest[..len].to_string());
    if len > 0 && rest[len..].starts_with("::") && known.contains_key(&child) {
      parse_tree(rest, module.clone(), &mut out);
    }
  }
  out
}

/// `from` uses `to`, for every pair of distinct modules where one's code names the other.
fn edges(known: &BTreeMap<ModPath, String>) -> BTreeSet<(ModPath, ModPath)> {
  let mut out = BTreeSet::new();
  for (module, text) in known {
    let code = code_only(text);
    let mut paths = used_paths(module, &code);
    paths.extend(child_uses(module, &code, known));
    for path in paths {
      if let Some(to) = resolve(&path, known) {
        if to != module {
          out.insert((module.clone(), to.clone()));
        }
      }
    }
  }
  out
}

fn name(m: &[String]) -> String {
  if m.is_empty() {
    "crate root (lib.rs)".into()
  } else {
    m.join("::")
  }
}

/// Every violation: modules (files) that use each other, top-level folders that use each
/// other, and any use of the crate root.
fn violations(src: &Path) -> Vec<String> {
  let known = modules(src);
  let edges = edges(&known);
  let mut out = Vec::new();
  for (from, to) in &edges {
    // The root's own `tests` module is the root's white-box tests.
    if to.is_empty() && from != &["tests".to_string()] {
      out.push(format!("{} uses the crate root; name the module instead", name(from)));
    } else if from < to && edges.contains(&(to.clone(), from.clone())) && !from.is_empty() {
      out.push(format!("{} and {} use each other", name(from), name(to)));
    }
  }
  let top: BTreeSet<(String, String)> = edges
    .iter()
    .filter(|(f, t)| !f.is_empty() && !t.is_empty() && f[0] != t[0])
    .map(|(f, t)| (f[0].clone(), t[0].clone()))
    .collect();
  for (a, b) in &top {
    let files_already = out.contains(&format!("{a} and {b} use each other"));
    if a < b && top.contains(&(b.clone(), a.clone())) && !files_already {
      let why = |x: &String, y: &String| {
        edges
          .iter()
          .filter(|(f, t)| !f.is_empty() && !t.is_empty() && &f[0] == x && &t[0] == y)
          .map(|(f, t)| format!("{} -> {}", name(f), name(t)))
          .collect::<Vec<_>>()
          .join(", ")
      };
      out.push(format!("folders {a} and {b} use each other ({}; {})", why(a, b), why(b, a)));
    }
  }
  out
}

#[test]
fn no_two_engine_modules_use_each_other() {
  let src = std::env::var_os("CODE_RUNTIME_LAYERING_SRC")
    .map(PathBuf::from)
    .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
  let found = violations(&src);
  assert!(
    found.is_empty(),
    "{} layering violations in {}:\n{}",
    found.len(),
    src.display(),
    found.join("\n")
  );
}

/// Writes `files` (path, text) under a fresh directory and returns its violations.
fn check(files: &[(&str, &str)]) -> Vec<String> {
  static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
  let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
  let dir = std::env::temp_dir().join(format!("layering-{}-{n}", std::process::id()));
  let _ = std::fs::remove_dir_all(&dir);
  for (path, text) in files {
    let file = dir.join(path);
    std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir");
    std::fs::write(file, text).expect("write");
  }
  let found = violations(&dir);
  let _ = std::fs::remove_dir_all(&dir);
  found
}

#[test]
fn two_files_that_use_each_other_are_found() {
  let found = check(&[
    ("lib.rs", "mod run;\nmod timers;\n"),
    ("run.rs", "use crate::timers::Timers;\npub struct RunShared;\n"),
    ("timers.rs", "fn f(_: &crate::run::RunShared) {}\npub struct Timers;\n"),
  ]);
  assert_eq!(found, ["run and timers use each other"]);
}

#[test]
fn uses_inside_groups_and_through_super_count() {
  let found = check(&[
    ("lib.rs", "mod a;\nmod b;\n"),
    ("a/mod.rs", "pub mod x;\npub mod y;\n"),
    ("a/x.rs", "use super::y::{self, Y};\n"),
    ("a/y.rs", "use crate::{b::Z, a::x::{X}};\n"),
    ("b.rs", "pub struct Z;\n"),
  ]);
  assert_eq!(found, ["a::x and a::y use each other"]);
}

#[test]
fn folders_that_use_each_other_are_found_though_their_files_do_not() {
  let found = check(&[
    ("lib.rs", "mod world;\nmod console;\n"),
    ("world/mod.rs", "mod run;\nmod shared;\n"),
    ("world/run.rs", "use crate::console::methods;\n"),
    ("world/shared.rs", "pub struct RunShared;\n"),
    ("console/mod.rs", "mod methods;\n"),
    ("console/methods.rs", "use crate::world::shared::RunShared;\n"),
  ]);
  assert_eq!(
    found,
    ["folders console and world use each other (console::methods -> world::shared; world::run -> console::methods)"]
  );
}

#[test]
fn comments_strings_and_a_test_module_reaching_its_file_do_not_count() {
  let found = check(&[
    ("lib.rs", "mod a;\nmod b;\n"),
    ("a.rs", "use crate::b::B;\n/// See [`crate::a`].\npub struct A;\n"),
    ("b.rs", "// crate::a::A\nconst S: &str = \"crate::a::A\";\npub struct B;\n#[cfg(test)]\nmod tests {\n  use super::*;\n}\n"),
  ]);
  assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_parent_re_exporting_its_child_counts() {
  let found = check(&[
    ("lib.rs", "mod a;\n"),
    ("a/mod.rs", "mod x;\npub use x::X;\npub struct P;\n"),
    ("a/x.rs", "use super::P;\npub struct X;\n"),
  ]);
  assert_eq!(found, ["a and a::x use each other"]);
}

#[test]
fn a_module_using_the_crate_root_is_found() {
  let found = check(&[("lib.rs", "mod a;\npub struct Host;\n"), ("a.rs", "use crate::Host;\n")]);
  assert_eq!(found, ["a uses the crate root; name the module instead"]);
}
