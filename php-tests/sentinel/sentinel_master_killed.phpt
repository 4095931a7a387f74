--TEST--
Sentinel, unplanned failover: the master killed (SIGKILL), lock() fails at once naming it while the sentinels still name it; once they have promoted the replica by themselves, the same call locks on the new master without any other change
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$s = RlSentinels::start();
$old = $s->master();
$new = $s->replica();
ini_set('redis_lock.server', $s->dsn());
echo "before: ", var_export(RedisMutexLock::lock('a') && RedisMutexLock::release('a'), true), "\n";
$old->kill();
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('a'));
echo "master killed: ", preg_replace('/127\.0\.0\.1:\d+/', 'ADDR', rl_show($r)), ", < 1 s: ", var_export($secs < 1, true), "\n";
// The sentinels see it down after 1 s (down-after-milliseconds) and promote the replica.
$named = rl_eventually(fn () => (int) ($s->sentinelCmd(1, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster')[1] ?? 0), $new->port, 30.0);
echo "the sentinels promoted the replica: ", var_export($named === $new->port, true), "\n";
$ok = rl_eventually(function () {
    try {
        return RedisMutexLock::lock('a');
    } catch (RedisLockException) {
        return false;
    }
}, true, 10.0);
$client = new RespClient('unix://' . $new->socket);
echo "lock afterwards: ", var_export($ok, true), ", on the new master: ", var_export(rl_is_token($client->cmd('GET', 'lock:a')), true),
    ", release: ", var_export(RedisMutexLock::release('a'), true), "\n";
?>
--EXPECTF--
before: true
master killed: RedisLockException: Redis at ADDR: cannot connect: Connection refused (os error 111), < 1 s: true
the sentinels promoted the replica: true
lock afterwards: true, on the new master: true, release: true
