<?php
// Laravel 8's cache RedisStore as a request of a Laravel application builds it
// (Debian php-illuminate-cache + php-illuminate-redis, without the framework):
// a RedisManager with the phpredis driver, the store with the prefix '', then
// $store->lock($key, 10)->get() and ->release(): SET EX NX, EVAL compare-and-delete.
require_once 'Illuminate/Cache/autoload.php';
require_once 'Illuminate/Redis/autoload.php';

function bench_laravel(bool $persistent): void
{
    $redis = new Illuminate\Redis\RedisManager(null, 'phpredis', [
        'default' => ['host' => '127.0.0.1', 'port' => (int) getenv('BENCH_REDIS_PORT'), 'timeout' => 1.0, 'persistent' => $persistent],
    ]);
    $store = new Illuminate\Cache\RedisStore($redis, '', 'default');
    $lock = $store->lock('bench:fpm:laravel:' . getmypid(), 10);
    if (!$lock->get() || !$lock->release()) {
        http_response_code(500);
        exit("lock or release failed\n");
    }
    echo "ok\n";
}
