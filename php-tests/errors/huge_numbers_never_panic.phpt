--TEST--
Huge, tiny and odd numbers (timeouts of 1e19 s in settings and server entries, PHP_INT_MAX, PHP_FLOAT_MAX, -0.0) are clamped or a ValueError: no Rust panic reaches PHP, stdout or stderr
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
$code = <<<'PHP'
<?php
$p = (int) $argv[1];
ini_set('redis_lock.server', "redis://127.0.0.1:$p");
$try = function (string $what, callable $call) {
    try {
        $r = $call();
        $shown = is_array($r) ? 'array' : var_export($r, true);
    } catch (Throwable $e) {
        $shown = get_class($e) . ': ' . $e->getMessage();
    }
    echo "$what: $shown\n";
};
$rl = fn (...$a) => new RedLock(...$a);
$cycle = function (RedLock $r, string $res, int $ttl = 1000) {
    $l = $r->lock($res, $ttl);
    return is_array($l) ? $r->unlock($l) : $l;
};
foreach (['1e19', '1e300', '9223372036854775807', '1e9', '4e9'] as $v) {
    ini_set('redis_lock.read_timeout', $v);
    ini_set('redis_lock.connect_timeout', $v);
    $try("timeouts $v, mutex", fn () => RedisMutexLock::lock('k') && RedisMutexLock::release('k'));
    $try("timeouts $v, RedLock", fn () => $cycle($rl([['127.0.0.1', $p]]), 'r'));
}
foreach (['INF', 'NAN', '-1e19', '1e-400', '1e400'] as $v) {
    ini_set('redis_lock.read_timeout', $v);
    $try("read_timeout $v", fn () => RedisMutexLock::lock('k'));
}
ini_restore('redis_lock.read_timeout');
ini_restore('redis_lock.connect_timeout');
foreach ([1e19, PHP_FLOAT_MAX, 1e9, 4e9, PHP_INT_MAX, -0.0] as $t) {
    $try("entry timeout $t", fn () => $cycle($rl([['127.0.0.1', $p, $t]]), 'r'));
}
$try('entry timeout 1e-300', fn () => $cycle($rl([['127.0.0.1', $p, 1e-300]]), 'r'));
$try('entry port PHP_INT_MAX', fn () => $rl([['127.0.0.1', PHP_INT_MAX]]));
$try('entry port PHP_INT_MIN', fn () => $rl([['127.0.0.1', PHP_INT_MIN]]));
$try('entry port 1e19', fn () => $rl([['127.0.0.1', 1e19]]));
foreach ([1e19, PHP_FLOAT_MAX, PHP_INT_MAX, -0.0, 1e-300] as $t) {
    $try("mutex timeout $t", fn () => RedisMutexLock::lock('k', $t) && RedisMutexLock::release('k'));
}
$try('mutex lockSecond PHP_INT_MAX', fn () => RedisMutexLock::lock('k', 0, PHP_INT_MAX));
$try('mutex lockSecond PHP_INT_MIN', fn () => RedisMutexLock::lock('k', 0, PHP_INT_MIN));
$try('mutex lockSecond 1e19', fn () => RedisMutexLock::lock('k', 0, 1e19));
$try('mutex lockSecond max', fn () => RedisMutexLock::lock('k', 0, 4611686018427387) && RedisMutexLock::release('k'));
$try('mutex sleep PHP_INT_MIN', fn () => RedisMutexLock::lock('k', 0, 20, PHP_INT_MIN));
RedisMutexLock::lock('busy');
ini_set('redis_lock.reentrant', '0'); // busy for this process too: it waits
$t = microtime(true);
$try('mutex sleep PHP_INT_MAX, busy key, timeout 0.2', fn () => RedisMutexLock::lock('busy', 0.2, 20, PHP_INT_MAX));
echo "waited at most about 0.2 s: ", var_export(microtime(true) - $t < 1.5, true), "\n";
RedisMutexLock::release('busy');
$try('retryDelay PHP_INT_MAX', fn () => $cycle($rl([['127.0.0.1', $p]], PHP_INT_MAX, 1), 'r'));
$try('retryCount PHP_INT_MAX', fn () => $rl([['127.0.0.1', $p]], 200, PHP_INT_MAX));
$try('ttl PHP_INT_MAX', fn () => $cycle($rl([['127.0.0.1', $p]]), 'r', PHP_INT_MAX));
$try('ttl PHP_INT_MIN', fn () => $cycle($rl([['127.0.0.1', $p]]), 'r', PHP_INT_MIN));
$try('ttl max', fn () => $cycle($rl([['127.0.0.1', $p]]), 'r', 4611686018427387903));
$r = $rl([['127.0.0.1', $p]]);
$l = $r->lock('x', 1000);
$try('extend ttl PHP_INT_MAX', fn () => $r->extend($l, PHP_INT_MAX));
$try('extend ttl max', fn () => is_array($r->extend($l, 4611686018427387903)) && $r->unlock($l));
PHP;
$r = PhpChild::run($code, [], [$redis->port]);
echo $r['out'], $r['err'];
echo "exit ", $r['status'], "\n";
echo "panic text: ", var_export(preg_match('/panick|RUST_BACKTRACE/', $r['out'] . $r['err']) === 1, true), "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECTF--
timeouts 1e19, mutex: true
timeouts 1e19, RedLock: true
timeouts 1e300, mutex: true
timeouts 1e300, RedLock: true
timeouts 9223372036854775807, mutex: true
timeouts 9223372036854775807, RedLock: true
timeouts 1e9, mutex: true
timeouts 1e9, RedLock: true
timeouts 4e9, mutex: true
timeouts 4e9, RedLock: true
read_timeout INF: ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "INF" given
read_timeout NAN: ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "NAN" given
read_timeout -1e19: ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "-1e19" given
read_timeout 1e-400: ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "1e-400" given
read_timeout 1e400: ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "1e400" given
entry timeout 1.0E+19: true
entry timeout 1.7976931348623E+308: true
entry timeout 1000000000: true
entry timeout 4000000000: true
entry timeout 9223372036854775807: true
entry timeout -0: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid timeout -0 (expected seconds greater than 0)
entry timeout 1e-300: %s
entry port PHP_INT_MAX: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid port (expected 1 to 65535)
entry port PHP_INT_MIN: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid port (expected 1 to 65535)
entry port 1e19: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
mutex timeout 1.0E+19: true
mutex timeout 1.7976931348623E+308: true
mutex timeout 9223372036854775807: true
mutex timeout -0: true
mutex timeout 1.0E-300: true
mutex lockSecond PHP_INT_MAX: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
mutex lockSecond PHP_INT_MIN: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
mutex lockSecond 1e19: TypeError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be of type int, float given
mutex lockSecond max: true
mutex sleep PHP_INT_MIN: ValueError: RedisMutexLock::lock(): Argument #4 ($sleep) must be greater than or equal to 0
mutex sleep PHP_INT_MAX, busy key, timeout 0.2: false
waited at most about 0.2 s: true
retryDelay PHP_INT_MAX: true
retryCount PHP_INT_MAX: ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 1 and 4294967295
ttl PHP_INT_MAX: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
ttl PHP_INT_MIN: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
ttl max: true
extend ttl PHP_INT_MAX: ValueError: RedLock::extend(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
extend ttl max: true
exit 0
panic text: false
keys: []
