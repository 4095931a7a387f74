//! A shared lock as Redis sees it (`INSPECT`'s reply, decoded).

use super::{token_of, Mode};
use crate::engine::protocol::resp::Reply;

/// One live hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hold {
    pub mode: Mode,
    pub limit: u32,
    pub weight: u32,
    pub token: Vec<u8>,
    /// ms left.
    pub ttl_ms: i64,
}

/// The live holds of a key and its waiters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holds {
    pub holds: Vec<Hold>,
    pub waiters: i64,
}

impl Holds {
    /// `{now, waiters, member, deadline, ...}`; holds past their deadline are left out.
    pub fn parse(reply: &Reply) -> Option<Self> {
        let Reply::Array(items) = reply else { return None };
        let (now, waiters) = (int(items.first()?)?, int(items.get(1)?)?);
        let mut holds = Vec::new();
        for pair in items[2..].chunks(2) {
            let [Reply::Bulk(member), deadline] = pair else { return None };
            let ttl_ms = int(deadline)? - now;
            if ttl_ms < 0 {
                continue;
            }
            let (mode, limit, weight) = attributes(member)?;
            holds.push(Hold { mode, limit, weight, token: token_of(member).to_vec(), ttl_ms });
        }
        Some(Holds { holds, waiters })
    }
}

/// A number in a script's reply: an integer, or a Lua number sent as text.
pub(crate) fn int(r: &Reply) -> Option<i64> {
    match r {
        Reply::Int(n) => Some(*n),
        Reply::Bulk(b) => std::str::from_utf8(b).ok()?.parse::<f64>().ok().map(|f| f as i64),
        _ => None,
    }
}

/// `<mode><limit>:<weight>|…` → its parts.
pub(crate) fn attributes(member: &[u8]) -> Option<(Mode, u32, u32)> {
    let (&mode, rest) = member.split_first()?;
    let mode = match mode {
        b'r' => Mode::Read,
        b'w' => Mode::Write,
        b's' => Mode::Permit,
        _ => return None,
    };
    let head = &rest[..rest.iter().position(|&b| b == b'|')?];
    let colon = head.iter().position(|&b| b == b':')?;
    let number = |b: &[u8]| std::str::from_utf8(b).ok()?.parse::<u32>().ok();
    Some((mode, number(&head[..colon])?, number(&head[colon + 1..])?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::features::shared::Claim;

    fn bulk(s: &str) -> Reply {
        Reply::Bulk(s.as_bytes().to_vec())
    }

    #[test]
    fn members_spell_their_claim_and_parse_back() {
        assert_eq!(Claim::READ.member("t"), "r0:1|t");
        assert_eq!(Claim::WRITE.member("a|b"), "w0:1|a|b");
        assert_eq!(Claim::permits(4, 2).member("t"), "s4:2|t");
        let reply = Reply::Array(vec![
            Reply::Int(1000),
            Reply::Int(3),
            bulk("s4:2|tok|en"),
            bulk("1500"),
            bulk("r0:1|gone"),
            bulk("999"),
        ]);
        let holds = Holds::parse(&reply).expect("parsed");
        assert_eq!(holds.waiters, 3);
        assert_eq!(holds.holds, vec![Hold { mode: Mode::Permit, limit: 4, weight: 2, token: b"tok|en".to_vec(), ttl_ms: 500 }]);
        for bad in [Reply::Nil, Reply::Array(vec![Reply::Int(1)]), Reply::Array(vec![Reply::Int(1), Reply::Int(0), bulk("x|y"), bulk("5")])] {
            assert_eq!(Holds::parse(&bad), None, "{bad:?}");
        }
    }
}
