--TEST--
Request end is one bounded round: 20 or 500 locks held at exit against a stopped server (SIGSTOP) cost one read_timeout, not one per lock; 200 locks held at exit against a running server are all released, quickly
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();
$ini = ['redis_lock.server' => $redis->dsn(), 'redis_lock.read_timeout' => '0.5', 'redis_lock.connect_timeout' => '0.5'];
$code = <<<'PHP'
<?php
$n = (int) $argv[1];
for ($i = 0; $i < $n; $i++) {
    if (!RedisMutexLock::lock("k$i", 0, 60)) {
        echo "lock k$i failed\n";
        exit(1);
    }
}
echo "held\n";
fgets(STDIN);
PHP;

foreach ([20, 500] as $n) {
    $child = rl_child($code, $ini, [(string) $n]);
    echo "$n locks: ", $child->readLine(10), ", keys: ", count($redis->cmd('KEYS', 'lock:*')), "\n";
    $redis->pause();
    [$r, $secs] = rl_timed(fn () => $child->wait(10)); // closes its stdin: the script ends
    $redis->resume();
    echo "$n locks, server stopped: exit ", $r['status'], ", exit within 1.5 s: ",
        $secs < 1.5 ? 'true' : sprintf('false (%.1f s)', $secs), $r['out'] . $r['err'] === '' ? '' : "\n" . $r['out'] . $r['err'], "\n";
    foreach ($redis->cmd('KEYS', 'lock:*') as $k) {
        $redis->cmd('DEL', $k);
    }
}

$child = rl_child($code, $ini, ['200']);
echo "200 locks: ", $child->readLine(10), ", keys: ", count($redis->cmd('KEYS', 'lock:*')), "\n";
[$r, $secs] = rl_timed(fn () => $child->wait(10));
echo "200 locks, server running: exit ", $r['status'], ", exit within 1 s: ", $secs < 1.0 ? 'true' : sprintf('false (%.1f s)', $secs), "\n";
echo "keys left: ", json_encode($redis->cmd('KEYS', 'lock:*')), "\n";
?>
--EXPECT--
20 locks: held, keys: 20
20 locks, server stopped: exit 0, exit within 1.5 s: true
500 locks: held, keys: 500
500 locks, server stopped: exit 0, exit within 1.5 s: true
200 locks: held, keys: 200
200 locks, server running: exit 0, exit within 1 s: true
keys left: []
