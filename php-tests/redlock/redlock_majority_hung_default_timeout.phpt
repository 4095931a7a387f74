--TEST--
RedLock with 2 of 3 nodes hung (SIGSTOP) and no timeout of their own: they are given ttl/10 (at least 10 ms, at most redis_lock.read_timeout), then RedisLockException "no reply within …"; their late SETs are cleaned up after SIGCONT
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(3);
$rl = new RedLock(rl_redlock_list($s), 0, 1);
rl_warm_up($s);
ini_set('redis_lock.read_timeout', '0.3');

$s[1]->pause();
$s[2]->pause();
foreach ([
    // ttl => [timeout shown, lower bound, upper bound] in seconds
    1000 => ['0.1', 0.1, 0.5],       // ttl/10
    50 => ['0.01', 0.01, 0.3],       // at least 10 ms
    100000 => ['0.3', 0.3, 0.8],     // at most read_timeout
] as $ttl => [$shown, $min, $max]) {
    [$r, $secs] = rl_timed(fn () => $rl->lock("job-$ttl", $ttl));
    echo "ttl $ttl: ", rl_mask_ports(rl_show($r), $s), "\n";
    printf("  %.2f s <= time < %.1f s: %s\n", $min, $max, var_export($secs >= $min && $secs < $max, true));
}
echo "live node: ", rl_eventually(fn () => rl_all_keys([$s[0]]), '[]'), "\n";

$s[1]->resume();
$s[2]->resume();
rl_sleep(0.2);
echo "keys after resume: ", rl_all_keys($s), "\n";
$lock = $rl->lock('job-1000', 1000);
echo "next lock: ", rl_eventually(fn () => rl_holders($s, 'job-1000', [$lock['token'] => 'ours']), 'ours ours ours'), "\n";
var_dump($rl->unlock($lock));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []'), "\n";
?>
--EXPECT--
ttl 1000: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P2: no reply within 0.1 s; Redis at 127.0.0.1:P3: no reply within 0.1 s
  0.10 s <= time < 0.5 s: true
ttl 50: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P2: no reply within 0.01 s; Redis at 127.0.0.1:P3: no reply within 0.01 s
  0.01 s <= time < 0.3 s: true
ttl 100000: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P2: no reply within 0.3 s; Redis at 127.0.0.1:P3: no reply within 0.3 s
  0.30 s <= time < 0.8 s: true
live node: []
keys after resume: [] [] []
next lock: ours ours ours
bool(true)
keys: [] [] []
