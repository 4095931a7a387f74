//! Locks as an aligned table (plain `list`, and `top`'s rows): KEY, KIND,
//! HOLDER (host:pid[label]), AGE, TTL, WAITERS, LONGEST WAIT, and NODE when
//! the locks come from more than one server.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::listing::{Holder, LockInfo};

/// A lock as `list` and `top` sort and show it.
pub struct Row<'a> {
    pub info: &'a LockInfo,
    /// Index of the `--server` it came from.
    pub server: usize,
    /// Since the oldest holder took it (from the holders' own clocks), ms.
    pub age_ms: Option<i64>,
    pub waiters: usize,
    pub longest_wait_ms: Option<i64>,
}

impl<'a> Row<'a> {
    pub fn of(info: &'a LockInfo, server: usize, now_ms: i64) -> Self {
        let since = info.holders.iter().filter_map(|h| h.since_ms).min();
        Row {
            info,
            server,
            age_ms: since.map(|s| now_ms.saturating_sub(i64::try_from(s).unwrap_or(i64::MAX)).max(0)),
            // All that wait (the listing shows the first of a long queue only).
            waiters: usize::try_from(info.queued).unwrap_or(usize::MAX).max(info.waiters.len()),
            longest_wait_ms: info.waiters.iter().filter_map(|w| w.waited_ms).max(),
        }
    }
}

/// Now, in Unix ms (0 if the clock is before 1970).
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Order {
    /// Most waiters first, then the oldest.
    Waiters,
    /// The oldest first, then the most waiters.
    Age,
}

impl Order {
    pub fn name(self) -> &'static str {
        match self {
            Order::Waiters => "waiters",
            Order::Age => "age",
        }
    }
}

/// Sorts `rows` as `order` says; ties by key, then in `--server` order, so
/// the order stays put between refreshes.
pub fn sort(rows: &mut [Row<'_>], order: Order) {
    let age = |r: &Row<'_>| r.age_ms.unwrap_or(-1);
    rows.sort_by(|a, b| {
        let by = match order {
            Order::Waiters => b.waiters.cmp(&a.waiters).then(age(b).cmp(&age(a))),
            Order::Age => age(b).cmp(&age(a)).then(b.waiters.cmp(&a.waiters)),
        };
        by.then_with(|| a.info.key.cmp(&b.info.key)).then(a.server.cmp(&b.server)).then_with(|| a.info.node.cmp(&b.info.node))
    });
}

/// A duration for people: 850ms, 12.3s, 5m03s, 2h04m, 3d02h.
pub fn duration(ms: i64) -> String {
    if ms < 0 {
        return "-".into();
    }
    let s = ms / 1000;
    match ms {
        0..=999 => format!("{ms}ms"),
        1000..=59_999 => format!("{}.{}s", s, (ms % 1000) / 100),
        60_000..=3_599_999 => format!("{}m{:02}s", s / 60, s % 60),
        3_600_000..=86_399_999 => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
        _ => format!("{}d{:02}h", s / 86_400, (s % 86_400) / 3600),
    }
}

/// host:pid[label] of a holder (what of it is known), `?` for a foreign token.
pub fn who(host: Option<&str>, pid: Option<u32>, label: Option<&str>) -> String {
    let mut s = match (host, pid) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_owned(),
        (None, Some(p)) => format!(":{p}"),
        (None, None) => "?".to_owned(),
    };
    if let Some(label) = label.filter(|l| !l.is_empty()) {
        s.push_str(&format!("[{label}]"));
    }
    s
}

fn holder_cell(holders: &[Holder]) -> String {
    match holders.first() {
        None => "-".into(),
        Some(h) => {
            let first = who(h.host.as_deref(), h.pid, h.label.as_deref());
            if holders.len() > 1 {
                format!("{first} +{}", holders.len() - 1)
            } else {
                first
            }
        }
    }
}

/// The key without the prefix, printable (control bytes and non-UTF-8 escaped).
pub fn key_text(info: &LockInfo, prefix_len: usize) -> String {
    printable(info.key.get(prefix_len..).unwrap_or(&info.key))
}

/// Bytes for a terminal: control characters and invalid UTF-8 as \xNN.
pub fn printable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                out.push_str(&format!("\\x{:02x}", c as u32));
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

const HEAD: [&str; 8] = ["KEY", "KIND", "HOLDER", "AGE", "TTL", "WAITERS", "LONGEST WAIT", "NODE"];

/// The header and one line per row, columns aligned; NODE only with `nodes`.
pub fn lines(rows: &[Row<'_>], prefix_len: usize, nodes: bool) -> Vec<String> {
    let columns = if nodes { HEAD.len() } else { HEAD.len() - 1 };
    let mut cells: Vec<Vec<String>> = vec![HEAD[..columns].iter().map(|h| h.to_string()).collect()];
    for r in rows {
        let ttl = match r.info.ttl_ms {
            Some(-1) => "none".to_owned(),
            Some(ms) => duration(ms),
            None => "-".to_owned(),
        };
        let mut line = vec![
            key_text(r.info, prefix_len),
            r.info.kind.name().to_owned(),
            holder_cell(&r.info.holders),
            r.age_ms.map_or_else(|| "-".to_owned(), duration),
            ttl,
            r.waiters.to_string(),
            r.longest_wait_ms.map_or_else(|| "-".to_owned(), duration),
        ];
        if nodes {
            line.push(r.info.node.clone());
        }
        cells.push(line);
    }
    let widths: Vec<usize> = (0..columns).map(|c| cells.iter().map(|l| l[c].chars().count()).max().unwrap_or(0)).collect();
    cells
        .iter()
        .map(|line| {
            let mut s = String::new();
            for (c, cell) in line.iter().enumerate() {
                if c + 1 == line.len() {
                    s.push_str(cell);
                } else {
                    s.push_str(cell);
                    s.push_str(&" ".repeat(widths[c] - cell.chars().count() + 2));
                }
            }
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(850), "850ms");
        assert_eq!(duration(12_345), "12.3s");
        assert_eq!(duration(303_000), "5m03s");
        assert_eq!(duration(2 * 3_600_000 + 4 * 60_000), "2h04m");
        assert_eq!(duration(3 * 86_400_000 + 2 * 3_600_000), "3d02h");
        assert_eq!(printable(b"a\x1b[2J\xff"), "a\\x1b[2J\\xff");
    }
}
