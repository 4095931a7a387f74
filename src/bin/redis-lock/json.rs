//! One lock as one line of JSON, with the same fields and names as
//! `RedisLock::locks()`'s entries. A small writer rather than a crate: the
//! values are strings, integers, a float and null. Bytes that are not UTF-8
//! (keys are binary) become U+FFFD; control characters are escaped.

use crate::listing::{Holder, LockInfo, Waiter};

/// `s` as a JSON string literal.
pub fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // The C0 controls, DEL, and the two separators JavaScript reads as line ends.
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Bytes as a JSON string (invalid UTF-8 as U+FFFD).
pub fn bytes(out: &mut String, b: &[u8]) {
    string(out, &String::from_utf8_lossy(b));
}

/// Builds one object: `{"a":1,"b":"x"}`.
struct Object<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Object<'o> {
    fn open(out: &'o mut String) -> Self {
        out.push('{');
        Object { out, first: true }
    }

    fn key(&mut self, name: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, name);
        self.out.push(':');
        self.out
    }

    fn str(&mut self, name: &str, v: Option<&str>) {
        match v {
            Some(v) => string(self.key(name), v),
            None => self.key(name).push_str("null"),
        }
    }

    fn int(&mut self, name: &str, v: Option<impl std::fmt::Display>) {
        let text = v.map_or_else(|| "null".to_owned(), |v| v.to_string());
        self.key(name).push_str(&text);
    }

    fn close(self) {
        self.out.push('}');
    }
}

/// `RedisLock::locks()`'s entry: key (without the prefix), redis_key, kind,
/// node, ttl_ms, fence, holders, waiters (queue order), queued.
pub fn lock(info: &LockInfo, prefix_len: usize) -> String {
    let mut out = String::with_capacity(256);
    let mut o = Object::open(&mut out);
    bytes(o.key("key"), info.key.get(prefix_len..).unwrap_or(&info.key));
    bytes(o.key("redis_key"), &info.key);
    o.str("kind", Some(info.kind.name()));
    o.str("node", Some(&info.node));
    o.int("ttl_ms", info.ttl_ms);
    o.int("fence", info.fence);
    array(o.key("holders"), &info.holders, holder);
    array(o.key("waiters"), &info.waiters, waiter);
    o.int("queued", Some(info.queued));
    o.close();
    out
}

/// `[item,item]`, each written by `write`.
fn array<T>(out: &mut String, items: &[T], write: fn(&mut String, &T)) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(out, item);
    }
    out.push(']');
}

fn holder(out: &mut String, h: &Holder) {
    let mut o = Object::open(out);
    o.str("token", Some(&h.token));
    o.str("host", h.host.as_deref());
    o.int("pid", h.pid);
    // Unix seconds with milliseconds, as the PHP face's float.
    o.key("since").push_str(&h.since_ms.map_or_else(|| "null".to_owned(), |ms| format!("{}.{:03}", ms / 1000, ms % 1000)));
    o.str("label", h.label.as_deref());
    o.int("ttl_ms", h.ttl_ms);
    o.str("mode", h.mode);
    o.int("weight", h.weight);
    o.int("limit", h.limit);
    o.close();
}

fn waiter(out: &mut String, w: &Waiter) {
    let mut o = Object::open(out);
    o.str("token", Some(&w.token));
    o.str("host", w.host.as_deref());
    o.int("pid", w.pid);
    o.str("label", w.label.as_deref());
    o.int("waited_ms", w.waited_ms);
    o.int("place_ms", Some(w.place_ms));
    o.str("mode", w.mode);
    o.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape_what_json_must() {
        let mut out = String::new();
        string(&mut out, "a\"b\\c\nd\u{1}e\u{7f}\u{2028}é");
        assert_eq!(out, r#""a\"b\\c\nd\u0001e\u007f\u2028é""#);
        let mut out = String::new();
        bytes(&mut out, b"k\xff\xfe:1");
        assert_eq!(out, "\"k\u{fffd}\u{fffd}:1\"");
    }
}
