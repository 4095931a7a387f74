--TEST--
Audit, scale: keys of 64 KiB and 1 MiB and binary keys (every byte 0-255, NUL, CR LF, braces that look like a hash tag) work on every class: RedisMutexLock (taken, refused to another process, a queued waiter handed it on release), RedLock, RedisReadWriteLock and RedisSemaphore (held, refused, released); Redis holds exactly the prefixed key with a TTL, and nothing is left; a key over 1 MiB is a ValueError on every class, before anything is sent
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$bytes = implode('', array_map('chr', range(0, 255)));
$keys = [
    '64 KiB' => str_repeat('k', 64 * 1024),
    'binary' => "\0\r\n{" . $bytes . "}\xff",
    '64 KiB binary' => substr(str_repeat($bytes, 256), 0, 64 * 1024),
    '1 MiB binary' => substr(str_repeat($bytes, 4096), 2), // with the other classes' prefixes (rw, s, L): 1 MiB
];
// Another process, the key in a file (argv carries neither NUL nor 1 MiB).
$other = rl_child_code(<<<'PHP'
ini_set('redis_lock.server', $argv[1]);
$key = file_get_contents($argv[2]);
echo json_encode([
    'mutex' => RedisMutexLock::lock($key, 0, 5),
    'write' => RedisReadWriteLock::lockWrite("rw$key", 0, 5),
    'permit' => RedisSemaphore::acquire("s$key", 1, 0, 5),
]), "\n";
echo 'waited: ', json_encode(RedisMutexLock::lock($key, 5, 5)), "\n";
echo 'released: ', json_encode(RedisMutexLock::release($key)), "\n";
PHP);
$redlock = new RedLock([['127.0.0.1', $redis->port, 0.5]]);

foreach ($keys as $name => $key) {
    echo "-- $name\n";
    $held = [
        'mutex' => RedisMutexLock::lock($key, 0, 10),
        'read' => RedisReadWriteLock::lockRead("rw$key", 0, 10),
        'permit' => RedisSemaphore::acquire("s$key", 1, 0, 10),
    ];
    $lock = $redlock->lock("L$key", 10000);
    echo 'held: ', json_encode($held), ', RedLock: ', json_encode(is_array($lock) && $lock['resource'] === "L$key"), "\n";
    $ttls = [];
    foreach (["lock:$key", "lock:rw$key", "lock:s$key", "L$key"] as $k) {
        $ttls[] = $redis->cmd('PTTL', $k) > 0;
    }
    echo 'exact keys with TTLs: ', json_encode($ttls), "\n";
    echo 'RedLock again: ', json_encode($redlock->lock("L$key", 10000)), "\n";
    $file = rl_tmpdir() . '/key';
    file_put_contents($file, $key);
    $child = rl_child($other, [], [$redis->dsn(), $file]);
    echo 'other process: ', $child->readLine(10), "\n";
    // It waits in the key's queue before the release (else it would just take a free lock).
    echo 'queued: ', json_encode(rl_eventually(fn () => RedisMutexLock::inspect($key)['waiters'], 1, 5.0)), "\n";
    echo 'released: ', json_encode([
        RedisMutexLock::release($key), RedisReadWriteLock::release("rw$key"),
        RedisSemaphore::release("s$key"), $redlock->unlock($lock),
    ]), "\n";
    echo $child->readLine(10), "\n", $child->readLine(10), "\n";
    $child->wait(10);
    echo "keys left: ", $redis->cmd("DBSIZE"), "\n";
}
// Longer than any reply may carry back: refused before anything is sent.
$long = str_repeat('k', 1024 * 1024 + 1);
foreach ([
    fn() => RedisMutexLock::lock($long),
    fn() => RedisReadWriteLock::lockWrite($long),
    fn() => RedisSemaphore::acquire($long, 1),
    fn() => $redlock->lock($long, 1000),
] as $call) {
    try {
        $call();
        echo "taken\n";
    } catch (ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo 'keys: ', $redis->cmd('DBSIZE'), "\n";
?>
--EXPECT--
-- 64 KiB
held: {"mutex":true,"read":true,"permit":true}, RedLock: true
exact keys with TTLs: [true,true,true,true]
RedLock again: false
other process: {"mutex":false,"write":false,"permit":false}
queued: 1
released: [true,true,true,true]
waited: true
released: true
keys left: 0
-- binary
held: {"mutex":true,"read":true,"permit":true}, RedLock: true
exact keys with TTLs: [true,true,true,true]
RedLock again: false
other process: {"mutex":false,"write":false,"permit":false}
queued: 1
released: [true,true,true,true]
waited: true
released: true
keys left: 0
-- 64 KiB binary
held: {"mutex":true,"read":true,"permit":true}, RedLock: true
exact keys with TTLs: [true,true,true,true]
RedLock again: false
other process: {"mutex":false,"write":false,"permit":false}
queued: 1
released: [true,true,true,true]
waited: true
released: true
keys left: 0
-- 1 MiB binary
held: {"mutex":true,"read":true,"permit":true}, RedLock: true
exact keys with TTLs: [true,true,true,true]
RedLock again: false
other process: {"mutex":false,"write":false,"permit":false}
queued: 1
released: [true,true,true,true]
waited: true
released: true
keys left: 0
ValueError: RedisMutexLock::lock(): Argument #1 ($key) must be at most 1048576 bytes long
ValueError: RedisReadWriteLock::lockWrite(): Argument #1 ($key) must be at most 1048576 bytes long
ValueError: RedisSemaphore::acquire(): Argument #1 ($key) must be at most 1048576 bytes long
ValueError: RedLock::lock(): Argument #1 ($resource) must be at most 1048576 bytes long
keys: 0
