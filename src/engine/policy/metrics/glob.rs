//! Key patterns (`redis_lock.metrics_patterns`): a key is counted under the
//! first pattern it matches, else under "other", so the number of series
//! stays bounded whatever keys the application uses.

/// At most this many patterns; more are ignored (and said so).
pub const MAX_PATTERNS: usize = 16;

/// The patterns in force, as parsed from the setting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Patterns {
    pub list: Vec<String>,
    /// Taken off a Redis key before matching (`redis_lock.prefix` at startup).
    pub prefix: Vec<u8>,
    /// Patterns given beyond `MAX_PATTERNS`, not used.
    pub ignored: usize,
}

impl Patterns {
    /// A comma-separated list of globs (`*` any run of bytes, `?` one byte,
    /// nothing else special); blanks around them and empty items are dropped.
    pub fn parse(setting: &str, prefix: &[u8]) -> Patterns {
        let all: Vec<String> = setting.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::to_owned).collect();
        let ignored = all.len().saturating_sub(MAX_PATTERNS);
        Patterns { list: all.into_iter().take(MAX_PATTERNS).collect(), prefix: prefix.to_vec(), ignored }
    }

    /// The index of the first pattern the Redis key `key` matches (without
    /// the prefix, where it has it); `list.len()` ("other") if none.
    pub fn slot_of(&self, key: &[u8]) -> usize {
        let key = key.strip_prefix(self.prefix.as_slice()).unwrap_or(key);
        self.list.iter().position(|p| matches(p.as_bytes(), key)).unwrap_or(self.list.len())
    }
}

/// Whether `text` matches the glob `pat`: iterative, with one backtrack point
/// (the last `*`), so linear-ish and never recursive whatever the key.
pub fn matches(pat: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        match pat.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&c) if c == b'?' || c == text[t] => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    p = sp + 1;
                    t = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    pat[p..].iter().all(|&c| c == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_as_documented() {
        assert!(matches(b"orders:*", b"orders:42"));
        assert!(matches(b"orders:*", b"orders:"));
        assert!(!matches(b"orders:*", b"order:42"));
        assert!(matches(b"*:42", b"orders:42"));
        assert!(matches(b"u?er:*:x", b"user:1:x"));
        assert!(!matches(b"u?er:*:x", b"user:1:y"));
        assert!(matches(b"*", b""));
        assert!(matches(b"a*b*c", b"aXbYbZc"));
        assert!(!matches(b"a*b*c", b"aXbYbZ"));
        assert!(matches(b"lock:[x]", b"lock:[x]"), "brackets are plain bytes");
    }

    #[test]
    fn a_key_goes_to_the_first_pattern_it_matches_else_other() {
        let p = Patterns::parse(" orders:* , orders:big:*,, users:* ", b"");
        assert_eq!(p.list, ["orders:*", "orders:big:*", "users:*"]);
        assert_eq!(p.slot_of(b"orders:big:1"), 0);
        assert_eq!(p.slot_of(b"users:7"), 2);
        assert_eq!(p.slot_of(b"carts:7"), 3);
        assert_eq!(Patterns::parse("", b"").slot_of(b"x"), 0);
        let p = Patterns::parse("orders:*", b"lock:");
        assert_eq!((p.slot_of(b"lock:orders:1"), p.slot_of(b"orders:1"), p.slot_of(b"lock:users:1")), (0, 0, 1));
    }

    #[test]
    fn patterns_beyond_the_limit_are_ignored_and_counted() {
        let setting: Vec<String> = (0..20).map(|i| format!("k{i}:*")).collect();
        let p = Patterns::parse(&setting.join(","), b"");
        assert_eq!((p.list.len(), p.ignored), (MAX_PATTERNS, 4));
        assert_eq!(p.slot_of(b"k19:1"), MAX_PATTERNS, "an ignored pattern's keys are 'other'");
    }
}
