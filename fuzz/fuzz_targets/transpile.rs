//! Arbitrary bytes as program text into the TypeScript transform: it must return `Ok` or a
//! positioned `Err`, never panic, abort or hang. Runs on a thread with the pool's stack size,
//! as in production (swc's parser recurses per nesting level).
//!
//! The fuzz build turns on debug assertions everywhere, swc's included, and swc's parser has
//! `debug_assert!`s that fire on some malformed input (for example `(a, b.c => 1)`) where the
//! release build — what ships — goes on to report a syntax error. A panic raised by an
//! assertion inside an swc crate is therefore caught and logged (location and input, once per
//! location) instead of ending the run; every other panic is a crash. The logged inputs are
//! checked against the release build in `crates/transpile` tests.
#![no_main]

use code_runtime_transpile::transpile;
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe, PanicHookInfo};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Mutex, Once, OnceLock};

type Job = (String, Sender<()>);

fn worker() -> &'static Mutex<Sender<Job>> {
  static W: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();
  W.get_or_init(|| {
    let (tx, rx) = channel::<Job>();
    std::thread::Builder::new()
      .name("transpile".into())
      .stack_size(code_runtime_core::pool::THREAD_STACK)
      .spawn(move || {
        for (program, done) in rx {
          if catch_unwind(AssertUnwindSafe(|| check(&program))).is_err() {
            // Only an swc assertion gets here (the hook aborts on anything else).
            report_swc_assertion(&program);
          }
          let _ = done.send(());
        }
      })
      .expect("transpile thread");
    Mutex::new(tx)
  })
}

static LAST_SWC_ASSERTION: Mutex<Option<String>> = Mutex::new(None);

fn swc_assertion(info: &PanicHookInfo) -> Option<String> {
  let location = info.location()?;
  let message = info
    .payload()
    .downcast_ref::<String>()
    .map(String::as_str)
    .or_else(|| info.payload().downcast_ref::<&str>().copied())?;
  (location.file().contains("/swc_") && message.starts_with("assertion"))
    .then(|| format!("{}:{}", location.file(), location.line()))
}

fn install_hook() {
  static ONCE: Once = Once::new();
  ONCE.call_once(|| {
    // libFuzzer's hook aborts the process; keep it for everything but swc's assertions.
    let aborting = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| match swc_assertion(info) {
      Some(at) => *LAST_SWC_ASSERTION.lock().unwrap_or_else(|p| p.into_inner()) = Some(at),
      None => aborting(info),
    }));
  });
}

fn report_swc_assertion(program: &str) {
  static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
  let at = LAST_SWC_ASSERTION.lock().unwrap_or_else(|p| p.into_inner()).take().unwrap_or_default();
  let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
  if seen.get_or_insert_with(HashSet::new).insert(at.clone()) {
    eprintln!("swc debug assertion at {at} (tolerated) for input {program:?}");
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
