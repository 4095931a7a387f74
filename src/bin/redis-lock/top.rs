//! `top`: the locks under a pattern, refreshed every interval, sorted by
//! waiters (`w`) or age (`a`); up/down or j/k select, `r` releases the
//! selected lock after a y/n question (forced: whoever holds it), `q` or
//! Ctrl-C quits. A server that fails shows in the status line and the view
//! keeps refreshing, so it comes back with the server.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use crate::args::How;
use crate::listing::LockInfo;
use crate::ops::{self, Ctx, Fail, Released};
use crate::table::{self, Order, Row};
use crate::term::{self, Key, Raw};

struct View {
    order: Order,
    /// The selected lock: its server and Redis key (kept across refreshes).
    selected: Option<(usize, Vec<u8>)>,
    /// The lock that `r` asks about, until y or n.
    confirm: Option<(usize, LockInfo)>,
    /// What the last action or refresh has to say.
    status: String,
    locks: Vec<(usize, LockInfo)>,
    truncated: bool,
}

pub fn run(ctx: &Ctx, pattern: &str, interval: Duration, limit: usize) -> io::Result<()> {
    let _raw = Raw::enter()?;
    let mut view = View { order: Order::Waiters, selected: None, confirm: None, status: String::new(), locks: Vec::new(), truncated: false };
    let mut next = Instant::now();
    loop {
        if term::stop_asked() {
            return Ok(());
        }
        let now = Instant::now();
        if now >= next {
            refresh(ctx, pattern, limit, &mut view);
            next = now + interval;
            draw(ctx, pattern, &view)?;
        }
        let typed = term::keys(next.saturating_duration_since(Instant::now()));
        if typed.is_empty() {
            continue;
        }
        for key in typed {
            if !act(ctx, key, &mut view) {
                return Ok(());
            }
        }
        draw(ctx, pattern, &view)?;
    }
}

fn refresh(ctx: &Ctx, pattern: &str, limit: usize, view: &mut View) {
    let found = ops::list(ctx, pattern, limit);
    view.locks = found.locks;
    view.truncated = found.truncated;
    if !found.errors.is_empty() {
        view.status = format!("server error: {}", found.errors.join("; "));
    } else if view.status.starts_with("server error") {
        view.status.clear();
    }
}

/// The rows in the view's order.
fn rows(view: &View) -> Vec<Row<'_>> {
    let now = table::now_ms();
    let mut rows: Vec<Row<'_>> = view.locks.iter().map(|(i, info)| Row::of(info, *i, now)).collect();
    table::sort(&mut rows, view.order);
    rows
}

/// The selected row's index in `rows` (the first row when none is).
fn selected_index(view: &View, rows: &[Row<'_>]) -> usize {
    view.selected
        .as_ref()
        .and_then(|(server, key)| rows.iter().position(|r| r.server == *server && r.info.key == *key))
        .unwrap_or(0)
}

/// Handles one key; false: quit.
fn act(ctx: &Ctx, key: Key, view: &mut View) -> bool {
    if let Some((server, info)) = view.confirm.take() {
        match key {
            Key::Char(b'y' | b'Y') => release(ctx, server, &info, view),
            Key::Interrupt => return false,
            _ => view.status = "not released".into(),
        }
        return true;
    }
    // The rows as shown: (server, lock), in the view's order.
    let shown: Vec<(usize, LockInfo)> = rows(view).iter().map(|r| (r.server, r.info.clone())).collect();
    let at = view
        .selected
        .as_ref()
        .and_then(|(server, key)| shown.iter().position(|(s, l)| s == server && l.key == *key))
        .unwrap_or(0);
    let pick = |i: usize| shown.get(i).map(|(s, l)| (*s, l.key.clone()));
    match key {
        Key::Char(b'q' | b'Q') | Key::Interrupt => return false,
        Key::Char(b'w') => view.order = Order::Waiters,
        Key::Char(b'a') => view.order = Order::Age,
        Key::Up | Key::Char(b'k') => view.selected = pick(at.saturating_sub(1)).or(view.selected.take()),
        Key::Down | Key::Char(b'j') => view.selected = pick((at + 1).min(shown.len().saturating_sub(1))).or(view.selected.take()),
        Key::Char(b'r') => match shown.get(at) {
            Some(row) => {
                view.confirm = Some(row.clone());
                view.selected = pick(at);
            }
            None => view.status = "no lock to release".into(),
        },
        _ => {}
    }
    true
}

fn release(ctx: &Ctx, server: usize, info: &LockInfo, view: &mut View) {
    let key = table::key_text(info, ctx.prefix.len());
    let Some(target) = ctx.targets.get(server) else { return };
    view.status = match ops::release_one(ctx, target, info, &How::Force) {
        Ok(Released::Yes) => {
            // Gone from the view at once; the next refresh shows what is there now.
            view.locks.retain(|(i, l)| !(*i == server && l.key == info.key));
            format!("released {key}")
        }
        Ok(Released::No) => format!("{key} was gone already"),
        Err(Fail::Server(why) | Fail::Refused(why)) => format!("server error: {why}"),
    };
}

/// The whole screen, drawn over the last one.
fn draw(ctx: &Ctx, pattern: &str, view: &View) -> io::Result<()> {
    let (width, height) = term::size();
    let rows = rows(view);
    let at = selected_index(view, &rows);
    let servers: Vec<&str> = ctx.targets.iter().map(|t| t.shown.as_str()).collect();
    let mut lines = vec![format!(
        "redis-lock top  {}  prefix '{}'  pattern '{}'  {} locks{}  sorted by {}  {}",
        servers.join(" "),
        table::printable(&ctx.prefix),
        pattern,
        rows.len(),
        if view.truncated { " (more not shown: --limit)" } else { "" },
        view.order.name(),
        clock()
    )];
    lines.push(match &view.confirm {
        Some((server, info)) => format!(
            "Release {} on {} (forced, whoever holds it)? y/n",
            table::key_text(info, ctx.prefix.len()),
            ctx.targets.get(*server).map_or("?", |t| t.shown.as_str())
        ),
        None => view.status.clone(),
    });
    let nodes = ctx.targets.len() > 1 || view.locks.iter().any(|(_, l)| l.node != view.locks[0].1.node);
    let table = table::lines(&rows, ctx.prefix.len(), nodes);
    let room = height.saturating_sub(4).max(1);
    let first = at.saturating_sub(room - 1).min(rows.len().saturating_sub(room));
    let mut out = String::from("\x1b[H");
    for line in &lines {
        out.push_str(&fit(line, width));
        out.push_str("\x1b[K\r\n");
    }
    if let Some(head) = table.first() {
        out.push_str(&format!("\x1b[1m{}\x1b[0m\x1b[K\r\n", fit(head, width)));
    }
    for (i, line) in table.iter().skip(1).enumerate().skip(first).take(room) {
        if i == at {
            out.push_str(&format!("\x1b[7m{}\x1b[0m\x1b[K\r\n", fit(line, width)));
        } else {
            out.push_str(&fit(line, width));
            out.push_str("\x1b[K\r\n");
        }
    }
    if rows.is_empty() {
        out.push_str("(no locks)\x1b[K\r\n");
    }
    out.push_str("\x1b[J");
    out.push_str(&format!("\x1b[{height};1H{}", fit("up/down j/k select  w sort by waiters  a sort by age  r release  q quit", width)));
    let mut stdout = io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()
}

/// `line` cut to the terminal's width.
fn fit(line: &str, width: usize) -> String {
    line.chars().take(width).collect()
}

/// The time of day (UTC), HH:MM:SS.
fn clock() -> String {
    let s = table::now_ms() / 1000;
    format!("{:02}:{:02}:{:02} UTC", (s / 3600) % 24, (s / 60) % 60, s % 60)
}
