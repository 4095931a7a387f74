//! redis_lock: distributed locks on Redis for PHP.
//! This file only registers the module; see `engine/` and `php/`.
#![allow(non_snake_case)]

pub mod engine;
pub mod php;

use ext_php_rs::prelude::*;

#[php_module]
pub fn get_module(module: ModuleBuilder) -> ModuleBuilder {
    module
        .startup_function(php::startup)
        .shutdown_function(php::shutdown::module_shutdown)
        .class::<php::mutex::RedisMutexLock>()
        .class::<php::redlock::RedLock>()
        .class::<php::rwlock::RedisReadWriteLock>()
        .class::<php::semaphore::RedisSemaphore>()
        .class::<php::scope::RedisLock>()
        .function(php::metrics::text_function())
        .function(php::metrics::array_function())
        .request_startup_function(php::request_startup)
        .request_shutdown_function(php::shutdown::request_shutdown)
        .post_deactivate_function(php::shutdown::post_deactivate)
        .info_function(php::info::module_info)
}
