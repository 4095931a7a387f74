//! Names of the keys a lock adds next to its own (the waiting queue, the
//! waiters' places, a waiter's wake-up list). They hash to the lock key's
//! Redis Cluster slot, so that every script touches one slot only.

use std::borrow::Cow;

/// The CRC16 (XMODEM) Redis Cluster hashes keys with.
fn crc16(bytes: &[u8]) -> u16 {
    let mut crc: u16 = 0;
    for &b in bytes {
        crc ^= u16::from(b) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 { (crc << 1) ^ 0x1021 } else { crc << 1 };
        }
    }
    crc
}

/// The part of `key` Redis Cluster hashes: the first `{…}` if it is not
/// empty, else the whole key.
fn hashed(key: &[u8]) -> Option<&[u8]> {
    let open = key.iter().position(|&b| b == b'{')?;
    let len = key[open + 1..].iter().position(|&b| b == b'}')?;
    (len > 0).then(|| &key[open + 1..open + 1 + len])
}

/// Slots of a Redis Cluster.
pub const SLOTS: usize = 16384;

/// The cluster slot of `key`.
pub fn slot(key: &[u8]) -> u16 {
    crc16(hashed(key).unwrap_or(key)) % SLOTS as u16
}

/// How the auxiliary keys of a lock key are spelled: `head`, the key,
/// `tail`, then a suffix (`:q`, `:t`, `:w:<token>`):
/// - the key itself when it has a hash tag of its own (appending keeps it);
/// - `{key}` when it has none and no `}` (the tag is then the whole key);
/// - otherwise `{rlN}key`, with the smallest N whose slot is the key's.
///
/// Kept in pieces so that the hot path writes them without allocating.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Base<'k> {
    head: Cow<'static, [u8]>,
    key: &'k [u8],
    tail: &'static [u8],
}

impl<'k> Base<'k> {
    pub fn of(key: &'k [u8]) -> Self {
        if hashed(key).is_some() {
            return Self { head: Cow::Borrowed(b""), key, tail: b"" };
        }
        if !key.contains(&b'}') {
            return Self { head: Cow::Borrowed(b"{"), key, tail: b"}" };
        }
        let want = slot(key);
        let tag = (0u32..1 << 20).map(|n| format!("{{rl{n}}}")).find(|tag| slot(tag.as_bytes()) == want);
        Self { head: Cow::Owned(tag.unwrap_or_default().into_bytes()), key, tail: b"" }
    }

    /// The auxiliary key `base` + `suffix` + `more`, in pieces.
    pub fn aux<'a>(&'a self, suffix: &'a [u8], more: &'a [u8]) -> [&'a [u8]; 5] {
        [&self.head, self.key, self.tail, suffix, more]
    }
}

/// The pieces of a key, joined (for tests and messages).
pub fn join(pieces: &[&[u8]]) -> Vec<u8> {
    pieces.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_redis_cluster_slots() {
        // Values from Redis' own CLUSTER KEYSLOT.
        assert_eq!(slot(b"foo"), 12182);
        assert_eq!(slot(b"bar"), 5061);
        assert_eq!(slot(b"{user1000}.following"), slot(b"user1000"));
        assert_eq!(slot(b"foo{}{bar}"), slot(b"foo{}{bar}"));
        assert_eq!(hashed(b"foo{}{bar}"), None);
        assert_eq!(hashed(b"foo{{bar}}zap"), Some(&b"{bar"[..]));
    }

    #[test]
    fn auxiliary_keys_share_the_lock_key_slot() {
        for key in [
            &b"lock:report"[..],
            b"lock:user:{42}:report",
            b"a}b",
            b"x{}y",
            b"{}",
            b"lock:\0\r\n{",
            b"}",
        ] {
            let q = join(&Base::of(key).aux(b":q", b""));
            assert_eq!(slot(&q), slot(key), "{:?} -> {:?}", String::from_utf8_lossy(key), String::from_utf8_lossy(&q));
        }
        assert_eq!(join(&Base::of(b"lock:k").aux(b":q", b"")), b"{lock:k}:q");
        assert_eq!(join(&Base::of(b"lock:{42}").aux(b":w:", b"t")), b"lock:{42}:w:t");
    }
}
