//! Where a key's requests go: the round asks a `Resolver`, and tells it what
//! it learned on the way. The topology layer implements it for Cluster and
//! Sentinel deployments; `Direct` is a plain server (and every question the
//! topology asks to learn a deployment).

use std::borrow::Cow;

use super::Node;
use crate::engine::error::Cause;
use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::{Addr, Server};

pub trait Resolver {
    /// The server that `key`'s requests go to on `node`'s deployment.
    fn endpoint<'n>(&self, node: &'n Node, key: &[u8], limits: &Limits) -> Result<Cow<'n, Server>, Cause>;

    /// What is known of `server`'s deployment is in doubt: learned again at
    /// the next look-up.
    fn forget(&self, server: &Server);

    /// `slot` is served by `to` now (a `MOVED` reply).
    fn moved(&self, server: &Server, slot: u16, to: &Addr);

    /// `key`'s slot was seen being migrated (`ASK`, `TRYAGAIN`).
    fn migrating(&self, _server: &Server, _key: &[u8]) {}
}

/// A plain server: requests go to the node's own server.
pub struct Direct;

impl Resolver for Direct {
    fn endpoint<'n>(&self, node: &'n Node, _key: &[u8], _limits: &Limits) -> Result<Cow<'n, Server>, Cause> {
        Ok(Cow::Borrowed(&node.server))
    }

    fn forget(&self, _server: &Server) {}

    fn moved(&self, _server: &Server, _slot: u16, _to: &Addr) {}
}
