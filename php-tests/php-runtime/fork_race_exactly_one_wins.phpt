--TEST--
pcntl_fork(): children racing for one key: exactly one wins, every round
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
// The parent has a pooled connection before forking, as a worker would.
RedisMutexLock::lock('warm-up') && RedisMutexLock::release('warm-up');

for ($round = 1; $round <= 5; $round++) {
    $key = "race-$round";
    $gates = [];
    $pids = [];
    for ($i = 0; $i < 4; $i++) {
        [$ours, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pids[] = rl_fork(function () use ($key, $theirs) {
            ini_set('redis_lock.release_on_shutdown', '0'); // the winner keeps it
            fgets($theirs);                                  // all start together
            return RedisMutexLock::lock($key, 0, 30) ? 10 : 20;
        });
        fclose($theirs);
        $gates[] = $ours;
    }
    foreach ($gates as $g) {
        fwrite($g, "go\n");
    }
    $codes = array_map('rl_wait', $pids);
    $wins = count(array_filter($codes, fn ($c) => $c === 10));
    $losses = count(array_filter($codes, fn ($c) => $c === 20));
    echo "round $round: $wins winner, $losses losers, token: ",
        var_export(rl_is_token($redis->cmd('GET', "lock:$key")), true), "\n";
}
echo "keys: ", count($redis->keys()), "\n";
?>
--EXPECT--
round 1: 1 winner, 3 losers, token: true
round 2: 1 winner, 3 losers, token: true
round 3: 1 winner, 3 losers, token: true
round 4: 1 winner, 3 losers, token: true
round 5: 1 winner, 3 losers, token: true
keys: 5
