--TEST--
redis-lock list and show: locks held and waited for by PHP processes (a mutex with 2 queued waiters, a read/write lock with 2 readers and a queued writer, a semaphore with both permits taken and a waiter) as one JSON object per line with the holders' host, pid, since, label and TTL and the waiters in queue order with how long they waited; the table sorted by waiters then age; a pattern; show KEY; RedLock resources (no prefix) per node with several --server
--SKIPIF--
<?php if (!function_exists('proc_open') || !is_executable(__DIR__ . '/../../target/release/redis-lock')) die('skip redis-lock not built'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';

$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$srv = ['--server', $redis->dsn()];
$node = "127.0.0.1:{$redis->port}";
$a = new RlActor($redis);
$b = new RlActor($redis);
$pid = rl_actor_pids(['a' => $a, 'b' => $b]);
$a->call('RedisLock::setLabel', 'job-a');
$b->call('RedisLock::setLabel', 'job-b');
$t0 = microtime(true);
$took = [$a->result('RedisMutexLock::lock', 'orders:42', 0, 30), $a->result('RedisReadWriteLock::lockRead', 'doc', 0, 30),
    $b->result('RedisReadWriteLock::lockRead', 'doc', 0, 30), $a->result('RedisSemaphore::acquire', 'pool', 2, 0, 30),
    $b->result('RedisSemaphore::acquire', 'pool', 2, 0, 30)];
echo "taken: ", json_encode($took), "\n";
$waiters = [];
foreach (['c' => ['RedisMutexLock::lock', 'orders:42', 20, 30], 'd' => ['RedisMutexLock::lock', 'orders:42', 20, 30],
          'e' => ['RedisReadWriteLock::lockWrite', 'doc', 20, 30], 'f' => ['RedisSemaphore::acquire', 'pool', 2, 20, 30]] as $name => $call) {
    [$m, $key] = $call;
    $args = array_slice($call, 2);
    $w = new RlActor($redis);
    $pid[$w->result('getmypid')] = $name;
    $w->call('RedisLock::setLabel', "job-$name");
    $before = count(array_filter($waiters, fn ($k) => $k === $key));
    $w->send($m, $key, ...$args);
    $class = strstr($m, '::', true);
    rl_eventually(fn () => $class::inspect($key)['waiters'], $before + 1, 5);
    $waiters[$name] = $key;
    $actors[$name] = $w;
}
rl_sleep(0.05); // the waiters have waited a little

$locks = rl_cli_json([...$srv, 'list', '--json']);
echo "list --json: ", implode(' ', array_map(fn ($l) => "{$l['key']}({$l['kind']}, " . count($l['holders']) . " holding, " . count($l['waiters']) . " waiting)", $locks)), "\n";
$now = microtime(true);
foreach ($locks as $l) {
    echo "{$l['key']}: fields ", implode(',', array_keys($l)), "\n";
    printf("  redis_key %s, node ok %s, ttl_ms ok %s, fence %s\n", $l['redis_key'], json_encode($l['node'] === $node),
        json_encode($l['ttl_ms'] > 0 && $l['ttl_ms'] <= 30000), json_encode(is_int($l['fence']) || $l['fence'] === null));
    foreach ($l['holders'] as $h) {
        printf("  holder %s label %s mode %s weight %s limit %s: host ok %s, since ok %s, ttl ok %s, token ok %s\n", $pid[$h['pid']] ?? '?', $h['label'],
            json_encode($h['mode']), json_encode($h['weight']), json_encode($h['limit']), json_encode($h['host'] === gethostname()),
            json_encode($h['since'] >= $t0 - 1 && $h['since'] <= $now + 1), json_encode($h['ttl_ms'] === null || ($h['ttl_ms'] > 0 && $h['ttl_ms'] <= 30000)),
            json_encode(is_string($h['token']) && $h['token'] !== ''));
    }
    foreach ($l['waiters'] as $i => $w) {
        printf("  waiter %d: %s label %s mode %s, fields %s, waited ok %s, place ok %s\n", $i + 1, $pid[$w['pid']] ?? '?', $w['label'], json_encode($w['mode']),
            implode(',', array_keys($w)), json_encode($w['waited_ms'] >= 50 && $w['waited_ms'] < 10000), json_encode($w['place_ms'] > 0));
    }
}

// The same fields, names and facts as RedisLock::locks() (but for the clocks).
$stable = fn (array $l) => [array_keys($l), $l['key'], $l['redis_key'], $l['kind'], $l['node'], $l['fence'], $l['queued'],
    array_map(fn ($h) => [array_keys($h), $h['token'], $h['host'], $h['pid'], $h['label'], $h['mode'], $h['weight'], $h['limit'], round($h['since'], 3)], $l['holders']),
    array_map(fn ($w) => [array_keys($w), $w['token'], $w['host'], $w['pid'], $w['label'], $w['mode']], $l['waiters'])];
$php = array_column(RedisLock::locks('*'), null, 'key');
echo "as RedisLock::locks(): ", json_encode(array_map($stable, $locks) === array_map(fn ($l) => $stable($php[$l['key']] ?? []), $locks)), "\n";

$table = rl_cli([...$srv, 'list']);
$lines = explode("\n", rtrim($table['out']));
echo "list: exit {$table['status']}, header: ", preg_replace('/\s+/', ' ', $lines[0]), "\n";
foreach (array_slice($lines, 1) as $line) {
    $cells = preg_split('/\s{2,}/', $line);
    printf("  %s %s %s waiters %s\n", $cells[0], $cells[1], preg_replace('/:\d+\[/', ':PID[', $cells[2]), $cells[5]);
}
echo "KIND column aligned: ", json_encode(array_map(fn ($l) => substr($l, strpos($lines[0], 'KIND'), 1) !== ' ', $lines) === array_fill(0, count($lines), true)), "\n";

echo "pattern o*: ", implode(' ', array_column(rl_cli_json([...$srv, 'list', 'o*', '--json']), 'key')), "\n";
echo "pattern nothing: ", json_encode(rl_cli([...$srv, 'list', 'nothing*'])), "\n";

$show = rl_cli([...$srv, 'show', 'orders:42']);
echo "show: exit {$show['status']}\n", preg_replace(['/\d+(\.\d+)?(ms|s)\b/', '/:\d+\[/', '/token \S+/', '/fence     \d+/', '/\(\d+ ms\)/', '/127.0.0.1:\d+/', '/' . preg_quote(gethostname(), '/') . '/'],
    ['T', ':PID[', 'token TOKEN', 'fence     N', '(N ms)', 'NODE', 'HOST'], $show['out']);
$one = rl_cli_json([...$srv, 'show', 'doc', '--json']);
echo "show --json: ", count($one), " ", $one[0]['key'], " ", $one[0]['kind'], "\n";
echo "show missing: ", json_encode(rl_cli([...$srv, 'show', 'missing'])), "\n";

// RedLock: a resource on each node, without the prefix.
$other = RedisServer::start();
$rl = new RedLock([$redis->dsn(), $other->dsn()]);
$lock = $rl->lock('batch', 30000);
$both = rl_cli_json(['--server', $redis->dsn(), '--server', $other->dsn(), '--prefix', '', 'list', 'batch', '--json']);
echo "redlock per node: ", implode(' ', array_map(fn ($l) => $l['key'] . '@' . ($l['node'] === $node ? 'first' : ($l['node'] === "127.0.0.1:{$other->port}" ? 'second' : $l['node'])) . '=' . $l['kind'] . '/' . ($l['holders'][0]['token'] === $lock['token'] ? 'token' : '?'), $both)), "\n";
$rl->unlock($lock);
?>
--EXPECTF--
taken: [true,true,true,true,true]
list --json: orders:42(mutex, 1 holding, 2 waiting) doc(read-write, 2 holding, 1 waiting) pool(semaphore, 2 holding, 1 waiting)
orders:42: fields key,redis_key,kind,node,ttl_ms,fence,holders,waiters,queued
  redis_key lock:orders:42, node ok true, ttl_ms ok true, fence true
  holder a label job-a mode null weight null limit null: host ok true, since ok true, ttl ok true, token ok true
  waiter 1: c label job-c mode null, fields token,host,pid,label,waited_ms,place_ms,mode, waited ok true, place ok true
  waiter 2: d label job-d mode null, fields token,host,pid,label,waited_ms,place_ms,mode, waited ok true, place ok true
doc: fields key,redis_key,kind,node,ttl_ms,fence,holders,waiters,queued
  redis_key lock:doc, node ok true, ttl_ms ok true, fence true
  holder %s label job-%s mode "read" weight null limit null: host ok true, since ok true, ttl ok true, token ok true
  holder %s label job-%s mode "read" weight null limit null: host ok true, since ok true, ttl ok true, token ok true
  waiter 1: e label job-e mode "write", fields token,host,pid,label,waited_ms,place_ms,mode, waited ok true, place ok true
pool: fields key,redis_key,kind,node,ttl_ms,fence,holders,waiters,queued
  redis_key lock:pool, node ok true, ttl_ms ok true, fence true
  holder %s label job-%s mode null weight 1 limit 2: host ok true, since ok true, ttl ok true, token ok true
  holder %s label job-%s mode null weight 1 limit 2: host ok true, since ok true, ttl ok true, token ok true
  waiter 1: f label job-f mode null, fields token,host,pid,label,waited_ms,place_ms,mode, waited ok true, place ok true
as RedisLock::locks(): true
list: exit 0, header: KEY KIND HOLDER AGE TTL WAITERS LONGEST WAIT
  orders:42 mutex %s:PID[job-a] waiters 2
  doc read-write %s:PID[%s] +1 waiters 1
  pool semaphore %s:PID[%s] +1 waiters 1
KIND column aligned: true
pattern o*: orders:42
pattern nothing: {"status":0,"out":"","err":""}
show: exit 0
key       orders:42
redis key lock:orders:42
kind      mutex
node      NODE
ttl       T (N ms)
fence     %s
holders   1
  HOST:PID[job-a]  held T  ttl %s  token TOKEN
waiters   2
  1. HOST:PID[job-c]  waited T  place T  token TOKEN
  2. HOST:PID[job-d]  waited T  place T  token TOKEN
show --json: 1 doc read-write
show missing: {"status":1,"out":"","err":"redis-lock: no lock 'missing' (Redis key 'lock:missing')\n"}
redlock per node: batch@first=mutex/token batch@second=mutex/token
