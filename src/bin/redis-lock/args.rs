//! The command line, read into what to do: global options (anywhere on the
//! line), one command and its own arguments. A bad line is a `Usage` error
//! naming the argument, which main() prints and exits 2 with.

use std::path::PathBuf;
use std::time::Duration;

use redis_lock::engine::policy::{DEFAULT_PREFIX, DEFAULT_SERVER};

/// The options every command takes.
pub struct Global {
    /// DSNs, in the order given (`redis_lock.server`'s default when none).
    pub servers: Vec<String>,
    pub prefix: Vec<u8>,
    /// Connect and read timeout per server (`--timeout`, as redis_lock.connect_timeout / read_timeout).
    pub timeout: Duration,
    pub tls_ca_file: Option<PathBuf>,
}

/// How `release` may release.
pub enum How {
    /// Only if this token holds it (a shared lock: that token's hold).
    Owner(String),
    /// Whoever holds it.
    Force,
}

pub enum Command {
    List { pattern: String, json: bool, limit: usize },
    Show { key: String, json: bool },
    Top { pattern: String, interval: Duration, limit: usize },
    Release { key: String, how: How },
    Evict { key: String, token: String },
    Help,
    Version,
}

/// A command line that means nothing: what is wrong with which argument.
#[derive(Debug)]
pub struct Usage(pub String);

const DEFAULT_LIMIT: usize = 1000;

/// The longest timeout or interval accepted (keeps `Duration` arithmetic sane).
const MAX_SECONDS: f64 = 86_400.0;

pub fn parse(argv: &[String]) -> Result<(Global, Command), Usage> {
    let mut global = Global {
        servers: Vec::new(),
        prefix: DEFAULT_PREFIX.to_bytes().to_vec(),
        timeout: Duration::from_secs(1),
        tls_ca_file: None,
    };
    let mut words: Vec<String> = Vec::new();
    let (mut json, mut limit, mut interval, mut owner, mut force) = (false, None, None, None, false);
    let mut only_words = false;
    let mut i = 0;
    while i < argv.len() {
        let arg = &argv[i];
        i += 1;
        if only_words || !arg.starts_with("--") || arg == "--" {
            if arg == "--" && !only_words {
                only_words = true;
            } else {
                if !only_words && arg.starts_with('-') && arg.len() > 1 && arg != "-h" {
                    return Err(Usage(format!("unknown option '{arg}'")));
                }
                words.push(arg.clone());
            }
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (arg.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, Usage> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            let v = argv.get(i).cloned().ok_or_else(|| Usage(format!("{name} needs {what}")))?;
            i += 1;
            Ok(v)
        };
        match name {
            "--server" => global.servers.push(value("a DSN, e.g. redis://127.0.0.1:6379")?),
            "--prefix" => global.prefix = value("a key prefix ('' for none)")?.into_bytes(),
            "--timeout" => global.timeout = seconds(name, &value("a number of seconds")?)?,
            "--tls-ca-file" => global.tls_ca_file = Some(PathBuf::from(value("a PEM file")?)),
            "--json" => json = flag(name, inline.as_deref())?,
            "--force" => force = flag(name, inline.as_deref())?,
            "--limit" => limit = Some(count(name, &value("a number of locks")?)?),
            "--interval" => interval = Some(seconds(name, &value("a number of seconds")?)?),
            "--owner" => owner = Some(value("a lock token")?),
            "--help" => return Ok((global, Command::Help)),
            "--version" => return Ok((global, Command::Version)),
            _ => return Err(Usage(format!("unknown option '{name}'"))),
        }
    }
    if global.servers.is_empty() {
        global.servers.push(DEFAULT_SERVER.to_string_lossy().into_owned());
    }
    let mut words = words.into_iter();
    let Some(command) = words.next() else {
        return Err(Usage("no command given (list, show, top, release, evict; --help)".into()));
    };
    let rest: Vec<String> = words.collect();
    let unused = |used: &[(&str, bool)]| -> Result<(), Usage> {
        match used.iter().find(|(_, given)| *given) {
            Some((option, _)) => Err(Usage(format!("{option} does not apply to '{command}'"))),
            None => Ok(()),
        }
    };
    let cmd = match command.as_str() {
        "list" => {
            unused(&[("--owner", owner.is_some()), ("--force", force), ("--interval", interval.is_some())])?;
            let pattern = at_most_one(&command, "PATTERN", rest)?.unwrap_or_else(|| "*".into());
            Command::List { pattern, json, limit: limit.unwrap_or(DEFAULT_LIMIT) }
        }
        "top" => {
            unused(&[("--owner", owner.is_some()), ("--force", force), ("--json", json)])?;
            let pattern = at_most_one(&command, "PATTERN", rest)?.unwrap_or_else(|| "*".into());
            Command::Top { pattern, interval: interval.unwrap_or(Duration::from_secs(1)), limit: limit.unwrap_or(DEFAULT_LIMIT) }
        }
        "show" => {
            unused(&[("--owner", owner.is_some()), ("--force", force), ("--interval", interval.is_some()), ("--limit", limit.is_some())])?;
            let [key] = exactly(&command, ["KEY"], rest)?;
            Command::Show { key, json }
        }
        "release" => {
            unused(&[("--json", json), ("--interval", interval.is_some()), ("--limit", limit.is_some())])?;
            let [key] = exactly(&command, ["KEY"], rest)?;
            let how = match (owner, force) {
                (Some(token), false) => How::Owner(token),
                (None, true) => How::Force,
                (Some(_), true) => return Err(Usage("release takes --owner TOKEN or --force, not both".into())),
                (None, false) => return Err(Usage("release needs --owner TOKEN (owner-checked) or --force".into())),
            };
            Command::Release { key, how }
        }
        "evict" => {
            unused(&[("--owner", owner.is_some()), ("--force", force), ("--json", json), ("--interval", interval.is_some()), ("--limit", limit.is_some())])?;
            let [key, token] = exactly(&command, ["KEY", "TOKEN"], rest)?;
            Command::Evict { key, token }
        }
        "help" | "-h" => Command::Help,
        "version" => Command::Version,
        other => return Err(Usage(format!("unknown command '{other}' (list, show, top, release, evict; --help)"))),
    };
    Ok((global, cmd))
}

/// `--json`, or `--json=1/0/true/false`.
fn flag(name: &str, inline: Option<&str>) -> Result<bool, Usage> {
    match inline {
        None | Some("1") | Some("true") | Some("yes") => Ok(true),
        Some("0") | Some("false") | Some("no") => Ok(false),
        Some(other) => Err(Usage(format!("{name} takes no value, '{other}' given"))),
    }
}

fn seconds(name: &str, v: &str) -> Result<Duration, Usage> {
    v.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.001 && *s <= MAX_SECONDS)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| Usage(format!("{name} must be a number of seconds from 0.001 to {MAX_SECONDS}, '{v}' given")))
}

fn count(name: &str, v: &str) -> Result<usize, Usage> {
    v.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| Usage(format!("{name} must be a whole number of at least 1, '{v}' given")))
}

fn at_most_one(command: &str, what: &str, rest: Vec<String>) -> Result<Option<String>, Usage> {
    match rest.len() {
        0 | 1 => Ok(rest.into_iter().next()),
        _ => Err(Usage(format!("{command} takes one {what}, unexpected '{}'", rest[1]))),
    }
}

fn exactly<const N: usize>(command: &str, names: [&str; N], rest: Vec<String>) -> Result<[String; N], Usage> {
    if rest.len() > N {
        return Err(Usage(format!("{command}: unexpected argument '{}'", rest[N])));
    }
    if rest.len() < N {
        return Err(Usage(format!("{command} needs {}", names[rest.len()..].join(" "))));
    }
    if let Some(empty) = rest.iter().zip(names).find(|(v, _)| v.is_empty()) {
        return Err(Usage(format!("{command}: {} must not be empty", empty.1)));
    }
    rest.try_into().map_err(|_| Usage(format!("{command} needs {}", names.join(" "))))
}

pub const HELP: &str = "\
redis-lock: see and release redis_lock's locks (mutexes, RedLock resources, read/write locks, semaphores)

Usage:
  redis-lock [OPTIONS] list [PATTERN] [--json] [--limit N]
  redis-lock [OPTIONS] show KEY [--json]
  redis-lock [OPTIONS] top [PATTERN] [--interval S] [--limit N]
  redis-lock [OPTIONS] release KEY (--owner TOKEN | --force)
  redis-lock [OPTIONS] evict KEY TOKEN
  redis-lock --help | --version

KEY is a lock's key without the prefix; PATTERN a glob on it (default *).

Options:
  --server DSN       redis://, rediss://, unix://, redis-cluster://, redis-sentinel://
                     as redis_lock.server (default redis://127.0.0.1:6379); repeat it to
                     look at several servers (RedLock: each node)
  --prefix P         the key prefix, as redis_lock.prefix (default lock:; '' for RedLock)
  --timeout S        connect and read timeout per server, seconds (default 1)
  --tls-ca-file F    PEM file of the CA of rediss:// servers (as redis_lock.tls_ca_file)
  --json             list, show: one JSON object per lock and line
  --limit N          list, top: at most N locks per server (default 1000)
  --interval S       top: seconds between refreshes (default 1)

top keys: up/down or j/k select, w sort by waiters, a sort by age, r release the
selected lock (asks y/n; forced), q or Ctrl-C quit.

Exit codes: 0 done, 1 no such lock / refused, 2 usage error, 3 server error.
See docs/operating-cli.md.
";
