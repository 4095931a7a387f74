//! How a leg reaches its server: a pooled connection where one is left and
//! usable, else a new one (connect, TLS, login), and what is known of
//! servers that did not answer a moment ago.

use std::time::Instant;

use super::ctx::Ctx;
use super::leg::{Leg, State};
use super::run::STRAGGLER_MIN;
use crate::engine::error::{Broken, Cause};
use crate::engine::net::conn::{Conn, Settled};
use crate::engine::net::dial::{self, Dial, Dialer, Interest};
use crate::engine::net::{caps, down, login, pool};

impl Leg<'_> {
    /// To the endpoint: a pooled connection, else a new one.
    pub(super) fn connect(&mut self, ctx: &mut Ctx<'_>) {
        if let Some(why) = down::known(&self.server().addr, self.job.node.connect) {
            let secs = down::remembered().as_secs();
            return self.fail(Cause::Connect(format!("{why} (a moment ago; not tried again for {secs} s)")));
        }
        if let Some(mut conn) = pool::take(self.server(), ctx.limits) {
            // Its server has read nothing for a whole timeout: as a reply
            // that did not come. The connection stays in the pool as it is
            // (what it holds runs in order if the server reads again, and
            // a new one would only queue behind the server's backlog);
            // nothing more is queued on it meanwhile.
            if conn.flush().is_ok() && conn.stalled_for() >= self.job.node.timeout {
                pool::put(self.server(), ctx.limits, conn);
                ctx.resolver.forget(&self.job.node.server);
                return self.fail(Cause::Timeout(self.job.node.timeout));
            }
            match conn.settle() {
                Settled::Usable => {
                    self.reused = true;
                    self.behind = conn.owed().next().is_some();
                    self.silent = conn.silent_for() >= STRAGGLER_MIN;
                    return self.send(conn, ctx);
                }
                // (Nothing of this step was sent: not in doubt.)
                Settled::Garbled(why) => return self.fail(Cause::Garbled(why)),
                Settled::Unusable => {}
            }
        }
        if self.bound() {
            return self.fail(Cause::Io(Broken::BoundGone));
        }
        self.dial(ctx);
    }

    pub(super) fn dial(&mut self, ctx: &mut Ctx<'_>) {
        let tls = match self.server().tls {
            false => None,
            true => match dial::tls_connector(ctx.limits.tls_ca_file.as_deref()) {
                Ok(connector) => Some(connector),
                Err(e) => return self.fail(Cause::Connect(e)),
            },
        };
        self.connect_by = Instant::now() + self.job.node.connect;
        (self.behind, self.silent) = (false, false);
        let dialer = Dialer::start(&self.server().addr, tls);
        self.state = State::Dialing(dialer, Interest { fd: -1, events: 0, retry_at: None });
        self.advance_dial(ctx);
    }

    pub(super) fn advance_dial(&mut self, ctx: &mut Ctx<'_>) {
        let State::Dialing(dialer, _) = &mut self.state else { return };
        match dialer.advance() {
            Dial::Wait(interest) => {
                if let State::Dialing(_, want) = &mut self.state {
                    *want = interest;
                }
            }
            Dial::Failed(why) => {
                self.state = State::Closed;
                if !self.look_again(ctx) {
                    self.fail(Cause::Connect(why));
                }
            }
            Dial::Ready(stream) => {
                down::forget(&self.server().addr);
                let mut conn = Conn::new(stream);
                conn.caps = caps::remembered(self.server());
                match login::log_in(&mut conn, self.server()) {
                    0 => self.send(conn, ctx),
                    owed => {
                        self.state = State::LoggingIn(conn, owed);
                        self.flush(ctx);
                    }
                }
            }
        }
    }
}
