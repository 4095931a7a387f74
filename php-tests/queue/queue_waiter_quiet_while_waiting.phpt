--TEST--
Queue: a waiter on a key held throughout waits its whole timeout (3 s) and returns false (never an exception), on one connection, re-checking at least every $sleep and never letting its place lapse while it is alive
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:quiet';
$q = rl_queue_keys($K);

foreach ([100000, 300000] as $sleep) {
    echo "-- \$sleep = $sleep\n";
    var_dump(RedisMutexLock::lock('quiet', 0, 30));
    $redis->cmd('CONFIG', 'RESETSTAT');
    [$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [['key' => 'quiet', 'timeout' => 3, 'sleep' => $sleep]]);
    $token = $tokens['0'];
    // Sample its place deadline against the server's clock until it returns.
    $lapsed = 0;
    $renewals = [];
    $last = null;
    $samples = 0;
    while ($waiters['0']->running() && $samples < 5000) {
        $nowMs = $redis->nowMs();
        $score = $redis->cmd('ZSCORE', $q['t'], $token);
        if (!in_array($token, rl_queue_tokens($redis, $K), true)) {
            break;                          // it left (its deadline)
        }
        $samples++;
        if ($score === null || (float) $score < $nowMs) {
            $lapsed++;
        }
        if ($score !== null && $score !== $last) {
            // The score is the server's time of the renewal plus a place's life, fixed for the wait: its
            // steps are the gaps on the server's clock, free of this sampler's own delays.
            $renewals[] = (float) $score / 1000;
            $last = $score;
        }
        rl_sleep(0.005);
    }
    $r = $waiters['0']->result(10);
    $waiters['0']->finish(5);
    echo "result: ", var_export($r['r'], true), ", after 2.95..3.5 s: ", $r['secs'] >= 2.95 && $r['secs'] < 3.5 ? 'true' : sprintf('false (%.3f s)', $r['secs']), "\n";
    echo "its place never lapsed: ", $lapsed === 0 ? 'true' : "false ($lapsed of $samples samples)", "\n";
    $gaps = [];
    for ($n = 1; $n < count($renewals); $n++) {
        $gaps[] = round(($renewals[$n] - $renewals[$n - 1]) * 1000);
    }
    $limit = $sleep / 1000 + 80;
    echo "renewed at least every \$sleep + 80 ms: ", $gaps !== [] && max($gaps) <= $limit ? 'true' : 'false (ms: ' . json_encode($gaps) . ')', "\n";
    preg_match('/total_connections_received:(\d+)/', $redis->cmd('INFO', 'stats'), $m);
    echo "connections it opened: at most 2: ", (int) $m[1] <= 2 ? 'true' : "false ({$m[1]})", "\n";
    echo "it left the queue: ", var_export(!in_array($token, rl_queue_tokens($redis, $K), true) && $redis->cmd('ZSCORE', $q['t'], $token) === null, true), "\n";
    var_dump(RedisMutexLock::release('quiet'));
    echo "keys: ", rl_keys_left($redis), "\n";
}
?>
--EXPECT--
-- $sleep = 100000
bool(true)
result: false, after 2.95..3.5 s: true
its place never lapsed: true
renewed at least every $sleep + 80 ms: true
connections it opened: at most 2: true
it left the queue: true
bool(true)
keys: []
-- $sleep = 300000
bool(true)
result: false, after 2.95..3.5 s: true
its place never lapsed: true
renewed at least every $sleep + 80 ms: true
connections it opened: at most 2: true
it left the queue: true
bool(true)
keys: []
