--TEST--
Sentinel (real master, replica and 3 sentinels, passwords on both): a redis-sentinel:// DSN resolves the master (verified with ROLE) and locks there, passing over sentinels that cannot answer; wait_replicas=1 in the DSN makes each lock wait for the replica; errors name what went wrong with passwords masked; SENTINEL FAILOVER while 4 processes contend and increment a counter under lock($key, 10): the calls follow the new master, and with replica acknowledgement no update is lost (without it, the lost updates are counted); a renewed lock survives the failover and fences keep increasing
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/inc/sentinel.inc';
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
echo "unknown master: ", $try($s->dsn($sp, 'nosuch')), "\n";
echo "wrong sentinel password: ", $try($s->dsn('sentinel_password=hunter2')), "\n";
echo "no sentinel up: ", $try('redis-sentinel://127.0.0.1:' . rl_free_port() . '/mymaster'), "\n";
echo "a master, not a sentinel: ", $try("redis-sentinel://:x@127.0.0.1:{$first->port}/mymaster"), "\n";
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
// (Its TTL must outlast the failover's window: renewals that reach the old
// master after the promotion are not replicated.)
var_dump(RedisMutexLock::lock('renewed', 0, 5));
ini_set('redis_lock.auto_renew', '0');

/** 4 workers increment a counter under the lock until 400 sections are done; a failover once 100 are. */
function contend(RlSentinels $s, RedisServer $book, string $dsn): array
{
    $book->cmd('FLUSHALL');
    ini_set('redis_lock.server', $dsn);
    ini_set('redis_lock.wait_timeout', '0.2');
    $pids = [];
    for ($w = 0; $w < 4; $w++) {
        $pids[] = rl_fork(function () use ($book): int {
            $b = new RespClient('unix://' . $book->socket);
            $end = rl_now() + 25;
            while ((int) $b->cmd('GET', 'done') < 400 && rl_now() < $end) {
                try {
                    if (!RedisMutexLock::lock('counter', 10, 5)) {
                        $b->cmd('RPUSH', 'errors', 'lock() false');
                        continue;
                    }
                    $v = (int) $b->cmd('GET', 'counter');
                    rl_sleep(0.0005);
                    $b->cmd('SET', 'counter', $v + 1);
                    $b->cmd('INCR', 'done');
                    RedisMutexLock::release('counter');
                } catch (Throwable $e) {
                    $b->cmd('RPUSH', 'errors', get_class($e) . ': ' . $e->getMessage());
                    rl_sleep(0.01);
                }
            }
            return 0;
        });
    }
    rl_eventually(fn () => (int) $book->cmd('GET', 'done') >= 100, true, 20.0);
    $s->failover();
    foreach ($pids as $pid) {
        rl_wait($pid);
    }
    $done = (int) $book->cmd('GET', 'done');
    // What a failover may cause: a lock too few replicas have (acknowledgement on), a
    // connection cut by the demotion, a call that met the old master before its demotion.
    $expected = '/^RedisLockException: Redis at 127\.0\.0\.1:\d+: (the (lock|extension) reached 0 of the 1 replicas|connection lost|the server is a read-only replica|error reply: UNBLOCKED|cannot connect)/';
    $errors = $book->cmd('LRANGE', 'errors', 0, -1);
    ini_set('redis_lock.wait_timeout', '1');
    return [
        'done' => $done >= 400,
        'lost' => $done - (int) $book->cmd('GET', 'counter'),
        'unexpected errors' => array_values(preg_grep($expected, $errors, PREG_GREP_INVERT)),
    ];
}

$without = contend($s, $book, $s->dsn($sp));
echo "failover without acknowledgement: all done ", var_export($without['done'], true), ", unexpected errors ", json_encode($without['unexpected errors']),
    ", lost updates: ", $without['lost'], "\n";
$with = contend($s, $book, $s->dsn("$sp&wait_replicas=1"));
echo "failover with wait_replicas=1: all done ", var_export($with['done'], true), ", unexpected errors ", json_encode($with['unexpected errors']),
    ", lost updates: ", $with['lost'], "\n";

ini_set('redis_lock.server', $s->dsn($sp));
echo "renewed lock after two failovers: held ", var_export(RedisMutexLock::inspect('renewed')['held'], true), ", on the master now: ", var_export($s->master()->cmd('PTTL', 'lock:renewed') > 0, true), "\n";
var_dump(RedisMutexLock::release('renewed'));
RedisMutexLock::lock('fenced');
echo "fence after > before: ", var_export(RedisMutexLock::fence('fenced') > $before, true), "\n";
RedisMutexLock::release('fenced');
echo "keys: ", json_encode(array_values(preg_grep('/:f$/', $s->master()->keys(), PREG_GREP_INVERT))), "\n";
?>
--EXPECTF--
lock: true, on the master: true
bool(true)
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
failover without acknowledgement: all done true, unexpected errors [], lost updates: %d
failover with wait_replicas=1: all done true, unexpected errors [], lost updates: 0
renewed lock after two failovers: held true, on the master now: true
bool(true)
fence after > before: true
keys: []
