//! `phpinfo()` / `php --ri redis_lock`.

use ext_php_rs::ffi::zend_class_entry;
use ext_php_rs::zend::{ExecutorGlobals, ModuleEntry};
use ext_php_rs::{info_table_end, info_table_row, info_table_start};

use super::zend;
use crate::engine::policy::{metrics_status, MAX_PATTERNS, METRICS_TABLE_BYTES};

/// The module's section of `phpinfo()`.
///
/// # Safety
/// Called only by the PHP engine, as this module's `phpinfo()` hook.
pub unsafe extern "C" fn module_info(module: *mut ModuleEntry) {
    info_table_start!();
    info_table_row!("redis_lock support", "enabled");
    info_table_row!("Version", env!("CARGO_PKG_VERSION"));
    info_table_row!("Built for PHP", env!("REDIS_LOCK_PHP_VERSION"));
    info_table_row!("PHP API", env!("REDIS_LOCK_PHP_API"));
    // SAFETY: `module` is this extension's entry, handed over by the engine.
    let classes = unsafe { classes_of(module) };
    info_table_row!("Classes", classes.join(", "));
    info_table_row!("Functions", "redis_lock_metrics, redis_lock_metrics_array");
    let status = metrics_status();
    let counters = match &status.shared {
        Ok(()) => format!("shared by every process forked after startup ({} KiB)", METRICS_TABLE_BYTES / 1024),
        Err(why) => format!("per process only (the shared table could not be mapped: {why})"),
    };
    info_table_row!("Metrics counters", counters);
    let mut patterns = if status.patterns.list.is_empty() { "none (every key: other)".to_owned() } else { status.patterns.list.join(", ") };
    if status.patterns.ignored > 0 {
        patterns.push_str(&format!(
            " ({} more ignored: at most {} patterns)",
            status.patterns.ignored,
            MAX_PATTERNS
        ));
    }
    info_table_row!("Metrics patterns", patterns);
    info_table_end!();
    // SAFETY: `module` is this extension's entry, handed over by the engine.
    unsafe { zend::display_ini_entries(module) };
}

/// The classes that `module` registered, in the order it registered them, as
/// `ReflectionExtension::getClassNames()` finds them: read from the class
/// table, so that the list cannot fall behind the classes.
///
/// # Safety
/// `module` must be a live module entry; called during a request.
unsafe fn classes_of(module: *mut ModuleEntry) -> Vec<String> {
    const ZEND_INTERNAL_CLASS: std::ffi::c_char = 1;
    let globals = ExecutorGlobals::get();
    let Some(table) = globals.class_table() else { return Vec::new() };
    let mut names: Vec<String> = Vec::new();
    for (_, zv) in table {
        // SAFETY: the class table's values are pointers to class entries.
        let Some(ce) = (unsafe { zv.ptr::<zend_class_entry>() }).and_then(|p| unsafe { p.as_ref() }) else { continue };
        // SAFETY: `internal` is the union's member for internal classes.
        if ce.type_ != ZEND_INTERNAL_CLASS || unsafe { ce.info.internal.module } != module {
            continue;
        }
        if let Some(name) = ce.name().map(str::to_owned) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}
