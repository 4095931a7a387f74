//! Servers whose host did not answer a connection attempt in time (a host
//! that is down or cut off never answers its SYN). For a short while they
//! count as failed at once instead of costing every call a full connect
//! timeout; a refused connection is not remembered (it costs nothing).
//! A failure is only taken as known by calls that would not wait longer
//! than the attempt that failed did: one impatient caller (a RedLock node
//! with a 1 ms timeout) does not make a server look down to patient ones.

use std::time::{Duration, Instant};

use super::process::PerProcess;
use super::dsn::Addr;

/// How long a connect timeout is remembered.
pub const REMEMBERED: Duration = Duration::from_secs(1);

struct Down {
    addr: Addr,
    until: Instant,
    /// How long the failed attempt waited.
    waited: Duration,
    why: String,
}

static DOWN: PerProcess<Vec<Down>> = PerProcess::new();

pub fn remember(addr: &Addr, waited: Duration, why: &str) {
    let until = Instant::now() + REMEMBERED;
    DOWN.with(|down| {
        let now = Instant::now();
        down.retain(|d| d.addr != *addr && d.until > now);
        down.push(Down { addr: addr.clone(), until, waited, why: why.to_owned() });
    });
}

/// Why `addr` is known to be down for a caller that would wait `patience`
/// to connect, if an attempt at least as patient failed a moment ago.
pub fn known(addr: &Addr, patience: Duration) -> Option<String> {
    DOWN.with(|down| {
        let now = Instant::now();
        down.iter().find(|d| d.addr == *addr && d.until > now && d.waited >= patience).map(|d| d.why.clone())
    })
}

pub fn forget(addr: &Addr) {
    DOWN.with(|down| down.retain(|d| d.addr != *addr));
}
