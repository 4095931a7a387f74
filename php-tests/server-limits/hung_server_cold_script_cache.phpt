--TEST--
A hung server whose script cache is empty: a lock attempt that timed out leaves no orphan lock once the server is back; a retried release() tells whether the late release ran
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.read_timeout', '0.3');
$timedOut = "RedisLockException: Redis at 127.0.0.1:{$redis->port}: no reply within 0.3 s";

// A fresh server: nothing but plain SETs so far, no script loaded.
var_dump(RedisMutexLock::lock('held', 0, 60));
$redis->pause();
echo rl_show(rl_timed(fn () => RedisMutexLock::lock('during'))[0]) === $timedOut ? "lock timed out\n" : "unexpected\n";
echo rl_show(rl_timed(fn () => RedisMutexLock::release('held'))[0]) === $timedOut ? "release timed out\n" : "unexpected\n";
$redis->resume();
// The server works through what it had received on the connections this
// process gave up (they were closed): once it has closed them all, it has run
// every command they carried (it reads a closed connection to its end first).
echo "the server closed the given-up connections: ", json_encode(rl_eventually(fn () => $redis->otherClients(), 0, 3.0) === 0), "\n";

// Nobody holds "during": another process must be able to take it (false would say
// somebody holds it, for up to 20 s, while this process goes on with other work).
$keys = $redis->keys();
echo "during left in Redis: ", json_encode(in_array('lock:during', $keys, true)), "\n";
$r = PhpChild::run('<?php var_dump(RedisMutexLock::lock("during"));', ['redis_lock.server' => $redis->dsn()]);
echo "another process locks it: ", $r['out'], $r['err'];
// The release that threw may have run late on the resumed server; if it did not,
// the lock is still ours to release. Either way the retry says which.
$heldLeft = in_array('lock:held', $keys, true);
var_dump(RedisMutexLock::release('held') === $heldLeft);
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
lock timed out
release timed out
the server closed the given-up connections: true
during left in Redis: false
another process locks it: bool(true)
bool(true)
keys: []
