--TEST--
RedLock retries: retryCount attempts in total (counted by the servers), pauses of retryDelay/2..retryDelay between them and none after the last
--FILE--
<?php
require __DIR__ . '/inc/redis_server.inc';
$s = rl_start_servers(3);
rl_warm_up($s);
foreach ($s as $r) {
    $r->cmd('SET', 'busy', 'foreign', 'PX', 60000);
}
// A round ends once its outcome is certain and every command is on the
// wire: the last SETs may still be on their way when lock() returns.
$sets = function (int $want = 0) use ($s) {
    $calls = rl_eventually(fn () => implode(' ', array_map(fn ($r) => $r->calls('set'), $s)), "$want $want $want");
    foreach ($s as $r) {
        $r->cmd('CONFIG', 'RESETSTAT');
    }
    return $calls;
};
$sets();

foreach ([
    // [retryDelay, retryCount, min s, max s]
    [300, 3, 0.3, 0.75],   // 2 pauses of 150..300 ms
    [300, 1, 0.0, 0.1],    // one attempt, no pause
    [100, 5, 0.2, 0.55],   // 4 pauses of 50..100 ms
    [0, 4, 0.0, 0.1],      // no pause at all
] as [$delay, $count, $min, $max]) {
    $rl = new RedLock(rl_redlock_list($s), $delay, $count);
    [$r, $secs] = rl_timed(fn () => $rl->lock('busy', 10000));
    printf("retryDelay %d, retryCount %d: %s, SET calls per node: %s, %.2f..%.2f s: %s\n",
        $delay, $count, rl_show($r), $sets($count), $min, $max, var_export($secs >= $min && $secs <= $max, true));
}
// The default: 3 attempts, 100..200 ms apart.
$rl = new RedLock(rl_redlock_list($s));
[$r, $secs] = rl_timed(fn () => $rl->lock('busy', 10000));
printf("defaults: %s, SET calls per node: %s, 0.2..0.5 s: %s\n", rl_show($r), $sets(3), var_export($secs >= 0.2 && $secs <= 0.5, true));

// Freed during the pauses: a later attempt wins.
$rl = new RedLock(rl_redlock_list($s), 200, 10);
$pid = rl_fork(function () use ($s) {
    rl_sleep(0.25);
    foreach ($s as $r) {
        $c = new RespClient('unix://' . $r->socket); // not the parent's connection
        $c->cmd('DEL', 'busy');
    }
    return 0;
});
[$r, $secs] = rl_timed(fn () => $rl->lock('busy', 10000));
echo "freed after 0.25 s: ", is_array($r) ? 'locked' : rl_show($r), ", child exit ", rl_wait($pid),
    ", 0.25..0.75 s: ", var_export($secs >= 0.25 && $secs <= 0.75, true), "\n";
$calls = array_map(fn ($r) => $r->calls('set'), $s);
echo "attempts 2..5: ", var_export(min($calls) >= 2 && max($calls) <= 5 && count(array_unique($calls)) === 1, true), "\n";
echo "nodes: ", rl_eventually(fn () => rl_holders($s, 'busy', [$r['token'] => 'ours']), 'ours ours ours'), "\n";
var_dump($rl->unlock($r));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []'), "\n";
?>
--EXPECT--
retryDelay 300, retryCount 3: false, SET calls per node: 3 3 3, 0.30..0.75 s: true
retryDelay 300, retryCount 1: false, SET calls per node: 1 1 1, 0.00..0.10 s: true
retryDelay 100, retryCount 5: false, SET calls per node: 5 5 5, 0.20..0.55 s: true
retryDelay 0, retryCount 4: false, SET calls per node: 4 4 4, 0.00..0.10 s: true
defaults: false, SET calls per node: 3 3 3, 0.2..0.5 s: true
freed after 0.25 s: locked, child exit 0, 0.25..0.75 s: true
attempts 2..5: true
nodes: ours ours ours
bool(true)
keys: [] [] []
