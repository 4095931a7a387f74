//! What the commands do on the servers, through the engine's policy only:
//! the servers named on the command line as nodes, listing them, one lock
//! on each, releasing (owner-checked or forced) and evicting a waiter.

use redis_lock::engine::policy::{self, failures_text, node, redact, Claim, Failure, Held, Limits, Node, Outcome, Server, INTERRUPTED};

use crate::args::{Global, How, Usage};
use crate::listing::{self, ListedKind, LockInfo};

/// One `--server`: the node to ask and how to name it (without a password).
pub struct Target {
    pub shown: String,
    pub node: Node,
}

/// The servers, limits and prefix of a command.
pub struct Ctx {
    pub targets: Vec<Target>,
    pub limits: Limits,
    pub prefix: Vec<u8>,
}

/// Why a command did not do what was asked.
pub enum Fail {
    /// No such lock, or the server refused (exit 1).
    Refused(String),
    /// A server could not answer (exit 3).
    Server(String),
}

impl Ctx {
    pub fn new(global: &Global) -> Result<Ctx, Usage> {
        let limits = Limits { connect: global.timeout, read: global.timeout, tls_ca_file: global.tls_ca_file.clone() };
        let mut targets = Vec::new();
        for dsn in &global.servers {
            let server = Server::parse(dsn).map_err(|e| Usage(format!("--server '{}' is not a valid server: {e}", redact(dsn))))?;
            targets.push(Target { shown: redact(dsn), node: node(&server, &limits) });
        }
        Ok(Ctx { targets, limits, prefix: global.prefix.clone() })
    }

    /// The Redis key of `key`.
    pub fn full_key(&self, key: &str) -> Vec<u8> {
        let mut full = self.prefix.clone();
        full.extend_from_slice(key.as_bytes());
        full
    }
}

/// A failure, naming the server and the cause.
pub fn failure_text(target: &Target, why: &Failure) -> String {
    match why {
        Failure::Unreachable(errors) => format!("{}: {}", target.shown, failures_text(errors)),
        Failure::Interrupted => format!("{}: {INTERRUPTED}", target.shown),
        Failure::Unexpected => format!("{}: an unexpected reply", target.shown),
    }
}

/// What the servers list: the locks (each with the index of its server),
/// whether some server had more than `limit`, and the servers that failed.
pub struct Found {
    pub locks: Vec<(usize, LockInfo)>,
    pub truncated: bool,
    pub errors: Vec<String>,
}

pub fn list(ctx: &Ctx, pattern: &str, limit: usize) -> Found {
    let mut found = Found { locks: Vec::new(), truncated: false, errors: Vec::new() };
    for (i, target) in ctx.targets.iter().enumerate() {
        match listing::list(&target.node, &ctx.prefix, pattern.as_bytes(), limit, &ctx.limits) {
            Ok(listed) => {
                found.truncated |= listed.truncated;
                found.locks.extend(listed.locks.into_iter().map(|l| (i, l)));
            }
            Err(why) => found.errors.push(failure_text(target, &why)),
        }
    }
    found
}

/// `key` on each server (where it is a lock), or the servers' failures.
pub fn describe(ctx: &Ctx, key: &str) -> (Vec<(usize, LockInfo)>, Vec<String>) {
    let full = ctx.full_key(key);
    let (mut locks, mut errors) = (Vec::new(), Vec::new());
    for (i, target) in ctx.targets.iter().enumerate() {
        match listing::describe(&target.node, &full, &ctx.limits) {
            Ok(Some(info)) => locks.push((i, info)),
            Ok(None) => {}
            Err(why) => errors.push(failure_text(target, &why)),
        }
    }
    (locks, errors)
}

/// How one server's lock ended.
pub enum Released {
    Yes,
    No,
}

/// Releases `info` (the lock as listed on `target`): as `how` says.
/// A mutex (or RedLock resource on this node) goes by the engine's owner
/// release or forced release; a shared lock by the shared release of the
/// token (forced: of every holder's token).
pub fn release_one(ctx: &Ctx, target: &Target, info: &LockInfo, how: &How) -> Result<Released, Fail> {
    let server = &target.node.server;
    let key = info.key.clone();
    let outcome = match (info.kind, how) {
        (ListedKind::Mutex, How::Owner(token)) => {
            let lock = Held::mutex(target.node.clone(), key.clone(), token.clone()).for_owner();
            policy::release(&policy::mutex_handle(server, key), &lock, &ctx.limits).unwrap_or(Outcome::Refused)
        }
        (ListedKind::Mutex, How::Force) => {
            policy::force_release(&policy::mutex_handle(server, key.clone()), &target.node, &key, &ctx.limits)
        }
        (_, How::Owner(token)) => release_shared(ctx, target, &key, token),
        (_, How::Force) => {
            let mut last = Outcome::Refused;
            for holder in &info.holders {
                match release_shared(ctx, target, &key, &holder.token) {
                    Outcome::Confirmed { validity_ms } => last = Outcome::Confirmed { validity_ms },
                    Outcome::Refused => {}
                    failed => return Err(outcome_failure(target, failed)),
                }
            }
            last
        }
    };
    match outcome {
        Outcome::Confirmed { .. } => Ok(Released::Yes),
        Outcome::Refused => Ok(Released::No),
        failed => Err(outcome_failure(target, failed)),
    }
}

fn release_shared(ctx: &Ctx, target: &Target, key: &[u8], token: &str) -> Outcome {
    let lock = Held::shared(target.node.clone(), key.to_vec(), token.to_owned(), Claim::READ).for_owner();
    policy::release(&policy::shared_handle(&target.node.server, key.to_vec()), &lock, &ctx.limits).unwrap_or(Outcome::Refused)
}

fn outcome_failure(target: &Target, outcome: Outcome) -> Fail {
    let why = match outcome {
        Outcome::Unreachable(errors) => Failure::Unreachable(errors),
        Outcome::Interrupted => Failure::Interrupted,
        _ => Failure::Unexpected,
    };
    Fail::Server(failure_text(target, &why))
}

/// `release KEY`: on every server where KEY is a lock. Lines to print, or
/// why nothing was released.
pub fn release(ctx: &Ctx, key: &str, how: &How) -> Result<Vec<String>, Fail> {
    let (locks, errors) = describe(ctx, key);
    let mut done = Vec::new();
    let mut refused = Vec::new();
    for (i, info) in &locks {
        let Some(target) = ctx.targets.get(*i) else { continue };
        match release_one(ctx, target, info, how)? {
            Released::Yes => done.push(format!("released {} on {}", crate::table::key_text(info, ctx.prefix.len()), target.shown)),
            Released::No => refused.push(format!("not released on {}: {}", target.shown, refusal(how))),
        }
    }
    if let Some(first) = errors.into_iter().next() {
        return Err(Fail::Server(first));
    }
    if locks.is_empty() {
        return Err(Fail::Refused(format!("no lock '{key}' (Redis key '{}')", crate::table::printable(&ctx.full_key(key)))));
    }
    if done.is_empty() {
        return Err(Fail::Refused(refused.join("\n")));
    }
    done.extend(refused);
    Ok(done)
}

fn refusal(how: &How) -> &'static str {
    match how {
        How::Owner(_) => "that token does not hold it",
        How::Force => "it was gone already",
    }
}

/// `evict KEY TOKEN`: drops the waiter's place on every server that has it.
pub fn evict(ctx: &Ctx, key: &str, token: &str) -> Result<Vec<String>, Fail> {
    let full = ctx.full_key(key);
    let mut done = Vec::new();
    for target in &ctx.targets {
        match listing::evict(&target.node, &full, token, &ctx.limits) {
            Ok(true) => done.push(format!("evicted the waiter from {key} on {}", target.shown)),
            Ok(false) => {}
            Err(why) => return Err(Fail::Server(failure_text(target, &why))),
        }
    }
    if done.is_empty() {
        return Err(Fail::Refused(format!("no waiter with that token in the queue of '{key}'")));
    }
    Ok(done)
}
