//! The lock algorithm in plain Rust: no PHP types here.

pub mod command;
pub mod conn;
pub mod down;
pub mod error;
pub mod held;
pub mod keys;
pub mod lease;
pub mod net;
pub mod ownership;
pub mod per_process;
pub mod queue;
pub mod pool;
pub mod resp;
pub mod round;
pub mod route;
pub mod server;
pub mod threads;
pub mod wait;
pub mod watchdog;
