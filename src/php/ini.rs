//! The `redis_lock.*` INI settings and their parsed values.

use std::ffi::{c_int, c_void, CStr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use ext_php_rs::flags::IniEntryPermission;
use ext_php_rs::zend::{IniEntryDef, IniEntryDefs};

use super::errors::{Fail, Result};
use ext_php_rs::ffi::{zend_ini_entry, zend_string};
use ext_php_rs::zend::ExecutorGlobals;
use super::checks::clamped_seconds;
use crate::engine::policy::{label_of, redact, Limits, Renew, Replicas, Server, Terms, DEFAULT_PREFIX, DEFAULT_SERVER, MAX_REPLICAS, NUL_BYTES};

pub const SERVER: &CStr = c"redis_lock.server";
pub const PREFIX: &CStr = c"redis_lock.prefix";
pub const CONNECT_TIMEOUT: &CStr = c"redis_lock.connect_timeout";
pub const READ_TIMEOUT: &CStr = c"redis_lock.read_timeout";
pub const RELEASE_ON_SHUTDOWN: &CStr = c"redis_lock.release_on_shutdown";
pub const TLS_CA_FILE: &CStr = c"redis_lock.tls_ca_file";
pub const REENTRANT: &CStr = c"redis_lock.reentrant";
pub const AUTO_RENEW: &CStr = c"redis_lock.auto_renew";
pub const MAX_HOLD: &CStr = c"redis_lock.max_hold";
pub const WAIT_REPLICAS: &CStr = c"redis_lock.wait_replicas";
pub const WAIT_TIMEOUT: &CStr = c"redis_lock.wait_timeout";
pub const LABEL: &CStr = c"redis_lock.label";
/// Read once at module startup (the counters' series are fixed then): php.ini only.
pub const METRICS_PATTERNS: &CStr = c"redis_lock.metrics_patterns";

static ENTRIES: IniEntryDefs<14> = IniEntryDefs::new([
    entry(SERVER, DEFAULT_SERVER, Some(display_redacted)),
    entry(PREFIX, DEFAULT_PREFIX, None),
    entry(CONNECT_TIMEOUT, c"1", None),
    entry(READ_TIMEOUT, c"1", None),
    entry(RELEASE_ON_SHUTDOWN, c"1", None),
    entry(TLS_CA_FILE, c"", None),
    entry(REENTRANT, c"1", None),
    entry(AUTO_RENEW, c"0", None),
    entry(MAX_HOLD, c"0", None),
    entry(WAIT_REPLICAS, c"0", None),
    entry(WAIT_TIMEOUT, c"1", None),
    entry(LABEL, c"", None),
    system_entry(METRICS_PATTERNS, c""),
    IniEntryDef::end(),
]);

type Displayer = unsafe extern "C" fn(*mut zend_ini_entry, c_int);

const fn entry(name: &'static CStr, default: &'static CStr, displayer: Option<Displayer>) -> IniEntryDef {
    let mut def = IniEntryDef::new(name, default, IniEntryPermission::All);
    // Values are read when used; a handler must exist for ini_restore() to work.
    def.on_modify = Some(accept);
    def.displayer = displayer;
    def
}

/// A setting only php.ini (or `-d`) sets, read once at module startup.
const fn system_entry(name: &'static CStr, default: &'static CStr) -> IniEntryDef {
    let mut def = IniEntryDef::new(name, default, IniEntryPermission::System);
    def.on_modify = Some(accept);
    def
}

unsafe extern "C" fn accept(
    _entry: *mut zend_ini_entry,
    _value: *mut zend_string,
    _arg1: *mut c_void,
    _arg2: *mut c_void,
    _arg3: *mut c_void,
    _stage: c_int,
) -> c_int {
    CHANGES.fetch_add(1, Ordering::Relaxed);
    0
}

/// Bumped on every change of a redis_lock.* setting (ini_set, ini_restore,
/// the end-of-request restore): parsed settings are reused until then.
static CHANGES: AtomicU64 = AtomicU64::new(0);

/// The settings a lock call needs, parsed once per change. Invalid values
/// are kept as their error messages and reported when used.
pub struct Settings {
    pub server: std::result::Result<Server, String>,
    pub prefix: Vec<u8>,
    pub limits: std::result::Result<Limits, String>,
    /// `lock()` on a key this process holds takes it again.
    pub reentrant: bool,
    /// `redis_lock.auto_renew`.
    pub auto_renew: bool,
    /// `redis_lock.max_hold` (`None`: no cap).
    pub max_hold: std::result::Result<Option<Duration>, String>,
    /// `redis_lock.wait_replicas` (0: off) and `redis_lock.wait_timeout`.
    wait_replicas: std::result::Result<i64, String>,
    wait_timeout: std::result::Result<Duration, String>,
    /// `redis_lock.label`, as tokens carry it.
    pub label: String,
}

impl Settings {
    /// Renewals for a lock taken now: as `asked`, else as `redis_lock.auto_renew` says.
    pub fn renew(&self, asked: Option<bool>) -> Result<Option<Renew>> {
        if !asked.unwrap_or(self.auto_renew) {
            return Ok(None);
        }
        let max_hold = self.max_hold.clone().map_err(Fail::Value)?;
        Ok(Some(Renew { max_hold }))
    }

    /// The terms of a RedisMutexLock acquisition: renewals (as `renew()`)
    /// and replica acknowledgement.
    pub fn terms(&self, renew: Option<bool>) -> Result<Terms> {
        Ok(Terms { renew: self.renew(renew)?, replicas: self.replicas()? })
    }

    /// Replica acknowledgement for `redis_lock.server`: its DSN's
    /// `wait_replicas=N`, else `redis_lock.wait_replicas` (`None`: off).
    pub fn replicas(&self) -> Result<Option<Replicas>> {
        let wanted = match self.server.as_ref().ok().and_then(|s| s.wait_replicas) {
            Some(wanted) => wanted,
            None => self.wait_replicas.clone().map_err(Fail::Value)?,
        };
        if wanted == 0 {
            return Ok(None);
        }
        Ok(Some(Replicas { wanted, within: self.wait_timeout.clone().map_err(Fail::Value)? }))
    }
}

pub fn settings() -> Arc<Settings> {
    static CACHE: Mutex<Option<(u64, Arc<Settings>)>> = Mutex::new(None);
    let seen = CHANGES.load(Ordering::Relaxed);
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((at, settings)) = cache.as_ref() {
        if *at == seen {
            return settings.clone();
        }
    }
    let message = |fail: Fail| match fail {
        Fail::Value(msg) => msg,
        other => format!("{other:?}"),
    };
    let settings = Arc::new(Settings {
        server: parse_server().map_err(message),
        prefix: raw(PREFIX),
        limits: parse_limits().map_err(message),
        reentrant: flag(REENTRANT),
        auto_renew: flag(AUTO_RENEW),
        max_hold: parse_max_hold().map_err(message),
        wait_replicas: parse_wait_replicas().map_err(message),
        wait_timeout: seconds(WAIT_TIMEOUT).map_err(message),
        label: label_of(&raw(LABEL)),
    });
    *cache = Some((seen, settings.clone()));
    settings
}

/// phpinfo() and `php --ri` show the server without its password.
unsafe extern "C" fn display_redacted(entry: *mut zend_ini_entry, kind: c_int) {
    const ZEND_INI_DISPLAY_ORIG: c_int = 1;
    let _ = std::panic::catch_unwind(|| {
        // SAFETY: the engine passes one of its live INI entries.
        let Some(entry) = (unsafe { entry.as_ref() }) else { return };
        let value = if kind == ZEND_INI_DISPLAY_ORIG && entry.modified != 0 { entry.orig_value } else { entry.value };
        // SAFETY: entry values are live zend_strings or NULL.
        let text = unsafe { value.as_ref() }.map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let shown = match text.as_deref() {
            None | Some("") => "no value".to_owned(),
            Some(dsn) => redact(dsn),
        };
        let _ = ext_php_rs::zend::printf(&shown);
    });
}

pub fn register(module_number: i32) {
    IniEntryDef::register(ENTRIES.as_slice(), module_number);
}

/// The current value of a setting (raw bytes, NUL bytes included; empty when unset).
pub fn raw(name: &CStr) -> Vec<u8> {
    let globals = ExecutorGlobals::get();
    // SAFETY: `EG(ini_directives)` lives for the request (null before INI startup);
    // its entries are `zend_ini_entry` pointers owned by the table.
    unsafe {
        let Some(table) = globals.ini_directives.as_ref() else {
            return Vec::new();
        };
        let entry = table
            .get(name.to_str().unwrap_or_default())
            .and_then(|zv| zv.ptr::<zend_ini_entry>())
            .and_then(|entry| entry.as_ref());
        entry.and_then(|e| e.value.as_ref()).map(|v| v.as_bytes().to_vec()).unwrap_or_default()
    }
}

fn text(name: &CStr) -> Result<String> {
    let name_text = name.to_string_lossy();
    let value = String::from_utf8(raw(name)).map_err(|_| Fail::Value(format!("{name_text} is not valid UTF-8")))?;
    if value.contains('\0') {
        return Err(Fail::Value(format!("{name_text} {NUL_BYTES}")));
    }
    Ok(value)
}

/// PHP's boolean INI syntax: on/yes/true, else a number.
pub fn flag(name: &CStr) -> bool {
    let v = String::from_utf8_lossy(&raw(name)).trim().to_ascii_lowercase();
    matches!(v.as_str(), "on" | "yes" | "true") || v.parse::<i64>().is_ok_and(|n| n != 0)
}

/// A timeout setting: at least 1 ms; values above `MAX_SECONDS` are clamped.
fn seconds(name: &CStr) -> Result<Duration> {
    setting(name, "a number of seconds of at least 0.001", |v| {
        v.parse::<f64>().ok().filter(|s| *s >= 0.001).and_then(clamped_seconds)
    })
}

/// A setting's trimmed value as `parse` reads it, or a ValueError saying
/// what it must be.
fn setting<T>(name: &CStr, must_be: &str, parse: impl FnOnce(&str) -> Option<T>) -> Result<T> {
    let raw = raw(name);
    let v = String::from_utf8_lossy(&raw);
    let v = v.trim();
    parse(v).ok_or_else(|| Fail::Value(format!("{} must be {must_be}, \"{v}\" given", name.to_string_lossy())))
}

/// Timeouts and TLS settings for new connections, parsed.
fn parse_limits() -> Result<Limits> {
    let ca = text(TLS_CA_FILE)?;
    let ca = ca.trim();
    Ok(Limits {
        connect: seconds(CONNECT_TIMEOUT)?,
        read: seconds(READ_TIMEOUT)?,
        tls_ca_file: (!ca.is_empty()).then(|| PathBuf::from(ca)),
    })
}

/// `redis_lock.max_hold`: seconds, 0 for no cap.
fn parse_max_hold() -> Result<Option<Duration>> {
    let secs = setting(MAX_HOLD, "a number of seconds of at least 0 (0: no cap)", |v| {
        v.parse::<f64>().ok().filter(|s| *s >= 0.0).and_then(clamped_seconds)
    })?;
    Ok((!secs.is_zero()).then_some(secs))
}

/// `redis_lock.wait_replicas` (0: off).
fn parse_wait_replicas() -> Result<i64> {
    setting(WAIT_REPLICAS, &format!("a number of replicas from 0 to {MAX_REPLICAS}"), |v| {
        v.parse::<i64>().ok().filter(|n| (0..=MAX_REPLICAS).contains(n))
    })
}

/// `redis_lock.server`, parsed.
fn parse_server() -> Result<Server> {
    Server::parse(&text(SERVER)?).map_err(|e| Fail::Value(format!("redis_lock.server is not a valid server: {e}")))
}

/// The limits now in force.
pub fn limits() -> Result<Limits> {
    settings().limits.clone().map_err(Fail::Value)
}
