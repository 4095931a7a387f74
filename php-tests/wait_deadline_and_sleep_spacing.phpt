--TEST--
RedisMutexLock::lock(): timeout 0 returns at once; a wait ends at its deadline; $sleep spaces the attempts
--FILE--
<?php
require __DIR__ . '/inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$redis->cmd('SET', 'lock:busy', 'other-owner', 'PX', 60000);
RedisMutexLock::lock('warm-up') && RedisMutexLock::release('warm-up');

function attempt(RedisServer $redis, float $timeout, ?int $sleep = null): array
{
    $redis->cmd('CONFIG', 'RESETSTAT');
    [$r, $secs] = rl_timed(fn () => $sleep === null
        ? RedisMutexLock::lock('busy', $timeout)
        : RedisMutexLock::lock('busy', $timeout, 20, $sleep));
    return [$r, $secs, $redis->calls('set')];
}

[$r, $secs, $sets] = attempt($redis, 0);
printf("timeout 0: %s, one attempt: %s, < 0.5 s: %s\n", rl_show($r), var_export($sets === 1, true), var_export($secs < 0.5, true));

[$r, $secs, $sets] = attempt($redis, 1);
printf("timeout 1: %s, 0.95..1.6 s: %s (%.3f), attempts 9..12: %s (%d)\n", rl_show($r),
    var_export($secs >= 0.95 && $secs < 1.6, true), $secs, var_export($sets >= 9 && $sets <= 12, true), $sets);

// sleep 0.3 s, timeout 1 s: attempts at 0, 0.3, 0.6, 0.9 and the last at the deadline.
[$r, $secs, $sets] = attempt($redis, 1, 300000);
printf("sleep 0.3: %s, 0.95..1.6 s: %s (%.3f), attempts 4..6: %s (%d)\n", rl_show($r),
    var_export($secs >= 0.95 && $secs < 1.6, true), $secs, var_export($sets >= 4 && $sets <= 6, true), $sets);

// A pause longer than the timeout is cut at the deadline: one attempt at 0, one at 0.5 s.
[$r, $secs, $sets] = attempt($redis, 0.5, 5000000);
printf("sleep 5 s, timeout 0.5: %s, 0.45..1.0 s: %s (%.3f), attempts: %d\n", rl_show($r),
    var_export($secs >= 0.45 && $secs < 1.0, true), $secs, $sets);

echo "holder untouched: ", var_export($redis->cmd('GET', 'lock:busy'), true), "\n";

// A lock that frees itself during the wait is taken then (attempts every 0.1 s).
$redis->cmd('SET', 'lock:soon', 'other-owner', 'PX', 600);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('soon', 3));
printf("freed after 0.6 s: %s, 0.55..1.2 s: %s (%.3f), mine now: %s\n", rl_show($r),
    var_export($secs >= 0.55 && $secs < 1.2, true), $secs, var_export(rl_is_token($redis->cmd('GET', 'lock:soon')), true));
var_dump(RedisMutexLock::release('soon'));
?>
--EXPECTF--
timeout 0: false, one attempt: true, < 0.5 s: true
timeout 1: false, 0.95..1.6 s: true (%f), attempts 9..12: true (%d)
sleep 0.3: false, 0.95..1.6 s: true (%f), attempts 4..6: true (%d)
sleep 5 s, timeout 0.5: false, 0.45..1.0 s: true (%f), attempts: 2
holder untouched: 'other-owner'
freed after 0.6 s: true, 0.55..1.2 s: true (%f), mine now: true
bool(true)
