--TEST--
Sentinel (real master, replica and 3 sentinels, passwords on both): a redis-sentinel:// DSN resolves the master (verified with ROLE) and locks there (RedisMutexLock, and RedLock with a sentinel entry), passing over sentinels that cannot answer; wait_replicas=1 in the DSN makes each lock wait for the replica; errors name what went wrong with passwords masked; SENTINEL FAILOVER (the former master demoted 2 s later) while 8 recycled worker processes contend and increment a counter under lock($key, 10, 1): the calls follow the new master, and with replica acknowledgement no two sections overlap and no update is lost (without it, they are counted); a renewed lock survives the failover and fences keep increasing
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sentinel.inc';
$s = RlSentinels::start(['password' => 'm@ster pass', 'sentinel_password' => 's:pass']);
$book = RedisServer::start();
$sp = 'sentinel_password=' . rawurlencode('s:pass');
$first = $s->master();
$mask = function (string $text) use ($s, $first): string {
    $names = [$first->port => 'M', $s->replica()->port => 'R'] + array_combine($s->sentinelPorts(), ['S1', 'S2', 'S3']);
    return preg_replace_callback('/127\.0\.0\.1:(\d+)/', fn ($x) => 'host:' . ($names[(int) $x[1]] ?? 'unknown'), $text);
};
$try = function (string $dsn, string $key = 'x') use ($mask): string {
    ini_set('redis_lock.server', $dsn);
    $r = rl_timed(fn () => RedisMutexLock::lock($key));
    return $mask(rl_show($r[0])) . (is_bool($r[0]) ? '' : ' (' . ($r[1] < 2 ? 'at once' : 'slow') . ')');
};

// Resolution and the errors that name what went wrong.
echo "lock: ", $try($s->dsn($sp), 'basic'), ", on the master: ", var_export(rl_is_token($first->cmd('GET', 'lock:basic')), true), "\n";
var_dump(RedisMutexLock::release('basic'));
[$solo1, $solo2] = rl_start_servers(2);
$rl = new RedLock([$s->dsn($sp), $solo1->dsn(), $solo2->dsn()], 0, 1);
$lock = $rl->lock('resource', 5000);
echo "RedLock with a sentinel entry: ", is_array($lock) ? 'locked' : rl_show($lock), ", on the master: ",
    var_export(is_array($lock) && $first->cmd('GET', 'resource') === $lock['token'], true), ", unlock: ", var_export(is_array($lock) && $rl->unlock($lock), true), "\n";
echo "unknown master: ", $try($s->dsn($sp, 'nosuch')), "\n";
echo "wrong sentinel password: ", $try($s->dsn('sentinel_password=hunter2')), "\n";
echo "no sentinel up: ", $try('redis-sentinel://127.0.0.1:' . rl_free_port() . '/mymaster'), "\n";
// Redis looks the command up first (unknown command), Valkey checks the
// connection's authentication first (NOAUTH): either names the node and why.
echo "a master, not a sentinel: ", str_replace('Redis at host:M: authentication failed: NOAUTH Authentication required.',
    "host:M is not a sentinel (ERR unknown command 'SENTINEL', with args beginning with: 'GET-MASTER-ADDR-BY-NAME' 'mymaster' )",
    $try("redis-sentinel://:x@127.0.0.1:{$first->port}/mymaster")), "\n";
echo "a cluster DSN at a plain server, wrong password: ", $try("redis-cluster://:hunter2@127.0.0.1:{$first->port}"), "\n";

// Sentinels that cannot answer come first: a host that never answers its SYN and a killed server.
$hole = RlBlackHole::tcp();
$dead = RedisServer::start();
$dead->kill();
ini_set('redis_lock.connect_timeout', '0.2');
$dsn = $s->dsn($sp);
$at = strrpos($dsn, '@') + 1; // after the user information (the password has an @ too)
$dsn = substr($dsn, 0, $at) . "127.0.0.1:{$hole->port},127.0.0.1:{$dead->port}," . substr($dsn, $at);
$r = rl_timed(fn () => $try($dsn, 'passed-over'));
echo "a black-holed and a killed sentinel first: {$r[0]}, within 0.2..1 s: ", var_export($r[1] > 0.19 && $r[1] < 1, true), "\n";
var_dump(RedisMutexLock::release('passed-over'));
ini_set('redis_lock.connect_timeout', '1');

// wait_replicas=1 in the DSN: WAIT after the acquisition; the replica has the lock when lock() returns.
$first->cmd('CONFIG', 'RESETSTAT');
echo "wait_replicas=1: ", $try($s->dsn("$sp&wait_replicas=1"), 'acked'), ", WAIT calls: ", $first->calls('wait'),
    ", on the replica: ", var_export(rl_is_token($s->replica()->cmd('GET', 'lock:acked')), true), "\n";
var_dump(RedisMutexLock::release('acked'));

// A fence and a renewed lock, before the failovers.
ini_set('redis_lock.server', $s->dsn($sp));
RedisMutexLock::lock('fenced');
$before = RedisMutexLock::fence('fenced');
RedisMutexLock::release('fenced');
ini_set('redis_lock.auto_renew', '1');
// Its TTL must outlast the failover's window: renewals that reach the former
// master between the promotion and its demotion are lost with it.
var_dump(RedisMutexLock::lock('renewed', 0, 20));
ini_set('redis_lock.auto_renew', '0');

// Contention through two failovers (rl_failover_contention(): workers recycled
// like PHP-FPM's, the former master demoted 2 s after the promotion, 1 s TTLs).
// A failover may cause: a lock too few replicas have (acknowledgement on), a
// connection cut by the demotion, a call that met the old master after it.
$expected = '/^RedisLockException: Redis at 127\.0\.0\.1:P: (the lock reached 0 of the 1 replicas|connection lost|the server is a read-only replica|error reply: UNBLOCKED|cannot connect)/';
$without = rl_failover_contention($s, $book, $s->dsn($sp));
echo "failover without acknowledgement: sections ", var_export($without['sections'] > 100, true), ", unexpected errors ",
    json_encode(array_keys(array_filter($without['errors'], fn ($m) => !preg_match($expected, $m), ARRAY_FILTER_USE_KEY))),
    ", lost updates: ", $without['lost'], ", overlapping sections: ", $without['overlaps'], "\n";
// Twice: what goes wrong without the protection shows in some failovers only.
foreach ([1, 2] as $n) {
    $with = rl_failover_contention($s, $book, $s->dsn("$sp&wait_replicas=1"));
    echo "failover $n with wait_replicas=1: sections ", var_export($with['sections'] > 100, true), ", unexpected errors ",
        json_encode(array_keys(array_filter($with['errors'], fn ($m) => !preg_match($expected, $m), ARRAY_FILTER_USE_KEY))),
        ", lost updates: ", $with['lost'], ", overlapping sections: ", $with['overlaps'], "\n";
}

ini_set('redis_lock.server', $s->dsn($sp));
echo "renewed lock after three failovers: held ", var_export(RedisMutexLock::inspect('renewed')['held'], true), ", on the master now: ", var_export($s->master()->cmd('PTTL', 'lock:renewed') > 0, true), "\n";
var_dump(RedisMutexLock::release('renewed'));
RedisMutexLock::lock('fenced');
echo "fence after > before: ", var_export(RedisMutexLock::fence('fenced') > $before, true), "\n";
RedisMutexLock::release('fenced');
echo "keys: ", json_encode(array_values(preg_grep('/:f$/', $s->master()->keys(), PREG_GREP_INVERT))), "\n";
?>
--EXPECTF--
lock: true, on the master: true
bool(true)
RedLock with a sentinel entry: locked, on the master: true, unlock: true
unknown master: RedisLockException: Redis at master nosuch of sentinels host:S1,host:S2,host:S3: no sentinel named a master of nosuch that answers as one: host:S1 knows no master named nosuch; host:S2 knows no master named nosuch; host:S3 knows no master named nosuch (at once)
wrong sentinel password: RedisLockException: Redis at master mymaster of sentinels host:S1,host:S2,host:S3: no sentinel named a master of mymaster that answers as one: Redis at host:S1: authentication failed: WRONGPASS invalid username-password pair or user is disabled.; Redis at host:S2: authentication failed: WRONGPASS invalid username-password pair or user is disabled.; Redis at host:S3: authentication failed: WRONGPASS invalid username-password pair or user is disabled. (at once)
no sentinel up: RedisLockException: Redis at master mymaster of sentinels host:unknown: no sentinel named a master of mymaster that answers as one: Redis at host:unknown: cannot connect: Connection refused (os error 111) (at once)
a master, not a sentinel: RedisLockException: Redis at master mymaster of sentinels host:M: no sentinel named a master of mymaster that answers as one: host:M is not a sentinel (ERR unknown command 'SENTINEL', with args beginning with: 'GET-MASTER-ADDR-BY-NAME' 'mymaster' ) (at once)
a cluster DSN at a plain server, wrong password: RedisLockException: Redis at cluster host:M: the slot map could not be learned: Redis at host:M: authentication failed: WRONGPASS invalid username-password pair or user is disabled. (at once)
a black-holed and a killed sentinel first: true, within 0.2..1 s: true
bool(true)
wait_replicas=1: true, WAIT calls: 1, on the replica: true
bool(true)
bool(true)
failover without acknowledgement: sections true, unexpected errors [], lost updates: %d, overlapping sections: %d
failover 1 with wait_replicas=1: sections true, unexpected errors [], lost updates: 0, overlapping sections: 0
failover 2 with wait_replicas=1: sections true, unexpected errors [], lost updates: 0, overlapping sections: 0
renewed lock after three failovers: held true, on the master now: true
bool(true)
fence after > before: true
keys: []
