//! Commands sent to N servers at once, in one poll loop. Every node connects
//! (resolve, TCP or unix, TLS, AUTH/SELECT), writes and reads without
//! blocking, each against its own absolute deadlines: `connect` for opening
//! a connection, `timeout` for the reply from the moment the command is
//! written. A round costs one round trip (the slowest node that counts), not
//! N, and one node that never answers costs at most its own timeouts.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use super::command::{is_noscript, Command, Wire};
use super::conn::{Conn, Expect, Fill, Limits};
use super::down;
use super::error::{Cause, NodeError};
use super::net::{self, Dial, Dialer, Interest};
use super::pool;
use super::resp::{printable, Reply};
use super::route::{self, Next};
use super::server::Server;
use super::wait;

/// A server and how long to wait for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub server: Server,
    /// For each reply, from the moment its command is written.
    pub timeout: Duration,
    /// For opening a connection: resolving, connecting, TLS and login.
    pub connect: Duration,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Vote {
    Yes,
    No,
    Failed(NodeError),
    /// Still in flight when the outcome was already decided.
    #[default]
    Unanswered,
    /// The reply to a command whose answer is data, not a vote.
    Got(Reply),
}

/// When a round is over (besides every node having answered or failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// As soon as `n` yes votes are in, or can no longer come.
    Quorum(usize),
    /// As soon as every command is written: nobody waits for the answers.
    Sent,
    /// When every node has answered or failed.
    All,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    yes: usize,
    pending: usize,
}

/// One node's part of a round: the commands it gets, in order. On a Redis
/// Cluster they all go to the master of the first command's key: they are
/// for keys of one slot.
pub struct Job<'a> {
    pub node: &'a Node,
    pub cmds: &'a [Command<'a>],
}

enum State {
    Dialing(Dialer, Interest),
    /// Logged-in replies still owed before the commands go out.
    LoggingIn(Conn, usize),
    Sent(Conn),
    /// Told to try again a moment later (`TRYAGAIN`).
    Pausing(Instant),
    Closed,
}

/// Redirections and new look-ups one node's commands may take.
const MAX_HOPS: u32 = 5;

struct Slot<'a> {
    job: &'a Job<'a>,
    /// The server the commands go to: the node's, or on a Cluster or
    /// Sentinel deployment the one it names for the key.
    endpoint: Cow<'a, Server>,
    state: State,
    /// Redirections and new look-ups so far.
    hops: u32,
    /// Retries after `TRYAGAIN` (a slot being migrated) so far, and until
    /// when they may go on.
    retries: u32,
    retry_until: Instant,
    /// The next commands go after `ASKING` (an `ASK` redirection).
    asking: bool,
    /// The connection came from the pool: a break may be staleness, worth one resend.
    reused: bool,
    wires: Small<Wire>,
    votes: Small<Option<Vote>>,
    connect_by: Instant,
    reply_by: Instant,
    alias_checked: bool,
    /// The earlier node that is the same server.
    alias_of: Option<usize>,
}

/// Sends `cmd` to every node and collects votes `until` the round is over.
/// Returns the votes (in node order) and the instant the round ended.
pub fn fan_out(nodes: &[Node], cmd: &Command<'_>, limits: &Limits, until: Until) -> (Vec<Vote>, Instant) {
    let cmds = std::slice::from_ref(cmd);
    let (votes, ended) = match nodes {
        [node] => run(&[Job { node, cmds }], limits, until),
        _ => run(&nodes.iter().map(|node| Job { node, cmds }).collect::<Vec<_>>(), limits, until),
    };
    (votes.into_iter().map(Small::into_first).collect(), ended)
}

/// One command to one node, and its answer.
pub fn ask(node: &Node, cmd: &Command<'_>, limits: &Limits) -> Vote {
    fan_out(std::slice::from_ref(node), cmd, limits, Until::All).0.swap_remove(0)
}

/// Several commands per node, all nodes at once; waits for every answer
/// (or each node's deadlines). Returns each node's votes, command by command.
pub fn exchange(jobs: &[Job<'_>], limits: &Limits) -> Vec<Vec<Vote>> {
    run(jobs, limits, Until::All).0.into_iter().map(|votes| votes.to_vec()).collect()
}

/// What every slot of a round shares: the limits and the packed commands
/// (packed once per wire form when every node gets the same commands).
struct Ctx<'l> {
    limits: &'l Limits,
    shared: bool,
    packs: Vec<[Option<Vec<u8>>; 3]>,
    /// Whether the round must learn who each server is: only votes that
    /// count (a quorum over several nodes) need to know who answered.
    identify: bool,
}

impl Ctx<'_> {
    /// Queues command `i` in `wire` form on `conn`.
    fn push(&mut self, conn: &mut Conn, i: usize, cmd: &Command<'_>, wire: Wire, expect: Expect) {
        if !self.shared {
            conn.push_with(expect, |out| cmd.pack_into(wire, out));
        } else {
            if self.packs.len() <= i {
                self.packs.resize_with(i + 1, Default::default);
            }
            conn.push(self.packs[i][wire as usize].get_or_insert_with(|| cmd.pack(wire)), expect);
        }
        if cmd.wants_array() {
            conn.accept_array();
        }
    }
}

fn run(jobs: &[Job<'_>], limits: &Limits, until: Until) -> (Vec<Small<Vote>>, Instant) {
    let now = Instant::now();
    let shared = jobs.len() > 1 && jobs.windows(2).all(|w| std::ptr::eq(w[0].cmds, w[1].cmds));
    let identify = jobs.len() > 1 && matches!(until, Until::Quorum(_));
    let mut ctx = Ctx { limits, shared, packs: Vec::new(), identify };
    let mut slots: Vec<Slot<'_>> = jobs
        .iter()
        .map(|job| Slot {
            job,
            endpoint: Cow::Borrowed(&job.node.server),
            state: State::Closed,
            hops: 0,
            retries: 0,
            retry_until: now + job.node.connect + job.node.timeout,
            asking: false,
            reused: false,
            // Nobody reads the answers of a fire-and-forget round, so a
            // NOSCRIPT would go unseen: scripts go as text (once).
            wires: Small::from_fn(job.cmds.len(), |i| match (until, job.cmds[i].first_wire()) {
                (Until::Sent, Wire::Sha) => Wire::Eval,
                (_, wire) => wire,
            }),
            votes: Small::from_fn(job.cmds.len(), |_| None),
            connect_by: now,
            reply_by: now,
            alias_checked: false,
            alias_of: None,
        })
        .collect();
    for slot in slots.iter_mut() {
        slot.begin(&mut ctx);
    }
    let mut fds: Vec<libc::pollfd> = Vec::new();
    loop {
        dedupe(&mut slots);
        if slots.iter().all(Slot::done) {
            break;
        }
        let tally = tally(&slots);
        let over = match until {
            // Decided, and every node that is still in the round has its
            // command on the wire: a node that is only slower to connect
            // still gets the lock, and is pooled for the next call.
            Until::Quorum(need) => {
                (tally.yes >= need || tally.yes + tally.pending < need) && slots.iter().all(|s| s.done() || s.written())
            }
            Until::Sent => slots.iter().all(|s| s.done() || s.written()),
            Until::All => false,
        };
        if over {
            // Take the replies that are already here: each one read now is
            // a command that needs no repeat and no skipping later.
            for slot in slots.iter_mut().filter(|s| !s.done() && !matches!(s.state, State::Dialing(..))) {
                slot.progress(libc::POLLIN, &mut ctx);
            }
            dedupe(&mut slots);
            break;
        }
        // Deadlines are judged only after reading what has arrived.
        let now = Instant::now();
        for slot in slots.iter_mut().filter(|s| !s.done()) {
            slot.judge(now, &mut ctx);
        }
        // A lone node waiting for its reply waits in recv(2) itself.
        if let [slot] = &mut slots[..] {
            if slot.done() {
                continue;
            }
            if wait::interrupted() {
                give_up(&mut slots);
                break;
            }
            if slot.wait_in_recv(&mut ctx) {
                continue;
            }
        }
        let mut wake: Option<Instant> = None;
        fds.clear();
        for slot in slots.iter().filter(|s| !s.done()) {
            let (fd, events, at) = slot.interest();
            wake = Some(wake.map_or(at, |w| w.min(at)));
            fds.push(libc::pollfd { fd, events, revents: 0 });
        }
        if fds.is_empty() {
            continue;
        }
        if wait::poll(&mut fds, wake).is_err() {
            give_up(&mut slots);
            break;
        }
        let now = Instant::now();
        let mut ready = fds.iter().map(|p| p.revents);
        for slot in slots.iter_mut().filter(|s| !s.done()) {
            let revents = ready.next().unwrap_or(0);
            if revents != 0 || slot.retry_due(now) {
                slot.progress(revents, &mut ctx);
            }
        }
    }
    let ended = Instant::now();
    let votes = slots.into_iter().map(|slot| slot.finish(&mut ctx)).collect();
    (votes, ended)
}

/// PHP wants control back: every node still in the round is left as if late.
fn give_up(slots: &mut [Slot<'_>]) {
    for slot in slots.iter_mut().filter(|s| !s.done()) {
        slot.abandon();
        slot.fail(Cause::Interrupted);
    }
}

fn tally(slots: &[Slot<'_>]) -> Tally {
    let mut t = Tally::default();
    for slot in slots {
        match slot.votes.first() {
            Some(Some(Vote::Yes)) => t.yes += 1,
            Some(Some(_)) => {}
            _ => t.pending += 1,
        }
    }
    t
}

/// A node that turns out to be the same server as an earlier one (another
/// name, address or port forward of it) never votes on its own: its answer
/// counts for the server, through the earlier node (yes if either of them
/// got a yes: which of the two commands ran first on the server is chance),
/// and the alias itself gets a failed vote. A yes always comes with its
/// server's identity (`INFO server` is pipelined in front of the command),
/// so the yes votes that reach a quorum are from distinct servers.
fn dedupe(slots: &mut [Slot<'_>]) {
    for i in 1..slots.len() {
        if slots[i].alias_of.is_none() && !slots[i].alias_checked {
            let Some(id) = slots[i].identity().map(<[u8]>::to_vec) else { continue };
            slots[i].alias_checked = true;
            slots[i].alias_of = slots[..i].iter().position(|s| s.identity() == Some(&id[..]));
        }
        let Some(j) = slots[i].alias_of else { continue };
        let (earlier, later) = slots.split_at_mut(i);
        let (first, alias) = (&mut earlier[j], &mut later[0]);
        match alias.votes.first() {
            Some(Some(Vote::Failed(NodeError { cause: Cause::SameServer(_), .. }))) | Some(None) | None => {}
            Some(Some(vote)) => {
                if *vote == Vote::Yes {
                    first.votes[0] = Some(Vote::Yes);
                }
                let error = NodeError::new(alias.label(), Cause::SameServer(first.label()));
                alias.votes.fill(Some(Vote::Failed(error)));
            }
        }
    }
}

impl<'a> Slot<'a> {
    fn label(&self) -> String {
        self.endpoint.to_string()
    }

    fn server(&self) -> &Server {
        &self.endpoint
    }

    /// Whether a command of the slot may go on no other connection.
    fn bound(&self) -> bool {
        self.job.cmds.iter().any(Command::bound_to_connection)
    }

    /// The key the commands are for (where a deployment routes them).
    fn key(&self) -> &'a [u8] {
        self.job.cmds.first().map_or(&[][..], |cmd| cmd.key)
    }

    fn done(&self) -> bool {
        self.votes.iter().all(Option::is_some)
    }

    fn identity(&self) -> Option<&[u8]> {
        match &self.state {
            State::Sent(conn) | State::LoggingIn(conn, _) => conn.identity.as_deref(),
            _ => None,
        }
    }

    /// Every command still without a vote fails for `cause`.
    fn fail(&mut self, cause: Cause) {
        let error = NodeError::new(self.label(), cause);
        for vote in self.votes.iter_mut().filter(|v| v.is_none()) {
            *vote = Some(Vote::Failed(error.clone()));
        }
    }

    /// Every command fails for `cause`, even one already answered: the
    /// answers of a connection that misbehaves cannot be trusted.
    fn fail_all(&mut self, cause: Cause) {
        self.votes.fill(None);
        self.fail(cause);
    }

    fn begin(&mut self, ctx: &mut Ctx<'_>) {
        match route::endpoint(self.job.node, self.key(), ctx.limits) {
            Ok(endpoint) => self.endpoint = endpoint,
            Err(why) => return self.fail(Cause::Unresolved(why)),
        }
        self.connect(ctx);
    }

    /// To the endpoint: a pooled connection, else a new one.
    fn connect(&mut self, ctx: &mut Ctx<'_>) {
        if let Some(why) = down::known(&self.server().addr, self.job.node.connect) {
            let secs = down::REMEMBERED.as_secs();
            return self.fail(Cause::Connect(format!("{why} (a moment ago; not tried again for {secs} s)")));
        }
        if let Some(mut conn) = pool::take(self.server(), ctx.limits) {
            if conn.settle() {
                self.reused = true;
                return self.send(conn, ctx);
            }
        }
        if self.bound() {
            return self.fail(Cause::Io("the connection the lock was taken on is gone".into()));
        }
        self.dial(ctx);
    }

    fn dial(&mut self, ctx: &mut Ctx<'_>) {
        let tls = match self.server().tls {
            false => None,
            true => match net::tls_connector(ctx.limits.tls_ca_file.as_deref()) {
                Ok(connector) => Some(connector),
                Err(e) => return self.fail(Cause::Connect(e)),
            },
        };
        self.connect_by = Instant::now() + self.job.node.connect;
        let dialer = Dialer::start(&self.server().addr, tls);
        self.state = State::Dialing(dialer, Interest { fd: -1, events: 0, retry_at: None });
        self.advance_dial(ctx);
    }

    fn advance_dial(&mut self, ctx: &mut Ctx<'_>) {
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
                match log_in(&mut conn, self.server()) {
                    0 => self.send(conn, ctx),
                    owed => {
                        self.state = State::LoggingIn(conn, owed);
                        self.flush(ctx);
                    }
                }
            }
        }
    }

    /// Queues the commands still without a vote (after `INFO server` when the
    /// identity is wanted and unknown) and writes them.
    fn send(&mut self, mut conn: Conn, ctx: &mut Ctx<'_>) {
        if ctx.identify && conn.identity.is_none() {
            conn.push(b"*2\r\n$4\r\nINFO\r\n$6\r\nserver\r\n", Expect::Identity);
        }
        for (i, cmd) in self.job.cmds.iter().enumerate() {
            if self.votes[i].is_none() {
                if self.asking {
                    conn.push(b"*1\r\n$6\r\nASKING\r\n", Expect::Skip);
                }
                ctx.push(&mut conn, i, cmd, self.wires[i], Expect::Answer(i));
            }
        }
        // A blocking command's reply may come that much later.
        let blocks = self.job.cmds.iter().map(Command::blocks_for).max().unwrap_or_default();
        self.reply_by = Instant::now() + self.job.node.timeout + blocks;
        self.state = State::Sent(conn);
        self.flush(ctx);
    }

    fn flush(&mut self, ctx: &mut Ctx<'_>) {
        let (State::Sent(conn) | State::LoggingIn(conn, _)) = &mut self.state else { return };
        if let Err(e) = conn.flush() {
            self.broke(e.to_string(), ctx);
        }
    }

    /// The connection broke. A pooled one may have been closed by its server
    /// while idle (restart, idle timeout): the commands may or may not have
    /// run, so they go again, in their idempotent form, on a new connection.
    fn broke(&mut self, why: String, ctx: &mut Ctx<'_>) {
        self.state = State::Closed;
        let nothing_answered = self.votes.iter().all(Option::is_none);
        if nothing_answered {
            for (wire, cmd) in self.wires.iter_mut().zip(self.job.cmds) {
                *wire = cmd.resend_wire(*wire);
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
        route::forget(&self.job.node.server);
        self.fail(Cause::Io(why));
    }

    /// On a deployment whose server for the key could not be reached: learns
    /// it again and, when it changed, goes there. Whether it did.
    fn look_again(&mut self, ctx: &mut Ctx<'_>) -> bool {
        let node = self.job.node;
        if !node.server.is_routed() || self.hops >= MAX_HOPS || self.bound() {
            return false;
        }
        route::forget(&node.server);
        match route::endpoint(node, self.key(), ctx.limits) {
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
    fn go_to(&mut self, endpoint: Cow<'a, Server>, asking: bool, ctx: &mut Ctx<'_>) {
        self.endpoint = endpoint;
        self.asking = asking;
        self.reused = false;
        self.connect(ctx);
    }

    /// Goes on after the error reply `msg` to command `i` the way the
    /// deployment says (`MOVED`, `ASK`, `TRYAGAIN`, `READONLY`): the answers
    /// still owed here are skipped (they are redirected too), and the
    /// commands without an answer go to the new place. Whether it did.
    fn hop(&mut self, i: usize, msg: &[u8], ctx: &mut Ctx<'_>) -> bool {
        let node = self.job.node;
        // (Also when the command may not follow: what this process knows is updated.)
        let next = route::after_error(&node.server, msg, &self.endpoint.addr);
        let Some(next) = next.filter(|_| !self.bound()) else { return false };
        let pause = route::pause(self.retries);
        let exhausted = match next {
            Next::Later => Instant::now() + pause > self.retry_until,
            _ => self.hops >= MAX_HOPS,
        };
        if exhausted {
            let why = match next {
                Next::Later => format!("still told to try again after {} retries ({})", self.retries, printable(msg)),
                _ => format!("still redirected after {MAX_HOPS} redirections ({})", printable(msg)),
            };
            self.votes[i] = Some(Vote::Failed(NodeError::new(self.label(), Cause::Unresolved(why))));
            return true;
        }
        match next {
            Next::Later => self.retries += 1,
            _ => self.hops += 1,
        }
        if let State::Sent(mut conn) = std::mem::replace(&mut self.state, State::Closed) {
            conn.skip_answers_after(i);
            if conn.flush().is_ok() {
                pool::put(self.server(), ctx.limits, conn);
            }
        }
        match next {
            Next::Moved(addr) => self.go_to(Cow::Owned(node.server.at(addr)), false, ctx),
            Next::Ask(addr) => self.go_to(Cow::Owned(node.server.at(addr)), true, ctx),
            // The same place (after an ASK, with ASKING again), a moment later.
            Next::Later => {
                self.reused = false;
                self.state = State::Pausing(Instant::now() + pause);
            }
            Next::Elsewhere => match route::endpoint(node, self.key(), ctx.limits) {
                Ok(endpoint) => self.go_to(endpoint, false, ctx),
                Err(why) => self.fail(Cause::Unresolved(why)),
            },
        }
        true
    }

    /// Whether every command is on the wire.
    fn written(&self) -> bool {
        matches!(&self.state, State::Sent(conn) if !conn.wants_write())
    }

    fn retry_due(&self, now: Instant) -> bool {
        match &self.state {
            State::Dialing(_, i) => i.retry_at.is_some_and(|t| t <= now),
            State::Pausing(until) => *until <= now,
            _ => false,
        }
    }

    /// What to poll for, and until when.
    fn interest(&self) -> (i32, i16, Instant) {
        match &self.state {
            State::Dialing(_, i) => (i.fd, i.events, i.retry_at.map_or(self.connect_by, |t| t.min(self.connect_by))),
            State::LoggingIn(conn, _) => (conn.fd(), events(conn), self.connect_by),
            State::Sent(conn) => (conn.fd(), events(conn), self.reply_by),
            State::Pausing(until) => (-1, 0, *until),
            State::Closed => (-1, 0, Instant::now()),
        }
    }

    /// Fails what is past its deadline.
    fn judge(&mut self, now: Instant, ctx: &mut Ctx<'_>) {
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
                route::forget(&node.server);
                self.fail(Cause::Timeout(node.timeout));
            }
            State::Closed => self.fail(Cause::Io("connection closed".into())),
            _ => {}
        }
    }

    /// Drops the connection of a node whose reply is late: a late reply must
    /// never answer the next command. A late acquire gets its cleanup
    /// pipelined first: if the server runs the SET after all, the release
    /// runs right behind it.
    fn abandon(&mut self) {
        if let State::Sent(mut conn) = std::mem::replace(&mut self.state, State::Closed) {
            for (i, cmd) in self.job.cmds.iter().enumerate() {
                if self.votes[i].is_none() {
                    if let Some(cleanup) = cmd.cleanup() {
                        conn.push(&cleanup, Expect::Skip);
                    }
                }
            }
            let _ = conn.flush();
        }
    }

    /// Waits for the reply in recv(2) when the slot is a plain connection
    /// with everything written; false when it must go through poll().
    fn wait_in_recv(&mut self, ctx: &mut Ctx<'_>) -> bool {
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

    /// Advances the slot after poll() reported `revents` (or its retry time came).
    fn progress(&mut self, revents: i16, ctx: &mut Ctx<'_>) {
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
                    self.broke("closed by the server".into(), ctx);
                } else {
                    self.state = State::Closed;
                }
            }
            Err(e) => self.broke(e.to_string(), ctx),
            Ok(_) => self.read_replies(ctx),
        }
    }

    /// Cuts every whole reply that is in and acts on it.
    fn read_replies(&mut self, ctx: &mut Ctx<'_>) {
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
                Expect::Skip => {}
                Expect::Identity => {
                    conn.identity = Some(match &reply {
                        Reply::Bulk(info) => run_id(info).unwrap_or_else(|| conn.peer().into_bytes()),
                        _ => conn.peer().into_bytes(),
                    });
                }
                Expect::Auth | Expect::Select => self.on_login(expect, reply, ctx),
                Expect::Answer(i) => self.on_answer(i, reply, ctx),
            }
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
                Expect::Select => Cause::Reply(format!("SELECT {}: {msg}", self.server().db)),
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
        let cmd = &self.job.cmds[i];
        if self.votes[i].is_some() {
            return;
        }
        self.votes[i] = Some(match reply {
            Reply::Error(msg) if is_noscript(&msg) && self.wires[i] != Wire::Eval => {
                // A restarted server or SCRIPT FLUSH lost the script cache.
                // The commands sent behind this one ran before it: their
                // answers are skipped and they go again behind its text
                // (a queue's blocking pop must follow the join it waits on).
                self.wires[i] = Wire::Eval;
                if let State::Sent(conn) = &mut self.state {
                    conn.skip_answers_after(i);
                    ctx.push(conn, i, cmd, Wire::Eval, Expect::Answer(i));
                    for (j, later) in self.job.cmds.iter().enumerate().skip(i + 1) {
                        if self.votes[j].is_none() {
                            ctx.push(conn, j, later, self.wires[j], Expect::Answer(j));
                        }
                    }
                }
                return self.flush(ctx);
            }
            Reply::Error(msg) if self.hop(i, &msg, ctx) => return,
            Reply::Error(msg) => {
                let auth = msg.starts_with(b"NOAUTH") || msg.starts_with(b"WRONGPASS");
                // A server may echo the arguments (the token) in its error.
                let msg = cmd.hide_token(&printable(&msg));
                Vote::Failed(NodeError::new(self.label(), if auth { Cause::Auth(msg) } else { Cause::Reply(msg) }))
            }
            reply => match cmd.verdict(&reply) {
                Ok(Some(true)) => Vote::Yes,
                Ok(Some(false)) => Vote::No,
                Ok(None) => Vote::Got(reply),
                Err(why) => {
                    self.state = State::Closed;
                    Vote::Failed(NodeError::new(self.label(), Cause::Protocol(why)))
                }
            },
        });
    }

    /// The slot's votes, its connection back to the pool. Answers nobody
    /// waited for are skipped when they come; a script sent by SHA is
    /// repeated as script text, since nobody will read its NOSCRIPT (the
    /// scripts check ownership, so running twice is harmless).
    fn finish(mut self, ctx: &mut Ctx<'_>) -> Small<Vote> {
        if let State::Sent(mut conn) = std::mem::replace(&mut self.state, State::Closed) {
            let owed: Vec<usize> = conn.owed().filter_map(|e| if let Expect::Answer(i) = e { Some(*i) } else { None }).collect();
            conn.forget_answers();
            for i in owed {
                if self.wires[i] == Wire::Sha {
                    ctx.push(&mut conn, i, &self.job.cmds[i], Wire::Eval, Expect::Skip);
                }
            }
            if conn.flush().is_ok() {
                pool::put(self.server(), ctx.limits, conn);
            }
        }
        self.votes.map(|v| v.unwrap_or(Vote::Unanswered))
    }
}

/// A short list that needs no allocation when it has one element (a node's
/// commands: one, except at request end).
#[derive(Clone, Debug)]
enum Small<T> {
    One([T; 1]),
    Many(Vec<T>),
}

impl<T> Small<T> {
    fn from_fn(n: usize, mut f: impl FnMut(usize) -> T) -> Self {
        match n {
            1 => Small::One([f(0)]),
            _ => Small::Many((0..n).map(f).collect()),
        }
    }

    fn map<U>(self, f: impl FnMut(T) -> U) -> Small<U> {
        match self {
            Small::One(one) => Small::One(one.map(f)),
            Small::Many(many) => Small::Many(many.into_iter().map(f).collect()),
        }
    }

    fn into_first(self) -> T
    where
        T: Default,
    {
        match self {
            Small::One([one]) => one,
            Small::Many(many) => many.into_iter().next().unwrap_or_default(),
        }
    }
}

impl<T> std::ops::Deref for Small<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Small::One(one) => one,
            Small::Many(many) => many,
        }
    }
}

impl<T> std::ops::DerefMut for Small<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Small::One(one) => one,
            Small::Many(many) => many,
        }
    }
}

fn events(conn: &Conn) -> i16 {
    libc::POLLIN | if conn.wants_write() { libc::POLLOUT } else { 0 }
}

/// The `run_id:` line of an `INFO server` reply.
fn run_id(info: &[u8]) -> Option<Vec<u8>> {
    info.split(|&b| b == b'\n')
        .find_map(|line| line.strip_prefix(b"run_id:"))
        .map(|id| id.trim_ascii().to_vec())
        .filter(|id| !id.is_empty())
}

/// AUTH and SELECT for a new connection; returns how many replies they owe.
fn log_in(conn: &mut Conn, server: &Server) -> usize {
    let mut owed = 0;
    if let Some(password) = &server.password {
        let mut auth = redis::cmd("AUTH");
        if let Some(user) = &server.user {
            auth.arg(user);
        }
        auth.arg(password);
        conn.push(&auth.get_packed_command(), Expect::Auth);
        owed += 1;
    }
    if server.db != 0 {
        conn.push(&redis::cmd("SELECT").arg(server.db).get_packed_command(), Expect::Select);
        owed += 1;
    }
    owed
}
