//! What a server says of itself in `INFO server`: its identity, and which
//! native commands it has that can stand in for a script.

/// The `run_id:` line: one id per running server process.
pub fn run_id(info: &[u8]) -> Option<Vec<u8>> {
    field(info, b"run_id:").map(<[u8]>::to_vec).filter(|id| !id.is_empty())
}

fn field<'i>(info: &'i [u8], name: &[u8]) -> Option<&'i [u8]> {
    info.split(|&b| b == b'\n').find_map(|line| line.strip_prefix(name)).map(<[u8]>::trim_ascii)
}

/// `major.minor` of a version line such as `8.6.3`.
fn version(text: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(text).ok()?;
    let mut parts = text.split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

/// A native command that does in one step what a script does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Native {
    /// `DELIFEQ key value` (Valkey 9.0+): 1 deleted, 0 otherwise.
    DelIfEq,
    /// `DELEX key IFEQ value` (Redis 8.4+): 1 deleted, 0 otherwise.
    DelEx,
    /// `SET key value IFEQ current PX ms` (Valkey 8.1+, Redis 8.4+): OK, or
    /// nil when the value differs or the key is missing (never created).
    SetIfEq,
}

/// What a server can do: the native commands it has, and how often its
/// event loop wakes (`hz`): a blocking pop's timeout ends only at such a tick.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Caps {
    natives: u8,
    /// `hz` (0: not said).
    hz: u16,
}

impl Caps {
    pub const NONE: Caps = Caps { natives: 0, hz: 0 };

    fn bit(native: Native) -> u8 {
        match native {
            Native::DelIfEq => 1,
            Native::DelEx => 2,
            Native::SetIfEq => 4,
        }
    }

    pub fn has(self, native: Native) -> bool {
        self.natives & Self::bit(native) != 0
    }

    pub fn with(self, native: Native) -> Caps {
        Caps { natives: self.natives | Self::bit(native), ..self }
    }

    /// Without `native` (the server refused it: renamed, or an ACL).
    pub fn without(self, native: Native) -> Caps {
        Caps { natives: self.natives & !Self::bit(native), ..self }
    }

    /// The longest a blocking pop's timeout may be late: one tick of the
    /// server's event loop (`1/hz`; Redis' default, hz 10, when not said).
    pub fn tick(self) -> std::time::Duration {
        std::time::Duration::from_millis(1000 / u64::from(if self.hz == 0 { 10 } else { self.hz }))
    }

    /// What `INFO server` says the server has. Valkey prints its own version
    /// beside a fixed `redis_version` it keeps for compatibility.
    pub fn of(info: &[u8]) -> Caps {
        let hz = field(info, b"hz:").and_then(|v| std::str::from_utf8(v).ok()?.parse::<u16>().ok()).unwrap_or(0);
        Caps { hz, ..Self::natives_of(info) }
    }

    fn natives_of(info: &[u8]) -> Caps {
        let at_least = |have: (u32, u32), want: (u32, u32)| have >= want;
        if let Some(v) = field(info, b"valkey_version:").and_then(version) {
            let mut caps = Caps::NONE;
            if at_least(v, (8, 1)) {
                caps = caps.with(Native::SetIfEq);
            }
            if at_least(v, (9, 0)) {
                caps = caps.with(Native::DelIfEq);
            }
            return caps;
        }
        match field(info, b"redis_version:").and_then(version) {
            Some(v) if at_least(v, (8, 4)) => Caps::NONE.with(Native::DelEx).with(Native::SetIfEq),
            _ => Caps::NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(lines: &str) -> Vec<u8> {
        format!("# Server\r\n{lines}\r\nrun_id:abc\r\n").replace("\n", "\r\n").into_bytes()
    }

    #[test]
    fn each_server_says_what_it_has() {
        let redis = |v: &str| Caps::of(&info(&format!("redis_version:{v}")));
        let valkey = |v: &str| Caps::of(&info(&format!("redis_version:7.2.4\nserver_name:valkey\nvalkey_version:{v}")));
        assert_eq!(redis("7.0.15"), Caps::NONE);
        assert_eq!(redis("8.0.6"), Caps::NONE);
        assert_eq!(redis("8.2.1"), Caps::NONE);
        let r84 = redis("8.4.0");
        assert!(r84.has(Native::DelEx) && r84.has(Native::SetIfEq) && !r84.has(Native::DelIfEq));
        assert_eq!(redis("8.6.3"), r84);
        assert_eq!(redis("10.0.0"), r84);
        assert_eq!(valkey("8.0.2"), Caps::NONE);
        let v81 = valkey("8.1.1");
        assert!(v81.has(Native::SetIfEq) && !v81.has(Native::DelIfEq) && !v81.has(Native::DelEx));
        let v91 = valkey("9.1.2");
        assert!(v91.has(Native::SetIfEq) && v91.has(Native::DelIfEq));
        assert_eq!(v91.without(Native::DelIfEq), v81);
        assert_eq!(Caps::of(b"-NOPERM"), Caps::NONE);
        assert_eq!(Caps::of(&info("redis_version:garbage")), Caps::NONE);
        assert_eq!(run_id(&info("redis_version:7.0.0")), Some(b"abc".to_vec()));
        // The event loop's tick: a blocking pop's timeout may end that late.
        assert_eq!(Caps::of(&info("redis_version:7.0.15\nhz:1")).tick(), std::time::Duration::from_secs(1));
        assert_eq!(Caps::of(&info("redis_version:7.0.15\nhz:100")).tick(), std::time::Duration::from_millis(10));
        assert_eq!(Caps::NONE.tick(), std::time::Duration::from_millis(100));
        assert_eq!(Caps::of(&info("redis_version:8.6.3\nhz:1")).without(Native::DelEx).tick(), std::time::Duration::from_secs(1));
    }
}
