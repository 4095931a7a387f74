//! Tokens and random pauses: from this process' own generator, seeded from
//! the operating system and seeded anew after a fork.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::time::Duration;

use crate::engine::net::process::{self, PerProcess};

/// This process' cryptographic generator (ChaCha12), seeded from the
/// operating system, and seeded anew in a forked child: parent and child
/// never draw the same tokens or delays. One system call per process
/// instead of one per token.
static RNG: PerProcess<Option<StdRng>> = PerProcess::new();

fn random<T>(draw: impl FnOnce(&mut StdRng) -> T) -> Option<T> {
    RNG.with(|rng| {
        if rng.is_none() {
            *rng = StdRng::try_from_os_rng().ok();
        }
        rng.as_mut().map(draw)
    })
}

/// A fresh token for a lock of this process: 128 random bits as 32
/// lower-case hex digits (the secret part), then who is acquiring:
/// `<hex>:<host>:<pid>:<since ms>`, so that anybody looking at the key can
/// tell who holds it and since when. A label the application set rides in
/// the host field, as `<host>__<label>`: the token keeps the shape that
/// every earlier release's scripts recognise (and mark, and hand off).
pub fn new_token(label: &str) -> String {
    let random = match random(|rng| rng.random::<u128>()) {
        Some(bits) => format!("{bits:032x}"),
        // No generator (the OS refused a seed): straight from the OS.
        None => uuid::Uuid::new_v4().simple().to_string(),
    };
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let sep = if label.is_empty() { "" } else { LABEL_SEP };
    format!("{random}:{}{sep}{label}:{}:{since}", host(), process::pid())
}

/// Between the host and the label in a token's host field; never in a host
/// name as `host()` keeps it.
pub const LABEL_SEP: &str = "__";

/// A fresh owner token for a caller (the framework adapters): made as
/// `new_token`, its hex digits in upper case. A lock holding it is never
/// marked by its waiters (queue/scripts.rs): its value stays what the
/// caller knows, for any other code that compares it.
pub fn new_owner(label: &str) -> String {
    let token = new_token(label);
    let hex = token.get(..32).unwrap_or_default().to_ascii_uppercase();
    format!("{hex}{}", token.get(32..).unwrap_or_default())
}

thread_local! {
    /// The label this request set (`RedisLock::setLabel()`), over the setting's.
    static LABEL: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Sets this request's label (`None`: the setting's again, as at request end).
pub fn set_label(label: Option<&[u8]>) {
    LABEL.with(|l| *l.borrow_mut() = label.map(label_of));
}

/// This request's label: the one it set, else `setting`.
pub fn label_or(setting: &str) -> String {
    LABEL.with(|l| l.borrow().clone()).unwrap_or_else(|| setting.to_owned())
}

/// The most a label keeps of what the application gave.
pub const MAX_LABEL: usize = 64;

/// A label as tokens carry it: only `[A-Za-z0-9._-]` (`_` for the rest, so
/// it never splits a token), at most `MAX_LABEL` bytes.
pub fn label_of(given: &[u8]) -> String {
    token_safe(given, MAX_LABEL)
}

/// At most `max` bytes of `given`, with only `[A-Za-z0-9._-]` kept (`_` for
/// the rest): what a token's fields may hold, so none ever splits a token
/// or a hash tag.
fn token_safe(given: &[u8], max: usize) -> String {
    given.iter().take(max).map(|&b| if b.is_ascii_alphanumeric() || b"._-".contains(&b) { b as char } else { '_' }).collect()
}

/// Whether `token` is one of `new_token`'s (lower-case hex), the only
/// values waiters mark.
pub fn is_lock_token(token: &str) -> bool {
    let b = token.as_bytes();
    b.len() > 33 && b[..32].iter().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c)) && b[32] == b':'
}

/// This host's name, with only `[A-Za-z0-9._-]` kept (`_` for the rest, at
/// most 64 characters): it must never split a token or a hash tag.
fn host() -> &'static str {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
        let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
        let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
        let mut name = token_safe(&buf[..if ok { len } else { 0 }], 64);
        // "__" begins a label (`LABEL_SEP`): a host name keeps single underscores only.
        while name.contains(LABEL_SEP) {
            name = name.replace(LABEL_SEP, "_");
        }
        if name.is_empty() { "unknown".to_owned() } else { name }
    })
}

/// A random pause in `[delay/2, delay]`.
pub fn jitter(delay: Duration) -> Duration {
    let ms = delay.as_millis().min(u64::MAX as u128) as u64;
    let draw = random(|rng| rng.random_range(0..=ms - ms / 2)).unwrap_or(0);
    Duration::from_millis(ms / 2 + draw)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_tokens_differ_from_lock_tokens_in_case_only() {
        let (lock, owner) = (new_token(""), new_owner(""));
        assert!(is_lock_token(&lock) && !is_lock_token(&owner), "{lock} {owner}");
        assert_eq!(owner[32..].split(':').nth(2), lock[32..].split(':').nth(2), "same host and pid");
        assert!(owner[..32].bytes().all(|c| c.is_ascii_digit() || c.is_ascii_uppercase()));
        assert!(!is_lock_token("") && !is_lock_token("0123456789abcdef0123456789abcdef"));
    }

    #[test]
    fn tokens_are_fresh_and_long() {
        let (a, b) = (new_token(""), new_token("job-7"));
        assert_ne!(a, b);
        let holder = super::super::ownership::Holder::of(a.as_bytes());
        assert_eq!(holder.pid, Some(i64::from(std::process::id())));
        assert!(a[..32].bytes().all(|c| c.is_ascii_hexdigit()) && a.as_bytes()[32] == b':');
        assert_eq!(super::super::ownership::Holder::of(b.as_bytes()).label.as_deref(), Some("job-7"));
        assert_eq!(label_of(b"trace id: 4bf9\xff"), "trace_id__4bf9_");
        assert_eq!(label_of(&[b'x'; 100]).len(), MAX_LABEL);
    }

    #[test]
    fn jitter_stays_in_range_and_differs_after_fork() {
        for delay in [0, 1, 2, 200] {
            let d = Duration::from_millis(delay);
            for _ in 0..200 {
                let j = jitter(d);
                assert!(j >= Duration::from_millis(delay / 2) && j <= d, "{j:?} for {d:?}");
            }
        }
        // A forked child draws from the OS, not from a copy of our state.
        let mut fds = [0; 2];
        // SAFETY: plain pipe/fork/write/_exit; the child touches nothing else.
        unsafe {
            assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
            let pid = libc::fork();
            if pid == 0 {
                let draws: Vec<u8> = (0..16).map(|_| jitter(Duration::from_millis(255)).as_millis() as u8).collect();
                libc::write(fds[1], draws.as_ptr().cast(), draws.len());
                libc::_exit(0);
            }
            let mine: Vec<u8> = (0..16).map(|_| jitter(Duration::from_millis(255)).as_millis() as u8).collect();
            let mut theirs = [0u8; 16];
            libc::read(fds[0], theirs.as_mut_ptr().cast(), 16);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            assert_ne!(mine, theirs.to_vec());
        }
    }
}
