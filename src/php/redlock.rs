//! `RedLock`: the Redlock algorithm over N independent Redis masters, with the
//! API of the PHP class users copy (`new RedLock($servers, $retryDelay,
//! $retryCount)`, `lock($resource, $ttl)`, `unlock($lock)`), plus `extend()`.

use std::time::Duration;

use ext_php_rs::prelude::*;
use ext_php_rs::types::{ZendHashTable, Zval};

use super::args::{Arr, Int, ReqInt, Str};
use super::checks::{check_retry_count, check_ttl, clamped_timeout, check_key, not_negative};
use super::errors::{lost, unless_timed_out, Fail, Result};
use super::ini;
use crate::engine::policy::{
    self, failures_text, node_timeout, parse_port, quorum, Held, Limits, Node, Outcome, Handle, Patience, Server, Terms, INTERRUPTED, NUL_BYTES,
};

/// One master and its own reply timeout, if the entry gave one.
#[derive(Clone, Debug)]
struct Member {
    server: Server,
    timeout: Option<Duration>,
}

#[php_class]
#[php(name = "RedLock")]
#[php(flags = ext_php_rs::flags::ClassFlags::Final)]
pub struct RedLock {
    members: Vec<Member>,
    retry_delay: Duration,
    retry_count: u32,
}

#[php_impl]
impl RedLock {
    /// `$servers`: `[host, port]`, `[host, port, timeout]` arrays and/or DSN strings.
    #[php(defaults(retryDelay = 200, retryCount = 3))]
    pub fn __construct(servers: Arr<'_>, retryDelay: Int<'_>, retryCount: Int<'_>) -> Result<Self> {
        let servers = servers.get(1)?;
        let retry_delay = retryDelay.get(2)?;
        let retry_count = retryCount.get(3)?;
        let members = members(servers)?;
        not_negative(2, retry_delay)?;
        let retry_count = check_retry_count(3, retry_count)?;
        Ok(Self { members, retry_delay: Duration::from_millis(retry_delay as u64), retry_count })
    }

    /// `['validity' => ms, 'resource' => $resource, 'token' => …]`, or false
    /// when others hold the resource on enough nodes.
    pub fn lock(&self, resource: Str<'_>, ttl: ReqInt<'_>) -> Result<Zval> {
        let resource = resource.get(1)?;
        let ttl = ttl.get(2)?;
        let resource = check_key(resource)?;
        check_ttl(2, ttl)?;
        let settings = ini::settings();
        let limits = settings.limits.clone().map_err(Fail::Value)?;
        let renew = settings.renew(None)?;
        let lock = self.lock_of(node_timeout(ttl, limits.read), &limits, resource, super::bridge::token());
        let handle = Handle::RedLock(lock.token.clone());
        let patience = Patience::Attempts { attempts: self.retry_count, delay: self.retry_delay };
        // Replica acknowledgement is a single-server matter: RedLock's masters are independent.
        let terms = Terms { renew, replicas: None };
        match policy::acquire(handle, lock.clone(), ttl, patience, terms, &limits) {
            Outcome::Confirmed { validity_ms } => lock_array(validity_ms, resource, &lock.token),
            Outcome::Refused => Ok(false_zval()),
            other => unless_timed_out(Err(outage("lock", &lock, other))),
        }
    }

    /// Releases the lock on every node; true when a majority deleted our
    /// token, false when it was no longer ours. RedisLockException when too
    /// few nodes could be reached: the lock then stays registered, and the
    /// request's end tries again.
    pub fn unlock(&self, lock: Arr<'_>) -> Result<bool> {
        let (resource, token) = lock_fields(lock.get(1)?)?;
        let limits = ini::limits()?;
        let lock = self.lock_of(limits.read, &limits, &resource, token);
        let released = policy::release(&Handle::RedLock(lock.token.clone()), &lock, &limits);
        match released.map_err(|why| lost("RedLock::unlock", &resource, &why))? {
            Outcome::Confirmed { .. } => Ok(true),
            Outcome::Refused => Ok(false),
            other => unless_timed_out(Err(outage("unlock", &lock, other))),
        }
    }

    /// Sets a new TTL (ms) where our token still holds; the lock array with the
    /// new validity when a majority confirms in time, false when it is no
    /// longer ours, RedisLockException when too few nodes could be reached.
    pub fn extend(&self, lock: Arr<'_>, ttl: ReqInt<'_>) -> Result<Zval> {
        let (resource, token) = lock_fields(lock.get(1)?)?;
        let ttl = ttl.get(2)?;
        check_ttl(2, ttl)?;
        let limits = ini::limits()?;
        let lock = self.lock_of(node_timeout(ttl, limits.read), &limits, &resource, token);
        let extended = policy::extend(&Handle::RedLock(lock.token.clone()), &lock, ttl, None, &limits);
        match extended.map_err(|why| lost("RedLock::extend", &resource, &why))? {
            Outcome::Confirmed { validity_ms } => lock_array(validity_ms, &resource, &lock.token),
            Outcome::Refused => Ok(false_zval()),
            other => unless_timed_out(Err(outage("extend", &lock, other))),
        }
    }
}

impl RedLock {
    /// The lock on `resource` with `token` over this instance's servers;
    /// nodes without a timeout of their own get `default_timeout`.
    fn lock_of(&self, default_timeout: Duration, limits: &Limits, resource: &[u8], token: String) -> Held {
        let nodes = self
            .members
            .iter()
            .map(|m| {
                let timeout = m.timeout.unwrap_or(default_timeout);
                Node { server: m.server.clone(), timeout, connect: limits.connect.min(timeout) }
            })
            .collect();
        Held::quorum(nodes, resource.to_vec(), token)
    }
}

/// The RedisLockException of a round that could not decide.
fn outage(method: &str, lock: &Held, outcome: Outcome) -> Fail {
    let n = lock.nodes.len();
    Fail::Redis(match outcome {
        Outcome::Unreachable(failures) => format!(
            "RedLock::{method}(): fewer than {} of {n} Redis nodes could be reached: {}",
            quorum(n),
            failures_text(&failures)
        ),
        _ => format!("RedLock::{method}(): {}", INTERRUPTED),
    })
}

fn false_zval() -> Zval {
    let mut zval = Zval::new();
    zval.set_bool(false);
    zval
}

fn lock_array(validity_ms: f64, resource: &[u8], token: &str) -> Result<Zval> {
    let mut array = ZendHashTable::new();
    let mut resource_zval = Zval::new();
    resource_zval.set_binary(resource.to_vec());
    let filled = array
        .insert("validity", validity_ms)
        .and_then(|()| array.insert("resource", resource_zval))
        .and_then(|()| array.insert("token", token));
    filled.map_err(|e| Fail::Value(format!("cannot build the lock array: {e}")))?;
    let mut zval = Zval::new();
    zval.set_hashtable(array);
    Ok(zval)
}

/// `resource` and `token` of a lock array, as `lock()` returned it.
fn lock_fields(lock: &ZendHashTable) -> Result<(Vec<u8>, String)> {
    let field = |name: &str| -> Result<Vec<u8>> {
        match lock.get(name).and_then(|z| z.zend_str()) {
            Some(s) if !s.as_bytes().is_empty() => Ok(s.as_bytes().to_vec()),
            _ => Err(Fail::Arg(1, format!("must contain a non-empty string \"{name}\""))),
        }
    };
    let resource = field("resource")?;
    let token = String::from_utf8(field("token")?)
        .map_err(|_| Fail::Arg(1, "must contain a \"token\" returned by lock()".into()))?;
    Ok((resource, token))
}

/// The `$servers` list: each entry a DSN or `[host, port(, timeout)]`, no server twice.
fn members(servers: &ZendHashTable) -> Result<Vec<Member>> {
    if servers.is_empty() {
        return Err(Fail::Arg(1, "must not be empty".into()));
    }
    let mut members: Vec<Member> = Vec::with_capacity(servers.len());
    for (i, (_, entry)) in servers.iter().enumerate() {
        let member = member(entry).map_err(|why| Fail::Arg(1, format!("entry {i} {why}")))?;
        if members.iter().any(|m| m.server.same_place(&member.server)) {
            return Err(Fail::Arg(1, format!("must not list {} twice (it would vote twice)", member.server)));
        }
        members.push(member);
    }
    Ok(members)
}

fn member(entry: &Zval) -> std::result::Result<Member, String> {
    if let Some(dsn) = entry.str() {
        let server = Server::parse(dsn).map_err(|e| if e == NUL_BYTES { e } else { format!("is not a valid server: {e}") })?;
        if server.wait_replicas.is_some() {
            return Err("must not ask for wait_replicas: a RedLock majority of independent masters does not wait for replicas".into());
        }
        return Ok(Member { server, timeout: None });
    }
    const SHAPE: &str = "must be a DSN string or an array [host, port] or [host, port, timeout]";
    let list = entry.array().ok_or(SHAPE)?;
    if !(2..=3).contains(&list.len()) {
        return Err(SHAPE.into());
    }
    let host = list.get_index(0).and_then(Zval::str).filter(|h| !h.is_empty()).ok_or(SHAPE)?;
    if host.contains('\0') {
        return Err(NUL_BYTES.into());
    }
    let port = list.get_index(1).ok_or(SHAPE)?;
    let port = match (port.long(), port.str()) {
        (Some(p), _) => parse_port(&p.to_string()),
        (None, Some(p)) => parse_port(p),
        _ => return Err(SHAPE.into()),
    }
    .map_err(|e| format!("has an {e}"))?;
    let timeout = match list.get_index(2) {
        None => None,
        Some(t) => {
            let secs = t.double().or_else(|| t.long().map(|l| l as f64)).ok_or(SHAPE)?;
            let valid = secs.is_finite() && secs > 0.0;
            Some(valid.then(|| clamped_timeout(secs)).flatten().ok_or_else(|| {
                let shown = match secs {
                    s if s.is_nan() => "NAN".to_owned(),
                    s if s.is_infinite() => if s > 0.0 { "INF" } else { "-INF" }.to_owned(),
                    s => s.to_string(),
                };
                format!("has an invalid timeout {shown} (expected seconds greater than 0)")
            })?)
        }
    };
    Ok(Member { server: Server::tcp(host, port), timeout })
}

