--TEST--
RedisMutexLock::lock(): timeout 0 is one SET NX and returns at once; a wait ends at its deadline; $sleep spaces the waiter's looks at the queue behind a holder of ours (one blocking pop each); another client's lock that expires during the wait is taken just after
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
// Held by an owner token of another process of ours: its release would
// wake the waiter, which meanwhile blocks between looks (behind a value that
// is not ours it would look again on its own short interval instead:
// clients/queue_foreign_holders.phpt).
$holder = '0123456789ABCDEF0123456789ABCDEF:elsewhere:1:1';
$redis->cmd('SET', 'lock:busy', $holder, 'PX', 60000);
RedisMutexLock::lock('warm-up') && RedisMutexLock::release('warm-up');

function attempt(RedisServer $redis, float $timeout, ?int $sleep = null): array
{
    $redis->cmd('CONFIG', 'RESETSTAT');
    [$r, $secs] = rl_timed(fn () => $sleep === null
        ? RedisMutexLock::lock('busy', $timeout)
        : RedisMutexLock::lock('busy', $timeout, 20, $sleep));
    return [$r, $secs, $timeout == 0 ? $redis->calls('set') : $redis->calls('blpop')];
}

[$r, $secs, $sets] = attempt($redis, 0);
printf("timeout 0: %s, one attempt: %s, < 0.5 s: %s\n", rl_show($r), var_export($sets === 1, true), var_export($secs < 0.5, true));

[$r, $secs, $sets] = attempt($redis, 1);
// Redis ends a blocking pop up to 100 ms late (it looks at blocked clients'
// timeouts about every 100 ms at its default hz 10): 5 to 11 looks, 3 when a slow
// host loses a few ticks (a wait in one long block would make 1).
printf("timeout 1: %s, 0.95..1.6 s: %s (%.3f), looks 3..11: %s (%d)\n", rl_show($r),
    var_export($secs >= 0.95 && $secs < 1.6, true), $secs, var_export($sets >= 3 && $sets <= 11, true), $sets);

// sleep 0.3 s, timeout 1 s: looks at 0, 0.3, 0.6 and 0.9 (the last one blocks until the deadline).
[$r, $secs, $sets] = attempt($redis, 1, 300000);
printf("sleep 0.3: %s, 0.95..1.6 s: %s (%.3f), looks 3..4: %s (%d)\n", rl_show($r),
    var_export($secs >= 0.95 && $secs < 1.6, true), $secs, var_export($sets >= 3 && $sets <= 4, true), $sets);

// A check interval longer than the timeout is cut at the deadline: one look, blocking 0.5 s.
[$r, $secs, $sets] = attempt($redis, 0.5, 5000000);
printf("sleep 5 s, timeout 0.5: %s, 0.45..1.0 s: %s (%.3f), attempts: %d\n", rl_show($r),
    var_export($secs >= 0.45 && $secs < 1.0, true), $secs, $sets);

echo "holder untouched: ", var_export($redis->cmd('GET', 'lock:busy') === $holder, true), "\n";

// Another client's lock that frees itself (TTL) during the wait is taken
// just after its expiry (the first waiter's looks never sleep past it).
$redis->cmd('SET', 'lock:soon', 'other-owner', 'PX', 600);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('soon', 3));
printf("freed after 0.6 s: %s, 0.55..1.2 s: %s (%.3f), mine now: %s\n", rl_show($r),
    var_export($secs >= 0.55 && $secs < 1.2, true), $secs, var_export(rl_is_token($redis->cmd('GET', 'lock:soon')), true));
var_dump(RedisMutexLock::release('soon'));
?>
--EXPECTF--
timeout 0: false, one attempt: true, < 0.5 s: true
timeout 1: false, 0.95..1.6 s: true (%f), looks 3..11: true (%d)
sleep 0.3: false, 0.95..1.6 s: true (%f), looks 3..4: true (%d)
sleep 5 s, timeout 0.5: false, 0.45..1.0 s: true (%f), attempts: 1
holder untouched: true
freed after 0.6 s: true, 0.55..1.2 s: true (%f), mine now: true
bool(true)
