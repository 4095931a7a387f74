//! The PHP face: argument checks, PHP types, exceptions, INI, request hooks.

pub mod args;
pub mod bridge;
pub mod checks;
pub mod errors;
pub mod fixups;
pub mod info;
pub mod ini;
pub mod listing;
pub mod metrics;
pub mod mutex;
pub mod owned;
pub mod redlock;
pub mod rwlock;
pub mod scope;
pub mod semaphore;
pub mod shared;
pub mod shutdown;
pub mod zend;

/// Module startup: INI entries and the classes built by hand. No sockets or
/// threads here: PHP-FPM forks its workers after this.
///
/// # Safety
/// Called only by the PHP engine, as this module's startup hook.
pub unsafe extern "C" fn startup(_type: i32, module_number: i32) -> i32 {
    silence_panics();
    ini::register(module_number);
    // Before PHP-FPM forks its workers: the table they all add to.
    // Keys are matched without redis_lock.prefix (as php.ini sets it).
    crate::engine::policy::start_metrics(&String::from_utf8_lossy(&ini::raw(ini::METRICS_PATTERNS)), &ini::raw(ini::PREFIX));
    crate::engine::policy::set_interrupt_check(zend::time_limit_fired);
    match errors::register_exception_classes() {
        Ok(()) => 0,
        Err(_) => -1,
    }
}

/// Request startup: one-time fix-ups that need the classes registered.
///
/// # Safety
/// Called only by the PHP engine, as this module's request startup hook.
pub unsafe extern "C" fn request_startup(_type: i32, _module_number: i32) -> i32 {
    static ONCE: std::sync::Once = std::sync::Once::new();
    shutdown::request_started();
    let _ = std::panic::catch_unwind(|| ONCE.call_once(fixups::apply));
    0
}

/// A Rust panic must never print to PHP's stderr: the calls that could panic
/// are wrapped in catch_unwind, and their message (which could quote user
/// data) goes nowhere. Installed once per process.
fn silence_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::panic::set_hook(Box::new(|_| {})));
}
