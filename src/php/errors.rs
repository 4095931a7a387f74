//! How failures reach PHP: `\ValueError` and `\TypeError` worded as PHP's own
//! functions word them, and `RedisLockException` for failures of Redis.

use std::ffi::{CStr, CString};
use std::sync::atomic::{AtomicPtr, Ordering};

use ext_php_rs::builders::ClassBuilder;
use ext_php_rs::exception::PhpException;
use ext_php_rs::zend::{ce, ClassEntry};

use super::zend;

pub const EXCEPTION_CLASS: &str = "RedisLockException";

/// A failure on its way to PHP.
#[derive(Debug)]
pub enum Fail {
    /// The engine already threw (PHP's own TypeError for an argument).
    Thrown,
    /// An argument has an invalid value: `Argument #N ($name) {msg}`.
    Arg(u32, String),
    /// Another invalid value (a setting, an array entry): `{msg}`.
    Value(String),
    /// Redis could not answer.
    Redis(String),
    /// A renewed lock was lost.
    Lost(String),
}

pub type Result<T> = std::result::Result<T, Fail>;

/// What the method macros throw for a failed call. Argument failures are
/// thrown by the engine's own functions (for PHP's exact wording) during the
/// conversion; the placeholder returned for them is not thrown, because an
/// exception is then already pending. Every message passes `escape_nul`
/// here, so that creating the exception can never fail on a NUL byte.
impl From<Fail> for PhpException {
    fn from(fail: Fail) -> Self {
        match fail {
            Fail::Thrown => pending(),
            Fail::Arg(num, msg) => {
                let msg = CString::new(escape_nul(&msg)).unwrap_or_default();
                // SAFETY: called inside a PHP method call, with a "%s" format and a C string.
                unsafe { zend::zend_argument_value_error(num, c"%s".as_ptr(), msg.as_ptr()) };
                pending()
            }
            Fail::Value(msg) => {
                PhpException::new(escape_nul(&format!("{}: {msg}", active_function())), 0, ce::value_error())
            }
            Fail::Redis(msg) => PhpException::new(escape_nul(&msg), 0, class(&EXCEPTION_CE)),
            Fail::Lost(msg) => PhpException::new(escape_nul(&msg), 0, class(&LOST_CE)),
        }
    }
}

/// A call that PHP's time limit cut short returns its empty value (false,
/// null) instead of throwing: PHP raises its own "Maximum execution time"
/// fatal error as soon as the call returns, and an exception pending then
/// would be reported before it as uncaught (PHP 8.5).
pub fn unless_timed_out<T: Default>(result: Result<T>) -> Result<T> {
    match result {
        Err(Fail::Redis(_)) if zend::time_limit_fired() => Ok(T::default()),
        other => other,
    }
}

/// The RedisLockLostException of a renewed lock that was lost.
pub fn lost(method: &str, key: &[u8], why: &impl std::fmt::Display) -> Fail {
    Fail::Lost(format!("{method}(): the lock on \"{}\" was lost: {why}", crate::engine::policy::printable(key)))
}

/// A NUL byte shown as the two characters `\0`, as PHP shows it.
pub fn escape_nul(msg: &str) -> String {
    msg.replace('\0', "\\0")
}

fn pending() -> PhpException {
    PhpException::new(String::new(), 0, ce::exception())
}

/// `Class::method()` of the call in progress, as PHP prefixes its messages.
fn active_function() -> String {
    let text = |p: *const std::ffi::c_char| {
        // SAFETY: the engine returns NUL-terminated names (or NULL).
        if p.is_null() {
            String::new()
        } else {
            unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
        }
    };
    let mut space: *const std::ffi::c_char = std::ptr::null();
    // SAFETY: both only read the current execute data.
    let (class, space, function) = unsafe {
        let class = zend::get_active_class_name(&mut space);
        (text(class), text(space), text(zend::get_active_function_name()))
    };
    format!("{class}{space}{function}()")
}

fn runtime_exception() -> &'static ClassEntry {
    // SAFETY: SPL's RuntimeException is registered before any extension starts.
    unsafe { &*zend::spl_ce_RuntimeException.cast::<ClassEntry>() }
}

/// Registers `RedisLockException extends RuntimeException` and
/// `RedisLockLostException extends RedisLockException` (built with
/// ClassBuilder so that they keep file/line/trace and can be constructed in PHP).
pub fn register_exception_classes() -> ext_php_rs::error::Result<()> {
    ClassBuilder::new(EXCEPTION_CLASS)
        .extends((runtime_exception, "RuntimeException"))
        .registration(|ce, arg_info| keep(&EXCEPTION_CE, ce, arg_info))
        .register()?;
    ClassBuilder::new(LOST_CLASS)
        .extends((|| class(&EXCEPTION_CE), EXCEPTION_CLASS))
        .registration(|ce, arg_info| keep(&LOST_CE, ce, arg_info))
        .register()
}

fn keep<T>(slot: &AtomicPtr<ClassEntry>, ce: &'static mut ClassEntry, arg_info: T) {
    slot.store(ce, Ordering::Release);
    // The classes have no methods of their own; the engine may keep pointers into these.
    std::mem::forget(arg_info);
}

pub const LOST_CLASS: &str = "RedisLockLostException";

static EXCEPTION_CE: AtomicPtr<ClassEntry> = AtomicPtr::new(std::ptr::null_mut());
static LOST_CE: AtomicPtr<ClassEntry> = AtomicPtr::new(std::ptr::null_mut());

fn class(slot: &AtomicPtr<ClassEntry>) -> &'static ClassEntry {
    // SAFETY: set once at module startup to a class entry that lives as long as the process.
    unsafe { slot.load(Ordering::Acquire).as_ref() }.unwrap_or_else(runtime_exception)
}
