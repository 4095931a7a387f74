//! A leg's replies: logging in, each answer (NOSCRIPT resend, redirections,
//! error replies, verdicts), and what is left when the round ends.

use std::time::Instant;

use super::leg::{Leg, State};
use super::request::{self, Verdict};
use super::ctx::Ctx;
use super::small::Small;
use super::Vote;
use crate::engine::error::{Cause, NodeError};
use crate::engine::net::conn::Expect;
use crate::engine::net::{caps, pool};
use crate::engine::protocol::errors::ErrorKind;
use crate::engine::protocol::resp::{printable, Reply};
use crate::engine::protocol::script::Form;
use crate::engine::protocol::server_info::{self, Caps};

impl Leg<'_> {
    /// Cuts every whole reply that is in and acts on it.
    pub(super) fn read_replies(&mut self, ctx: &mut Ctx<'_>) {
        loop {
            let (State::Sent(conn) | State::LoggingIn(conn, _)) = &mut self.state else { return };
            let (expect, reply) = match conn.next_reply() {
                Ok(Some(next)) => next,
                Ok(None) => return,
                Err(why) => {
                    self.state = State::Closed;
                    return self.fail_all(Cause::Protocol(why));
                }
            };
            match expect {
                Expect::Skip => conn.skipped(&reply),
                Expect::Identity => {
                    // A server that refuses us altogether answers this first
                    // question with the reason (maxclients reached, LOADING,
                    // NOAUTH), then closes or refuses the rest: that reason is
                    // this node's failure. Any other error (an ACL user without
                    // +info, INFO renamed, a proxy without it) goes on: no
                    // natives, the address as identity (a redirection is for
                    // the request behind it to follow).
                    if let Reply::Error(msg) = &reply {
                        let kind = ErrorKind::of(msg);
                        let refused = [&b"ERR max number of clients"[..], b"LOADING"].iter().any(|p| msg.starts_with(p));
                        if kind == ErrorKind::Auth || refused {
                            self.state = State::Closed;
                            let text = printable(msg);
                            return self.fail_all(match kind {
                                ErrorKind::Auth => Cause::Auth(text),
                                _ => Cause::Reply { kind, text },
                            });
                        }
                    }
                    let info = match &reply {
                        Reply::Bulk(info) => &info[..],
                        _ => b"",
                    };
                    // (A socket whose peer cannot be named is named by the
                    // address it was dialed at: two such nodes are never one.)
                    let peer = || Some(conn.peer()).filter(|p| p != "unknown").unwrap_or_else(|| self.endpoint.to_string());
                    conn.identity = Some(server_info::run_id(info).unwrap_or_else(|| peer().into_bytes()));
                    let learned = Caps::of(info);
                    conn.caps = Some(learned);
                    caps::remember(&self.endpoint, learned);
                }
                Expect::Auth | Expect::Select => self.on_login(expect, reply, ctx),
                Expect::Answer(i) => {
                    self.replied();
                    self.on_answer(i, reply, ctx)
                }
            }
        }
    }

    /// A reply came: the rest of a long pipeline gets another timeout (up to its cap).
    fn replied(&mut self) {
        if let Some(next) = Instant::now().checked_add(self.job.node.timeout) {
            self.reply_by = self.reply_by.max(next.min(self.reply_cap));
        }
    }

    fn on_login(&mut self, step: Expect, reply: Reply, ctx: &mut Ctx<'_>) {
        let State::LoggingIn(_, owed) = &mut self.state else { return };
        if let Reply::Error(msg) = reply {
            self.state = State::Closed;
            let mut msg = printable(&msg);
            if let Some(password) = self.server().password.as_deref().filter(|p| !p.is_empty()) {
                msg = msg.replace(password, "***");
            }
            return self.fail(match step {
                Expect::Select => Cause::Reply { kind: ErrorKind::of(msg.as_bytes()), text: format!("SELECT {}: {msg}", self.server().db) },
                _ => Cause::Auth(msg),
            });
        }
        *owed -= 1;
        if *owed == 0 {
            if let State::LoggingIn(conn, _) = std::mem::replace(&mut self.state, State::Closed) {
                self.send(conn, ctx);
            }
        }
    }

    fn on_answer(&mut self, i: usize, reply: Reply, ctx: &mut Ctx<'_>) {
        let req = self.job.reqs[i];
        if self.votes[i].is_some() {
            return;
        }
        self.votes[i] = Some(match reply {
            Reply::Error(msg) if ErrorKind::of(&msg) == ErrorKind::NoScript && self.forms[i] != Form::Eval => {
                // A restarted server or SCRIPT FLUSH lost the script cache.
                // The requests sent behind this one ran before it: their
                // answers are skipped and they go again behind its text
                // (a queue's blocking pop must follow the join it waits on).
                self.forms[i] = Form::Eval;
                if self.blocking_after(i) {
                    // A blocking request sent behind it runs first and would
                    // hold the text back for its whole timeout: a fresh
                    // connection instead (closing this one ends the block).
                    self.state = State::Closed;
                    self.reused = false;
                    return self.connect(ctx);
                }
                self.send_again_from(i, ctx);
                return self.flush(ctx);
            }
            // A native command on a key of another type (another client's
            // lock) did not run: the script, which reads that as held by
            // someone else, answers for it; the server keeps its native.
            Reply::Error(msg) if matches!(self.forms[i], Form::Native(_)) && ErrorKind::of(&msg) == ErrorKind::WrongType => {
                self.forms[i] = Form::Sha;
                self.send_again_from(i, ctx);
                return self.flush(ctx);
            }
            Reply::Error(msg) if self.native_refused(i, &msg) => {
                self.send_again_from(i, ctx);
                return self.flush(ctx);
            }
            Reply::Error(msg) if self.hop(i, &msg, ctx) => return,
            Reply::Error(msg) => {
                let kind = ErrorKind::of(&msg);
                // A server may echo the arguments (the token) in its error.
                let text = request::hide(req.secret(), &printable(&msg));
                let cause = if kind == ErrorKind::Auth { Cause::Auth(text) } else { Cause::Reply { kind, text } };
                Vote::Failed(NodeError::new(self.label(), cause))
            }
            reply => match req.classify(self.forms[i], &reply) {
                Verdict::Yes => Vote::Yes,
                Verdict::No => Vote::No,
                Verdict::Data => Vote::Got(reply),
                Verdict::Again if matches!(self.forms[i], Form::Native(_)) => {
                    self.forms[i] = Form::Sha;
                    self.send_again_from(i, ctx);
                    return self.flush(ctx);
                }
                Verdict::Again => {
                    self.state = State::Closed;
                    Vote::Failed(NodeError::new(self.label(), Cause::Protocol("a script's reply asked to be sent again".into())))
                }
                Verdict::Malformed(why) => {
                    self.state = State::Closed;
                    Vote::Failed(NodeError::new(self.label(), Cause::Protocol(why)))
                }
            },
        });
    }

    /// Whether request `i` went as a native command that this server refused
    /// (`msg`: unknown or renamed, an option it lacks, an ACL): it never ran,
    /// the connection forgets the native, and the request goes as its script.
    fn native_refused(&mut self, i: usize, msg: &[u8]) -> bool {
        let Form::Native(native) = self.forms[i] else { return false };
        if !matches!(ErrorKind::of(msg), ErrorKind::UnknownCommand | ErrorKind::Syntax | ErrorKind::NoPerm) {
            return false;
        }
        if let State::Sent(conn) = &mut self.state {
            conn.caps = conn.caps.map(|known| known.without(native));
            if let Some(known) = conn.caps {
                caps::remember(&self.endpoint, known);
            }
        }
        self.forms[i] = Form::Sha;
        true
    }

    /// Whether a blocking request behind request `i` still owes its answer.
    pub(super) fn blocking_after(&self, i: usize) -> bool {
        self.job.reqs.iter().enumerate().any(|(j, r)| j > i && self.votes[j].is_none() && !r.blocks_for().is_zero())
    }

    /// Request `i` and those behind it without an answer go again, in their
    /// current forms, after the answers still owed from `i` on are skipped.
    fn send_again_from(&mut self, i: usize, ctx: &mut Ctx<'_>) {
        let asking = self.asking;
        let State::Sent(conn) = &mut self.state else { return };
        conn.skip_answers_after(i);
        for (j, req) in self.job.reqs.iter().enumerate().skip(i) {
            if j == i || self.votes[j].is_none() {
                ctx.push_answer(conn, j, *req, self.forms[j], asking);
            }
        }
    }

    /// The leg's votes, its connection back to the pool. Answers nobody
    /// waited for are skipped when they come; a script sent by SHA is
    /// repeated as script text, since nobody will read its NOSCRIPT (the
    /// scripts check ownership, so running twice is harmless).
    pub fn finish(mut self, ctx: &mut Ctx<'_>) -> Small<Vote> {
        if let State::Sent(mut conn) = std::mem::replace(&mut self.state, State::Closed) {
            let owed: Vec<usize> = conn.owed().filter_map(|e| if let Expect::Answer(i) = e { Some(*i) } else { None }).collect();
            conn.forget_answers();
            for i in owed {
                if matches!(self.forms[i], Form::Sha | Form::Native(_)) && self.job.reqs[i].must_run() {
                    ctx.push(&mut conn, i, self.job.reqs[i], Form::Eval, Expect::Skip);
                }
            }
            if conn.flush().is_ok() {
                pool::put(self.server(), ctx.limits, conn);
            }
        }
        self.votes.map(|v| v.unwrap_or(Vote::Unanswered))
    }
}
