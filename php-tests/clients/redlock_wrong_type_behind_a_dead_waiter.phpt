--TEST--
Audit, other clients: a RedLock unlock that first passes over a dead waiter (killed, its place run out on every master) and then meets, on two of three masters, the next waiter's wake-up list ({K}:rw:<waiter>) as a string throws a RedisLockException naming that key; there it writes nothing but the dead waiter's drop (the lock stays the holder's with its TTL, the live waiter keeps its place); once the strings are gone the unlock hands the lock to that waiter, which gets it only then
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$nodes = rl_start_servers(3);
$dir = rl_tmpdir();
$key = 'dead';
$K = $key; // RedLock uses the resource as it is given
[$rq, $rt] = ["{{$K}}:rq", "{{$K}}:rt"];
$show = fn ($r) => is_array($r) ? 'array' : rl_audit_msg($r, $nodes);
$queues = fn () => implode(' ', array_map(fn ($s) => json_encode($s->cmd('ZRANGE', $rq, 0, -1)), $nodes));

$rl = new RedLock(rl_redlock_list($nodes), 100, 100); // 10 s of patience
$held = $rl->lock($key, 10000);
echo "held: ", $show($held), "\n";
$waiter = function (string $who) use ($nodes, $key, $dir, $show): int {
    return rl_fork(function () use ($nodes, $key, $dir, $who, $show) {
        $rl = new RedLock(rl_redlock_list($nodes), 100, 100);
        $lock = $rl->lock($key, 10000);
        $got = rl_now();
        file_put_contents("$dir/$who", json_encode([$show($lock), $got, is_array($lock) ? $lock['token'] : null]));
        rl_sleep(0.05);
        if (is_array($lock)) {
            $rl->unlock($lock);
        }
        return 0;
    });
};
// The dead waiter's ticket (its lock()'s start, in ms) comes first.
$dead = $waiter('dead');
$tokens = [];
$one = rl_eventually(fn () => implode(' ', array_map(fn ($s) => (int) $s->cmd('ZCARD', $rq), $nodes)), '1 1 1', 5.0);
$tokens['dead'] = $nodes[0]->cmd('ZRANGE', $rq, 0, 0)[0] ?? '';
rl_sleep(0.01);
$live = $waiter('live');
$two = rl_eventually(fn () => implode(' ', array_map(fn ($s) => (int) $s->cmd('ZCARD', $rq), $nodes)), '2 2 2', 5.0);
$tokens['live'] = $nodes[0]->cmd('ZRANGE', $rq, 1, 1)[0] ?? '';
echo "queued on every master, in ticket order: ", var_export($one === '1 1 1' && $two === '2 2 2', true), "\n";
$named = fn (array $list) => array_map(fn ($t) => array_search($t, $tokens, true) ?: $t, $list);

// Killed while waiting: its place outlives it on every master.
posix_kill($dead, SIGKILL);
rl_wait($dead);
$deadEnds = max(array_map(fn ($s) => (int) $s->cmd('ZSCORE', $rt, $tokens['dead']), $nodes));
// The live waiter looks every 100 ms until 100 ms before that end (and so
// drops nobody yet), then is frozen: its place outlasts the dead one's by
// 100 ms or more, and nothing of it runs while the unlock below does.
rl_eventually(fn () => $nodes[0]->nowMs() >= $deadEnds - 100, true, 3.0);
posix_kill($live, SIGSTOP);
$ranOut = rl_eventually(fn () => $nodes[0]->nowMs() > $deadEnds + 10, true, 3.0);
$liveEnds = min(array_map(fn ($s) => (int) $s->cmd('ZSCORE', $rt, $tokens['live']), $nodes));
echo "the dead waiter's place ran out: ", var_export($ranOut, true),
    ", the live waiter's has 50 ms or more left: ", var_export($liveEnds - $nodes[0]->nowMs() >= 50, true),
    ", both still in line: ", $queues() === implode(' ', array_fill(0, 3, json_encode([$tokens['dead'], $tokens['live']]))) ? 'yes' : $queues(), "\n";

$list = "{{$K}}:rw:{$tokens['live']}";
foreach ([0, 1] as $n) {
    $nodes[$n]->cmd('SET', $list, 'attacker');
}
$unlock = rl_timed(fn () => $rl->unlock($held))[0];
// At once: where the lock went to the live waiter, it is a grant of 200 ms.
// unlock() returns once two masters failed: master 2's hand-off may still be
// on its way (on a busy machine, it was), so the values are read once it is
// there, polled every 5 ms, or after 1 s.
rl_eventually(fn () => str_starts_with((string) $nodes[2]->cmd('GET', $K), $tokens['live']), true, 1.0);
$values = array_map(fn ($s) => [(string) $s->cmd('GET', $K), $s->cmd('PTTL', $K)], $nodes);
echo "unlock: ", $show($unlock), "\n";
foreach ($nodes as $n => $s) {
    [$v, $pttl] = $values[$n];
    $owner = str_starts_with($v, $held['token']) ? 'holder' : (str_starts_with($v, $tokens['live']) ? 'live' : json_encode($v));
    echo "  master $n: queue ", json_encode($named($s->cmd('ZRANGE', $rq, 0, -1))), ", places ", json_encode($named($s->cmd('ZRANGE', $rt, 0, -1))),
        ", the lock: $owner", $owner === 'holder' ? ', its TTL untouched: ' . var_export($pttl > 8000, true) : '',
        $n < 2 ? ', the string kept: ' . json_encode($s->cmd('GET', $list)) : '', "\n";
}

foreach ([0, 1] as $n) {
    $nodes[$n]->cmd('DEL', $list);
}
$unlocked = rl_now();
echo "unlock once the strings are gone: ", $show(rl_timed(fn () => $rl->unlock($held))[0]), "\n";
posix_kill($live, SIGCONT);
echo "live waiter exit: ", rl_wait($live), "\n";
[$got, $gotAt, $liveToken] = json_decode((string) @file_get_contents("$dir/live"), true) ?: ['-', 0, null];
echo "live waiter: $got, after that unlock: ", var_export($gotAt > $unlocked, true), ", with its token: ", var_export($liveToken === $tokens['live'], true), "\n";
echo "the dead waiter wrote nothing: ", var_export(!file_exists("$dir/dead"), true), "\n";
echo "left: ", rl_eventually(fn () => rl_all_keys($nodes), '[] [] []', 5.0), "\n";
?>
--EXPECT--
held: array
queued on every master, in ticket order: true
the dead waiter's place ran out: true, the live waiter's has 50 ms or more left: true, both still in line: yes
unlock: RedisLockException: RedLock::unlock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the next waiter's wake-up list is a string, not what the lock keeps there; Redis at 127.0.0.1:P2: error reply: WRONGTYPE the next waiter's wake-up list is a string, not what the lock keeps there
  master 0: queue ["live"], places ["live"], the lock: holder, its TTL untouched: true, the string kept: "attacker"
  master 1: queue ["live"], places ["live"], the lock: holder, its TTL untouched: true, the string kept: "attacker"
  master 2: queue [], places [], the lock: live
unlock once the strings are gone: true
live waiter exit: 0
live waiter: array, after that unlock: true, with its token: true
the dead waiter wrote nothing: true
left: [] [] []
