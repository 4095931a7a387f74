<?php

declare(strict_types=1);

use RedisLock\Tests\Support\ThrowawayRedis;

require __DIR__ . '/deps.php';

// The main test server: REDIS_LOCK_TEST_PORT (scripts/test-adapters.sh starts a
// throwaway redis-server and sets it); without it, one is started here.
if (!getenv('REDIS_LOCK_TEST_PORT')) {
    $GLOBALS['__redis_lock_main_server'] = $server = ThrowawayRedis::start();
    putenv('REDIS_LOCK_TEST_PORT=' . $server->port);
}
// Child processes load the extension from REDIS_LOCK_SO (set by
// scripts/test-adapters.sh); without it, the repository's build, if any.
if (!getenv('REDIS_LOCK_SO') && is_file($so = dirname(__DIR__, 2) . '/target/release/libredis_lock.so')) {
    putenv('REDIS_LOCK_SO=' . $so);
}
ini_set('redis_lock.server', 'redis://127.0.0.1:' . getenv('REDIS_LOCK_TEST_PORT'));
