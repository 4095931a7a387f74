--TEST--
Queue: 8 processes contend for one key and 3 of them are SIGKILLed mid-run (waiting or holding): the survivors all finish, every key left behind has a TTL, and all of them are gone once their TTLs ran out; the same when every waiter of a queue is killed and nobody is left to clean up
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
$K = 'lock:crash';

// lockSecond = 2: a killed holder's lock lives 2 s.
$workers = [];
for ($i = 0; $i < 8; $i++) {
    $workers[$i] = new RlWaiter($redis, $book, ['key' => 'crash', 'i' => $i, 'timeout' => 20, 'lockSecond' => 2, 'hold' => 0.005, 'loops' => 15]);
}
// Kill 3 of them at different moments of the run.
$killed = [2, 5, 7];
$queuedAtKill = [];
foreach ($killed as $n => $i) {
    rl_sleep(0.15);
    $queuedAtKill[] = count(rl_queue_tokens($redis, $K));
    $workers[$i]->kill();
}
echo "the queue was in use when they were killed: ", var_export(max($queuedAtKill) >= 1, true), "\n";
$ok = 0;
$bad = [];
foreach ($workers as $i => $w) {
    if (in_array($i, $killed, true)) {
        continue;
    }
    for ($n = 0; $n < 15; $n++) {
        $r = $w->result(60);
        if ($r['r'] === true && $r['rel'] === true) {
            $ok++;
        } else {
            $bad[] = "worker $i: " . json_encode($r);
        }
    }
}
foreach ($workers as $w) {
    $w->finish(5);
}
echo "survivors' successful cycles: $ok\n";
echo "failures: ", json_encode(array_slice($bad, 0, 3)), "\n";
// (a worker killed while holding leaves its "inside" count behind: judged from the in/out events instead)
echo "two holders at once: ", json_encode(array_slice(rl_exclusion_violations($book, array_map('strval', $killed), 2.0), 0, 3)), "\n";
$left = rl_keys_with_ttl($redis);
echo "every key left has a TTL: ", var_export(rl_all_keys_expire($redis, $noTtl), true), $noTtl ? ' ' . json_encode($noTtl) : '', "\n";
$longest = $left === [] ? 0 : max(array_map(fn ($p) => is_int($p) ? $p : 0, $left));
echo "longest TTL <= 20 s: ", var_export($longest <= 20000, true), "\n";
echo "keys after their TTLs: ", json_encode(rl_eventually(fn () => $redis->keys(), [], min(21.0, $longest / 1000 + 1.0))), "\n";

echo "-- every waiter killed while queued, the holder never releases\n";
$book->cmd('FLUSHALL');
$K = 'lock:orphans';
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.release_on_shutdown', '0');
var_dump(RedisMutexLock::lock('orphans', 0, 2));
$opts = [];
for ($i = 0; $i < 3; $i++) {
    $opts[] = ['key' => 'orphans', 'i' => $i, 'timeout' => 30, 'sleep' => 200000];
}
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, $opts);
rl_sleep(0.05);
foreach ($waiters as $w) {
    $w->kill();
}
$left = rl_keys_with_ttl($redis);
echo "queue keys exist: ", var_export(count($left) >= 2, true), "\n";
echo "every key has a TTL: ", var_export(rl_all_keys_expire($redis, $noTtl), true), $noTtl ? ' ' . json_encode($noTtl) : '', "\n";
$longest = max(array_map(fn ($p) => is_int($p) ? $p : 0, $left));
echo "longest TTL <= 20 s: ", var_export($longest <= 20000, true), "\n";
echo "keys after their TTLs: ", json_encode(rl_eventually(fn () => $redis->keys(), [], min(21.0, $longest / 1000 + 1.0))), "\n";
?>
--EXPECT--
the queue was in use when they were killed: true
survivors' successful cycles: 75
failures: []
two holders at once: []
every key left has a TTL: true
longest TTL <= 20 s: true
keys after their TTLs: []
-- every waiter killed while queued, the holder never releases
bool(true)
queue keys exist: true
every key has a TTL: true
longest TTL <= 20 s: true
keys after their TTLs: []
