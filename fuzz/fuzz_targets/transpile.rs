//! Arbitrary bytes as program text into the TypeScript transform: it must return `Ok` or a
//! positioned `Err`, never panic, abort or hang. Runs on a thread with the pool's stack size,
//! as in production (swc's parser recurses per nesting level).
//!
//! swc panics on some malformed text — `debug_assert!`s in the fuzz build (which turns debug
//! assertions on everywhere) and at least one `unreachable!()` in release builds too — and
//! `transpile` catches such a panic and reports a syntax error. libFuzzer's panic hook would
//! abort on the panic even though it is caught, so a panic raised inside an `swc_*` crate is
//! logged instead (location and input, once per location) and the result checked like any
//! other; every other panic is a crash.
#![no_main]

use code_runtime_transpile::transpile;
use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::mpsc::{channel, Sender};
use std::sync::{Mutex, Once, OnceLock};

type Job = (String, Sender<()>);

fn worker() -> &'static Mutex<Sender<Job>> {
  static W: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
  W.get_or_init(|| {
    let (tx, rx) = channel::<Job>();
    std::thread::Builder::new()
      .name("transpile".into())
      .stack_size(code_runtime_core::sched::pool::THREAD_STACK)
      .spawn(move || {
        for (program, done) in rx {
          CURRENT.with(|c| c.borrow_mut().clone_from(&program));
          check(&program);
          let _ = done.send(());
        }
      })
      .expect("transpile thread");
    Mutex::new(tx)
  })
}

thread_local! {
  /// The input being transformed on this thread (for the log of tolerated swc panics).
  static CURRENT: RefCell<String> = const { RefCell::new(String::new()) };
}

fn install_hook() {
  static ONCE: Once = Once::new();
  ONCE.call_once(|| {
    // libFuzzer's hook aborts the process; keep it for everything but swc's panics.
    let aborting = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| match info.location() {
      Some(at) if at.file().contains("/swc_") => {
        log_swc_panic(&format!("{}:{}", at.file(), at.line()))
      }
      _ => aborting(info),
    }));
  });
}

fn log_swc_panic(at: &str) {
  static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
  let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
  if seen.get_or_insert_with(HashSet::new).insert(at.to_owned()) {
    let program = CURRENT.with(|c| c.borrow().clone());
    eprintln!("swc panic at {at} (caught by transpile) for input {program:?}");
  }
}

fn check(program: &str) {
  match transpile(program) {
    Ok(t) => assert!(!t.code.is_empty(), "empty output for {program:?}"),
    Err(e) => {
      // JavaScript's line terminators: \n, \r, \r\n (one), U+2028, U+2029.
      let lines = 1
        + program.replace("\r\n", "\n").matches(['\n', '\r', '\u{2028}', '\u{2029}']).count()
          as u32;
      assert!(e.line >= 1 && e.column >= 1, "position {}:{} for {program:?}", e.line, e.column);
      assert!(e.line <= lines + 1, "line {} past the program's {lines} lines: {program:?}", e.line);
      assert!(!e.message.is_empty());
    }
  }
}

fuzz_target!(|data: &[u8]| {
  install_hook();
  let program = String::from_utf8_lossy(data).into_owned();
  let (done_tx, done_rx) = channel();
  worker()
    .lock()
    .unwrap_or_else(|p| p.into_inner())
    .send((program, done_tx))
    .expect("worker alive");
  done_rx.recv().expect("transpile worker died");
});
