--TEST--
Unsolicited replies: a reply followed by unexpected data in the same read is a RedisLockException (not a result); unexpected data that arrives later on a pooled connection gets that connection dropped, and the next command goes over a new one
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';

$code = rl_child_code(<<<'PHP'
ini_set('redis_lock.read_timeout', '1');
ini_set('redis_lock.server', $argv[1]);
[$r] = rl_timed(fn () => RedisMutexLock::lock('k'));
$msg = $r instanceof Throwable ? $r->getMessage() : '';
echo 'lock: ', $r instanceof RedisLockException ? 'RedisLockException, message says unsolicited: ' . (preg_match('/^Redis at 127\.0\.0\.1:\d+: .*(unsolicited|nobody asked for)/', $msg) ? 'true' : "false ($msg)") : rl_show($r), "\n";
rl_sleep(0.1);
[$r] = rl_timed(fn () => RedisMutexLock::release('k'));
// After a lock() that threw, release() may say false or throw; it must not crash.
echo 'release after 100 ms: ', $argv[2] === 'same' && (is_bool($r) || $r instanceof RedisLockException) ? 'false or RedisLockException' : rl_show($r), "\n";
PHP);

// ":0\r\n" in the same write as the +OK of the first SET.
$fake = new RlFakeRedis('unsolicited', ['sub' => 'same']);
$r = rl_child($code, [], [$fake->dsn(), 'same'])->wait(10);
echo "same write:\n", $r['out'];
echo "child exit ", $r['status'], preg_match('/Segmentation|panicked|Fatal/i', $r['out'] . $r['err']) ? ", crashed:\n" . $r['err'] : '', "\n";
$fake->stop();

// ":0\r\n" 50 ms after the +OK: the pooled connection is not to be trusted any more.
$fake = new RlFakeRedis('unsolicited', ['sub' => 'later']);
$r = rl_child($code, [], [$fake->dsn(), 'later'])->wait(10);
echo "50 ms later:\n", $r['out'];
echo "child exit ", $r['status'], preg_match('/Segmentation|panicked|Fatal/i', $r['out'] . $r['err']) ? ", crashed:\n" . $r['err'] : '', "\n";
$scripts = fn (int $n) => array_values(array_intersect($fake->commandNames($n), ['EVAL', 'EVALSHA']));
echo "connections accepted: ", $fake->connections(), "\n";
echo "first connection: SET: ", var_export(in_array('SET', $fake->commandNames(1), true), true),
    ", a script: ", var_export($scripts(1) !== [], true), "\n";
echo "second connection: a script (the release): ", var_export($scripts(2) !== [], true), "\n";
?>
--EXPECT--
same write:
lock: RedisLockException, message says unsolicited: true
release after 100 ms: false or RedisLockException
child exit 0
50 ms later:
lock: true
release after 100 ms: true
child exit 0
connections accepted: 2
first connection: SET: true, a script: false
second connection: a script (the release): true
