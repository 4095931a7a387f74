//! One round's poll loop: every node's leg advanced as its socket is ready,
//! until the round is decided, and the votes gathered.

use std::time::{Duration, Instant};

use super::ctx::Ctx;
use super::leg::Leg;
use super::resolve::Resolver;
use super::small::Small;
use super::{Job, Until, Vote};
use crate::engine::error::{Cause, NodeError};
use crate::engine::net::conn::Limits;
use crate::engine::net::wait;

/// The least a look waits for a straggler (`Until::Look`) after the others answered.
pub const STRAGGLER_MIN: Duration = Duration::from_millis(2);

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    yes: usize,
    pending: usize,
    /// Answered, not failed.
    answered: usize,
}

pub fn run(jobs: &[Job<'_>], resolver: &dyn Resolver, limits: &Limits, until: Until) -> (Vec<Small<Vote>>, Instant) {
    let now = Instant::now();
    let shared = jobs.len() > 1 && jobs.windows(2).all(|w| std::ptr::eq(w[0].reqs, w[1].reqs));
    let mut ctx = Ctx { resolver, limits, shared, packs: Vec::new() };
    let mut legs: Vec<Leg<'_>> = jobs.iter().map(|job| Leg::new(job, now, until)).collect();
    for leg in legs.iter_mut() {
        leg.begin(&mut ctx);
    }
    let mut fds: Vec<libc::pollfd> = Vec::new();
    // When the last answer came, and how many were pending before it.
    let start = now;
    let (mut answered_at, mut was_pending) = (start, legs.len());
    loop {
        // Only one request fanned out to many nodes votes as a quorum; a
        // batch's requests (two slots of one master among them) do not.
        if ctx.shared {
            dedupe(&mut legs);
        }
        if legs.iter().all(Leg::done) {
            break;
        }
        let tally = tally(&legs);
        if tally.pending < was_pending {
            (answered_at, was_pending) = (Instant::now(), tally.pending);
        }
        let written = || legs.iter().all(|s| s.done() || s.written() || s.blocked_writing());
        let decided = |need: usize| tally.yes >= need || tally.yes + tally.pending < need;
        // A straggler gets as long again as the answers took, and at least
        // `STRAGGLER_MIN` unless each one came owing answers it has long
        // been silent on (stopped, or far behind): this one's comes after.
        let least = if legs.iter().any(|s| !s.done() && !s.silent) { STRAGGLER_MIN } else { Duration::ZERO };
        let grace_until = answered_at + (answered_at - start).max(least);
        // (Look) When the stragglers' time is up, if a majority answered;
        // once decided, the time a slow connect still gets.
        let stragglers_until = match until {
            Until::Look(need) if tally.answered >= need || decided(need) && !written() => Some(grace_until),
            _ => None,
        };
        let over = match until {
            // Decided, and every node that is still in the round has its
            // command on the wire: a node that is only slower to connect
            // still gets the lock, and is pooled for the next call.
            Until::Quorum(need) => decided(need) && written(),
            // (A look waits for no straggler, nor long for a slow connect.)
            Until::Look(need) => (decided(need) || stragglers_until.is_some_and(|t| Instant::now() >= t)) && (written() || Instant::now() >= grace_until),
            Until::Sent => written(),
            Until::All => false,
        };
        if over {
            // Take the replies that are already here: each one read now is
            // a command that needs no repeat and no skipping later.
            for leg in legs.iter_mut().filter(|s| !s.done() && !s.dialing()) {
                leg.progress(libc::POLLIN, &mut ctx);
            }
            if ctx.shared {
                dedupe(&mut legs);
            }
            break;
        }
        // Deadlines are judged only after reading what has arrived.
        let now = Instant::now();
        for leg in legs.iter_mut().filter(|s| !s.done()) {
            leg.judge(now, &mut ctx);
        }
        // A lone node waiting for its reply waits in recv(2) itself.
        if let [leg] = &mut legs[..] {
            if leg.done() {
                continue;
            }
            if wait::interrupted() {
                give_up(&mut legs);
                break;
            }
            if leg.wait_in_recv(&mut ctx) {
                continue;
            }
        }
        let mut wake: Option<Instant> = None;
        fds.clear();
        for leg in legs.iter().filter(|s| !s.done()) {
            let (fd, events, at) = leg.interest();
            wake = Some(wake.map_or(at, |w| w.min(at)));
            fds.push(libc::pollfd { fd, events, revents: 0 });
        }
        if let Some(at) = stragglers_until.filter(|&t| t > Instant::now()) {
            wake = Some(wake.map_or(at, |w| w.min(at)));
        }
        if fds.is_empty() {
            continue;
        }
        if wait::poll(&mut fds, wake).is_err() {
            give_up(&mut legs);
            break;
        }
        let now = Instant::now();
        let mut ready = fds.iter().map(|p| p.revents);
        for leg in legs.iter_mut().filter(|s| !s.done()) {
            let revents = ready.next().unwrap_or(0);
            if revents != 0 || leg.retry_due(now) {
                leg.progress(revents, &mut ctx);
            }
        }
    }
    let ended = Instant::now();
    let votes = legs.into_iter().map(|leg| leg.finish(&mut ctx)).collect();
    (votes, ended)
}

/// PHP wants control back: every node still in the round is left as if late.
fn give_up(legs: &mut [Leg<'_>]) {
    for leg in legs.iter_mut().filter(|s| !s.done()) {
        leg.abandon();
        leg.fail(Cause::Interrupted);
    }
}

fn tally(legs: &[Leg<'_>]) -> Tally {
    let mut t = Tally::default();
    for leg in legs {
        match leg.votes.first() {
            Some(Some(Vote::Yes)) => (t.yes, t.answered) = (t.yes + 1, t.answered + 1),
            Some(Some(Vote::Failed(_))) => {}
            Some(Some(_)) => t.answered += 1,
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
fn dedupe(legs: &mut [Leg<'_>]) {
    for i in 1..legs.len() {
        if legs[i].alias_of.is_none() && !legs[i].alias_checked {
            let Some(id) = legs[i].identity().map(<[u8]>::to_vec) else { continue };
            legs[i].alias_checked = true;
            legs[i].alias_of = legs[..i].iter().position(|s| s.identity() == Some(&id[..]));
        }
        let Some(j) = legs[i].alias_of else { continue };
        let (earlier, later) = legs.split_at_mut(i);
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
