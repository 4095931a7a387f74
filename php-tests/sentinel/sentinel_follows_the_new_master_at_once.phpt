--TEST--
Sentinel: after SENTINEL FAILOVER, while the former master still takes writes (the sentinels reconfigure it only seconds later), a process that used it asks the sentinels again within a second and locks on the new master, not on the old one
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$s = RlSentinels::start();
$old = $s->master();
$new = $s->replica();
ini_set('redis_lock.server', $s->dsn());
echo "before: lock ", var_export(RedisMutexLock::lock('a'), true), " on the master: ", var_export(rl_is_token($old->cmd('GET', 'lock:a')), true),
    ", release ", var_export(RedisMutexLock::release('a'), true), "\n";

// The failover, without the harness' demotion of the former master.
echo "SENTINEL FAILOVER: ", $s->sentinelCmd(0, 'SENTINEL', 'FAILOVER', 'mymaster'), "\n";
$named = rl_eventually(fn () => (int) ($s->sentinelCmd(0, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', 'mymaster')[1] ?? 0), $new->port, 20.0);
echo "the sentinels name the former replica: ", var_export($named === $new->port, true), "\n";
rl_sleep(1.2);
$oldRole = (new RespClient('unix://' . $old->socket))->cmd('ROLE')[0];
$ok = RedisMutexLock::lock('b');
$newClient = new RespClient('unix://' . $new->socket);
$oldClient = new RespClient('unix://' . $old->socket);
echo "the former master was still one: ", var_export($oldRole === 'master', true), "; lock ", var_export($ok, true),
    ", on the new master: ", var_export(rl_is_token($newClient->cmd('GET', 'lock:b')), true),
    ", on the former one: ", var_export($oldClient->cmd('EXISTS', 'lock:b') === 1, true), "\n";
echo "release: ", var_export(RedisMutexLock::release('b'), true), ", left on the new master: ", $newClient->cmd('EXISTS', 'lock:b'), "\n";
?>
--EXPECT--
before: lock true on the master: true, release true
SENTINEL FAILOVER: OK
the sentinels name the former replica: true
the former master was still one: true; lock true, on the new master: true, on the former one: false
release: true, left on the new master: 0
