//! The bottom layer: what goes on the wire and comes back, with no I/O.
//! RESP encoding and decoding, scripts with their digests, key slots and
//! the meaning of a server's error replies.

pub mod encode;
pub mod errors;
pub mod resp;
pub mod script;
pub mod server_info;
pub mod slot;
