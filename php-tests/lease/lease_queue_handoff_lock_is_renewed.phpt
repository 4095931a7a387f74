--TEST--
redis_lock.auto_renew on a lock taken through the queue: a waiter handed the lock by the holder's release() gets it renewed like any other (held 3 s with a 1 s lease, never expiring) and releases it with true
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:handed';

var_dump(RedisMutexLock::lock('handed', 0, 30));
$ours = $redis->cmd('GET', $K);
$w = new RlWaiter($redis, $book, ['key' => 'handed', 'i' => 'w', 'timeout' => 10, 'lockSecond' => 1, 'hold' => 3.0], ['redis_lock.auto_renew' => '1']);
rl_queue_wait_len($redis, $K, 1, 5.0, 'the waiter');
var_dump(RedisMutexLock::release('handed'));
$theirs = $redis->cmd('GET', $K);
$deadline = rl_now() + 2.0;
while (($theirs === null || $theirs === $ours) && rl_now() < $deadline) {
    rl_sleep(0.005);
    $theirs = $redis->cmd('GET', $K);
}
echo "handed over: ", var_export(rl_is_token($theirs) && $theirs !== $ours, true), "\n";
// Sample it for 2.5 s: always the waiter's token, never more than its 1 s lease.
$samples = 0;
$bad = [];
$end = rl_now() + 2.5;
while (rl_now() < $end) {
    [$v, $pttl] = $redis->cmd('EVAL', "return {redis.call('GET', KEYS[1]) or false, redis.call('PTTL', KEYS[1])}", 1, $K);
    $samples++;
    if (($v !== $theirs || $pttl <= 0 || $pttl > 1000) && count($bad) < 3) {
        $bad[] = var_export($v === $theirs ? 'theirs' : $v, true) . " pttl $pttl";
    }
    rl_sleep(0.1);
}
echo "held past its lease: ", $bad === [] && $samples >= 10 ? 'true' : json_encode($bad), "\n";
$r = $w->result(10);
echo "waiter: lock ", var_export($r['r'], true), ", release ", var_export($r['rel'], true), "\n";
$w->finish(5);
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
bool(true)
bool(true)
handed over: true
held past its lease: true
waiter: lock true, release true
keys: []
