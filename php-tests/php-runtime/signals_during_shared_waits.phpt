--TEST--
Audit, PHP itself: signals every 50 ms (pcntl_async_signals handler) during RedisReadWriteLock::lockRead()/lockWrite() and RedisSemaphore::acquire() waits: a wait on a lock held throughout returns false after its own timeout (0.6 s, never extended), was queued meanwhile and left the queue (only the holder's key is left); a wait that is handed the lock gets it < 0.5 s after the holder's release despite the signals; RedLock::lock()'s retry delays are not extended either (false after its 6 attempts, < 1.5 s); the handler ran for the signals of every wait
--SKIPIF--
<?php if (!function_exists('pcntl_async_signals')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_php.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

// The holder of each name (this process): a writer, a reader, the one permit.
var_dump(RedisReadWriteLock::lockWrite('sw', 0, 30), RedisReadWriteLock::lockRead('sr', 0, 30), RedisSemaphore::acquire('ss', 1, 0, 30));
$redis->cmd('SET', 'srl', 'another-owner', 'PX', 60000);
$cases = ['lockRead, a writer holds' => ['r', 'sw'], 'lockWrite, a reader holds' => ['w', 'sr'], 'acquire, no permit free' => ['s', 'ss']];

$child = rl_php_child(<<<'PHP'
pcntl_async_signals(true);
$handled = 0;
pcntl_signal(SIGUSR1, function () use (&$handled) { $handled++; });
ini_set('redis_lock.server', $argv[1]);
$pump = new RlSignalPump(getmypid(), SIGUSR1, 0.05);
rl_sleep(0.1); // the pump runs
foreach (json_decode($argv[2], true) as $what => [$kind, $key]) {
    foreach ([0.6, 5.0] as $timeout) {
        $handled = 0;
        $before = $pump->sent();
        echo "waiting\n";
        [$r, $secs] = rl_timed(fn () => rl_shared_take($kind, $key, $timeout, 20));
        $t1 = rl_now();
        echo json_encode(['r' => rl_show($r), 'secs' => $secs, 't1' => $t1, 'sent' => $pump->sent() - $before, 'handled' => $handled]), "\n";
        if ($r === true) {
            echo json_encode(['release' => rl_show(rl_shared_release($kind, $key))]), "\n";
        }
        fgets(STDIN);
    }
}
// RedLock's retry delays (5 of 100-200 ms) on a resource held by somebody else.
$handled = 0;
$before = $pump->sent();
echo "waiting\n";
[$r, $secs] = rl_timed(fn () => (new RedLock([$argv[1]], 200, 6))->lock('srl', 10000));
echo json_encode(['r' => rl_show($r), 'secs' => $secs, 'sent' => $pump->sent() - $before, 'handled' => $handled]), "\n";
$pump->stop();
PHP, [], [$redis->dsn(), json_encode($cases)]);

foreach ($cases as $what => [$kind, $key]) {
    echo "-- $what\n";
    // A wait on a lock held throughout.
    echo $child->readLine(10), "\n";
    echo "queued meanwhile: ", var_export(rl_eventually(fn () => rl_shared_inspect($kind, $key)['waiters'], 1, 0.5) === 1, true), "\n";
    $r = json_decode($child->readLine(10), true);
    echo "result: ", $r['r'], ", 0.55 s <= time < 1 s: ", rl_within($r['secs'], 0.55, 0.999),
        ", 4 signals or more during the wait: ", $r['sent'] >= 4 ? 'true' : "false ({$r['sent']})",
        ", handler ran for 4 or more: ", $r['handled'] >= 4 ? 'true' : "false ({$r['handled']})", "\n";
    echo "left the queue: ", var_export(rl_shared_inspect($kind, $key)['waiters'] === 0, true),
        ", keys of the name: ", json_encode(array_keys(rl_audit_keys_of($redis, $key))), "\n";
    $child->writeLine('next');

    // A wait that the holder's release ends.
    echo $child->readLine(10), "\n";
    rl_php_wait_queued($redis, $kind, $key, 1);
    rl_sleep(0.4); // signals keep coming meanwhile
    $t0 = rl_now();
    echo "holder's release: ", var_export(rl_shared_release($kind, $key), true), "\n";
    $released = rl_now();
    $r = json_decode($child->readLine(10), true);
    echo "result: ", $r['r'], ", after the release began: ", var_export($r['t1'] > $t0, true),
        ", < 0.5 s after it ended: ", rl_within($r['t1'] - $released, -1.0, 0.5),
        ", handler ran for 3 or more: ", $r['handled'] >= 3 ? 'true' : "false ({$r['handled']})", "\n";
    echo "its release: ", json_decode($child->readLine(10), true)['release'], "\n";
    $child->writeLine('next');
}
echo "-- RedLock::lock() retrying 6 times (retryDelay 200 ms), somebody else holds it\n";
echo $child->readLine(10), "\n";
$r = json_decode($child->readLine(10), true);
echo "result: ", $r['r'], ", 0.45 s <= time < 1.5 s: ", rl_within($r['secs'], 0.45, 1.499),
    ", 4 signals or more during the call: ", $r['sent'] >= 4 ? 'true' : "false ({$r['sent']})",
    ", handler ran for 4 or more: ", $r['handled'] >= 4 ? 'true' : "false ({$r['handled']})", "\n";
echo "its holder's value untouched: ", var_export($redis->cmd('GET', 'srl') === 'another-owner', true), "\n";
$redis->cmd('DEL', 'srl');
$r = $child->wait(10);
echo "child: exit ", $r['status'], $r['status'] === 0 && $r['err'] === '' ? '' : "\n" . $r['out'] . $r['err'], "\n";
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
-- lockRead, a writer holds
waiting
queued meanwhile: true
result: false, 0.55 s <= time < 1 s: true, 4 signals or more during the wait: true, handler ran for 4 or more: true
left the queue: true, keys of the name: ["lock:sw"]
waiting
holder's release: true
result: true, after the release began: true, < 0.5 s after it ended: true, handler ran for 3 or more: true
its release: true
-- lockWrite, a reader holds
waiting
queued meanwhile: true
result: false, 0.55 s <= time < 1 s: true, 4 signals or more during the wait: true, handler ran for 4 or more: true
left the queue: true, keys of the name: ["lock:sr"]
waiting
holder's release: true
result: true, after the release began: true, < 0.5 s after it ended: true, handler ran for 3 or more: true
its release: true
-- acquire, no permit free
waiting
queued meanwhile: true
result: false, 0.55 s <= time < 1 s: true, 4 signals or more during the wait: true, handler ran for 4 or more: true
left the queue: true, keys of the name: ["lock:ss"]
waiting
holder's release: true
result: true, after the release began: true, < 0.5 s after it ended: true, handler ran for 3 or more: true
its release: true
-- RedLock::lock() retrying 6 times (retryDelay 200 ms), somebody else holds it
waiting
result: false, 0.45 s <= time < 1.5 s: true, 4 signals or more during the call: true, handler ran for 4 or more: true
its holder's value untouched: true
child: exit 0
keys: []
