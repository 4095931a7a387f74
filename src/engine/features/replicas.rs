//! Replica acknowledgement (`redis_lock.wait_replicas`): `WAIT` on the
//! connection that just wrote a lock, so that a failover cannot hand the
//! lock to another client.

use std::time::Duration;

use super::{ask, endpoint_label};
use crate::engine::error::{Acked, Broken, Cause, NodeError};
use crate::engine::net::conn::Limits;
use crate::engine::protocol::encode::{format_int, itoa_buf, resp};
use crate::engine::protocol::resp::Reply;
use crate::engine::protocol::script::Form;
use crate::engine::round::request::{data_if, Request, Verdict};
use crate::engine::round::{Node, Vote};

/// A lock counts as taken only once `wanted` replicas of its server have
/// it, within `within`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replicas {
    pub wanted: i64,
    pub within: Duration,
}

/// `WAIT replicas timeout_ms`: until that many replicas have this
/// connection's writes (the reply says how many do). Bound to the
/// connection that wrote `key`.
struct WaitReplicas<'a> {
    key: &'a [u8],
    token: &'a str,
    replicas: i64,
    timeout_ms: i64,
}

impl Request for WaitReplicas<'_> {
    fn key(&self) -> &[u8] {
        self.key
    }

    fn first_form(&self) -> Form {
        Form::Plain
    }

    fn encode(&self, _form: Form, out: &mut Vec<u8>) {
        let (mut n, mut t) = (itoa_buf(), itoa_buf());
        resp(out, &[b"WAIT", format_int(&mut n, self.replicas), format_int(&mut t, self.timeout_ms)]);
    }

    fn classify(&self, _form: Form, reply: &Reply) -> Verdict {
        data_if(matches!(reply, Reply::Int(n) if *n >= 0), reply, "WAIT", self.token)
    }

    fn blocks_for(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.max(0) as u64)
    }

    fn bound_to_connection(&self) -> bool {
        true
    }

    fn secret(&self) -> &str {
        self.token
    }
}

/// `WAIT` on the connection to `node` that just wrote `key` (bound to it:
/// never sent on another): whether `replicas.wanted` replicas have the
/// write within `replicas.within`.
pub fn replicas_have(node: &Node, key: &[u8], token: &str, replicas: Replicas, what: Acked, limits: &Limits) -> Result<(), NodeError> {
    let Replicas { wanted, within } = replicas;
    let timeout_ms = within.as_millis().clamp(1, i64::MAX as u128) as i64;
    match ask(node, &WaitReplicas { key, token, replicas: wanted, timeout_ms }, limits) {
        Vote::Got(Reply::Int(acked)) if acked < wanted => {
            Err(NodeError::new(endpoint_label(node, key, limits), Cause::Replicas { acked, wanted, within, what }))
        }
        // (the reply was checked to be a count)
        Vote::Got(_) => Ok(()),
        Vote::Failed(e) => Err(e),
        _ => Err(NodeError::new(node.server.to_string(), Cause::Io(Broken::NoWaitAnswer))),
    }
}
