--TEST--
Owner-level operations (for the framework adapters): acquire() with a caller's owner token (value = owner, not re-entrant across owners, refreshed for the same owner), releaseOwner()/extendOwner() from another process, owner(), forceRelease() handing the lock to a queued waiter, newOwner(); such a lock outlives the request that took it; argument errors
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$pttl = fn (string $k) => $redis->cmd('PTTL', $k);

// The value is the owner; another owner is refused; the same owner refreshes.
var_dump(RedisMutexLock::acquire('o', 'owner-A', 5000));
echo "value: ", $redis->cmd('GET', 'lock:o'), ", PTTL in (4000, 5000]: ", var_export($pttl('lock:o') > 4000 && $pttl('lock:o') <= 5000, true), "\n";
echo "owner B: ", rl_show(RedisMutexLock::acquire('o', 'owner-B', 5000)), ", lock() (another token): ", rl_show(RedisMutexLock::lock('o')), "\n";
echo "owner A again, 60 s: ", rl_show(RedisMutexLock::acquire('o', 'owner-A', 60000)), ", PTTL > 59000: ", var_export($pttl('lock:o') > 59000, true), "\n";
echo "owner(): ", rl_show(RedisMutexLock::owner('o')), ", of a free key: ", rl_show(RedisMutexLock::owner('free')), "\n";

// The same owner in another process (as a Symfony key moved there): taken and refreshed, with or without a timeout.
$redis->cmd('SET', 'lock:same', 'owner-S', 'PX', 1500);
echo "same owner held elsewhere: ", rl_show(RedisMutexLock::acquire('same', 'owner-S', 5000)), ", PTTL > 4000: ", var_export($pttl('lock:same') > 4000, true),
    ", with a timeout: ", rl_show(RedisMutexLock::acquire('same', 'owner-S', 7000, 0.5)), ", PTTL > 6000: ", var_export($pttl('lock:same') > 6000, true), "\n";
// Released elsewhere (its owner known there), then taken again here at once.
$redis->cmd('DEL', 'lock:same');
echo "taken again after a release elsewhere: ", rl_show(RedisMutexLock::acquire('same', 'owner-S', 5000)), "\n";
var_dump(RedisMutexLock::releaseOwner('same', 'owner-S'));

// Another process knows the owner: it extends and releases; a wrong owner changes nothing.
$r = PhpChild::run(<<<'PHP'
<?php
ini_set('redis_lock.server', $argv[1]);
echo json_encode([
    RedisMutexLock::extendOwner('o', 'owner-B', 1000),
    RedisMutexLock::releaseOwner('o', 'owner-B'),
    RedisMutexLock::extendOwner('o', 'owner-A', 30000),
    RedisMutexLock::owner('o'),
    RedisMutexLock::releaseOwner('o', 'owner-A'),
    RedisMutexLock::releaseOwner('o', 'owner-A'),
]);
PHP, [], [$redis->dsn()]);
echo "other process: ", $r['out'], $r['err'], "\n";
echo "this process' release() after that: ", rl_show(RedisMutexLock::release('o')), ", key: ", $redis->cmd('EXISTS', 'lock:o'), "\n";

// The lock outlives the request that took it (and its renewals end with it).
$r = PhpChild::run(<<<'PHP'
<?php
ini_set('redis_lock.server', $argv[1]);
ini_set('redis_lock.auto_renew', '1');
echo json_encode([RedisMutexLock::acquire('kept', 'owner-K', 1500), RedisMutexLock::acquire('renewed', 'owner-R', 1500, 0, true), RedisMutexLock::lock('plain')]);
PHP, [], [$redis->dsn()]);
echo "child: ", $r['out'], $r['err'], ", after its end: kept ", rl_show($redis->cmd('GET', 'lock:kept')), ", renewed ",
    rl_show($redis->cmd('GET', 'lock:renewed')), ", plain (released) ", rl_show($redis->cmd('GET', 'lock:plain')), "\n";
rl_sleep(2.0);
echo "after 2 s (no renewals past the request): ", $redis->cmd('EXISTS', 'lock:kept'), $redis->cmd('EXISTS', 'lock:renewed'), "\n";

// Renewed while the request runs: held past its lease.
var_dump(RedisMutexLock::acquire('r', 'owner-R', 1000, 0, true));
rl_sleep(1.6);
echo "renewed past 1 s: ", rl_show($redis->cmd('GET', 'lock:r')), "\n";
var_dump(RedisMutexLock::releaseOwner('r', 'owner-R'));
// Renewed here, released by its owner elsewhere: no loss to report; taken again at once.
var_dump(RedisMutexLock::acquire('r', 'owner-R', 1000, 0, true));
$redis->cmd('DEL', 'lock:r');
rl_sleep(0.6); // a renewal finds it gone
echo "released elsewhere: releaseOwner ", rl_show(rl_timed(fn () => RedisMutexLock::releaseOwner('r', 'owner-R'))[0]),
    ", acquire again ", rl_show(rl_timed(fn () => RedisMutexLock::acquire('r', 'owner-R', 1000, 0, true))[0]), "\n";
var_dump(RedisMutexLock::releaseOwner('r', 'owner-R'));
ini_set('redis_lock.auto_renew', '1');
var_dump(RedisMutexLock::acquire('r2', 'owner-R', 1000, 0, false));
rl_sleep(1.6);
echo "renew: false beats auto_renew, expired: ", $redis->cmd('EXISTS', 'lock:r2'), "\n";
ini_set('redis_lock.auto_renew', '0');

// forceRelease(): whoever holds it; the first queued waiter gets it at once.
$redis->cmd('SET', 'lock:f', 'someone-else', 'PX', 60000);
$w = new RlWaiter($redis, $book, ['key' => 'f', 'timeout' => 10, 'hold' => 0.0, 'i' => 'w']);
rl_queue_wait_len($redis, 'lock:f', 1);
$t = rl_now();
echo "forceRelease: ", rl_show(RedisMutexLock::forceRelease('f')), "\n";
$res = $w->result();
echo "waiter: ", rl_show($res['r'] ?? null), ", within 1 s of the forced release: ", var_export(($res['t'] ?? 99) - $t < 1.0, true), "\n";
$w->finish();
echo "forceRelease of a free key: ", rl_show(RedisMutexLock::forceRelease('f')), "\n";
// Our own registered hold is forgotten by a forced release.
var_dump(RedisMutexLock::lock('g'));
echo "forceRelease of ours: ", rl_show(RedisMutexLock::forceRelease('g')), ", inspect count: ", RedisMutexLock::inspect('g')['count'],
    ", release(): ", rl_show(RedisMutexLock::release('g')), "\n";

// Blocking acquire() waits in the queue: the other process releases once
// this one is queued, and notes the moment (CLOCK_MONOTONIC, as rl_now()
// here) just before its release.
var_dump(RedisMutexLock::acquire('b', 'first', 60000));
$releasedAt = rl_tmpdir() . '/released-at';
$pid = rl_fork(function () use ($redis, $releasedAt) {
    $redis->reconnect(); // a connection of its own, not the parent's
    rl_queue_wait_len($redis, 'lock:b', 1);
    file_put_contents($releasedAt, sprintf('%.6f', rl_now()));
    return RedisMutexLock::releaseOwner('b', 'first') ? 0 : 1;
});
[$r, $secs] = rl_timed(fn () => RedisMutexLock::acquire('b', 'second', 60000, 5));
$end = rl_now();
$child = rl_wait($pid);
$since = $end - (float) @file_get_contents($releasedAt);
echo "blocking acquire: ", rl_show($r), ", returned after the other process' release, within 2 s of it: ", var_export($since > 0 && $since < 2.0, true),
    ", child ", $child, ", owner now: ", RedisMutexLock::owner('b'), "\n";
var_dump(RedisMutexLock::releaseOwner('b', 'second'));

$n = RedisMutexLock::newOwner();
echo "newOwner: ", var_export(rl_is_token($n) && $n !== RedisMutexLock::newOwner(), true), "\n";

echo "-- arguments\n";
foreach ([
    fn () => RedisMutexLock::acquire('', 'o', 1000),
    fn () => RedisMutexLock::acquire('k', '', 1000),
    fn () => RedisMutexLock::acquire('k', str_repeat('o', 1025), 1000),
    fn () => RedisMutexLock::acquire('k', "\xff\xfe", 1000),
    fn () => RedisMutexLock::acquire('k', "owner\0q", 1000),
    fn () => RedisMutexLock::acquire('k', 'o', 0),
    fn () => RedisMutexLock::acquire('k', 'o', 1000, -1),
    fn () => RedisMutexLock::acquire('k', 'o', 1000, INF),
    fn () => RedisMutexLock::extendOwner('k', 'o', 2),
    fn () => RedisMutexLock::releaseOwner('k', ''),
    fn () => RedisMutexLock::owner(''),
    fn () => RedisMutexLock::forceRelease(''),
] as $call) {
    echo rl_show(rl_timed($call)[0]), "\n";
}
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
value: owner-A, PTTL in (4000, 5000]: true
owner B: false, lock() (another token): false
owner A again, 60 s: true, PTTL > 59000: true
owner(): 'owner-A', of a free key: NULL
same owner held elsewhere: true, PTTL > 4000: true, with a timeout: true, PTTL > 6000: true
taken again after a release elsewhere: true
bool(true)
other process: [false,false,true,"owner-A",true,false]
this process' release() after that: false, key: 0
child: [true,true,true], after its end: kept 'owner-K', renewed 'owner-R', plain (released) NULL
after 2 s (no renewals past the request): 00
bool(true)
renewed past 1 s: 'owner-R'
bool(true)
bool(true)
released elsewhere: releaseOwner false, acquire again true
bool(true)
bool(true)
renew: false beats auto_renew, expired: 0
forceRelease: true
waiter: true, within 1 s of the forced release: true
forceRelease of a free key: false
bool(true)
forceRelease of ours: true, inspect count: 0, release(): false
bool(true)
blocking acquire: true, returned after the other process' release, within 2 s of it: true, child 0, owner now: second
bool(true)
newOwner: true
-- arguments
ValueError: RedisMutexLock::acquire(): Argument #1 ($key) must not be empty
ValueError: RedisMutexLock::acquire(): Argument #2 ($owner) must not be empty
ValueError: RedisMutexLock::acquire(): Argument #2 ($owner) must be at most 1024 bytes long
ValueError: RedisMutexLock::acquire(): Argument #2 ($owner) must be valid UTF-8
ValueError: RedisMutexLock::acquire(): Argument #2 ($owner) must not contain any null bytes
ValueError: RedisMutexLock::acquire(): Argument #3 ($ttl) must be between 3 and 4611686018427387903
ValueError: RedisMutexLock::acquire(): Argument #4 ($timeout) must be greater than or equal to 0
ValueError: RedisMutexLock::acquire(): Argument #4 ($timeout) must be a finite number
ValueError: RedisMutexLock::extendOwner(): Argument #3 ($ttl) must be between 3 and 4611686018427387903
ValueError: RedisMutexLock::releaseOwner(): Argument #2 ($owner) must not be empty
ValueError: RedisMutexLock::owner(): Argument #1 ($key) must not be empty
ValueError: RedisMutexLock::forceRelease(): Argument #1 ($key) must not be empty
keys: []
