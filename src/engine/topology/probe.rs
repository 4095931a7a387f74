//! The questions asked to learn a deployment, as requests of their own,
//! sent to one server directly (not routed: they are how routing is learned).

use crate::engine::net::conn::Limits;
use crate::engine::net::dsn::Server;
use crate::engine::net::pool;
use crate::engine::protocol::encode::resp;
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::Form;
use crate::engine::round::request::{Request, Verdict};
use crate::engine::round::resolve::Direct;
use crate::engine::round::{ask, Node, Vote};

/// The questions asked to learn a deployment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe<'a> {
    /// `CLUSTER SLOTS`.
    ClusterSlots,
    /// `SENTINEL GET-MASTER-ADDR-BY-NAME name`.
    MasterOf(&'a str),
    /// `ROLE`.
    Role,
}

impl Request for Probe<'_> {
    fn key(&self) -> &[u8] {
        b""
    }

    fn first_form(&self) -> Form {
        Form::Plain
    }

    fn encode(&self, _form: Form, out: &mut Vec<u8>) {
        match self {
            Probe::ClusterSlots => resp(out, &[b"CLUSTER", b"SLOTS"]),
            Probe::MasterOf(name) => resp(out, &[b"SENTINEL", b"GET-MASTER-ADDR-BY-NAME", name.as_bytes()]),
            Probe::Role => resp(out, &[b"ROLE"]),
        }
    }

    // Checked by who asked.
    fn classify(&self, _form: Form, _reply: &Reply) -> Verdict {
        Verdict::Data
    }

    fn accepts_array(&self) -> bool {
        true
    }
}

/// One question to the server at `server`, within `node`'s timeouts. A
/// sentinel's connection is closed afterwards: every worker of every host
/// would otherwise keep one open to it for nothing.
pub fn probe(node: &Node, server: Server, probe: Probe<'_>, limits: &Limits) -> Vote {
    let node = Node { server, timeout: node.timeout, connect: node.connect };
    let vote = ask(&node, &probe, &Direct, limits);
    if let Probe::MasterOf(_) = probe {
        drop(pool::take(&node.server, limits));
    }
    vote
}

/// A reply for an error message, short.
pub fn shown(reply: &Reply) -> String {
    let text = format!("{reply:?}");
    match text.char_indices().nth(200) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

