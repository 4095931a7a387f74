--TEST--
RedLock's patience: one round of SET NX (counted by the servers); refused, the caller waits in the queue, looking again on every node (a script per look, each adding it to the queue: counted by its ZADDs), and gives up retryCount × retryDelay after the call began; one attempt (retryCount 1) or no delay (retryDelay 0) retries as before, without a queue; a key freed by another client is taken at the next look; nothing of the queue is left
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
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
    // [retryDelay, retryCount, min s, max s]: the upper bounds leave 0.3 s
    // for a stall of the host, and a look or a blocking pop that ends at
    // the server's tick (100 ms at hz 10)
    [300, 3, 0.9, 1.4],    // waits 900 ms in the queue
    [2000, 1, 0.0, 0.5],   // one attempt, no wait (a queue would wait 2 s)
    [100, 5, 0.5, 1.0],    // waits 500 ms
    [0, 10, 0.0, 0.4],     // no delay: 10 attempts back to back, no queue
] as [$delay, $count, $min, $max]) {
    $rl = new RedLock(rl_redlock_list($s), $delay, $count);
    [$r, $secs] = rl_timed(fn () => $rl->lock('busy', 10000));
    $queued = $delay > 0 && $count > 1;
    // A look (TAKE) adds the caller to the queue's sorted sets; a failed
    // attempt's release of a node it did not wait for runs a script too, but no ZADD.
    $looks = array_map(fn ($r) => $r->calls('zadd'), $s);
    printf("retryDelay %d, retryCount %d: %s, SET calls per node: %s, looked again on every node: %s, %.2f..%.2f s: %s\n",
        $delay, $count, rl_show($r), $sets($queued ? 1 : $count), var_export(min($looks) >= 2, true), $min, $max,
        var_export($secs >= $min && $secs <= $max, true));
}
// The default: retryDelay 200 ms, retryCount 3: 600 ms in the queue.
$rl = new RedLock(rl_redlock_list($s));
[$r, $secs] = rl_timed(fn () => $rl->lock('busy', 10000));
printf("defaults: %s, SET calls per node: %s, 0.6..1.1 s: %s\n", rl_show($r), $sets(1), var_export($secs >= 0.6 && $secs <= 1.1, true));
echo "queue keys left: ", rl_all_keys($s), "\n";

// Freed while it waits: the next look takes it on every node. Another
// process deletes the key on every node while this one is stopped (SIGSTOP)
// in its blocking pop between two looks, with the same looks (2 ZADDs each)
// run on every node: no look of its is on its way anywhere, so none can
// straddle the deletes (one that did would take a majority of the nodes
// only). It notes the moment (CLOCK_MONOTONIC, as rl_now() here) just before.
$rl = new RedLock(rl_redlock_list($s), 200, 10);
$freedAt = rl_tmpdir() . '/freed-at';
$parent = getmypid();
$pid = rl_fork(function () use ($s, $freedAt, $parent) {
    $cs = array_map(fn ($r) => new RespClient('unix://' . $r->socket), $s); // not the parent's connections
    $count = fn (string $section, string $pattern) => array_map(fn ($c) => preg_match($pattern, (string) $c->cmd('INFO', $section), $m) ? (int) $m[1] : 0, $cs);
    $between = function () use ($count) {
        $zadds = $count('commandstats', '/^cmdstat_zadd:calls=(\d+)/m');
        return array_sum($count('clients', '/^blocked_clients:(\d+)/m')) === 1 && min($zadds) >= 2 && count(array_unique($zadds)) === 1;
    };
    // Every thread of the parent stopped (its rounds may write from more than
    // one): the state follows the last ')' of each stat (a name may hold one).
    $stopped = fn () => array_unique(array_map(fn ($f) => preg_match('/^.*\) (\S) /s', (string) @file_get_contents($f), $m) ? $m[1] : '?', glob("/proc/$parent/task/*/stat"))) === ['T'];
    try {
        for ($tries = 0; ; $tries++) {
            if ($tries === 20 || !rl_eventually($between, true, 5.0)) {
                return 1;
            }
            rl_signal($parent, SIGSTOP);
            if (!rl_eventually($stopped, true, 2.0)) {
                return 2;
            }
            if ($between()) {
                break; // (else its pop ended meanwhile: let it look again)
            }
            rl_signal($parent, SIGCONT);
        }
        file_put_contents($freedAt, sprintf('%.6f', rl_now()));
        foreach ($cs as $c) {
            $c->send(['DEL', 'busy']);
        }
        foreach ($cs as $c) {
            $c->read();
        }
    } finally {
        rl_signal($parent, SIGCONT); // (never left stopped, whatever happened here)
    }
    return 0;
});
[$r, $secs] = rl_timed(fn () => $rl->lock('busy', 10000));
$since = rl_now() - (float) @file_get_contents($freedAt);
echo "freed after the first attempt: ", is_array($r) ? 'locked' : rl_show($r), ", child exit ", rl_wait($pid),
    ", returned after the key was freed, within 0.6 s of it: ", var_export($since > 0 && $since < 0.6, true), "\n";
echo "nodes: ", rl_eventually(fn () => rl_holders($s, 'busy', [$r['token'] => 'ours']), 'ours ours ours'), "\n";
// The first attempt's SET NX and the look's SET, on every node.
echo "SET calls per node: ", implode(' ', array_map(fn ($r) => $r->calls('set'), $s)), "\n";
var_dump($rl->unlock($r));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []'), "\n";
?>
--EXPECT--
retryDelay 300, retryCount 3: false, SET calls per node: 1 1 1, looked again on every node: true, 0.90..1.40 s: true
retryDelay 2000, retryCount 1: false, SET calls per node: 1 1 1, looked again on every node: false, 0.00..0.50 s: true
retryDelay 100, retryCount 5: false, SET calls per node: 1 1 1, looked again on every node: true, 0.50..1.00 s: true
retryDelay 0, retryCount 10: false, SET calls per node: 10 10 10, looked again on every node: false, 0.00..0.40 s: true
defaults: false, SET calls per node: 1 1 1, 0.6..1.1 s: true
queue keys left: ["busy"] ["busy"] ["busy"]
freed after the first attempt: locked, child exit 0, returned after the key was freed, within 0.6 s of it: true
nodes: ours ours ours
SET calls per node: 2 2 2
bool(true)
keys: [] [] []
