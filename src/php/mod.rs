//! The PHP face: argument checks, PHP types, exceptions, INI, request hooks.

pub mod args;
pub mod errors;
pub mod info;
pub mod ini;
pub mod mutex;
pub mod shutdown;
pub mod zend;

/// Module startup: INI entries and the classes built by hand. No sockets or
/// threads here: PHP-FPM forks its workers after this.
pub unsafe extern "C" fn startup(_type: i32, module_number: i32) -> i32 {
    ini::register(module_number);
    match errors::register_exception_class() {
        Ok(()) => 0,
        Err(_) => -1,
    }
}
