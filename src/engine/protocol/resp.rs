//! Replies as lock commands get them, cut from a byte buffer without
//! recursion, in linear time and under a size cap. Lock commands are answered
//! with simple strings, integers, nil, bulk strings and errors: an array, an
//! unknown type byte or anything over the cap is a protocol error, and the
//! caller drops the connection. Only the questions about a deployment
//! (`CLUSTER SLOTS`, `ROLE`, a sentinel's) accept arrays, under caps of
//! their own.

/// Largest reply accepted, line or bulk (an `INFO server` is about 1 KB);
/// where an array is asked for (a blocking pop's `[list, value]`: the
/// list's name is as long as the key), a bulk may be as long as the array.
pub const MAX_REPLY: usize = 64 * 1024;
/// Largest array reply accepted, in bytes (a slot map of a few hundred
/// nodes; a wake-up naming a list whose name holds a key of up to 1 MiB),
/// and its deepest nesting (`CLUSTER SLOTS` nests 4 deep).
pub const MAX_ARRAY: usize = 2 * 1024 * 1024;
const MAX_DEPTH: usize = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `+OK` and other simple strings.
    Status(Vec<u8>),
    Int(i64),
    Bulk(Vec<u8>),
    Nil,
    /// An error reply (its text, without the leading `-`).
    Error(Vec<u8>),
    /// Only where arrays are asked for.
    Array(Vec<Reply>),
}

/// Incremental reader state: where the search for the line end resumes, so
/// that a reply arriving byte by byte is scanned once, not once per byte;
/// for an array, how far it is read and the arrays still open.
#[derive(Debug, Default)]
pub struct Cursor {
    scanned: usize,
    at: usize,
    open: Vec<(usize, Vec<Reply>)>,
}

/// One element: a whole value, or the header of an array of `n` elements.
enum Item {
    Value(Reply),
    Array(usize),
}

impl Cursor {
    /// The first whole reply of `buf` and its length, `None` while
    /// incomplete; arrays are a protocol error unless `arrays`.
    pub fn cut(&mut self, buf: &[u8], arrays: bool) -> Result<Option<(Reply, usize)>, String> {
        if !arrays {
            return match self.item(buf, false)? {
                Some((Item::Value(reply), len)) => Ok(Some((reply, len))),
                Some((Item::Array(_), _)) | None => Ok(None),
            };
        }
        loop {
            let Some(rest) = buf.get(self.at..) else { return self.fail("array reply cut short") };
            let Some((item, len)) = self.item(rest, true)? else { return Ok(None) };
            self.at += len;
            let mut value = match item {
                Item::Value(reply) => reply,
                Item::Array(0) => Reply::Array(Vec::new()),
                Item::Array(n) => {
                    if self.open.len() == MAX_DEPTH {
                        return self.fail(&format!("array reply nested deeper than {MAX_DEPTH}"));
                    }
                    // Each element takes at least 4 bytes: the cap bounds `n`.
                    if n > MAX_ARRAY / 4 {
                        return self.fail(&format!("array reply of {n} elements"));
                    }
                    self.open.push((n, Vec::with_capacity(n.min(64))));
                    continue;
                }
            };
            // Close every array this value completes.
            loop {
                let Some((left, items)) = self.open.last_mut() else {
                    let len = std::mem::take(&mut self.at);
                    return Ok(Some((value, len)));
                };
                items.push(value);
                *left -= 1;
                if *left > 0 {
                    break;
                }
                let Some((_, items)) = self.open.pop() else { break };
                value = Reply::Array(items);
            }
            if self.at > MAX_ARRAY {
                return self.fail(&format!("array reply longer than {MAX_ARRAY} bytes"));
            }
        }
    }

    /// The first element of `buf`: a value, or an array's header.
    fn item(&mut self, buf: &[u8], arrays: bool) -> Result<Option<(Item, usize)>, String> {
        let Some(&kind) = buf.first() else { return Ok(None) };
        // A blocking pop that timed out answers with a null array.
        if buf.starts_with(b"*-1\r\n") {
            self.scanned = 0;
            return Ok(Some((Item::Value(Reply::Nil), 5)));
        }
        if !(matches!(kind, b'+' | b'-' | b':' | b'$') || arrays && kind == b'*') {
            self.scanned = 0;
            return Err(match kind {
                b'*' | b'>' | b'%' | b'~' => "unexpected aggregate reply (an array where a single value belongs)".into(),
                other => format!("unexpected reply type byte 0x{other:02x}"),
            });
        }
        let from = self.scanned.max(1);
        let Some(cr) = buf.get(from..).and_then(|rest| rest.windows(2).position(|w| w == b"\r\n")) else {
            // Keep the last byte: it may be the `\r` of a `\r\n` split between reads.
            self.scanned = buf.len().saturating_sub(1).max(1);
            if buf.len() > MAX_REPLY {
                self.scanned = 0;
                return Err(format!("reply line longer than {MAX_REPLY} bytes"));
            }
            return Ok(None);
        };
        let line_end = from + cr;
        let line = &buf[1..line_end];
        let after_line = line_end + 2;
        let done = |reply: Reply, len: usize, cursor: &mut Cursor| {
            cursor.scanned = 0;
            Ok(Some((Item::Value(reply), len)))
        };
        match kind {
            b'*' => match number(line) {
                Some(n) if n >= 0 => {
                    self.scanned = 0;
                    Ok(Some((Item::Array(n as usize), after_line)))
                }
                _ => self.fail("malformed array length"),
            },
            b'+' => done(Reply::Status(line.to_vec()), after_line, self),
            b'-' => done(Reply::Error(line.to_vec()), after_line, self),
            b':' => match number(line) {
                Some(n) => done(Reply::Int(n), after_line, self),
                None => self.fail("malformed integer reply"),
            },
            _ => match (number(line), if arrays { MAX_ARRAY } else { MAX_REPLY }) {
                (Some(-1), _) => done(Reply::Nil, after_line, self),
                (Some(n), cap) if (0..=cap as i64).contains(&n) => {
                    let total = after_line + n as usize + 2;
                    if buf.len() < total {
                        // The line is known: the next look starts at the body.
                        self.scanned = line_end;
                        return Ok(None);
                    }
                    if &buf[total - 2..total] != b"\r\n" {
                        return self.fail("bulk reply not terminated by CRLF");
                    }
                    done(Reply::Bulk(buf[after_line..total - 2].to_vec()), total, self)
                }
                (Some(n), cap) if n > cap as i64 => self.fail(&format!("bulk reply of {n} bytes (at most {cap} accepted)")),
                _ => self.fail("malformed bulk length"),
            },
        }
    }

    fn fail<T>(&mut self, why: &str) -> Result<T, String> {
        self.scanned = 0;
        self.at = 0;
        self.open.clear();
        Err(why.to_owned())
    }
}

/// A RESP integer: optional `-`, then 1 to 19 digits.
fn number(text: &[u8]) -> Option<i64> {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    if digits.is_empty() || digits.len() > 19 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// Text of a server's message for people: lossy UTF-8, control bytes
/// (NUL included) escaped, cut to a readable length.
pub fn printable(bytes: &[u8]) -> String {
    const SHOWN: usize = 300;
    let mut out = String::new();
    for c in String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]).chars() {
        match c {
            '\0' => out.push_str("\\0"),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    if bytes.len() > SHOWN {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut_all(buf: &[u8]) -> Result<Option<(Reply, usize)>, String> {
        Cursor::default().cut(buf, false)
    }

    fn cut_array(buf: &[u8]) -> Result<Option<(Reply, usize)>, String> {
        Cursor::default().cut(buf, true)
    }

    #[test]
    fn arrays_only_where_asked_for() {
        let slots = b"*1\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$9\r\n127.0.0.1\r\n:7000\r\n+OK\r\n";
        let node = Reply::Array(vec![Reply::Bulk(b"127.0.0.1".to_vec()), Reply::Int(7000)]);
        let want = Reply::Array(vec![Reply::Array(vec![Reply::Int(0), Reply::Int(16383), node])]);
        assert_eq!(cut_array(slots), Ok(Some((want.clone(), slots.len() - 5))));
        assert!(cut_all(slots).unwrap_err().contains("aggregate"));
        assert_eq!(cut_array(b"*0\r\n"), Ok(Some((Reply::Array(vec![]), 4))));
        assert_eq!(cut_array(b"*-1\r\n"), Ok(Some((Reply::Nil, 5))));
        assert_eq!(cut_array(b"*2\r\n*0\r\n:1\r\n"), Ok(Some((Reply::Array(vec![Reply::Array(vec![]), Reply::Int(1)]), 12))));
        // Byte by byte: the same reply, and each byte is read once.
        let mut cursor = Cursor::default();
        for end in 1..slots.len() - 5 {
            assert_eq!(cursor.cut(&slots[..end], true), Ok(None), "after {end} bytes");
        }
        assert_eq!(cursor.cut(slots, true), Ok(Some((want, slots.len() - 5))));
        assert_eq!(cursor.cut(&slots[slots.len() - 5..], true), Ok(Some((Reply::Status(b"OK".to_vec()), 5))));
    }

    #[test]
    fn hostile_arrays_are_refused() {
        assert!(cut_array(&b"*1\r\n".repeat(100_000)).unwrap_err().contains("nested deeper than 8"));
        assert!(cut_array(b"*999999999\r\n").unwrap_err().contains("999999999 elements"));
        assert!(cut_array(b"*-2\r\n").unwrap_err().contains("malformed array length"));
        let half = [b"*400000\r\n".as_slice(), &b":1\r\n".repeat(400_000)].concat();
        let wide = [b"*2\r\n".as_slice(), &half, &half].concat();
        assert!(cut_array(&wide).unwrap_err().contains("longer than"));
    }

    #[test]
    fn replies_are_cut_whole() {
        assert_eq!(cut_all(b"+OK\r\n:1\r\n"), Ok(Some((Reply::Status(b"OK".to_vec()), 5))));
        assert_eq!(cut_all(b"+OK\r"), Ok(None));
        assert_eq!(cut_all(b"$-1\r\n"), Ok(Some((Reply::Nil, 5))));
        assert_eq!(cut_all(b"$3\r\na\r\n\r\n"), Ok(Some((Reply::Bulk(b"a\r\n".to_vec()), 9))));
        assert_eq!(cut_all(b"$3\r\na\r"), Ok(None));
        assert_eq!(cut_all(b":-42\r\n"), Ok(Some((Reply::Int(-42), 6))));
        assert_eq!(cut_all(b"-NOSCRIPT x\r\n"), Ok(Some((Reply::Error(b"NOSCRIPT x".to_vec()), 13))));
        assert_eq!(cut_all(b""), Ok(None));
        assert_eq!(cut_all(b"*-1\r\n"), Ok(Some((Reply::Nil, 5))));
    }

    #[test]
    fn hostile_replies_are_refused_at_once() {
        let nested = b"*1\r\n".repeat(100_000);
        assert!(cut_all(&nested).unwrap_err().contains("aggregate"));
        assert!(cut_all(b"?x\r\n").is_err());
        assert!(cut_all(b"$x\r\n").is_err());
        assert!(cut_all(b":12a\r\n").is_err());
        assert!(cut_all(b":99999999999999999999\r\n").is_err());
        assert!(cut_all(b"$999999999999\r\n").unwrap_err().contains("999999999999 bytes"));
        assert!(cut_all(b"$-2\r\n").is_err());
        assert!(cut_all(b"$1\r\nab\r\n").is_err());
        let long = [b"+".as_slice(), &vec![b'a'; MAX_REPLY + 1]].concat();
        assert!(cut_all(&long).unwrap_err().contains("longer than"));
    }

    #[test]
    fn a_reply_arriving_byte_by_byte_is_scanned_once() {
        let reply = b"$5\r\nhello\r\n";
        let mut cursor = Cursor::default();
        let mut buf = Vec::new();
        for (i, &b) in reply.iter().enumerate() {
            buf.push(b);
            let got = cursor.cut(&buf, false).unwrap();
            assert_eq!(got.is_some(), i == reply.len() - 1, "after byte {i}");
        }
        // A CRLF split between two reads is still found.
        let mut cursor = Cursor::default();
        assert_eq!(cursor.cut(b":7\r", false), Ok(None));
        assert_eq!(cursor.cut(b":7\r\n", false), Ok(Some((Reply::Int(7), 4))));
    }

    #[test]
    fn messages_are_printable() {
        assert_eq!(printable(b"ERR bad\0thing\r\n"), "ERR bad\\0thing\\r\\n");
        assert!(printable(&[b'x'; 1000]).ends_with('…'));
    }
}
