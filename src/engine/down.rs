//! Servers whose host did not answer a connection attempt in time (a host
//! that is down or cut off never answers its SYN). For a short while they
//! count as failed at once instead of costing every call a full connect
//! timeout; a refused connection is not remembered (it costs nothing).

use std::time::{Duration, Instant};

use super::per_process::PerProcess;
use super::server::Addr;

/// How long a connect timeout is remembered.
pub const REMEMBERED: Duration = Duration::from_secs(1);

static DOWN: PerProcess<Vec<(Addr, Instant, String)>> = PerProcess::new();

pub fn remember(addr: &Addr, why: &str) {
    let until = Instant::now() + REMEMBERED;
    DOWN.with(|down| {
        down.retain(|(a, t, _)| a != addr && *t > Instant::now());
        down.push((addr.clone(), until, why.to_owned()));
    });
}

/// Why `addr` is known to be down, if it failed to connect a moment ago.
pub fn known(addr: &Addr) -> Option<String> {
    DOWN.with(|down| {
        let now = Instant::now();
        down.iter().find(|(a, t, _)| a == addr && *t > now).map(|(_, _, why)| why.clone())
    })
}

pub fn forget(addr: &Addr) {
    DOWN.with(|down| down.retain(|(a, _, _)| a != addr));
}
