//! `phpinfo()` / `php --ri redis_lock`.

use ext_php_rs::zend::ModuleEntry;
use ext_php_rs::{info_table_end, info_table_row, info_table_start};

use super::zend;

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
    info_table_row!("Classes", "RedisMutexLock, RedLock, RedisLockException");
    info_table_end!();
    // SAFETY: `module` is this extension's entry, handed over by the engine.
    unsafe { zend::display_ini_entries(module) };
}
