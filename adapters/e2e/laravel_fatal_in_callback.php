<?php

/*
 * A fatal error inside a Laravel lock callback, on the redis_lock cache store
 * (the default store): Cache::lock()->get($callback), ->block($seconds,
 * $callback) and the store's Funnel::then($callback). PHP runs no finally
 * block after a fatal error (memory_limit, max_execution_time) nor after
 * exit(), so Laravel's own release after the callback does not run: with
 * Laravel's RedisStore the lock stays until its TTL, and forever when taken
 * for 0 seconds. Here the adapter releases it from a shutdown function:
 *
 * - the key is gone when the dead process has exited, and a waiter parked in
 *   block() gets the lock at once, not when the 10 s TTL runs out;
 * - likewise after max_execution_time (a lock taken for 0 seconds: a renewed
 *   lease), after exit(), and for a funnel's permit;
 * - a catchable Error in the callback is released by the finally block, as
 *   before;
 * - a process forked inside the callback that exits does not release the
 *   parent's lock;
 * - Laravel's semantics are unchanged for get() without a callback: that lock
 *   is meant to outlive the request, and after a fatal error it stays until
 *   its TTL (as with Laravel's RedisStore), or, taken for 0 seconds, until its
 *   lease runs out after the request's end (Laravel's RedisStore: forever).
 */

declare(strict_types=1);

require __DIR__ . '/lib.php';

use Illuminate\Support\Facades\Cache;
use RedisLock\Laravel\Funnel;

laravel_cache_app(lease: 2); // or skips


roles([
    // Runs a callback under the lock 'job' ($form: get or block), which says
    // "in", waits for a line from the test, then dies by $how.
    'callback' => function (string $form, string $seconds, string $how): void {
        laravel_cache_app(lease: 2);
        $lock = Cache::lock('job', (int) $seconds);
        $callback = function () use ($how): void {
            out('in');
            in();
            die_by($how);
        };
        $form === 'get' ? $lock->get($callback) : $lock->block(5, $callback);
        out('returned');
    },
    // The same with the store's funnel (one permit).
    'funnel' => function (string $how): void {
        laravel_cache_app(lease: 2);
        Cache::store()->getStore()->semaphoreFunnel('exports')->limit(1)->releaseAfter(10)->block(0)->then(function () use ($how): void {
            out('in');
            in();
            die_by($how);
        }, fn () => out('busy'));
    },
    // get() without a callback, then dies: the lock is the owner's to release.
    'plain' => function (string $seconds, string $how): void {
        laravel_cache_app(lease: 2);
        out(Cache::lock('plain' . $seconds, (int) $seconds)->get() ? 'held' : 'busy');
        in();
        die_by($how);
    },
    // Forks inside the callback; the child exits; the parent goes on.
    'fork' => function (): void {
        laravel_cache_app(lease: 2);
        Cache::lock('job', 10)->get(function (): void {
            $pid = pcntl_fork();
            if ($pid === 0) {
                exit(0);
            }
            pcntl_waitpid($pid, $status);
            out('child exited ' . pcntl_wexitstatus($status));
            in();
        });
        out('returned');
    },
    'waiter' => function (): void {
        laravel_cache_app(lease: 2);
        $lock = Cache::lock('job', 10);
        out('waiting');
        $lock->block(8);
        out('got');
        $lock->release();
    },
    'get' => function (string $name): void {
        laravel_cache_app(lease: 2);
        $lock = Cache::lock($name, 10);
        out($lock->get() ? 'got' : 'busy');
        $lock->release();
    },
    'funnel-run' => function (): void {
        laravel_cache_app(lease: 2);
        Cache::store()->getStore()->semaphoreFunnel('exports')->limit(1)->releaseAfter(10)->block(0)->then(fn () => out('ran'), fn () => out('busy'));
    },
]);

$redis = e2e_redis();
$say = fn (string $role, string ...$args) => spawn($role, ...$args)->finish()[0];

/** Lets $holder's callback die, waits for its end; its exit code. */
$kill = function (Proc $holder, string $error): int {
    $holder->send('die');
    $code = $holder->wait();
    check(str_contains($holder->stderr(), $error), "it died: \"$error\" (exit $code)");

    return $code;
};

// ---- get($callback), TTL 10 s, memory_limit exhausted; a waiter parked in block()
$holder = spawn('callback', 'get', '10', 'memory');
$holder->expect('in');
$owner = $redis->get('lock:app:job');
$ttl = $redis->pttl('lock:app:job');
check($owner !== null && $ttl > 9000 && $ttl <= 10000, "the callback runs under our key lock:app:job, TTL 10 s (PTTL $ttl ms)");
$waiter = spawn('waiter');
$waiter->expect('waiting');
check($waiter->poll(0.3) === null, 'a waiter parked in block() waits while the callback runs');
$sent = microtime(true);
check($kill($holder, 'Allowed memory size') === 255, 'the callback died of a fatal error, exit 255');
$handed = changed($redis, 'lock:app:job', $owner);
$got = $waiter->expect('got');
check($handed - $sent < 2.0 && $got - $sent < 3.0, sprintf('the waiter gets the lock %.2f s after the callback was told to die, not after the 10 s TTL', $got - $sent));
check($waiter->finish()[1] === 0 && $redis->keys() === [], 'the waiter releases it: no key left');

// ---- block($seconds, $callback), 0 seconds (a renewed lease), max_execution_time
$holder = spawn('callback', 'block', '0', 'timeout');
$holder->expect('in');
check($redis->pttl('lock:app:job') > 0, 'a lock taken for 0 seconds (a 2 s lease) runs the callback');
check($kill($holder, 'Maximum execution time') === 255, 'the callback timed out, exit 255');
check($redis->keys() === [], 'the lock is released by the time the process has exited (Laravel\'s RedisStore: held forever)');
check($say('get', 'job') === ['got'], 'another process gets it at once');

// ---- exit() inside the callback
$holder = spawn('callback', 'get', '10', 'exit');
$holder->expect('in');
$holder->send('die');
check($holder->wait() === 3 && $redis->keys() === [], 'exit() in the callback: released by the time the process has exited');

// ---- a catchable Error: the finally block releases it, as before
$holder = spawn('callback', 'get', '10', 'error');
$holder->expect('in');
check($kill($holder, 'undefined_function_of_the_test') === 1 && $redis->keys() === [], 'a catchable Error in the callback: released by the finally block');

// ---- the funnel's permit
$holder = spawn('funnel', 'memory');
$holder->expect('in');
check($redis->keys() !== [] && $say('funnel-run') === ['busy'], 'the funnel\'s only permit is taken: another run is refused');
check($kill($holder, 'Allowed memory size') === 255, 'the funnel callback died, exit 255');
check($redis->keys() === [], 'the permit is given back: no key left (releaseAfter 10 s)');
check($say('funnel-run') === ['ran'], 'the next run gets it at once');

// ---- a child forked inside the callback exits: the parent keeps its lock
if (function_exists('pcntl_fork')) {
    $holder = spawn('fork');
    $holder->expect('child exited 0');
    $owner = $redis->get('lock:app:job');
    check($owner !== null && $say('get', 'job') === ['busy'], 'after the forked child\'s exit the parent still holds the lock');
    $holder->send('go');
    $holder->expect('returned');
    check($holder->finish()[1] === 0 && $redis->keys() === [], 'released when the parent\'s callback returns');
} else {
    echo "note: no pcntl, the fork case is not run\n";
}

// ---- get() without a callback: the framework's semantics, unchanged
$ttlHolder = spawn('plain', '3', 'memory');
$taken = $ttlHolder->expect('held');
$leaseHolder = spawn('plain', '0', 'memory');
$leaseHolder->expect('held');
$owners = [$redis->get('lock:app:plain3'), $redis->get('lock:app:plain0')];
$kill($ttlHolder, 'Allowed memory size');
$kill($leaseHolder, 'Allowed memory size');
$died = microtime(true);
$ttl = $redis->pttl('lock:app:plain3');
check($redis->get('lock:app:plain3') === $owners[0] && $ttl > 0 && $ttl <= 3000, "get() without a callback, TTL 3 s: after the fatal error the lock stays (PTTL $ttl ms), as with Laravel's RedisStore");
check($say('get', 'plain3') === ['busy'], 'and another process cannot take it meanwhile');
check($redis->get('lock:app:plain0') === $owners[1], 'taken for 0 seconds: it stays too');
$gone = changed($redis, 'lock:app:plain0', $owners[1]);
// Renewed every third of the lease while the request ran, then no more.
check($gone - $died < 2.0 + 0.4, sprintf('until its 2 s lease runs out, %.2f s after the process died (Laravel\'s RedisStore: forever)', $gone - $died));
$gone = changed($redis, 'lock:app:plain3', $owners[0]);
check($gone - $taken > 3.0 - 0.8 && $gone - $taken < 3.0 + 0.4, sprintf('the 3 s lock runs out %.2f s after it was taken', $gone - $taken));
check($redis->keys() === [], 'no key left');

passed();
