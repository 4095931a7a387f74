//! The lock commands and how each goes on the wire. Keys and tokens travel
//! only as bulk-string arguments; the script texts are constant.

use std::sync::OnceLock;

use super::ownership::Ask;
use super::queue::QueueOp;
use super::route::Probe;
use super::resp::{printable, Reply};

/// A script, sent by its SHA1 once the server has it, else as text.
pub struct Script {
    pub text: &'static str,
    sha: OnceLock<String>,
}

impl Script {
    pub const fn new(text: &'static str) -> Self {
        Self { text, sha: OnceLock::new() }
    }

    pub fn sha(&self) -> &str {
        self.sha.get_or_init(|| redis::Script::new(self.text).get_hash().to_owned())
    }
}

/// Sets the key if it is free, or refreshes it if it already holds our token:
/// a resend after a lost reply must not fail on our own lock.
static ACQUIRE: Script = Script::new(
    "\
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end \
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end \
return 0",
);

/// Deletes the key only while it holds our token.
static RELEASE: Script = Script::new(
    "\
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end \
return 0",
);

/// Sets a new TTL only while the key holds our token.
static EXTEND: Script = Script::new(
    "\
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end \
return 0",
);

/// Computes the extend script's digest now, on the calling thread.
pub fn prepare_extend() {
    EXTEND.sha();
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op<'a> {
    Acquire { ttl_ms: i64 },
    /// Acquire, where a key that already holds our token counts as taken
    /// (the script from the first send on).
    AcquireOrRefresh { ttl_ms: i64 },
    Release,
    Extend { ttl_ms: i64 },
    /// A step of waiting in the key's queue (RedisMutexLock).
    Queue(QueueOp<'a>),
    /// A holder's question about its lock (RedisMutexLock).
    Own(Ask<'a>),
    /// `WAIT replicas timeout_ms`: until that many replicas have this
    /// connection's writes (the reply says how many do).
    WaitReplicas { replicas: i64, timeout_ms: i64 },
    /// A question about the deployment (slot map, master): answered with data.
    Probe(Probe<'a>),
}

/// How a command is sent: the plain `SET NX PX` (only for a first acquire),
/// the script by its SHA, or the script text after the server said NOSCRIPT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wire {
    Plain,
    Sha,
    Eval,
}

#[derive(Clone, Copy, Debug)]
pub struct Command<'a> {
    pub op: Op<'a>,
    pub key: &'a [u8],
    pub token: &'a str,
}

impl Command<'_> {
    /// The form for a first send on a healthy connection.
    pub fn first_wire(&self) -> Wire {
        match self.op {
            Op::Acquire { .. } => Wire::Plain,
            Op::Queue(op) => op.first_wire(),
            Op::WaitReplicas { .. } | Op::Probe(_) => Wire::Plain,
            _ => Wire::Sha,
        }
    }

    /// The form for sending again after a connection broke with the command in
    /// flight: the first send may have run, so only idempotent forms qualify
    /// (a plain acquire becomes the script that recognises our own lock; a
    /// queue's blocking pop that ran loses its wake-up, and the waiter finds
    /// the lock handed to it at its next look, or waits again).
    pub fn resend_wire(&self, wire: Wire) -> Wire {
        match (self.op, wire) {
            (Op::Acquire { .. }, Wire::Plain) => Wire::Sha,
            (_, other) => other,
        }
    }

    /// How long the server may hold the reply back, beyond the reply timeout.
    pub fn blocks_for(&self) -> std::time::Duration {
        match self.op {
            Op::Queue(op) => op.blocks_for(),
            Op::WaitReplicas { timeout_ms, .. } => std::time::Duration::from_millis(timeout_ms.max(0) as u64),
            _ => std::time::Duration::ZERO,
        }
    }

    /// What to pipeline behind an acquire whose reply did not come in time,
    /// on the same connection before abandoning it: if the hung server runs
    /// the SET late, this release runs right after it. Sent as script text,
    /// since nobody will be there to answer NOSCRIPT.
    pub fn cleanup(&self) -> Option<Vec<u8>> {
        match self.op {
            Op::Acquire { .. } | Op::AcquireOrRefresh { .. } => Some(Command { op: Op::Release, ..*self }.pack(Wire::Eval)),
            Op::Queue(op) => op.cleanup().map(|op| Command { op: Op::Queue(op), ..*self }.pack(Wire::Eval)),
            _ => None,
        }
    }

    /// Whether the command means something only on the connection that
    /// sent the commands before it (`WAIT` counts the replicas that have
    /// that connection's writes): never sent on another one, nor elsewhere.
    pub fn bound_to_connection(&self) -> bool {
        matches!(self.op, Op::WaitReplicas { .. })
    }

    /// Whether the reply may be an array.
    pub fn wants_array(&self) -> bool {
        matches!(self.op, Op::Probe(_) | Op::Queue(QueueOp::Wait { .. }))
    }

    pub fn pack(&self, wire: Wire) -> Vec<u8> {
        let mut out = Vec::new();
        self.pack_into(wire, &mut out);
        out
    }

    /// Appends the command in `wire` form to `out`.
    pub fn pack_into(&self, wire: Wire, out: &mut Vec<u8>) {
        let (script, ttl) = match self.op {
            Op::Acquire { ttl_ms } | Op::AcquireOrRefresh { ttl_ms } => (&ACQUIRE, Some(ttl_ms)),
            Op::Release => (&RELEASE, None),
            Op::Extend { ttl_ms } => (&EXTEND, Some(ttl_ms)),
            Op::Queue(op) => return op.pack_into(self.key, self.token, wire, out),
            Op::Own(ask) => return ask.pack_into(self.key, self.token, wire, out),
            Op::WaitReplicas { replicas, timeout_ms } => {
                let (mut n, mut t) = (itoa_buf(), itoa_buf());
                return resp(out, &[b"WAIT", format_int(&mut n, replicas), format_int(&mut t, timeout_ms)]);
            }
            Op::Probe(probe) => return probe.pack_into(out),
        };
        let mut ttl_text = itoa_buf();
        let ttl = ttl.map(|t| format_int(&mut ttl_text, t));
        let (key, token) = (self.key, self.token.as_bytes());
        match wire {
            Wire::Plain => resp(out, &[b"SET", key, token, b"NX", b"PX", ttl.unwrap_or(b"0")]),
            Wire::Sha | Wire::Eval => {
                let (verb, body) = script_head(script, wire);
                match ttl {
                    Some(ttl) => resp(out, &[verb, body, b"1", key, token, ttl]),
                    None => resp(out, &[verb, body, b"1", key, token]),
                }
            }
        }
    }

    /// Whether the reply says yes (set / deleted / extended). A queue step's
    /// reply is data, not a vote: `None`.
    pub fn verdict(&self, reply: &Reply) -> Result<Option<bool>, String> {
        let data = match self.op {
            Op::Queue(op) => Some(op.check_reply(reply)),
            Op::Own(ask) => Some(ask.check_reply(reply)),
            Op::WaitReplicas { .. } => {
                Some(if matches!(reply, Reply::Int(n) if *n >= 0) { Ok(()) } else { Err(format!("unexpected reply to WAIT: {reply:?}")) })
            }
            // Checked by who asked.
            Op::Probe(_) => Some(Ok(())),
            _ => None,
        };
        if let Some(checked) = data {
            return checked.map(|()| None).map_err(|e| self.hide_token(&e));
        }
        self.yes_or_no(reply).map(Some)
    }

    /// `text` with our token masked (a command without one, as inspect(), has nothing to mask).
    pub fn hide_token(&self, text: &str) -> String {
        match self.token {
            "" => text.to_owned(),
            token => text.replace(token, "<token>"),
        }
    }

    fn yes_or_no(&self, reply: &Reply) -> Result<bool, String> {
        match reply {
            Reply::Int(1) => Ok(true),
            Reply::Status(s) if s == b"OK" => Ok(true),
            Reply::Nil | Reply::Int(0) => Ok(false),
            Reply::Int(n) => Err(format!("unexpected reply :{n}")),
            Reply::Status(s) => Err(format!("unexpected reply +{}", self.hide_token(&printable(s)))),
            Reply::Bulk(s) => Err(format!("unexpected reply ${}", self.hide_token(&printable(s)))),
            Reply::Error(_) => Err("unexpected error reply".into()),
            Reply::Array(_) => Err("unexpected array reply".into()),
        }
    }
}

/// `EVALSHA sha` or `EVAL text`.
pub fn script_head(script: &'static Script, wire: Wire) -> (&'static [u8], &'static [u8]) {
    match wire {
        Wire::Eval => (b"EVAL", script.text.as_bytes()),
        _ => (b"EVALSHA", script.sha().as_bytes()),
    }
}

/// `EVALSHA`/`EVAL` of `script` with its keys (each in pieces) and
/// arguments, appended to `out`.
pub fn script_call(out: &mut Vec<u8>, script: &'static Script, wire: Wire, keys: &[&[&[u8]]], args: &[&[u8]]) {
    let (verb, body) = script_head(script, wire);
    let mut n = itoa_buf();
    header(out, b'*', 3 + keys.len() + args.len());
    bulk(out, &[verb]);
    bulk(out, &[body]);
    bulk(out, &[format_int(&mut n, keys.len() as i64)]);
    keys.iter().for_each(|key| bulk(out, key));
    args.iter().for_each(|arg| bulk(out, &[arg]));
}

/// A command as a RESP array of bulk strings, each given in pieces that are
/// joined on the wire, appended to `out`.
pub fn resp_pieces(out: &mut Vec<u8>, args: &[&[&[u8]]]) {
    header(out, b'*', args.len());
    args.iter().for_each(|pieces| bulk(out, pieces));
}

/// One bulk string, given in pieces.
pub fn bulk(out: &mut Vec<u8>, pieces: &[&[u8]]) {
    header(out, b'$', pieces.iter().map(|p| p.len()).sum());
    pieces.iter().for_each(|piece| out.extend_from_slice(piece));
    out.extend_from_slice(b"\r\n");
}

/// A command as a RESP array of bulk strings, appended to `out`.
pub fn resp(out: &mut Vec<u8>, args: &[&[u8]]) {
    out.reserve(16 + args.iter().map(|a| a.len() + 16).sum::<usize>());
    header(out, b'*', args.len());
    for arg in args {
        header(out, b'$', arg.len());
        out.extend_from_slice(arg);
        out.extend_from_slice(b"\r\n");
    }
}

/// `*N\r\n` or `$N\r\n`.
pub fn header(out: &mut Vec<u8>, kind: u8, n: usize) {
    let mut text = itoa_buf();
    out.push(kind);
    out.extend_from_slice(format_int(&mut text, n as i64));
    out.extend_from_slice(b"\r\n");
}

pub fn itoa_buf() -> [u8; 20] {
    [0; 20]
}

/// Decimal text of a non-negative integer, written into `buf`.
pub fn format_int(buf: &mut [u8; 20], mut n: i64) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

pub fn is_noscript(reply_error: &[u8]) -> bool {
    reply_error.starts_with(b"NOSCRIPT")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_tokens_travel_as_bulk_strings() {
        let key = b"a\r\n*3\r\n\0";
        let cmd = Command { op: Op::Acquire { ttl_ms: 1500 }, key, token: "t" };
        let packed = cmd.pack(Wire::Plain);
        let want = b"*6\r\n$3\r\nSET\r\n$8\r\na\r\n*3\r\n\0\r\n$1\r\nt\r\n$2\r\nNX\r\n$2\r\nPX\r\n$4\r\n1500\r\n";
        assert_eq!(packed, want.to_vec());
    }

    #[test]
    fn commands_pack_as_the_redis_crate_packs_them() {
        let cmd = Command { op: Op::Extend { ttl_ms: 9_223_372_036_854_775_807 }, key: b"k\0", token: "tok" };
        let want = redis::cmd("EVAL").arg(EXTEND.text).arg(1).arg(&b"k\0"[..]).arg("tok").arg(i64::MAX).get_packed_command();
        assert_eq!(cmd.pack(Wire::Eval), want);
        let cmd = Command { op: Op::Release, key: b"", token: "" };
        let want = redis::cmd("EVALSHA").arg(RELEASE.sha()).arg(1).arg(&b""[..]).arg("").get_packed_command();
        assert_eq!(cmd.pack(Wire::Sha), want);
    }

    #[test]
    fn scripts_go_by_sha_and_fall_back_to_text() {
        let cmd = Command { op: Op::Release, key: b"k", token: "t" };
        let by_sha = String::from_utf8(cmd.pack(Wire::Sha)).unwrap();
        assert!(by_sha.contains("EVALSHA") && by_sha.contains(redis::Script::new(RELEASE.text).get_hash()));
        let by_text = String::from_utf8(cmd.pack(Wire::Eval)).unwrap();
        assert!(by_text.contains("$4\r\nEVAL\r\n") && by_text.contains("redis.call('DEL'"));
        assert_eq!(Command { op: Op::Acquire { ttl_ms: 1 }, key: b"k", token: "t" }.resend_wire(Wire::Plain), Wire::Sha);
    }
}
