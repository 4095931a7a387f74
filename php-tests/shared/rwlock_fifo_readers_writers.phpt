--TEST--
RedisReadWriteLock: readers share, a writer excludes; FIFO across modes (a reader arriving after a queued writer waits behind it); a release hands off directly (as it returns, the lock key's hold set already has the next waiter's hold, or both consecutive readers' at the head) and the waiters so let in return within 2 s
--SKIPIF--
<?php if (!function_exists('proc_open')) die('skip proc_open needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/actor.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
[$a, $b, $w, $late, $r1, $r2, $w2] = array_map(fn () => new RlActor($redis), range(1, 7));
$L = 'RedisReadWriteLock::';
$waiters = fn () => RedisReadWriteLock::inspect('k')['waiters'];
$names = rl_actor_pids(['A' => $a, 'B' => $b, 'W' => $w, 'late' => $late, 'R1' => $r1, 'R2' => $r2, 'W2' => $w2]);
$holds = fn () => rl_holds_named($redis, 'lock:k', $names);

echo "A read: ", json_encode($a->result("{$L}lockRead", 'k')), "\n";
echo "B read beside A: ", json_encode($b->result("{$L}lockRead", 'k')), "\n";
echo "W write, no wait: ", json_encode($w->result("{$L}lockWrite", 'k')), "\n";
$w->send("{$L}lockWrite", 'k', 20);
echo "W queued: ", rl_eventually($waiters, 1, 5), "\n";
// Readers hold and nobody else may read past the queued writer.
echo "late reader, no wait: ", json_encode($late->result("{$L}lockRead", 'k')), "\n";
$r1->send("{$L}lockRead", 'k', 20);
echo "R1 queued behind W: ", rl_eventually($waiters, 2, 5), "\n";
$r2->send("{$L}lockRead", 'k', 20);
echo "R2 queued: ", rl_eventually($waiters, 3, 5), "\n";
$w2->send("{$L}lockWrite", 'k', 20);
echo "W2 queued: ", rl_eventually($waiters, 4, 5), "\n";
$keys = rl_keys_ttl($redis);
echo "every key has a TTL while they wait: ", json_encode(count(array_filter($keys, fn ($t) => $t > 0)) === count($keys)), "\n";

echo "A release: ", json_encode($a->result("{$L}release", 'k')), "\n";
echo "W still waits for B: ", json_encode($w->poll(0.3) === null), "\n";
$rel = $b->call("{$L}release", 'k');
// Read at once: the release itself hands W its hold (a waiter's own look comes only every 100 ms).
$held = $holds();
$got = $w->answer();
printf("B release %s; holds as it returned: %s; W gets it: %s, %s after B's release\n", json_encode($rel['r']), $held, json_encode($got['r']), $got['end'] - $rel['end'] < 2 ? '< 2 s' : sprintf('%.3f s', $got['end'] - $rel['end']));
$i = RedisReadWriteLock::inspect('k');
echo "writer: ", json_encode($i['writer']), ", readers: ", $i['readers'], ", waiters: ", $i['waiters'], "\n";
echo "R1, R2 wait for W: ", json_encode($r1->poll(0.2) === null), "\n";

$rel = $w->call("{$L}release", 'k');
$held = $holds();
[$g1, $g2] = [$r1->answer(), $r2->answer()];
printf("W release %s; holds as it returned: %s; R1 %s, R2 %s, both %s after it\n", json_encode($rel['r']), $held, json_encode($g1['r']), json_encode($g2['r']),
    max($g1['end'], $g2['end']) - $rel['end'] < 2 ? '< 2 s' : sprintf('%.3f s', max($g1['end'], $g2['end']) - $rel['end']));
$i = RedisReadWriteLock::inspect('k');
echo "writer: ", json_encode($i['writer']), ", readers: ", $i['readers'], ", waiters: ", $i['waiters'], "\n";
echo "W2 waits for both readers: ", json_encode($w2->poll(0.2) === null), "\n";
$r1->call("{$L}release", 'k');
echo "W2 still waits for R2: ", json_encode($w2->poll(0.2) === null), "\n";
$rel = $r2->call("{$L}release", 'k');
$got = $w2->answer();
printf("R2 release; W2 gets it: %s\n", json_encode($got['r']));
echo "W2 release: ", json_encode($w2->result("{$L}release", 'k')), "\n";
echo "release again: ", json_encode($w2->result("{$L}release", 'k')), "\n";
echo "keys left: ", json_encode($redis->keys()), "\n";
foreach ([$a, $b, $w, $late, $r1, $r2, $w2] as $actor) {
    $actor->finish();
}
?>
--EXPECT--
A read: true
B read beside A: true
W write, no wait: false
W queued: 1
late reader, no wait: false
R1 queued behind W: 2
R2 queued: 3
W2 queued: 4
every key has a TTL while they wait: true
A release: true
W still waits for B: true
B release true; holds as it returned: W; W gets it: true, < 2 s after B's release
writer: true, readers: 0, waiters: 3
R1, R2 wait for W: true
W release true; holds as it returned: R1+R2; R1 true, R2 true, both < 2 s after it
writer: false, readers: 2, waiters: 1
W2 waits for both readers: true
W2 still waits for R2: true
R2 release; W2 gets it: true
W2 release: true
release again: false
keys left: []
