//! What crosses between a program and its host, and nothing else: `json` turns engine
//! values into lossless JSON, `parse` the host's JSON answers into engine values,
//! `bindings` makes the binding functions and settles their calls, `outbox` holds the calls
//! and live logs the host has not taken yet. The
//! per-run state it needs comes through [`bindings::BindingsWorld`], which `world`
//! implements; so `bridge` never uses `world`, `console` or `web`.

pub mod bindings;
pub mod json;
pub mod outbox;
pub mod parse;
