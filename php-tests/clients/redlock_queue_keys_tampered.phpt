--TEST--
Audit, other clients: RedLock's queue keys on its masters ({R}:rq, {R}:rt, {R}:rw:<waiter>) overwritten with a string while a waiter waits: on a minority, the waiter is still handed the lock after the unlock; the queue or places on a majority make unlock() and the waiter throw a RedisLockException that names the key, the failed unlock() leaving the lock as it was (unlocked once the keys are gone) and the attacker's keys kept; a running waiter whose wake-up lists were overwritten on a majority empties them when it leaves after its failed look, and gets the lock; a frozen one makes the unlock() that would hand it the lock throw (the next waiter's wake-up list) having written nothing; nothing of ours is left without a TTL, nor at all once the keys are gone; the lock key held as one of our read/write locks on a majority is a RedisLockException that says so
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit.inc';
$nodes = rl_start_servers(3);
$dir = rl_tmpdir();
$show = fn ($r) => is_array($r) ? 'array' : rl_audit_msg($r, $nodes);

$attacks = [
    // name => [key part, the nodes written, the waiter: runs / is frozen (SIGSTOP) from then on]
    'rq as a string on one node' => ['rq', [0], 'runs'],
    'rq as a string on two nodes' => ['rq', [0, 1], 'runs'],
    'rt as a string on two nodes' => ['rt', [0, 1], 'runs'],
    'rw:<waiter> as a string on one node' => ['rw', [0], 'runs'],
    'rw:<waiter> as a string on two nodes, the waiter running' => ['rw', [0, 1], 'runs'],
    'rw:<waiter> as a string on two nodes, the waiter frozen' => ['rw', [0, 1], 'frozen'],
];
$i = 0;
foreach ($attacks as $name => [$part, $on, $waiterIs]) {
    $key = 'qt' . $i++;
    $rl = new RedLock(rl_redlock_list($nodes), 100, 15); // 1.5 s of patience
    $held = $rl->lock($key, 10000);
    $child = rl_fork(function () use ($nodes, $key, $dir, $show) {
        $rl = new RedLock(rl_redlock_list($nodes), 100, 15);
        [$lock, $secs] = rl_timed(fn () => $rl->lock($key, 10000));
        $got = rl_now();
        $unlock = is_array($lock) ? $show(rl_timed(fn () => $rl->unlock($lock))[0]) : '-';
        file_put_contents("$dir/$key", json_encode([$show($lock), $secs, $got, $unlock]));
        return 0;
    });
    $queued = fn () => implode(' ', array_map(fn ($s) => (int) $s->cmd('ZCARD', "{{$key}}:rq"), $nodes));
    $ok = rl_eventually($queued, '1 1 1', 5.0);
    $waiter = $nodes[0]->cmd('ZRANGE', "{{$key}}:rq", 0, 0)[0] ?? '';
    $target = $part === 'rw' ? "{{$key}}:rw:$waiter" : "{{$key}}:$part";
    if ($waiterIs === 'frozen') {
        // Its place (500 ms from its last look, 100 ms or less ago) outlives the unlock below.
        posix_kill($child, SIGSTOP);
    }
    foreach ($on as $n) {
        $nodes[$n]->cmd('SET', $target, 'attacker');
    }
    echo "$name (queued on every node: ", $ok === '1 1 1' ? 'yes' : $ok, ")\n";
    if ($part === 'rw' && count($on) > 1 && $waiterIs === 'runs') {
        // Its look fails on a majority, so it leaves every queue, which empties its own wake-up lists.
        echo "  the waiter's leave emptied its wake-up lists: ", var_export(rl_eventually(fn () => implode(' ', array_map(fn ($n) => (int) $nodes[$n]->cmd('EXISTS', $target), $on)), '0 0', 3.0) === '0 0', true), "\n";
    } elseif ($waiterIs === 'runs') {
        rl_sleep(0.25); // two of the waiter's looks
    }
    $unlocking = rl_now();
    $unlocked = rl_timed(fn () => $rl->unlock($held))[0];
    if ($waiterIs === 'frozen') {
        posix_kill($child, SIGKILL);
    }
    $exit = rl_wait($child);
    [$got, $waited, $gotAt, $unlockedByWaiter] = json_decode((string) @file_get_contents("$dir/$key"), true) ?: ['-', 0, 0, '-'];
    echo "  unlock: ", $show($unlocked), "\n";
    echo "  waiter: $got", $got === 'array' ? ', after the unlock began: ' . ($gotAt > $unlocking ? 'yes' : 'no') : '',
        $got === '-' ? '' : ", within its patience + 1 s: " . ($waited < 2.5 ? 'yes' : sprintf('no (%.2f s)', $waited)), ", its unlock: $unlockedByWaiter, exit $exit\n";
    echo "  attacker's keys: ", implode(' ', array_map(fn ($n) => json_encode($nodes[$n]->cmd('GET', $target)), $on)), "\n";
    echo "  ours without a TTL: ", implode(' ', array_map(fn ($s) => rl_audit_no_ttl($s, [$target]), $nodes)), "\n";
    foreach ($on as $n) {
        $nodes[$n]->cmd('DEL', $target);
    }
    // What a failed unlock() left is as it was: the holder's, to unlock again.
    echo "  unlock again once they are gone: ", $show(rl_timed(fn () => $rl->unlock($held))[0]), "\n";
    echo "  left once they are gone: ", rl_eventually(fn () => rl_all_keys($nodes), '[] [] []', 5.0), "\n";
}

// The lock key held as one of our read/write locks on two nodes: a mix-up of classes, said so.
foreach ([0, 1] as $n) {
    ini_set('redis_lock.server', $nodes[$n]->dsn());
    RedisReadWriteLock::lockRead('shared');
}
$rl = new RedLock(rl_redlock_list($nodes), 100, 3);
echo "K held as a read/write lock on two nodes: lock ", $show(rl_timed(fn () => $rl->lock('lock:shared', 10000))[0]), "\n";
foreach ([0, 1] as $n) {
    ini_set('redis_lock.server', $nodes[$n]->dsn());
    RedisReadWriteLock::release('shared');
}
echo "  left once released: ", rl_eventually(fn () => rl_all_keys($nodes), '[] [] []', 5.0), "\n";
?>
--EXPECT--
rq as a string on one node (queued on every node: yes)
  unlock: true
  waiter: array, after the unlock began: yes, within its patience + 1 s: yes, its unlock: true, exit 0
  attacker's keys: "attacker"
  ours without a TTL: none none none
  unlock again once they are gone: false
  left once they are gone: [] [] []
rq as a string on two nodes (queued on every node: yes)
  unlock: RedisLockException: RedLock::unlock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the waiters' queue is a string, not what the lock keeps there; Redis at 127.0.0.1:P2: error reply: WRONGTYPE the waiters' queue is a string, not what the lock keeps there
  waiter: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the waiters' queue is a string, not what the lock keeps there; Redis at 127.0.0.1:P2: error reply: WRONGTYPE the waiters' queue is a string, not what the lock keeps there, within its patience + 1 s: yes, its unlock: -, exit 0
  attacker's keys: "attacker" "attacker"
  ours without a TTL: none none none
  unlock again once they are gone: true
  left once they are gone: [] [] []
rt as a string on two nodes (queued on every node: yes)
  unlock: RedisLockException: RedLock::unlock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the waiters' places is a string, not what the lock keeps there; Redis at 127.0.0.1:P2: error reply: WRONGTYPE the waiters' places is a string, not what the lock keeps there
  waiter: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the waiters' places is a string, not what the lock keeps there; Redis at 127.0.0.1:P2: error reply: WRONGTYPE the waiters' places is a string, not what the lock keeps there, within its patience + 1 s: yes, its unlock: -, exit 0
  attacker's keys: "attacker" "attacker"
  ours without a TTL: none none none
  unlock again once they are gone: true
  left once they are gone: [] [] []
rw:<waiter> as a string on one node (queued on every node: yes)
  unlock: true
  waiter: array, after the unlock began: yes, within its patience + 1 s: yes, its unlock: true, exit 0
  attacker's keys: null
  ours without a TTL: none none none
  unlock again once they are gone: false
  left once they are gone: [] [] []
rw:<waiter> as a string on two nodes, the waiter running (queued on every node: yes)
  the waiter's leave emptied its wake-up lists: true
  unlock: true
  waiter: array, after the unlock began: yes, within its patience + 1 s: yes, its unlock: true, exit 0
  attacker's keys: null null
  ours without a TTL: none none none
  unlock again once they are gone: false
  left once they are gone: [] [] []
rw:<waiter> as a string on two nodes, the waiter frozen (queued on every node: yes)
  unlock: RedisLockException: RedLock::unlock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the next waiter's wake-up list is a string, not what the lock keeps there; Redis at 127.0.0.1:P2: error reply: WRONGTYPE the next waiter's wake-up list is a string, not what the lock keeps there
  waiter: -, its unlock: -, exit 137
  attacker's keys: "attacker" "attacker"
  ours without a TTL: none none none
  unlock again once they are gone: true
  left once they are gone: [] [] []
K held as a read/write lock on two nodes: lock RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at 127.0.0.1:P1: error reply: WRONGTYPE the lock key is held as a shared lock, not what the lock keeps there; Redis at 127.0.0.1:P2: error reply: WRONGTYPE the lock key is held as a shared lock, not what the lock keeps there
  left once released: [] [] []