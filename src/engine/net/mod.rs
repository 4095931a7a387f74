//! The network layer: where a server is (DSN), reaching it (resolve, TCP
//! or unix, TLS, login), one connection's buffers and deadlines, the pool,
//! and the process-level pieces every wait needs (per-process state across
//! fork, interruptible sleeps, threads that take no signals).

pub mod caps;
pub mod conn;
pub mod dial;
pub mod down;
pub mod dsn;
pub mod login;
pub mod pool;
pub mod process;
pub mod recall;
pub mod threads;
pub mod wait;
