//! One command sent to N servers at once: every request is written first,
//! then the replies are read as they arrive against each node's deadline, so
//! a round costs one round trip (the slowest node that counts), not N.

use std::time::{Duration, Instant};

use super::command::{is_noscript, Command, Wire};
use super::conn::{readable, Conn, Limits};
use super::error::{Cause, NodeError};
use super::pool;
use super::server::Server;

/// A server and how long to wait for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub server: Server,
    pub timeout: Duration,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Vote {
    Yes,
    No,
    Failed(NodeError),
    /// Still in flight when the outcome was already decided.
    Unanswered,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub yes: usize,
    pub no: usize,
    pub failed: usize,
    pub pending: usize,
}

struct Slot {
    conn: Option<Conn>,
    /// The connection came from the pool: a break may be staleness, worth one resend.
    reused: bool,
    wire: Wire,
    deadline: Instant,
    vote: Option<Vote>,
}

/// Sends `cmd` to every node and collects votes until `decided(&tally)` or
/// every node has answered or timed out. Returns the votes (in node order)
/// and the instant the round ended.
pub fn fan_out(
    nodes: &[Node],
    cmd: &Command<'_>,
    limits: &Limits,
    decided: impl Fn(&Tally) -> bool,
) -> (Vec<Vote>, Instant) {
    let start = Instant::now();
    let mut packed: [Option<Vec<u8>>; 3] = [None, None, None];
    let mut wire_bytes = |wire: Wire| -> Vec<u8> {
        packed[wire as usize].get_or_insert_with(|| cmd.pack(wire)).clone()
    };
    let mut slots: Vec<Slot> = nodes
        .iter()
        .map(|node| {
            let mut slot = Slot {
                conn: None,
                reused: false,
                wire: cmd.first_wire(),
                deadline: start + node.timeout,
                vote: None,
            };
            // Over several nodes the round may end before a dead pooled
            // connection shows its EOF, and what was sent on it would be
            // lost: check first, and open a new one if it was closed.
            slot.conn = pool::take(&node.server).and_then(|mut conn| {
                (nodes.len() == 1 || conn.still_open()).then_some(conn)
            });
            slot.reused = slot.conn.is_some();
            send(&mut slot, node, limits, &mut wire_bytes);
            slot
        })
        .collect();

    loop {
        let tally = tally(&slots);
        if tally.pending == 0 {
            break;
        }
        if decided(&tally) {
            // Take the replies that are already here: each one read now is
            // a command that needs no repeat and no skipping later.
            let fds: Vec<_> = slots.iter().map(|s| if s.vote.is_none() { s.conn.as_ref().map(Conn::fd) } else { None }).collect();
            let live: Vec<_> = fds.iter().flatten().copied().collect();
            let mut ready = readable(&live, Duration::ZERO).into_iter();
            for i in 0..slots.len() {
                if fds[i].is_some() && (ready.next() == Some(true) || slots[i].conn.as_ref().is_some_and(Conn::has_reply)) {
                    receive(&mut slots[i], &nodes[i], limits, cmd, &mut wire_bytes);
                }
            }
            break;
        }
        let now = Instant::now();
        for (slot, node) in slots.iter_mut().zip(nodes) {
            if slot.vote.is_none() && slot.deadline <= now {
                abandon(slot, cmd);
                slot.vote = Some(Vote::Failed(NodeError::new(
                    node.server.to_string(),
                    Cause::Timeout(node.timeout),
                )));
            }
        }
        let waiting: Vec<usize> = (0..slots.len()).filter(|&i| slots[i].vote.is_none()).collect();
        if waiting.is_empty() {
            break;
        }
        // A reply already buffered needs no poll; with one node there is
        // nothing to multiplex: read straight away.
        let buffered: Vec<usize> =
            waiting.iter().copied().filter(|&i| slots[i].conn.as_ref().is_some_and(Conn::has_reply)).collect();
        let ready: Vec<usize> = if nodes.len() == 1 || !buffered.is_empty() {
            if buffered.is_empty() { waiting } else { buffered }
        } else {
            let fds: Vec<_> = waiting.iter().filter_map(|&i| slots[i].conn.as_ref().map(Conn::fd)).collect();
            let soonest = waiting.iter().map(|&i| slots[i].deadline).min().unwrap_or(now);
            let flags = readable(&fds, soonest.saturating_duration_since(now));
            waiting.into_iter().zip(flags).filter(|(_, ready)| *ready).map(|(i, _)| i).collect()
        };
        for i in ready {
            receive(&mut slots[i], &nodes[i], limits, cmd, &mut wire_bytes);
        }
    }

    let ended = Instant::now();
    let votes = slots
        .into_iter()
        .zip(nodes)
        .map(|(slot, node)| match (slot.vote, slot.conn) {
            (Some(vote), conn) => {
                if let Some(conn) = conn {
                    pool::put(&node.server, conn);
                }
                vote
            }
            (None, Some(mut conn)) => {
                conn.unread += 1;
                // Nobody will read a NOSCRIPT for this one: repeat it as
                // script text, which needs no cache (the scripts are
                // owner-checked, so running twice is harmless).
                if slot.wire == Wire::Sha && conn.send(&wire_bytes(Wire::Eval)).is_ok() {
                    conn.unread += 1;
                }
                pool::put(&node.server, conn);
                Vote::Unanswered
            }
            (None, None) => Vote::Unanswered,
        })
        .collect();
    (votes, ended)
}

fn tally(slots: &[Slot]) -> Tally {
    let mut t = Tally::default();
    for slot in slots {
        match slot.vote {
            Some(Vote::Yes) => t.yes += 1,
            Some(Vote::No) => t.no += 1,
            Some(Vote::Failed(_)) => t.failed += 1,
            Some(Vote::Unanswered) | None => t.pending += 1,
        }
    }
    t
}

/// Drops the connection of a node whose reply is late or broken: a late
/// reply must never answer the next command. A late acquire gets its cleanup
/// pipelined first: if the server runs the SET after all, the release runs
/// right behind it.
fn abandon(slot: &mut Slot, cmd: &Command<'_>) {
    if let (Some(mut conn), Some(cleanup)) = (slot.conn.take(), cmd.cleanup()) {
        let _ = conn.send(&cleanup);
    }
}

/// Writes the command in the slot's current form, opening a connection when
/// there is none and retrying once on a fresh one when a pooled connection
/// turns out to be dead (in the idempotent form: the first write may have
/// reached the server).
fn send(slot: &mut Slot, node: &Node, limits: &Limits, wire_bytes: &mut impl FnMut(Wire) -> Vec<u8>) {
    if let Some(conn) = slot.conn.as_mut() {
        match conn.send(&wire_bytes(slot.wire)) {
            Ok(()) => return,
            Err(e) if !slot.reused => {
                slot.conn = None;
                slot.vote = Some(Vote::Failed(e));
                return;
            }
            Err(_) => {
                slot.conn = None;
                slot.reused = false;
                slot.wire = Command::resend_wire(slot.wire);
            }
        }
    }
    open_and_send(slot, node, &wire_bytes(slot.wire), limits)
}

fn open_and_send(slot: &mut Slot, node: &Node, bytes: &[u8], limits: &Limits) {
    let node_limits = Limits { read: node.timeout, ..limits.clone() };
    match Conn::open(&node.server, &node_limits).and_then(|mut conn| conn.send(bytes).map(|()| conn)) {
        Ok(conn) => slot.conn = Some(conn),
        Err(e) => slot.vote = Some(Vote::Failed(e)),
    }
}

fn receive(
    slot: &mut Slot,
    node: &Node,
    limits: &Limits,
    cmd: &Command<'_>,
    wire_bytes: &mut impl FnMut(Wire) -> Vec<u8>,
) {
    let Some(conn) = slot.conn.as_mut() else {
        return;
    };
    if conn.unread > 0 {
        // The answer to an earlier command that nobody waited for: skip it.
        match conn.recv(node.timeout) {
            Err(e) if e.breaks_connection() => {
                slot.vote = Some(Vote::Failed(e));
                abandon(slot, cmd);
            }
            _ => conn.unread -= 1,
        }
        return;
    }
    // The socket timeout stays the node's own (changing it costs a syscall per
    // read); the round's deadline is kept by poll() and the loop above.
    match conn.recv(node.timeout) {
        Ok(reply) => {
            slot.vote = Some(match cmd.verdict(&reply) {
                Ok(true) => Vote::Yes,
                Ok(false) => Vote::No,
                Err(e) => {
                    slot.conn = None;
                    Vote::Failed(NodeError::new(node.server.to_string(), Cause::Protocol(e)))
                }
            });
        }
        Err(NodeError { cause: Cause::Reply(msg), .. }) if is_noscript(&msg) && slot.wire != Wire::Eval => {
            // A restarted server or SCRIPT FLUSH lost the script cache.
            slot.wire = Wire::Eval;
            send(slot, node, limits, wire_bytes);
        }
        Err(e) if !e.breaks_connection() => slot.vote = Some(Vote::Failed(e)),
        Err(e) => {
            abandon(slot, cmd);
            if slot.reused && matches!(e.cause, Cause::Io(_)) {
                // A pooled connection the server had closed (restart, idle
                // timeout): the command may or may not have run, so resend
                // it in its idempotent form on a new connection.
                slot.reused = false;
                slot.wire = Command::resend_wire(slot.wire);
                let bytes = wire_bytes(slot.wire);
                open_and_send(slot, node, &bytes, limits);
            } else {
                slot.vote = Some(Vote::Failed(e));
            }
        }
    }
}
