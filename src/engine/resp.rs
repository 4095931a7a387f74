//! Replies as lock commands get them, cut from a byte buffer without
//! recursion, in linear time and under a size cap. Lock commands are answered
//! with simple strings, integers, nil, bulk strings and errors: an array, an
//! unknown type byte or anything over the cap is a protocol error, and the
//! caller drops the connection.

/// Largest reply accepted, line or bulk (an `INFO server` is about 1 KB).
pub const MAX_REPLY: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `+OK` and other simple strings.
    Status(Vec<u8>),
    Int(i64),
    Bulk(Vec<u8>),
    Nil,
    /// An error reply (its text, without the leading `-`).
    Error(Vec<u8>),
}

/// Incremental reader state: where the search for the line end resumes, so
/// that a reply arriving byte by byte is scanned once, not once per byte.
#[derive(Debug, Default)]
pub struct Cursor {
    scanned: usize,
}

impl Cursor {
    /// The first whole reply of `buf` and its length, `None` while incomplete.
    pub fn cut(&mut self, buf: &[u8]) -> Result<Option<(Reply, usize)>, String> {
        let Some(&kind) = buf.first() else { return Ok(None) };
        // A blocking pop that timed out answers with a null array.
        if buf.starts_with(b"*-1\r\n") {
            self.scanned = 0;
            return Ok(Some((Reply::Nil, 5)));
        }
        if !matches!(kind, b'+' | b'-' | b':' | b'$') {
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
            Ok(Some((reply, len)))
        };
        match kind {
            b'+' => done(Reply::Status(line.to_vec()), after_line, self),
            b'-' => done(Reply::Error(line.to_vec()), after_line, self),
            b':' => match number(line) {
                Some(n) => done(Reply::Int(n), after_line, self),
                None => self.fail("malformed integer reply"),
            },
            _ => match number(line) {
                Some(-1) => done(Reply::Nil, after_line, self),
                Some(n) if (0..=MAX_REPLY as i64).contains(&n) => {
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
                Some(n) if n > MAX_REPLY as i64 => self.fail(&format!("bulk reply of {n} bytes (at most {MAX_REPLY} accepted)")),
                _ => self.fail("malformed bulk length"),
            },
        }
    }

    fn fail<T>(&mut self, why: &str) -> Result<T, String> {
        self.scanned = 0;
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
        Cursor::default().cut(buf)
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
            let got = cursor.cut(&buf).unwrap();
            assert_eq!(got.is_some(), i == reply.len() - 1, "after byte {i}");
        }
        // A CRLF split between two reads is still found.
        let mut cursor = Cursor::default();
        assert_eq!(cursor.cut(b":7\r"), Ok(None));
        assert_eq!(cursor.cut(b":7\r\n"), Ok(Some((Reply::Int(7), 4))));
    }

    #[test]
    fn messages_are_printable() {
        assert_eq!(printable(b"ERR bad\0thing\r\n"), "ERR bad\\0thing\\r\\n");
        assert!(printable(&[b'x'; 1000]).ends_with('…'));
    }
}
