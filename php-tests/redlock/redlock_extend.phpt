--TEST--
RedLock::extend(): sets the new TTL where our token holds and returns the lock with the new validity; false on an expired lock and on a lock stolen on a majority (their keys untouched)
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
rl_warm_up($s);
$rl = new RedLock(rl_redlock_list($s));
$pttls = fn (string $key) => array_map(fn ($r) => $r->cmd('PTTL', $key), $s);

// Held: the TTL goes up to 30 s on every node.
$lock = $rl->lock('job', 1000);
$ext = $rl->extend($lock, 30000);
echo "keys: ", json_encode(array_keys($ext)), ", same resource and token: ",
    var_export($ext['resource'] === 'job' && $ext['token'] === $lock['token'], true), "\n";
printf("validity in (30000 - 302 - 50, 30000 - 302]: %s\n", var_export($ext['validity'] > 30000 - 302 - 50 && $ext['validity'] <= 30000 - 302, true));
// (extend() may return once a majority confirmed: the rest is in flight.)
$within = fn (string $key, int $lo, int $hi, array $nodes = [0, 1, 2, 3, 4]) => rl_eventually(function () use ($pttls, $key, $lo, $hi, $nodes) {
    $p = array_intersect_key($pttls($key), array_flip($nodes));
    return min($p) > $lo && max($p) <= $hi;
}, true);
echo "PTTL in (29500, 30000] on every node: ", var_export($within('job', 29500, 30000), true), "\n";
// Shortening works the same way (PEXPIRE, not "at least").
$ext = $rl->extend($ext, 5000);
echo "shortened: ", is_array($ext) ? 'array' : rl_show($ext), ", PTTL in (4500, 5000]: ", var_export($within('job', 4500, 5000), true), "\n";

// Stolen on 2 of 5 (a minority): still extended, on our 3 nodes only.
foreach ([0, 1] as $i) {
    $s[$i]->cmd('SET', 'job', 'foreign', 'PX', 50000);
}
$ext = $rl->extend($lock, 20000);
echo "minority stolen: ", is_array($ext) ? 'array' : rl_show($ext), ", nodes: ", rl_holders($s, 'job', [$lock['token'] => 'ours', 'foreign' => 'foreign']),
    ", PTTL of ours ~20000: ", var_export($within('job', 19500, 20000, [2, 3, 4]), true),
    ", of theirs untouched: ", var_export($within('job', 49000, 50000, [0, 1]), true), "\n";

// Stolen on 3 of 5: false; their keys keep value and TTL.
$s[2]->cmd('SET', 'job', 'foreign', 'PX', 50000);
var_dump($rl->extend($lock, 60000));
$p = $pttls('job');
echo "nodes: ", rl_holders($s, 'job', [$lock['token'] => 'ours', 'foreign' => 'foreign']),
    ", theirs untouched: ", var_export(min(array_slice($p, 0, 3)) > 49000 && max(array_slice($p, 0, 3)) <= 50000, true), "\n";
var_dump($rl->unlock($lock));
echo "after unlock: ", rl_eventually(fn () => rl_holders($s, 'job', ['foreign' => 'foreign']), 'foreign foreign foreign - -'), "\n";

// Expired: false, and nothing is created.
$short = $rl->lock('short', 100);
rl_sleep(0.2);
var_dump($rl->extend($short, 10000));
echo "short: ", rl_eventually(fn () => rl_holders($s, 'short'), '- - - - -'), "\n";
// Expired and taken by another client: false, theirs untouched.
$other = new RedLock(rl_redlock_list($s));
$theirs = $other->lock('short', 10000);
var_dump($rl->extend($short, 60000));
$p = $pttls('short');
echo "theirs: ", rl_eventually(fn () => rl_holders($s, 'short', [$theirs['token'] => 'theirs']), 'theirs theirs theirs theirs theirs'), ", TTL untouched: ", var_export(max($p) <= 10000, true), "\n";
var_dump($other->unlock($theirs));

// Unlocked: extend() cannot bring it back.
$lock = $rl->lock('gone', 10000);
var_dump($rl->unlock($lock));
var_dump($rl->extend($lock, 10000));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '["job"] ["job"] ["job"] [] []'), "\n";
?>
--EXPECT--
keys: ["validity","resource","token"], same resource and token: true
validity in (30000 - 302 - 50, 30000 - 302]: true
PTTL in (29500, 30000] on every node: true
shortened: array, PTTL in (4500, 5000]: true
minority stolen: array, nodes: foreign foreign ours ours ours, PTTL of ours ~20000: true, of theirs untouched: true
bool(false)
nodes: foreign foreign foreign ours ours, theirs untouched: true
bool(false)
after unlock: foreign foreign foreign - -
bool(false)
short: - - - - -
bool(false)
theirs: theirs theirs theirs theirs theirs, TTL untouched: true
bool(true)
bool(true)
bool(false)
keys: ["job"] ["job"] ["job"] [] []
