//! A leg that goes elsewhere: after a redirection (`MOVED`, `ASK`), a
//! `TRYAGAIN`, a demoted Sentinel master, or a server that could not be
//! reached on a deployment that may have moved it. The decision itself is
//! `redirect::decide`; this acts on it.

use std::borrow::Cow;
use std::time::Instant;

use super::leg::{Leg, State};
use super::redirect::{self, Budget, Redirect, Step, MAX_HOPS};
use super::ctx::Ctx;
use super::Vote;
use super::request::Unstable;
use crate::engine::error::{Cause, NodeError};
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::net::dsn::Server;
use crate::engine::net::pool;

impl<'a> Leg<'a> {
    /// On a deployment whose server for the key could not be reached: learns
    /// it again and, when it changed, goes there. Whether it did.
    pub(super) fn look_again(&mut self, ctx: &mut Ctx<'_>) -> bool {
        let node = self.job.node;
        if !node.server.is_routed() || self.hops >= MAX_HOPS || self.bound() {
            return false;
        }
        ctx.resolver.forget(&node.server);
        match ctx.resolver.endpoint(node, self.key(), ctx.limits) {
            Ok(endpoint) if endpoint.addr != self.endpoint.addr => {
                self.hops += 1;
                self.go_to(endpoint, false, ctx);
                true
            }
            _ => false,
        }
    }

    /// Sends the commands still without an answer to `endpoint` (after
    /// `ASKING` when `asking`).
    pub(super) fn go_to(&mut self, endpoint: Cow<'a, Server>, asking: bool, ctx: &mut Ctx<'_>) {
        self.endpoint = endpoint;
        self.asking = asking;
        self.reused = false;
        self.connect(ctx);
    }

    /// Goes on after the error reply `msg` to request `i` the way the
    /// deployment says (`MOVED`, `ASK`, `TRYAGAIN`, `READONLY`): the answers
    /// still owed here are skipped (they are redirected too), and the
    /// requests without an answer go to the new place. Whether it did.
    pub(super) fn hop(&mut self, i: usize, msg: &[u8], ctx: &mut Ctx<'_>) -> bool {
        let node = self.job.node;
        let Some(redirect) = redirect::classify(&node.server.route, msg, &self.endpoint.addr) else { return false };
        // What this process knows is updated, also when the request may not follow.
        match &redirect {
            Redirect::Moved { slot, to } => ctx.resolver.moved(&node.server, *slot, to),
            Redirect::Elsewhere => ctx.resolver.forget(&node.server),
            Redirect::Ask { .. } => ctx.resolver.migrating(&node.server, self.key()),
            Redirect::Later if ErrorKind::of(msg) == ErrorKind::TryAgain => ctx.resolver.migrating(&node.server, self.key()),
            Redirect::Later => {}
        }
        if self.bound() {
            return false;
        }
        let budget = Budget { hops: self.hops, retries: self.retries, retry_until: self.retry_until };
        let step = redirect::decide(&redirect, msg, &budget, self.job.reqs[i].on_unstable(), Instant::now());
        match step {
            Step::Fail(cause @ Cause::SlotUnstable { .. }) if self.job.reqs[i].on_unstable() == Unstable::Report => {
                self.give_up_on_slot(i, cause, ctx);
                return true;
            }
            Step::Fail(cause) => {
                self.votes[i] = Some(Vote::Failed(NodeError::new(self.label(), cause)));
                return true;
            }
            Step::Pause(_) => self.retries += 1,
            _ => self.hops += 1,
        }
        if let State::Sent(mut conn) = std::mem::replace(&mut self.state, State::Closed) {
            conn.skip_answers_after(i);
            if conn.flush().is_ok() {
                pool::put(self.server(), ctx.limits, conn);
            }
        }
        match step {
            Step::Go { to, asking } => self.go_to(Cow::Owned(node.server.at(to)), asking, ctx),
            // The same place (after an ASK, with ASKING again), a moment later.
            Step::Pause(at) => {
                self.reused = false;
                self.state = State::Pausing(at);
            }
            Step::LookAgain => match ctx.resolver.endpoint(node, self.key(), ctx.limits) {
                Ok(endpoint) => self.go_to(endpoint, false, ctx),
                Err(cause) => self.fail(cause),
            },
            Step::Fail(_) => {}
        }
        true
    }

    /// Request `i` was told its slot is being migrated, and its caller has a
    /// single-key way: every request of the job still without an answer
    /// fails with `cause` now (they are for the same slot). The connection
    /// is pooled unless a blocking request is still owed an answer there,
    /// which would hold back the next command on it.
    fn give_up_on_slot(&mut self, i: usize, cause: Cause, ctx: &mut Ctx<'_>) {
        let blocking = self.blocking_after(i);
        self.fail(cause);
        if let State::Sent(mut conn) = std::mem::replace(&mut self.state, State::Closed) {
            conn.skip_answers_after(i);
            if !blocking && conn.flush().is_ok() {
                pool::put(self.server(), ctx.limits, conn);
            }
        }
    }
}
