<?php

/*
 * Laravel's Cache::restoreLock() and forceRelease() on the redis_lock cache
 * store (the default store), across processes: a lock taken in one process is
 * released in another that knows its owner (as a queued job does with the
 * owner it was given), never by one that does not; forceRelease() frees it
 * whoever holds it. A lock taken with 0 seconds (Laravel: never expires; here
 * a renewed lease of the store's 'lease' => 2) is held while its holder lives,
 * and frees at most one lease after the holder is killed with SIGKILL.
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Illuminate\Support\Facades\Cache;

laravel_cache_app(lease: 2); // or skips

roles([
    // Takes the lock for 0 seconds, writes its owner, waits (to be killed).
    'hold' => function (): void {
        laravel_cache_app(lease: 2);
        $lock = Cache::lock('import', 0);
        out($lock->get() ? 'owner ' . $lock->owner() : 'busy');
        in();
    },
    'restore' => function (string $owner): void {
        laravel_cache_app(lease: 2);
        out(Cache::restoreLock('import', $owner)->release() ? 'released' : 'not released');
    },
    'force' => function (): void {
        laravel_cache_app(lease: 2);
        Cache::lock('import')->forceRelease();
        out('forced');
    },
    'get' => function (): void {
        laravel_cache_app(lease: 2);
        $lock = Cache::lock('import', 5);
        out($lock->get() ? 'got' : 'busy');
        $lock->release();
    },
]);

$redis = e2e_redis();
$say = fn (string $role, string ...$args) => spawn($role, ...$args)->finish()[0];

$holder = spawn('hold');
[$line] = $holder->read();
check(str_starts_with($line, 'owner '), 'a process takes the lock');
$owner = substr($line, 6);
check($redis->get('lock:app:import') === $owner, 'our key lock:app:import holds its owner');
check($say('get') === ['busy'], 'another process cannot take it');
check($say('restore', 'someone-else') === ['not released'] && $redis->get('lock:app:import') === $owner, 'restoreLock() with another owner does not release it');
check($say('restore', $owner) === ['released'], 'restoreLock() with its owner releases it from another process');
check($redis->keys() === [], 'no key left');
check($say('get') === ['got'], 'it can be taken again');
$holder->kill();
$holder->wait();

$holder = spawn('hold');
$holder->expect('owner');
check($say('force') === ['forced'] && $redis->keys() === [], 'forceRelease() from another process frees it');
check($say('get') === ['got'], 'it can be taken again');
$holder->kill();
$holder->wait();

$holder = spawn('hold');
$owner = substr($holder->read()[0], 6);
usleep(2_500_000);
check($say('get') === ['busy'], 'held 2.5 s later: the lease (2 s) is renewed while the holder lives');
$killed = microtime(true);
$holder->kill();
$holder->wait();
check($say('get') === ['busy'], 'after SIGKILL of the holder, still held');
$gone = changed($redis, 'lock:app:import', $owner);
// Renewed every third of the lease, the lock has about 2/3 of it or more left at any time.
check($gone - $killed > 0.9 && $gone - $killed < 2.0 + 0.4, sprintf('it runs out %.2f s after the kill (lease 2 s)', $gone - $killed));
check($say('get') === ['got'], 'then it can be taken');
check($redis->keys() === [], 'no key left');

passed();
