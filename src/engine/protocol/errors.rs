//! What a server's error reply means, by its first word: the one place
//! where error text is read. Everything above works with `ErrorKind`.

/// The kinds of error reply the engine acts on; `Other` stands as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `MOVED slot host:port`: the slot lives elsewhere now.
    Moved,
    /// `ASK slot host:port`: this once, elsewhere (a slot being migrated).
    Ask,
    /// `TRYAGAIN`: a multi-key command whose keys are split by a migration.
    TryAgain,
    /// `CLUSTERDOWN`: the cluster cannot serve the slot right now.
    ClusterDown,
    /// `READONLY`: a replica (a master demoted by a failover).
    Readonly,
    /// `UNBLOCKED`: a blocked command ended because its master became a replica.
    Unblocked,
    /// `NOSCRIPT`: the script cache lacks the SHA.
    NoScript,
    /// `NOAUTH`, `WRONGPASS`: not logged in, or refused.
    Auth,
    /// `NOPERM`: the ACL user may not run it.
    NoPerm,
    /// `ERR unknown command` (also a renamed or disabled command).
    UnknownCommand,
    /// `ERR syntax error` (an option this server does not know).
    Syntax,
    /// `ERR This instance has cluster support disabled`.
    ClusterDisabled,
    /// `WRONGTYPE`: another client stored something else under the key.
    WrongType,
    Other,
}

impl ErrorKind {
    pub fn of(msg: &[u8]) -> Self {
        let word = msg.split(|&b| b == b' ').next().unwrap_or_default();
        match word {
            b"MOVED" => Self::Moved,
            b"ASK" => Self::Ask,
            b"TRYAGAIN" => Self::TryAgain,
            b"CLUSTERDOWN" => Self::ClusterDown,
            b"READONLY" => Self::Readonly,
            b"UNBLOCKED" => Self::Unblocked,
            b"NOSCRIPT" => Self::NoScript,
            b"NOAUTH" | b"WRONGPASS" => Self::Auth,
            b"NOPERM" => Self::NoPerm,
            b"WRONGTYPE" => Self::WrongType,
            // Redis 8.4's SET/DELEX with IFEQ on a key of another type.
            b"ERR" if contains(msg, b"should be of string type") => Self::WrongType,
            _ if contains(msg, b"unknown command") => Self::UnknownCommand,
            _ if contains(msg, b"cluster support disabled") => Self::ClusterDisabled,
            b"ERR" if contains(msg, b"syntax error") => Self::Syntax,
            _ => Self::Other,
        }
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_replies_are_known_by_their_first_word() {
        assert_eq!(ErrorKind::of(b"MOVED 3999 127.0.0.1:6381"), ErrorKind::Moved);
        assert_eq!(ErrorKind::of(b"ERR Key should be of string type if conditions are specified"), ErrorKind::WrongType);
        assert_eq!(ErrorKind::of(b"ASK 3999 127.0.0.1:6381"), ErrorKind::Ask);
        assert_eq!(ErrorKind::of(b"TRYAGAIN Multiple keys request during rehashing of slot"), ErrorKind::TryAgain);
        assert_eq!(ErrorKind::of(b"NOSCRIPT No matching script. Please use EVAL."), ErrorKind::NoScript);
        assert_eq!(ErrorKind::of(b"WRONGPASS invalid username-password pair"), ErrorKind::Auth);
        assert_eq!(ErrorKind::of(b"ERR unknown command 'DELIFEQ', with args beginning with: "), ErrorKind::UnknownCommand);
        assert_eq!(ErrorKind::of(b"ERR syntax error"), ErrorKind::Syntax);
        assert_eq!(ErrorKind::of(b"ERR This instance has cluster support disabled"), ErrorKind::ClusterDisabled);
        assert_eq!(ErrorKind::of(b"READONLYX"), ErrorKind::Other);
        assert_eq!(ErrorKind::of(b""), ErrorKind::Other);
    }
}
