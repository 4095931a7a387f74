//! The policy: which locks this process holds, what is renewed, and what
//! is released when (at release, at request end, after a fork). Both PHP
//! classes go through here; no class decides it on its own.

pub mod hold;
pub mod registry;
pub mod request_end;
pub mod watchdog;
