<?php
// The hand-written mutex PHP code bases carry (the seed's polling mutex when
// nobody else holds the key: one attempt): SET key token NX PX to take it, a
// Lua compare-and-delete sent with EVAL to release it, on phpredis.
function bench_phpredis(bool $persistent): void
{
    $redis = new Redis();
    $persistent
        ? $redis->pconnect('127.0.0.1', (int) getenv('BENCH_REDIS_PORT'), 1.0)
        : $redis->connect('127.0.0.1', (int) getenv('BENCH_REDIS_PORT'), 1.0);
    $key = 'bench:fpm:phpredis:' . getmypid();
    $token = bin2hex(random_bytes(16));
    $release = 'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';
    if ($redis->set($key, $token, ['nx', 'px' => 10000]) !== true || $redis->eval($release, [$key, $token], 1) !== 1) {
        http_response_code(500);
        exit("lock or release failed\n");
    }
    echo "ok\n";
}
