--TEST--
A quiet server at hz 1 ends a blocking pop's timeout only at its next tick (up to 1 s late): waiters that look every 10 ms ($sleep 10000) or every 100 ms (shared locks) keep their place all the same (how long a place lives is sized from the server's hz, read from INFO server when the connection opens: after 2.5 s without other traffic every place is still live), and are served in FIFO order
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';
$redis = RedisServer::start(['--hz', '1']);
ini_set('redis_lock.server', $redis->dsn());
echo "hz: ", $redis->cmd('CONFIG', 'GET', 'hz')[1], "\n";

foreach ([
    'mutex' => ['RedisMutexLock::lock', ['m', 20, 20, 10000], 'RedisMutexLock::release', fn () => RedisMutexLock::lock('m', 0, 20), fn () => RedisMutexLock::release('m'), fn () => RedisMutexLock::inspect('m')['waiters'], '{lock:m}:t'],
    'semaphore' => ['RedisSemaphore::acquire', ['s', 1, 20], 'RedisSemaphore::release', fn () => RedisSemaphore::acquire('s', 1), fn () => RedisSemaphore::release('s'), fn () => RedisSemaphore::inspect('s')['waiters'], '{lock:s}:st'],
] as $what => [$take, $args, $give, $hold, $let, $waiters, $places]) {
    $hold();
    $actors = [];
    foreach (range(0, 2) as $i) {
        $a = new RlActor($redis);
        $a->call('RedisMutexLock::inspect', 'warm-up'); // the connection is open: its hz is known
        $a->send($take, ...$args);
        rl_eventually($waiters, $i + 1, 5);
        $actors[] = $a;
    }
    // Nothing else talks to the server meanwhile: the first command after the
    // pause sees the places as the waiters left them (a command wakes the
    // server, which then ends the late blocking pops).
    rl_sleep(2.5);
    $live = $redis->cmd('EVAL', "local t = redis.call('TIME') return redis.call('ZCOUNT', KEYS[1], t[1] * 1000 + math.floor(t[2] / 1000), '+inf')", 1, $places);
    echo "$what: places still live after 2.5 s: ", $live, "\n";
    $let();
    $order = [];
    foreach ($actors as $i => $a) {
        $got = $a->answer(10);
        $order[$i] = $got['end'];
        echo "  waiter $i: ", json_encode($got['r'] ?? $got['e']), "\n";
        $a->call($give, $args[0]);
    }
    asort($order);
    echo "  served in queue order: ", json_encode(array_keys($order) === [0, 1, 2]), "\n";
    foreach ($actors as $a) {
        $a->finish();
    }
}
echo "keys left: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
hz: 1
mutex: places still live after 2.5 s: 3
  waiter 0: true
  waiter 1: true
  waiter 2: true
  served in queue order: true
semaphore: places still live after 2.5 s: 3
  waiter 0: true
  waiter 1: true
  waiter 2: true
  served in queue order: true
keys left: []
