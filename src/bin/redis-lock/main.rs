//! `redis-lock`: the operator's view of redis_lock's locks, from a
//! terminal or a script: list, show, top, release, evict. It talks to Redis
//! through the extension's own engine (its policy layer), so DSNs, TLS,
//! Cluster and Sentinel work as they do in PHP. Exit codes: 0 done, 1 no
//! such lock or refused, 2 usage error, 3 server error.

mod args;
mod json;
mod listing;
mod ops;
mod table;
mod term;
mod top;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;

use args::{Command, Usage};
use ops::{Ctx, Fail};

const OK: u8 = 0;
const REFUSED: u8 = 1;
const USAGE: u8 = 2;
const SERVER: u8 = 3;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
    ExitCode::from(run(&argv))
}

fn run(argv: &[String]) -> u8 {
    let (global, command) = match args::parse(argv) {
        Ok(parsed) => parsed,
        Err(Usage(msg)) => return usage(&msg),
    };
    let ctx = match command {
        Command::Help => return say(args::HELP.trim_end()),
        Command::Version => return say(&format!("redis-lock {}", env!("CARGO_PKG_VERSION"))),
        _ => match Ctx::new(&global) {
            Ok(ctx) => ctx,
            Err(Usage(msg)) => return usage(&msg),
        },
    };
    match command {
        Command::List { pattern, json, limit } => list(&ctx, &pattern, json, limit),
        Command::Show { key, json } => show(&ctx, &key, json),
        Command::Top { .. } if !io::stdin().is_terminal() => usage("top needs a terminal (stdin is not one); use list"),
        Command::Top { pattern, interval, limit } => match top::run(&ctx, &pattern, interval, limit) {
            Ok(()) => OK,
            Err(e) => {
                eprintln!("redis-lock: top: {e}");
                SERVER
            }
        },
        Command::Release { key, how } => done(ops::release(&ctx, &key, &how)),
        Command::Evict { key, token } => done(ops::evict(&ctx, &key, &token)),
        Command::Help | Command::Version => OK,
    }
}

fn usage(msg: &str) -> u8 {
    eprintln!("redis-lock: {msg}\nTry 'redis-lock --help'.");
    USAGE
}

/// Prints `text` (a closed pipe is no error worth a panic).
fn say(text: &str) -> u8 {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{text}");
    OK
}

fn done(result: Result<Vec<String>, Fail>) -> u8 {
    match result {
        Ok(lines) => say(&lines.join("\n")),
        Err(Fail::Refused(msg)) => {
            eprintln!("redis-lock: {msg}");
            REFUSED
        }
        Err(Fail::Server(msg)) => server_error(&msg),
    }
}

fn server_error(msg: &str) -> u8 {
    eprintln!("redis-lock: server error: {msg}");
    SERVER
}

/// `list`: a table sorted by waiters then age, or one JSON object per lock.
fn list(ctx: &Ctx, pattern: &str, json: bool, limit: usize) -> u8 {
    let found = ops::list(ctx, pattern, limit);
    let now = table::now_ms();
    let mut rows: Vec<table::Row<'_>> = found.locks.iter().map(|(i, info)| table::Row::of(info, *i, now)).collect();
    table::sort(&mut rows, table::Order::Waiters);
    let mut out = io::stdout().lock();
    let lines: Vec<String> = if json {
        rows.iter().map(|r| json::lock(r.info, ctx.prefix.len())).collect()
    } else if rows.is_empty() {
        Vec::new()
    } else {
        let nodes = ctx.targets.len() > 1 || rows.iter().any(|r| r.info.node != rows[0].info.node);
        table::lines(&rows, ctx.prefix.len(), nodes)
    };
    for line in lines {
        if writeln!(out, "{line}").is_err() {
            break;
        }
    }
    if found.truncated {
        eprintln!("redis-lock: more locks match than --limit {limit} (per server) lets through");
    }
    for e in &found.errors {
        server_error(e);
    }
    if found.errors.is_empty() { OK } else { SERVER }
}

/// `show KEY`: the lock on each server that has it.
fn show(ctx: &Ctx, key: &str, json: bool) -> u8 {
    let (locks, errors) = ops::describe(ctx, key);
    let mut out = io::stdout().lock();
    let now = table::now_ms();
    for (_, info) in &locks {
        let text = if json { json::lock(info, ctx.prefix.len()) } else { describe(info, ctx.prefix.len(), now) };
        let _ = writeln!(out, "{text}");
    }
    for e in &errors {
        server_error(e);
    }
    if !errors.is_empty() {
        SERVER
    } else if locks.is_empty() {
        eprintln!("redis-lock: no lock '{key}' (Redis key '{}')", table::printable(&ctx.full_key(key)));
        REFUSED
    } else {
        OK
    }
}

/// One lock for people: its facts, each holder, each waiter in queue order
/// (with the tokens that `release --owner` and `evict` take).
fn describe(info: &listing::LockInfo, prefix_len: usize, now: i64) -> String {
    let ttl = match info.ttl_ms {
        Some(-1) => "none (no expiry)".to_owned(),
        Some(ms) => format!("{} ({ms} ms)", table::duration(ms)),
        None => "-".to_owned(),
    };
    let mut s = format!(
        "key       {}\nredis key {}\nkind      {}\nnode      {}\nttl       {ttl}\nfence     {}\nholders   {}\n",
        table::key_text(info, prefix_len),
        table::printable(&info.key),
        info.kind.name(),
        info.node,
        info.fence.map_or_else(|| "-".to_owned(), |f| f.to_string()),
        info.holders.len()
    );
    for h in &info.holders {
        let age = h.since_ms.and_then(|since| i64::try_from(since).ok()).map(|since| table::duration((now - since).max(0)));
        s.push_str(&format!("  {}", table::who(h.host.as_deref(), h.pid, h.label.as_deref())));
        if let Some(mode) = h.mode {
            s.push_str(&format!("  {mode}"));
        }
        if let (Some(weight), Some(limit)) = (h.weight, h.limit) {
            s.push_str(&format!("  weight {weight} of {limit}"));
        }
        let ttl = h.ttl_ms.map_or_else(|| "-".to_owned(), |ms| if ms < 0 { "none".to_owned() } else { table::duration(ms) });
        s.push_str(&format!("  held {}  ttl {ttl}  token {}\n", age.unwrap_or_else(|| "-".into()), h.token));
    }
    s.push_str(&format!("waiters   {}", info.waiters.len()));
    for (n, w) in info.waiters.iter().enumerate() {
        s.push_str(&format!("\n  {}. {}", n + 1, table::who(w.host.as_deref(), w.pid, w.label.as_deref())));
        if let Some(mode) = w.mode {
            s.push_str(&format!("  {mode}"));
        }
        let waited = w.waited_ms.map_or_else(|| "-".to_owned(), table::duration);
        s.push_str(&format!("  waited {waited}  place {}  token {}", table::duration(w.place_ms), w.token));
    }
    s
}
