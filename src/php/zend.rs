//! Engine functions and globals that ext-php-rs does not bind. PHP exports
//! them to every extension; they are resolved when PHP loads the module.

use std::ffi::{c_char, c_int};

use ext_php_rs::ffi::{zend_class_entry, zend_module_entry, zend_string};
use ext_php_rs::types::Zval;

/// `zend_expected_type` values (Zend/zend_API.h, Z_EXPECTED_TYPES).
pub const Z_EXPECTED_LONG: c_int = 0;
pub const Z_EXPECTED_STRING: c_int = 4;
pub const Z_EXPECTED_ARRAY: c_int = 6;
pub const Z_EXPECTED_DOUBLE: c_int = 20;

extern "C" {
    pub static spl_ce_RuntimeException: *mut zend_class_entry;

    pub fn display_ini_entries(module: *mut zend_module_entry);

    pub fn zend_parse_arg_str_slow(arg: *mut Zval, dest: *mut *mut zend_string, arg_num: u32) -> bool;
    pub fn zend_parse_arg_long_slow(arg: *mut Zval, dest: *mut i64, arg_num: u32) -> bool;
    pub fn zend_parse_arg_double_slow(arg: *mut Zval, dest: *mut f64, arg_num: u32) -> bool;
    pub fn zend_wrong_parameter_type_error(arg_num: u32, expected: c_int, arg: *mut Zval);
    pub fn zend_argument_value_error(arg_num: u32, format: *const c_char, ...);

    pub fn get_active_class_name(space: *mut *const c_char) -> *const c_char;
    pub fn get_active_function_name() -> *const c_char;
}

/// Whether PHP's `max_execution_time` fired in the request that is running:
/// waits then return so that PHP raises its own timeout error (and request
/// end still releases the locks) instead of escalating to its hard kill.
pub fn time_limit_fired() -> bool {
    // SAFETY: a plain read of an atomic flag in the executor globals, which
    // PHP's timer signal handler sets (NTS build: one global).
    unsafe { std::ptr::read_volatile(&raw const ext_php_rs::ffi::executor_globals.timed_out.value) }
}
