--TEST--
A server that drips a reply one byte every 200 ms and never ends it: the read deadline is one absolute deadline for the whole reply (RedisMutexLock: "no reply within 1 s" after ~1 s; RedLock node [host, port, 0.3]: a failed vote within 0.3 s)
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$drip = new RlFakeRedis('drip');

// In another process: a wait that is extended by every byte would never end.
$child = rl_child(rl_child_code(<<<'PHP'
$port = (int) $argv[1];
ini_set('redis_lock.read_timeout', '1');
ini_set('redis_lock.server', "redis://127.0.0.1:$port");
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k'));
$msg = $r instanceof Throwable ? $r->getMessage() : '';
echo 'RedisMutexLock::lock(): ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
    ', message as expected: ', preg_match('/^Redis at 127\.0\.0\.1:\d+: no reply within 1 s$/', $msg) ? 'true' : "false ($msg)",
    ', 0.9 s < time < 2 s: ', $secs > 0.9 && $secs < 2 ? 'true' : sprintf('false (%.3f s)', $secs), "\n";

$rl = new RedLock([['127.0.0.1', $port, 0.3]], 200, 1);
[$r, $secs] = rl_timed(fn () => $rl->lock('r', 10000));
$msg = $r instanceof Throwable ? $r->getMessage() : '';
echo 'RedLock::lock(): ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
    ', message as expected: ', preg_match('/^RedLock::lock\(\): fewer than 1 of 1 Redis nodes could be reached: Redis at 127\.0\.0\.1:\d+: no reply within 0\.3 s$/', $msg) ? 'true' : "false ($msg)",
    ', 0.25 s < time < 1 s: ', $secs > 0.25 && $secs < 1 ? 'true' : sprintf('false (%.3f s)', $secs), "\n";
PHP), [], [(string) $drip->port]);
$r = $child->wait(15);
echo $r['out'];
echo "child: exit ", $r['status'], $r['status'] === 0 ? '' : ' after ' . round($r['seconds'], 1) . " s\n" . $r['err'], "\n";
echo "the fake server got SET commands: ", var_export(in_array('SET', array_merge($drip->commandNames(1), $drip->commandNames(2)), true), true), "\n";
?>
--EXPECT--
RedisMutexLock::lock(): RedisLockException, message as expected: true, 0.9 s < time < 2 s: true
RedLock::lock(): RedisLockException, message as expected: true, 0.25 s < time < 1 s: true
child: exit 0
the fake server got SET commands: true
