--TEST--
RedLock's queue with a master stopped (SIGSTOP: it accepts, then says nothing) while a lock() waits, over 3 masters A B C. 1. Stopped C could decide the waiter's looks (A lost its copy of the lock, so the look gets a yes from A and a no from B): each look gives up on C within milliseconds instead of its node timeout, and the waiter keeps its place on A and B all along; after the holder's unlock it gets the lock. 2. A killed and C stopped: each look is decided without C (no majority can say yes), and the waiter keeps its place on B (C got the look, so it does not take itself for queued on no majority and leave every queue). 3. A killed, C stopped, and B loses its copy: the waiter's look gets a yes from B and a failure from A, so only C's answer could decide it and the look waits for C's reply, which does not come in time; C is then left out for the rest of the call (a step it may still run late must never meet a later round of the same call): once it runs again it gets nothing more from the waiting call, which goes on looking on B and gets the lock with A (restarted empty) and B. 4. The same, with the waiter's patience running out during the look that waits for C: its last leave skips C too, so lock() ends (fewer than 2 of 3 masters reached) after that one node timeout, not a second one. Nothing is left behind
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
[$a, $b, $c] = [RedisServer::start(), RedisServer::start(), RedisServer::start()];
$servers = [$a->dsn(), $b->dsn(), $c->dsn()];
// Commands a server ran (the test's own looks left out).
$calls = function (RedisServer $m): int {
    preg_match_all('/^cmdstat_(\w+):calls=(\d+)/m', $m->cmd('INFO', 'commandstats'), $all, PREG_SET_ORDER);
    return array_sum(array_map(fn ($x) => in_array($x[1], ['info', 'zcard', 'exists', 'keys', 'ping', 'config'], true) ? 0 : (int) $x[2], $all));
};
// A waiter: patience 100 x 100 ms, a node timeout of 0.3 s; it unlocks when $flag exists.
$waiter = fn (string $flag) => new PhpChild(<<<'PHP'
<?php
$rl = new RedLock(json_decode($argv[1]), 100, 100);
$t = hrtime(true);
$r = $rl->lock('lock:gone', 10000);
echo json_encode(is_array($r) ? 'locked' : $r), "\n";
while (!file_exists($argv[2])) {
    usleep(10000);
}
echo json_encode(is_array($r) && (new RedLock(json_decode($argv[1])))->unlock($r)), "\n";
PHP, ['redis_lock.read_timeout' => '0.3'], [json_encode(array_map(fn ($s) => [parse_url($s, PHP_URL_HOST), parse_url($s, PHP_URL_PORT), 0.3], $servers)), $flag]);
$queued = fn () => rl_eventually(fn () => array_map(fn ($m) => $m->cmd('ZCARD', '{lock:gone}:rq'), [$a, $b, $c]), [1, 1, 1], 5.0);

echo "1. C stopped, A loses its copy\n";
$holder = new RedLock($servers, 100, 1);
$held = $holder->lock('lock:gone', 30000);
echo "held: ", var_export(is_array($held), true), "\n";
$w = $waiter($flag = rl_tmpdir() . '/unlock');
echo "queued on every master: ", json_encode($queued()), "\n";
$c->pause();
$a->cmd('DEL', 'lock:gone');
// For 1 s: the waiter's place on B, sampled every 5 ms, and its looks on A.
$a0 = $calls($a);
$samples = $away = 0;
for ($until = rl_now() + 1.0; rl_now() < $until; rl_sleep(0.005)) {
    $samples++;
    $away += $b->cmd('ZCARD', '{lock:gone}:rq') === 0 ? 1 : 0;
}
echo "its place on B gone in ", $away, " of ", $samples > 50 ? 'over 50' : $samples, " samples; it looked on A at least 5 times: ", var_export($calls($a) - $a0 >= 5, true), "\n";
$c->resume();
echo "unlock: ", var_export($holder->unlock($held), true), "\n";
echo "waiter: ", trim($w->readLine(5)), "\n";
touch($flag);
$end = $w->wait(10);
echo "its unlock: ", trim($end['out']), ", exit ", $end['status'], "\n";
echo "keys left: ", json_encode(rl_eventually(fn () => array_merge($a->keys(), $b->keys(), $c->keys()), [], 5.0)), "\n";

echo "2. A killed, C stopped\n";
$held = $holder->lock('lock:gone', 30000);
echo "held: ", var_export(is_array($held), true), "\n";
$w = $waiter($flag = rl_tmpdir() . '/unlock');
echo "queued on every master: ", json_encode($queued()), "\n";
$a->kill();
$c->pause();
// Each look: A refuses, B says no, C says nothing (the look is decided without it, since no
// majority can say yes): C ran the look all the same once it runs again, so with B that is
// a majority of places; the waiter keeps its place on B.
$samples = $away = 0;
for ($until = rl_now() + 1.0; rl_now() < $until; rl_sleep(0.005)) {
    $samples++;
    $away += $b->cmd('ZCARD', '{lock:gone}:rq') === 0 ? 1 : 0;
}
echo "its place on B gone in ", $away, " of ", $samples > 50 ? 'over 50' : $samples, " samples\n";
$c->resume();
$a->restart(false);
echo "unlock: ", var_export($holder->unlock($held), true), "\n";
echo "waiter: ", trim($w->readLine(5)), "\n";
touch($flag);
$end = $w->wait(10);
echo "its unlock: ", trim($end['out']), ", exit ", $end['status'], "\n";
echo "keys left: ", json_encode(rl_eventually(fn () => array_merge($a->keys(), $b->keys(), $c->keys()), [], 5.0)), "\n";

echo "3. A killed, C stopped, B loses its copy\n";
$held = $holder->lock('lock:gone', 30000);
echo "held: ", var_export(is_array($held), true), "\n";
$w = $waiter($flag = rl_tmpdir() . '/unlock');
echo "queued on every master: ", json_encode($queued()), "\n";
$a->kill();
$c->pause();
$b->cmd('DEL', 'lock:gone');
rl_sleep(1.5);
$c->resume();
rl_sleep(0.3); // (what C was sent before, it runs now)
[$b0, $c0] = [$calls($b), $calls($c)];
rl_sleep(1.0);
[$b1, $c1] = [$calls($b), $calls($c)];
echo "in the next second: commands on C ", $c1 - $c0, ", the waiter still looks on B: ", var_export($b1 - $b0 >= 5, true), "\n";
$a->restart(false);
// (The holder's lock is on C only now: its unlock says so.)
echo "unlock: ", var_export($holder->unlock($held), true), "\n";
echo "waiter: ", trim($w->readLine(5)), "\n";
touch($flag);
$end = $w->wait(10);
echo "its unlock: ", trim($end['out']), ", exit ", $end['status'], "\n";
echo "keys left: ", json_encode(rl_eventually(fn () => array_merge($a->keys(), $b->keys(), $c->keys()), [], 5.0)), "\n";
echo "4. A killed, C stopped, B loses its copy; the waiter's patience runs out meanwhile\n";
$held = $holder->lock('lock:gone', 30000);
echo "held: ", var_export(is_array($held), true), "\n";
// Patience 15 x 100 ms, a node timeout of 2 s: the look that waits for C's reply ends after
// the patience did, and the waiter leaves every queue but C's, where its look timed out.
$w = new PhpChild(<<<'PHP'
<?php
$rl = new RedLock(json_decode($argv[1]), 100, 15);
echo "queued\n";
$t = hrtime(true);
try {
    $r = json_encode($rl->lock('lock:gone', 10000));
} catch (RedisLockException $e) {
    $r = preg_replace('/Redis at \S+: /', '', $e->getMessage());
}
printf("%.3f %s\n", (hrtime(true) - $t) / 1e9, $r);
PHP, ['redis_lock.read_timeout' => '2'], [json_encode(array_map(fn ($s) => [parse_url($s, PHP_URL_HOST), parse_url($s, PHP_URL_PORT), 2.0], $servers))]);
$w->readLine(5);
echo "queued on every master: ", json_encode($queued()), "\n";
$a->kill();
$c->pause();
$b->cmd('DEL', 'lock:gone');
[$took, $r] = explode(' ', trim($w->readLine(10)), 2);
$end = $w->wait(10);
// (A last leave that waited for C too would take another node timeout: over 4 s in all.)
$ok = $took >= 1.5 && $took < 3.2;
echo "lock(): $r; after its patience and C's node timeout, not two (1.5..3.2 s): ", var_export($ok, true), $ok ? '' : " ($took s)", ", exit ", $end['status'], "\n";
$c->resume();
$a->restart(false);
echo "unlock: ", var_export($holder->unlock($held), true), "\n";
echo "keys left: ", json_encode(rl_eventually(fn () => array_merge($a->keys(), $b->keys(), $c->keys()), [], 5.0)), "\n";
?>
--EXPECT--
1. C stopped, A loses its copy
held: true
queued on every master: [1,1,1]
its place on B gone in 0 of over 50 samples; it looked on A at least 5 times: true
unlock: true
waiter: "locked"
its unlock: true, exit 0
keys left: []
2. A killed, C stopped
held: true
queued on every master: [1,1,1]
its place on B gone in 0 of over 50 samples
unlock: true
waiter: "locked"
its unlock: true, exit 0
keys left: []
3. A killed, C stopped, B loses its copy
held: true
queued on every master: [1,1,1]
in the next second: commands on C 0, the waiter still looks on B: true
unlock: false
waiter: "locked"
its unlock: true, exit 0
keys left: []
4. A killed, C stopped, B loses its copy; the waiter's patience runs out meanwhile
held: true
queued on every master: [1,1,1]
lock(): RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: cannot connect: Connection refused (os error 111); no reply within 2 s; after its patience and C's node timeout, not two (1.5..3.2 s): true, exit 0
unlock: false
keys left: []
