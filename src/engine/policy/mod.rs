//! The policy: which locks this process holds, what is renewed, and what
//! is released when (at release, at request end, after a fork). Both PHP
//! classes go through here; no class decides it on its own. Its interface
//! to the PHP faces is re-exported here.

mod batch;
pub mod hold;
pub mod registry;
mod renew;
pub mod request_end;
pub mod watchdog;

pub use crate::engine::features::replicas::Replicas;
pub use hold::*;
pub use crate::engine::features::shared::{Claim, Holds, Mode, Take};
pub use registry::{expiry_after, mutex_owner, registered, shared_owner, Held, Kind, Owner};
pub use request_end::{forget_all, release_all};
