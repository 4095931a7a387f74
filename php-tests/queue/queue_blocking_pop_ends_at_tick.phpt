--TEST--
A blocking pop's reply may come one tick of the server's event loop after its timeout (Redis ends a blocking pop's timeout only at a tick: 100 ms at hz 10, 1 s at hz 1), and that is no read timeout: with read_timeout shorter than a tick (0.3 s at hz 1, 0.2 s at hz 2: room enough for every other reply), 3 waiters, each a new process whose first call is the wait: waiters that look every 10 ms (a mutex's $sleep 10000) or every 100 ms (a semaphore) never leave their queue while they wait (no ZREM of a place, no second RPUSH/LPUSH into the queue: the server's own command counts), keep its order, and are served in it; a server that stops answering is still noticed after one tick more (read_timeout 0.3 s at hz 1: the waiter's RedisLockException within 4 s of the SIGSTOP: 0.3 s + a 1 s tick, then connect_timeout 0.3 s + read_timeout of trying again, and slack). Before one tick was allowed, the same run lost the mutex waiters' places 10 times in 2.5 s and the semaphore waiters' calls failed with "no reply within 0.3 s"
--CONFLICTS--
all # alone: its subject is the server's event-loop tick against read timeouts shorter than a tick; beside other tests a busy machine moved the ticks enough to leave a key behind
--SKIPIF--
<?php if (!function_exists('proc_open') || !function_exists('posix_kill')) die('skip proc_open and posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';

foreach (['hz 1' => [1, 0.3, 2.5, 3], 'hz 2' => [2, 0.2, 1.5, 3]] as $name => [$hz, $readTimeout, $pause, $n]) {
    $redis = RedisServer::start(['--hz', (string) $hz]);
    ini_set('redis_lock.server', $redis->dsn());
    echo "== $name, read_timeout $readTimeout s\n";
    foreach ([
        'mutex' => ['RedisMutexLock::lock', ['m', 20, 20, 10000], 'RedisMutexLock::release', fn () => RedisMutexLock::lock('m', 0, 20), fn () => RedisMutexLock::release('m'), '{lock:m}:q'],
        'semaphore' => ['RedisSemaphore::acquire', ['s', 1, 20], 'RedisSemaphore::release', fn () => RedisSemaphore::acquire('s', 1), fn () => RedisSemaphore::release('s'), '{lock:s}:sq'],
    ] as $what => [$take, $args, $give, $hold, $let, $queue]) {
        $key = $args[0];
        $hold();
        $actors = [];
        foreach (range(0, $n - 1) as $i) {
            $a = new RlActor($redis, ['redis_lock.read_timeout' => (string) $readTimeout]);
            $a->send($take, ...$args); // its first call: it learns the server's tick first
            rl_eventually(fn () => $redis->cmd('LLEN', $queue), $i + 1, 5);
            $actors[] = $a;
        }
        $before = $redis->cmd('LRANGE', $queue, 0, -1);
        $redis->cmd('CONFIG', 'RESETSTAT');
        rl_sleep($pause);
        $calls = $redis->allCalls();
        $after = $redis->cmd('LRANGE', $queue, 0, -1);
        printf("%s: places given up %d, joins %d while waiting; looks: %s; queue unchanged: %s\n", $what,
            $calls['zrem'] ?? 0, ($calls['rpush'] ?? 0) + ($calls['lpush'] ?? 0),
            ($calls['blpop'] ?? 0) >= 3 ? 'some' : json_encode($calls['blpop'] ?? 0), json_encode($before === $after));
        $let();
        $order = $outcome = [];
        foreach ($actors as $i => $a) {
            $got = $a->answer(10);
            $order[$i] = $got['end'];
            $outcome[$i] = json_encode($got['r'] ?? $got['e']);
            $a->call($give, $key);
        }
        asort($order);
        echo "  calls: ", implode(' ', $outcome), "; served in queue order: ", json_encode(array_keys($order) === range(0, $n - 1)), "\n";
        foreach ($actors as $a) {
            $a->finish();
        }
    }
    if ($hz === 1) {
        // The tick added to a blocking pop's wait is no time given to a
        // server that stopped answering: one tick more, not a whole timeout.
        RedisMutexLock::lock('m', 0, 20);
        $a = new RlActor($redis, ['redis_lock.read_timeout' => '0.3', 'redis_lock.connect_timeout' => '0.3']);
        $a->call('RedisMutexLock::inspect', 'warm-up');
        $a->send('RedisMutexLock::lock', 'm', 20, 20, 10000);
        rl_eventually(fn () => $redis->cmd('LLEN', '{lock:m}:q'), 1, 5);
        posix_kill($redis->pid, SIGSTOP);
        $t = rl_now();
        $got = $a->answer(10);
        $secs = $got['end'] - $t;
        posix_kill($redis->pid, SIGCONT);
        echo "stopped server: ", preg_replace('/127\.0\.0\.1:\d+/', 'HOST:PORT', $got['e'] ?? json_encode($got['r'])), "; within 4 s of the SIGSTOP: ", json_encode($secs < 4.0), $secs < 4.0 ? '' : sprintf(' (%.2f s)', $secs), "\n";
        $a->finish();
        RedisMutexLock::release('m');
    }
    echo "keys left: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 3)), "\n";
    $redis->destroy();
}
?>
--EXPECTF--
== hz 1, read_timeout 0.3 s
mutex: places given up 0, joins 0 while waiting; looks: some; queue unchanged: true
  calls: true true true; served in queue order: true
semaphore: places given up 0, joins 0 while waiting; looks: some; queue unchanged: true
  calls: true true true; served in queue order: true
stopped server: RedisLockException: %s HOST:PORT%s; within 4 s of the SIGSTOP: true
keys left: []
== hz 2, read_timeout 0.2 s
mutex: places given up 0, joins 0 while waiting; looks: some; queue unchanged: true
  calls: true true true; served in queue order: true
semaphore: places given up 0, joins 0 while waiting; looks: some; queue unchanged: true
  calls: true true true; served in queue order: true
keys left: []
