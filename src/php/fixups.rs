//! Corrections to what the method macros declare, applied once per process
//! before any PHP code runs (at the first request startup: classes are
//! registered after the module's own startup function). The arginfo and
//! function entries touched are this module's own memory.

use ext_php_rs::ffi::{zend_function, zend_string, HashTable};
use ext_php_rs::types::ZendStr;
use ext_php_rs::zend::ClassEntry;

extern "C" {
    /// Zend/zend_attributes.h (PHP 8.2).
    fn zend_add_attribute(
        attributes: *mut *mut HashTable,
        name: *mut zend_string,
        argc: u32,
        flags: u32,
        offset: u32,
        lineno: u32,
    ) -> *mut std::ffi::c_void;
}

const ZEND_ATTRIBUTE_PERSISTENT: u32 = 1 << 0;
const ZEND_TYPE_NULLABLE_BIT: u32 = 0x2;

const ZEND_ACC_PUBLIC: u32 = 1 << 0;
const ZEND_ACC_PRIVATE: u32 = 1 << 2;
const MAY_BE_FALSE: u32 = 1 << 2;
const MAY_BE_ARRAY: u32 = 1 << 7;
const MAY_BE_NULL: u32 = 1 << 1;
const MAY_BE_STRING: u32 = 1 << 6;
const MAY_BE_MASK: u32 = (1 << 18) - 1;

pub fn apply() {
    // Return types the macros cannot express (they declare `mixed`).
    set_return_type("RedLock", "lock", MAY_BE_ARRAY | MAY_BE_FALSE);
    set_return_type("RedLock", "extend", MAY_BE_ARRAY | MAY_BE_FALSE);
    set_return_type("RedisMutexLock", "inspect", MAY_BE_ARRAY);
    set_return_type("RedisMutexLock", "owner", MAY_BE_STRING | MAY_BE_NULL);
    set_return_type("RedisReadWriteLock", "inspect", MAY_BE_ARRAY);
    set_return_type("RedisSemaphore", "inspect", MAY_BE_ARRAY);
    set_return_type("RedisLock", "endscope", MAY_BE_ARRAY);
    set_return_type("RedisLock", "locks", MAY_BE_ARRAY);
    set_return_type("RedisLock", "describe", MAY_BE_ARRAY | MAY_BE_NULL);
    // The int/float wrappers declare themselves nullable so that an explicit
    // null reaches their own PHP-style handling; PHP must still see `int` and
    // `float`, not `?int` and `?float` (no parameter of ours is nullable).
    for (class, method, nullable) in METHODS {
        // SAFETY: arg_info holds num_args entries (after the return type).
        with_method(class, method, |function| unsafe {
            let args = (*function).common.arg_info;
            for i in 0..(*function).common.num_args as usize * usize::from(!args.is_null()) {
                if !nullable.contains(&i) {
                    (*args.add(i)).type_.type_mask &= !ZEND_TYPE_NULLABLE_BIT;
                }
            }
        });
    }
    // `$servers` may hold passwords: traces show it as SensitiveParameterValue.
    with_method("RedLock", "__construct", |function| unsafe {
        let name = ZendStr::new("SensitiveParameter", true);
        let name = ext_php_rs::boxed::ZBox::into_raw(name);
        // SAFETY: the engine copies the (persistent) name; offset 1 is parameter 0.
        zend_add_attribute(&mut (*function).common.attributes, name, 0, ZEND_ATTRIBUTE_PERSISTENT, 1, 0);
        drop(ext_php_rs::boxed::ZBox::from_raw(name));
    });
    // RedisMutexLock is static-only: its generated constructor becomes
    // private, so `new RedisMutexLock` is PHP's own "Call to private" Error.
    for class in ["RedisMutexLock", "RedisReadWriteLock", "RedisSemaphore", "RedisLock"] {
        with_method(class, "__construct", |function| unsafe {
            let flags = &mut (*function).common.fn_flags;
            *flags = (*flags & !ZEND_ACC_PUBLIC) | ZEND_ACC_PRIVATE;
        });
    }
}

/// Methods whose int/float/string wrappers declare themselves nullable, and
/// the parameters (0-based) that really are nullable.
const METHODS: [(&str, &str, &[usize]); 21] = [
    ("RedisReadWriteLock", "lockread", &[]),
    ("RedisReadWriteLock", "lockwrite", &[]),
    ("RedisReadWriteLock", "extend", &[]),
    ("RedisReadWriteLock", "acquireowner", &[]),
    ("RedisReadWriteLock", "extendowner", &[]),
    ("RedisSemaphore", "acquire", &[]),
    ("RedisSemaphore", "extend", &[]),
    ("RedisSemaphore", "acquireowner", &[]),
    ("RedisSemaphore", "extendowner", &[]),
    ("RedisMutexLock", "lock", &[]),
    ("RedisMutexLock", "release", &[]),
    ("RedisMutexLock", "extend", &[]),
    ("RedisMutexLock", "acquire", &[4]),
    ("RedisMutexLock", "extendowner", &[]),
    ("RedLock", "__construct", &[]),
    ("RedLock", "lock", &[]),
    ("RedLock", "unlock", &[]),
    ("RedLock", "extend", &[]),
    ("RedisMutexLock", "releaseowner", &[]),
    ("RedisLock", "endscope", &[]),
    ("RedisLock", "locks", &[]),
];

fn set_return_type(class: &str, method: &str, mask: u32) {
    with_method(class, method, |function| unsafe {
        let args = (*function).common.arg_info;
        if !args.is_null() {
            // SAFETY: for an internal function with a return type,
            // arg_info[-1] is the return-type entry.
            let ret = &mut (*args.offset(-1)).type_;
            ret.type_mask = (ret.type_mask & !MAY_BE_MASK) | mask;
        }
    });
}

fn with_method(class: &str, method: &str, fix: impl FnOnce(*mut zend_function)) {
    let Some(class) = ClassEntry::try_find(class) else { return };
    if let Some(entry) = class.function_table.get(method) {
        // SAFETY: function_table values are pointers to the class' functions.
        fix(unsafe { entry.value.ptr.cast::<zend_function>() });
    }
}
