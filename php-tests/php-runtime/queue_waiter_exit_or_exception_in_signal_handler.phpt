--TEST--
Queue: a waiter whose pcntl signal handler calls exit() (SIGTERM) or throws (SIGUSR1) while it waits: its request ends or the exception reaches its code, it is no longer in the queue afterwards, and the waiter behind it gets the lock < 1 s after the holder's release (whether the handler runs during the wait or once lock() returned with the lock, which request end then releases)
--SKIPIF--
<?php if (!function_exists('pcntl_async_signals') || !function_exists('posix_kill')) die('skip pcntl and posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:sig';

$cases = [
    'exit() in a SIGTERM handler' => [SIGTERM, 'pcntl_async_signals(true); pcntl_signal(SIGTERM, function () { exit(3); });'],
    'an exception thrown by a SIGUSR1 handler' => [SIGUSR1, 'pcntl_async_signals(true); pcntl_signal(SIGUSR1, function () { throw new RuntimeException("interrupted"); });'],
];
foreach ($cases as $name => [$signal, $pre]) {
    echo "-- $name\n";
    $book->cmd('FLUSHALL');
    var_dump(RedisMutexLock::lock('sig', 0, 20));
    [$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, [
        ['key' => 'sig', 'i' => 'S', 'timeout' => 30, 'pre' => $pre],
        ['key' => 'sig', 'i' => 'N', 'timeout' => 30],
    ]);
    rl_sleep(0.05);
    $waiters['S']->signal($signal);
    // Either it ends (or returns) now, or once it is handed the lock.
    $waiters['S']->waitExit(1.0);
    RedisMutexLock::release('sig');
    $released = rl_now();
    $n = $waiters['N']->result(10);
    echo "the next waiter: ", var_export($n['r'], true), ", < 1 s after the release: ",
        $n['t'] - $released < 1.0 ? 'true' : sprintf('false (%.3f s)', $n['t'] - $released), "\n";
    $s = $waiters['S']->finish(10);
    echo "signalled waiter: exit ", $s['status'], ", printed: ", json_encode(array_values(array_filter(explode("\n", $s['out']), fn ($l) => $l !== '' && !str_starts_with($l, 'result {"r":true')))), $s['err'] === '' ? '' : ", stderr: {$s['err']}", "\n";
    echo "its token in the queue: ", var_export(in_array($tokens['S'], rl_queue_tokens($redis, $K), true), true), "\n";
    $waiters['N']->finish(5);
    echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
    echo "keys: ", rl_keys_left($redis, $tokens), "\n";
}
?>
--EXPECTF--
-- exit() in a SIGTERM handler
bool(true)
the next waiter: true, < 1 s after the release: true
signalled waiter: exit 3, printed: []
its token in the queue: false
two holders at once: []
keys: []
-- an exception thrown by a SIGUSR1 handler
bool(true)
the next waiter: true, < 1 s after the release: true
signalled waiter: exit 0, printed: ["result {\"r\":\"RuntimeException: interrupted\",%s","done"]
its token in the queue: false
two holders at once: []
keys: []
