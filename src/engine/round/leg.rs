//! One node's part of a round (a leg): writing its requests, reading the
//! replies, following redirections and retrying within its deadlines
//! (reaching its server: `connect.rs`).

use std::borrow::Cow;
use std::time::Instant;

use super::ctx::Ctx;
use super::small::Small;
use super::{Job, Vote};
use crate::engine::error::{Broken, Cause, NodeError};
use crate::engine::net::conn::{Conn, Expect, Fill};
use crate::engine::net::dial::{Dialer, Interest};
use crate::engine::net::dsn::Server;
use crate::engine::net::down;
use crate::engine::protocol::script::Form;

pub enum State {
    Dialing(Dialer, Interest),
    /// Logged-in replies still owed before the commands go out.
    LoggingIn(Conn, usize),
    Sent(Conn),
    /// Told to try again a moment later (`TRYAGAIN`).
    Pausing(Instant),
    Closed,
}

pub struct Leg<'a> {
    pub(super) job: &'a Job<'a>,
    /// The server the commands go to: the node's, or on a Cluster or
    /// Sentinel deployment the one it names for the key.
    pub(super) endpoint: Cow<'a, Server>,
    pub(super) state: State,
    /// Redirections and new look-ups so far.
    pub(super) hops: u32,
    /// Retries after `TRYAGAIN` (a slot being migrated) so far, and until
    /// when they may go on.
    pub(super) retries: u32,
    pub(super) retry_until: Instant,
    /// The next commands go after `ASKING` (an `ASK` redirection).
    pub(super) asking: bool,
    /// The connection came from the pool: a break may be staleness, worth one resend.
    pub(super) reused: bool,
    /// It came with replies still owed from before: its server is behind
    /// (a straggler of an earlier round, or stopped).
    pub(super) behind: bool,
    /// Behind, and none of those replies has come for `STRAGGLER_MIN`
    /// (stopped, or far behind): a look waits no minimum for it.
    pub(super) silent: bool,
    pub(super) forms: Small<Form>,
    pub votes: Small<Option<Vote>>,
    pub(super) connect_by: Instant,
    pub(super) reply_by: Instant,
    /// How far replies may move `reply_by` on (a long pipeline).
    pub(super) reply_cap: Instant,
    pub alias_checked: bool,
    /// The earlier node that is the same server.
    pub alias_of: Option<usize>,
}

impl<'a> Leg<'a> {
    pub fn new(job: &'a Job<'a>, now: Instant, until: super::Until) -> Self {
        Leg {
            job,
            endpoint: Cow::Borrowed(&job.node.server),
            state: State::Closed,
            hops: 0,
            retries: 0,
            retry_until: now + job.node.connect + job.node.timeout,
            asking: false,
            reused: false,
            behind: false,
            silent: false,
            // Nobody reads the answers of a fire-and-forget round, so a
            // NOSCRIPT would go unseen: scripts go as text (once).
            forms: Small::from_fn(job.reqs.len(), |i| match (until, job.reqs[i].first_form()) {
                (super::Until::Sent, Form::Sha) => Form::Eval,
                (_, form) => form,
            }),
            votes: Small::from_fn(job.reqs.len(), |_| None),
            connect_by: now,
            reply_by: now,
            reply_cap: now,
            alias_checked: false,
            alias_of: None,
        }
    }

    pub fn dialing(&self) -> bool {
        matches!(self.state, State::Dialing(..))
    }

    /// Its server is behind, and the socket does not take our commands
    /// (its buffers are full of what it was sent before: it reads nothing).
    /// Waiting for that write is waiting for an answer that will not come;
    /// the connection keeps the rest, in order, for its next use.
    pub fn blocked_writing(&self) -> bool {
        self.behind && matches!(&self.state, State::Sent(conn) if conn.wants_write())
    }

    pub fn label(&self) -> String {
        self.endpoint.to_string()
    }

    pub(super) fn server(&self) -> &Server {
        &self.endpoint
    }

    /// Whether a request of the leg may go on no other connection.
    pub(super) fn bound(&self) -> bool {
        self.job.reqs.iter().any(|req| req.bound_to_connection())
    }

    /// The key the requests are for (where a deployment routes them).
    pub(super) fn key(&self) -> &'a [u8] {
        self.job.reqs.first().map_or(&[][..], |req| req.key())
    }

    pub fn done(&self) -> bool {
        self.votes.iter().all(Option::is_some)
    }

    pub fn identity(&self) -> Option<&[u8]> {
        match &self.state {
            State::Sent(conn) | State::LoggingIn(conn, _) => conn.identity.as_deref(),
            _ => None,
        }
    }

    /// Every command still without a vote fails for `cause`.
    pub fn fail(&mut self, cause: Cause) {
        let error = NodeError::new(self.label(), cause);
        for vote in self.votes.iter_mut().filter(|v| v.is_none()) {
            *vote = Some(Vote::Failed(error.clone()));
        }
    }

    /// Every command fails for `cause`, even one already answered: the
    /// answers of a connection that misbehaves cannot be trusted.
    pub(super) fn fail_all(&mut self, cause: Cause) {
        self.votes.fill(None);
        self.fail(cause);
    }

    pub fn begin(&mut self, ctx: &mut Ctx<'_>) {
        match ctx.resolver.endpoint(self.job.node, self.key(), ctx.limits) {
            Ok(endpoint) => self.endpoint = endpoint,
            Err(cause) => return self.fail(cause),
        }
        self.connect(ctx);
    }

    /// Queues the commands still without a vote (after `INFO server` when the
    /// identity is wanted and unknown) and writes them.
    pub(super) fn send(&mut self, mut conn: Conn, ctx: &mut Ctx<'_>) {
        // Once per connection: who the server is, and what it has.
        if !conn.info_asked {
            conn.push(b"*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n", Expect::Identity);
            conn.info_asked = true;
        }
        let as_text = conn.lost_scripts;
        for (i, req) in self.job.reqs.iter().enumerate() {
            if self.votes[i].is_none() {
                // A script goes as the native command that stands in for it
                // where the server is known to have it.
                if let (Form::Sha, Some(native)) = (self.forms[i], conn.caps.and_then(|caps| req.native(caps))) {
                    self.forms[i] = Form::Native(native);
                }
                // (A NOSCRIPT nobody waited for: as text, which loads it.)
                if self.forms[i] == Form::Sha && as_text {
                    self.forms[i] = Form::Eval;
                    conn.lost_scripts = false;
                }
                ctx.push_answer(&mut conn, i, *req, self.forms[i], self.asking);
            }
        }
        // A blocking request's reply may come that much later, and one tick
        // more: Redis ends a blocking pop's timeout only at a tick (1 s at hz 1).
        let blocks = self.job.reqs.iter().map(|req| req.blocks_for()).max().unwrap_or_default();
        let blocks = if blocks.is_zero() { blocks } else { blocks + conn.caps.unwrap_or_default().tick() };
        self.reply_by = Instant::now() + self.job.node.timeout + blocks;
        // A long pipeline (a request end's releases, due renewals): each reply
        // gives the rest another timeout, up to one more per 1,000 requests;
        // a server that stops answering still fails within one timeout.
        let more = self.job.node.timeout.checked_mul((self.job.reqs.len() / 1000) as u32);
        self.reply_cap = more.and_then(|d| self.reply_by.checked_add(d)).unwrap_or(self.reply_by);
        self.state = State::Sent(conn);
        self.flush(ctx);
    }

    pub(super) fn flush(&mut self, ctx: &mut Ctx<'_>) {
        let (State::Sent(conn) | State::LoggingIn(conn, _)) = &mut self.state else { return };
        if let Err(e) = conn.flush() {
            self.broke(Broken::from(&e), ctx);
        }
    }

    /// The connection broke. A pooled one may have been closed by its server
    /// while idle (restart, idle timeout): the commands may or may not have
    /// run, so they go again, in their idempotent form, on a new connection.
    pub(super) fn broke(&mut self, why: Broken, ctx: &mut Ctx<'_>) {
        self.state = State::Closed;
        let nothing_answered = self.votes.iter().all(Option::is_none);
        if nothing_answered {
            for (form, req) in self.forms.iter_mut().zip(self.job.reqs) {
                *form = req.resend_form(*form);
            }
        }
        if self.reused && nothing_answered && !self.bound() {
            self.reused = false;
            return self.dial(ctx);
        }
        // A deployment's master may have moved (a failover).
        if nothing_answered && self.look_again(ctx) {
            return;
        }
        ctx.resolver.forget(&self.job.node.server);
        self.fail(Cause::Io(why));
    }

    /// Whether every command is on the wire.
    pub fn written(&self) -> bool {
        matches!(&self.state, State::Sent(conn) if !conn.wants_write())
    }

    pub fn retry_due(&self, now: Instant) -> bool {
        match &self.state {
            State::Dialing(_, i) => i.retry_at.is_some_and(|t| t <= now),
            State::Pausing(until) => *until <= now,
            _ => false,
        }
    }

    /// What to poll for, and until when.
    pub fn interest(&self) -> (i32, i16, Instant) {
        match &self.state {
            State::Dialing(_, i) => (i.fd, i.events, i.retry_at.map_or(self.connect_by, |t| t.min(self.connect_by))),
            State::LoggingIn(conn, _) => (conn.fd(), events(conn), self.connect_by),
            State::Sent(conn) => (conn.fd(), events(conn), self.reply_by),
            State::Pausing(until) => (-1, 0, *until),
            State::Closed => (-1, 0, Instant::now()),
        }
    }

    /// Fails what is past its deadline.
    pub fn judge(&mut self, now: Instant, ctx: &mut Ctx<'_>) {
        let node = self.job.node;
        // What arrived counts, even when this process itself was held up
        // (stopped, descheduled) past the deadline before reading it.
        let late = match &self.state {
            State::Sent(_) => now >= self.reply_by,
            State::LoggingIn(..) => now >= self.connect_by,
            _ => false,
        };
        if late {
            self.progress(libc::POLLIN, ctx);
            if self.done() {
                return;
            }
        }
        match &self.state {
            State::Dialing(..) if now >= self.connect_by => {
                let why = format!("timed out after {} s", node.connect.as_secs_f64());
                down::remember(&self.endpoint.addr, node.connect, &why);
                self.state = State::Closed;
                if !self.look_again(ctx) {
                    self.fail(Cause::Connect(why));
                }
            }
            State::LoggingIn(..) if now >= self.connect_by => {
                self.state = State::Closed;
                self.fail(Cause::Connect(format!("no reply to the login within {} s", node.connect.as_secs_f64())));
            }
            State::Sent(_) if now >= self.reply_by => {
                self.abandon();
                // A deployment's master that stopped answering may have been
                // replaced: the next call asks again (this one may have run).
                ctx.resolver.forget(&node.server);
                self.fail(Cause::Timeout(node.timeout));
            }
            State::Closed => self.fail(Cause::Io(Broken::Closed)),
            _ => {}
        }
    }

    /// Drops the connection of a node whose reply is late: a late reply must
    /// never answer the next command. A late acquire gets its cleanup
    /// pipelined first: if the server runs the SET after all, the release
    /// runs right behind it.
    pub fn abandon(&mut self) {
        if let State::Sent(mut conn) = std::mem::replace(&mut self.state, State::Closed) {
            let mut cleanup = Vec::new();
            for (i, req) in self.job.reqs.iter().enumerate() {
                if self.votes[i].is_none() && req.cleanup(&mut cleanup) {
                    conn.push(&cleanup, Expect::Skip);
                    cleanup.clear();
                }
            }
            let _ = conn.flush();
        }
    }

    /// Waits for the reply in recv(2) when the leg is a plain connection
    /// with everything written; false when it must go through poll().
    pub fn wait_in_recv(&mut self, ctx: &mut Ctx<'_>) -> bool {
        let State::Sent(conn) = &mut self.state else { return false };
        if conn.wants_write() {
            return false;
        }
        match conn.fill_waiting(self.reply_by) {
            None => false,
            Some(filled) => {
                self.took(filled, ctx);
                true
            }
        }
    }

    /// Advances the leg after poll() reported `revents` (or its retry time came).
    pub fn progress(&mut self, revents: i16, ctx: &mut Ctx<'_>) {
        match self.state {
            State::Dialing(..) => return self.advance_dial(ctx),
            State::Pausing(_) => {
                self.state = State::Closed;
                return self.connect(ctx);
            }
            _ => {}
        }
        if revents & libc::POLLOUT != 0 {
            self.flush(ctx);
        }
        let (State::Sent(conn) | State::LoggingIn(conn, _)) = &mut self.state else { return };
        let filled = conn.fill();
        self.took(filled, ctx);
    }

    /// Acts on what a read brought.
    fn took(&mut self, filled: std::io::Result<Fill>, ctx: &mut Ctx<'_>) {
        match filled {
            Ok(Fill::Closed) => {
                // Answers already cut stay valid; what is still owed is lost.
                self.read_replies(ctx);
                if !self.done() {
                    self.broke(Broken::Closed, ctx);
                } else {
                    self.state = State::Closed;
                }
            }
            Err(e) => self.broke(Broken::from(&e), ctx),
            Ok(_) => self.read_replies(ctx),
        }
    }
}

fn events(conn: &Conn) -> i16 {
    libc::POLLIN | if conn.wants_write() { libc::POLLOUT } else { 0 }
}
