--TEST--
redis_lock.wait_replicas: a RedisMutexLock acquisition (and extension, and renewal) counts only once that many replicas have the lock (WAIT on the connection that took it): with a live replica the key is on it when lock() returns; with the replica frozen (SIGSTOP) or too few replicas, lock() throws after redis_lock.wait_timeout and the lock is released on the master; off by default (no WAIT sent)
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$master = RedisServer::start();
$replica = RedisServer::start(['--replicaof', '127.0.0.1', (string) $master->port]);
$synced = rl_eventually(fn () => str_contains((string) $replica->cmd('INFO', 'replication'), 'master_link_status:up')
    && str_contains((string) $master->cmd('INFO', 'replication'), 'connected_slaves:1'), true, 10.0);
echo "replica synced: ", var_export($synced, true), "\n";
ini_set('redis_lock.server', $master->dsn());
$calls = fn () => (int) (preg_match('/cmdstat_wait:calls=(\d+)/', (string) $master->cmd('INFO', 'commandstats'), $m) ? $m[1] : 0);

// Off (default): no WAIT is sent.
echo "default: ", ini_get('redis_lock.wait_replicas'), ", lock: ", rl_show(RedisMutexLock::lock('off')), ", WAIT calls: ", $calls(), "\n";
var_dump(RedisMutexLock::release('off'));

// One replica asked for: when lock() returns, the replica has our token.
ini_set('redis_lock.wait_replicas', '1');
ini_set('redis_lock.wait_timeout', '0.5');
foreach (['timeout 0' => 0, 'queued' => 5] as $how => $timeout) {
    $ok = RedisMutexLock::lock("k-$timeout", $timeout);
    $token = $master->cmd('GET', "lock:k-$timeout");
    echo "$how: ", rl_show($ok), ", on the replica at once: ", var_export($replica->cmd('GET', "lock:k-$timeout") === $token, true), "\n";
    var_dump(RedisMutexLock::release("k-$timeout"));
}
echo "WAIT calls: ", $calls(), "\n";

// Two replicas asked for, one exists: refused after the wait timeout, and released.
ini_set('redis_lock.wait_replicas', '2');
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('two'));
echo "two wanted: ", str_replace((string) $master->port, 'PORT', rl_show($r)), "\n";
printf("after the 0.5 s wait (0.45..3 s): %s, key on the master: %d, held: %s\n", var_export($secs > 0.45 && $secs < 3, true),
    $master->cmd('EXISTS', 'lock:two'), var_export(RedisMutexLock::inspect('two')['held'], true));

// The replica frozen: the same, and a waiter behind gets the lock once the replica is back.
ini_set('redis_lock.wait_replicas', '1');
$replica->pause();
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('frozen', 5));
echo "replica frozen: ", str_replace((string) $master->port, 'PORT', rl_show($r)), ", 0.45..3 s: ", var_export($secs > 0.45 && $secs < 3, true),
    ", key on the master: ", $master->cmd('EXISTS', 'lock:frozen'), "\n";
$replica->resume();
rl_eventually(fn () => str_contains((string) $master->cmd('INFO', 'replication'), 'connected_slaves:1'), true, 10.0);
echo "replica back: ", rl_show(RedisMutexLock::lock('frozen', 5)), "\n";

// extend() waits too: acknowledged, the replica has the new TTL; not acknowledged, it throws and the lock stays held.
echo "extend 60: ", rl_show(RedisMutexLock::extend('frozen', 60)), ", replica PTTL > 59000: ", var_export($replica->cmd('PTTL', 'lock:frozen') > 59000, true), "\n";
$replica->pause();
[$r, $secs] = rl_timed(fn () => RedisMutexLock::extend('frozen', 90));
echo "extend, replica frozen: ", str_replace((string) $master->port, 'PORT', rl_show($r)), ", 0.45..3 s: ", var_export($secs > 0.45 && $secs < 3, true),
    ", still held: ", var_export(RedisMutexLock::inspect('frozen')['held'], true), ", master PTTL > 89000: ", var_export($master->cmd('PTTL', 'lock:frozen') > 89000, true), "\n";
$replica->resume();
rl_eventually(fn () => str_contains((string) $master->cmd('INFO', 'replication'), 'connected_slaves:1'), true, 10.0);
var_dump(RedisMutexLock::release('frozen'));

// Renewals (auto_renew) wait too: acknowledged, the lock lives on; with the
// replica frozen, none is, and the lock counts as lost once its TTL ran out.
ini_set('redis_lock.auto_renew', '1');
echo "renewed: ", rl_show(RedisMutexLock::lock('renewed', 0, 1));
rl_sleep(1.5);
echo ", after 1.5 s held: ", var_export(RedisMutexLock::inspect('renewed')['held'], true), "\n";
$replica->pause();
$lost = rl_eventually(fn () => RedisMutexLock::inspect('renewed')['lost'], true, 5.0); // within its 1 s TTL and a renewal
echo "replica frozen: lost ", var_export($lost, true), ", release: ", str_replace((string) $master->port, 'PORT', rl_show(rl_timed(fn () => RedisMutexLock::release('renewed'))[0])), "\n";
$replica->resume();
rl_eventually(fn () => str_contains((string) $master->cmd('INFO', 'replication'), 'connected_slaves:1'), true, 10.0);
ini_set('redis_lock.auto_renew', '0');
$master->cmd('DEL', 'lock:renewed');

ini_set('redis_lock.wait_replicas', '-1');
echo "invalid: ", rl_show(rl_timed(fn () => RedisMutexLock::lock('x'))[0]), "\n";
ini_set('redis_lock.wait_replicas', '0');
echo "keys: ", json_encode($master->keys()), "\n";
?>
--EXPECT--
replica synced: true
default: 0, lock: true, WAIT calls: 0
bool(true)
timeout 0: true, on the replica at once: true
bool(true)
queued: true, on the replica at once: true
bool(true)
WAIT calls: 2
two wanted: RedisLockException: Redis at 127.0.0.1:PORT: the lock reached 1 of the 2 replicas redis_lock.wait_replicas asks for within 0.5 s, so it was released
after the 0.5 s wait (0.45..3 s): true, key on the master: 0, held: false
replica frozen: RedisLockException: Redis at 127.0.0.1:PORT: the lock reached 0 of the 1 replicas redis_lock.wait_replicas asks for within 0.5 s, so it was released, 0.45..3 s: true, key on the master: 0
replica back: true
extend 60: true, replica PTTL > 59000: true
extend, replica frozen: RedisLockException: Redis at 127.0.0.1:PORT: the extension reached 0 of the 1 replicas redis_lock.wait_replicas asks for within 0.5 s, so a failover may undo it (the lock is still held, with the new TTL on the master), 0.45..3 s: true, still held: true, master PTTL > 89000: true
bool(true)
renewed: true, after 1.5 s held: true
replica frozen: lost true, release: RedisLockLostException: RedisMutexLock::release(): the lock on "renewed" was lost: no renewal reached enough replicas before its TTL ran out: Redis at 127.0.0.1:PORT: the renewal reached 0 of the 1 replicas redis_lock.wait_replicas asks for within 0.166 s, so a failover may undo it
invalid: ValueError: RedisMutexLock::lock(): redis_lock.wait_replicas must be a number of replicas from 0 to 1000, "-1" given
keys: []
