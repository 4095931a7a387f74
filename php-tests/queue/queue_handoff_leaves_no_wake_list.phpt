--TEST--
Queue: 100 rounds of one hand-off (a holder that took the lock with timeout 0 releases it to one queued waiter, which holds and releases it): after every round no key at all is left, in particular no wake-up list
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:wl';

$w = new RlWaiter($redis, $book, ['key' => 'wl', 'timeout' => 10, 'hold' => 0.01, 'loops' => 100, 'gate' => true]);
$rounds = 0;
$bad = 0;
$seen = [];
$examples = [];
for ($round = 0; $round < 100; $round++) {
    if (!RedisMutexLock::lock('wl', 0, 30)) {
        echo "round $round: the holder could not lock: ", rl_keys_left($redis), "\n";
        break;
    }
    $w->writeLine('go');
    $token = rl_queue_wait_len($redis, $K, 1, 5.0, "round $round")[0];
    rl_sleep(0.01);
    RedisMutexLock::release('wl');
    $r = $w->result(5);
    if ($r['r'] !== true || $r['rel'] !== true) {
        echo "round $round: ", json_encode($r), "\n";
        break;
    }
    $rounds++;
    // Keys not seen after an earlier round (a leftover may live on for its TTL).
    $new = array_diff_key(rl_keys_with_ttl($redis), $seen);
    $seen += $new;
    if ($new !== []) {
        $bad++;
        if (count($examples) < 3) {
            $examples[] = rl_keys_left($redis, ['of this round' => $token]);
        }
    }
}
$w->finish(5);
echo "rounds: $rounds, rounds that left keys: ", $bad === 0 ? '0' : "$bad " . implode(' ', $examples), "\n";
?>
--EXPECT--
rounds: 100, rounds that left keys: 0
