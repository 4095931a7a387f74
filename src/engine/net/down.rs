//! Servers whose host did not answer a connection attempt in time (a host
//! that is down or cut off never answers its SYN). For a short while they
//! count as failed at once instead of costing every call a full connect
//! timeout; a refused connection is not remembered (it costs nothing).

use std::time::Duration;

use super::dsn::Addr;
use super::recall::Recall;

static DOWN: Recall<String> = Recall::new(Duration::from_secs(1));

/// How long a connect timeout is remembered.
pub fn remembered() -> Duration {
    DOWN.lasts()
}

pub fn remember(addr: &Addr, waited: Duration, why: &str) {
    DOWN.remember(addr, waited, why.to_owned());
}

/// Why `addr` is known to be down for a caller that would wait `patience`
/// to connect.
pub fn known(addr: &Addr, patience: Duration) -> Option<String> {
    DOWN.known(addr, patience)
}

pub fn forget(addr: &Addr) {
    DOWN.forget(addr);
}
