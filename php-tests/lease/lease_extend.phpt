--TEST--
RedisMutexLock::extend(): sets our lock's TTL to exactly $lockSecond (longer or shorter), token and count unchanged; false when not held, held by another, taken over, expired or released (their keys untouched, nothing created); argument errors worded as PHP's own
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$pttl = fn (string $k) => $redis->cmd('PTTL', $k);
$in = fn (string $k, int $lo, int $hi) => var_export($pttl($k) > $lo && $pttl($k) <= $hi, true);

var_dump(RedisMutexLock::lock('e', 0, 10));
$token = $redis->cmd('GET', 'lock:e');
echo "extend 60: ", rl_show(RedisMutexLock::extend('e', 60)), ", PTTL in (59000, 60000]: ", $in('lock:e', 59000, 60000), "\n";
echo "extend 3 (shorter): ", rl_show(RedisMutexLock::extend('e', 3)), ", PTTL in (2000, 3000]: ", $in('lock:e', 2000, 3000), "\n";
echo "extend (default 20): ", rl_show(RedisMutexLock::extend('e')), ", PTTL in (19000, 20000]: ", $in('lock:e', 19000, 20000), "\n";
var_dump(RedisMutexLock::lock('e', 0, 5));
echo "nested, then extend 7: ", rl_show(RedisMutexLock::extend('e', 7)), ", PTTL in (6000, 7000]: ", $in('lock:e', 6000, 7000),
    ", same token: ", var_export($redis->cmd('GET', 'lock:e') === $token, true), ", count: ", RedisMutexLock::inspect('e')['count'], "\n";
var_dump(RedisMutexLock::release('e'), RedisMutexLock::release('e'));
echo "released: ", rl_show(RedisMutexLock::extend('e', 10)), ", key: ", $redis->cmd('EXISTS', 'lock:e'), "\n";

echo "never held: ", rl_show(RedisMutexLock::extend('nothere', 10)), ", key: ", $redis->cmd('EXISTS', 'lock:nothere'), "\n";

$redis->cmd('SET', 'lock:other', 'theirs', 'PX', 50000);
echo "held by another: ", rl_show(RedisMutexLock::extend('other', 100)), ", theirs untouched: ",
    var_export($redis->cmd('GET', 'lock:other') === 'theirs', true), ", PTTL in (48000, 50000]: ", $in('lock:other', 48000, 50000), "\n";

var_dump(RedisMutexLock::lock('t', 0, 30));
$redis->cmd('SET', 'lock:t', 'foreign', 'PX', 40000);
echo "taken over: ", rl_show(RedisMutexLock::extend('t', 100)), ", theirs untouched: ",
    var_export($redis->cmd('GET', 'lock:t') === 'foreign', true), ", PTTL in (38000, 40000]: ", $in('lock:t', 38000, 40000), "\n";
echo "release: ", rl_show(RedisMutexLock::release('t')), ", theirs still: ", var_export($redis->cmd('GET', 'lock:t') === 'foreign', true), "\n";

var_dump(RedisMutexLock::lock('x', 0, 30));
$redis->cmd('PEXPIRE', 'lock:x', 50);
rl_eventually(fn () => $redis->cmd('EXISTS', 'lock:x'), 0, 2.0);
echo "expired: ", rl_show(RedisMutexLock::extend('x', 10)), ", key: ", $redis->cmd('EXISTS', 'lock:x'), "\n";
echo "release: ", rl_show(RedisMutexLock::release('x')), "\n";

echo "-- arguments\n";
var_dump(RedisMutexLock::lock('a', 0, 10));
foreach ([
    'empty key' => fn () => RedisMutexLock::extend('', 10),
    'lockSecond 0' => fn () => RedisMutexLock::extend('a', 0),
    'lockSecond -1' => fn () => RedisMutexLock::extend('a', -1),
    'lockSecond PHP_INT_MAX' => fn () => RedisMutexLock::extend('a', PHP_INT_MAX),
    'lockSecond array' => fn () => RedisMutexLock::extend('a', []),
    'no args' => fn () => RedisMutexLock::extend(),
] as $name => $call) {
    echo "$name: ", rl_show(rl_timed($call)[0]), "\n";
}
echo "untouched: PTTL in (8000, 10000]: ", $in('lock:a', 8000, 10000), "\n";
var_dump(RedisMutexLock::release('a'));
echo "keys: ", rl_keys_left($redis, [], 'lock:'), "\n";
?>
--EXPECTF--
bool(true)
extend 60: true, PTTL in (59000, 60000]: true
extend 3 (shorter): true, PTTL in (2000, 3000]: true
extend (default 20): true, PTTL in (19000, 20000]: true
bool(true)
nested, then extend 7: true, PTTL in (6000, 7000]: true, same token: true, count: 2
bool(true)
bool(true)
released: false, key: 0
never held: false, key: 0
held by another: false, theirs untouched: true, PTTL in (48000, 50000]: true
bool(true)
taken over: false, theirs untouched: true, PTTL in (38000, 40000]: true
release: false, theirs still: true
bool(true)
expired: false, key: 0
release: false
-- arguments
bool(true)
empty key: ValueError: RedisMutexLock::extend(): Argument #1 ($key) must not be empty
lockSecond 0: ValueError: RedisMutexLock::extend(): Argument #2 ($lockSecond) must be between 1 and %d
lockSecond -1: ValueError: RedisMutexLock::extend(): Argument #2 ($lockSecond) must be between 1 and %d
lockSecond PHP_INT_MAX: ValueError: RedisMutexLock::extend(): Argument #2 ($lockSecond) must be between 1 and %d
lockSecond array: TypeError: RedisMutexLock::extend(): Argument #2 ($lockSecond) must be of type int, array given
no args: ArgumentCountError: RedisMutexLock::extend() expects at least 1 argument, 0 given
untouched: PTTL in (8000, 10000]: true
bool(true)
keys: {"lock:other":%d,"lock:t":%d}
