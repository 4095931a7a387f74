--TEST--
Server limits: an ACL user allowed the lock keys only ("~lock:*", the wait queues' keys "{lock:…}:…" not matching) whose request ends holding a queued mutex (with a waiter queued behind it) and a RedLock resource: the request end's release, refused for naming the queue's keys, is sent again the single-key way, so both keys are gone when the process ends (not after their 60 s TTL) and the waiter gets the lock at its next look
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';
$redis = RedisServer::start(['--requirepass', 'adm'], ['password' => 'adm']);
$redis->cmd('ACL', 'SETUSER', 'prefixonly', 'on', '>pw', '~lock:*', '+@all');
$redis->cmd('ACL', 'SETUSER', 'waiter', 'on', '>pw', '~*', '+@all');
$dsn = "redis://prefixonly:pw@127.0.0.1:{$redis->port}";
$flag = rl_tmpdir() . '/end';

$holder = new PhpChild(<<<'PHP'
<?php
$l = (new RedLock([$argv[1]], 10, 1))->lock('lock:rl-end', 60000);
echo json_encode([RedisMutexLock::lock('end', 0, 60), is_array($l)]), "\n";
while (!file_exists($argv[2])) {
    usleep(10000);
}
// The request ends here, holding both.
PHP, ['redis_lock.server' => $dsn], [$dsn, $flag]);
echo "held: ", json_encode(rl_eventually(fn () => $redis->cmd('EXISTS', 'lock:end', 'lock:rl-end'), 2, 10.0)), "\n";

// A waiter with every permission queues behind the holder (looking every 200 ms).
$waiter = new RlActor($redis, ['redis_lock.server' => "redis://waiter:pw@127.0.0.1:{$redis->port}"]);
$waiter->send('RedisMutexLock::lock', 'end', 10, 20, 200000);
echo "waiter queued (the holder's value marked): ", var_export(rl_eventually(fn () => str_ends_with((string) $redis->cmd('GET', 'lock:end'), "\0q"), true, 5.0), true), "\n";

touch($flag);
$ended = $holder->wait(10);
$t = rl_now();
echo "holder: exit ", $ended['status'], ", ", trim($ended['out']), "\n";
echo "RedLock's key gone at its request end: ", var_export($redis->cmd('EXISTS', 'lock:rl-end') === 0, true), "\n";
$a = $waiter->answer();
echo "waiter: ", json_encode($a['r'] ?? $a['e']), ", within 1 s of the holder's end: ", var_export($a['end'] - $t < 1.0, true), "\n";
echo "the waiter's release: ", json_encode($waiter->result('RedisMutexLock::release', 'end')), "\n";
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
held: 2
waiter queued (the holder's value marked): true
holder: exit 0, [true,true]
RedLock's key gone at its request end: true
waiter: true, within 1 s of the holder's end: true
the waiter's release: true
keys: []
