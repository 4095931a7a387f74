--TEST--
RedLock's queue: a master that stops (SIGSTOP) while a queued lock() waits, at a look whose outcome its answer would decide (A lost its copy of the lock, B still says no), is left out for the rest of that call (its reply did not come in time, so a step it may still run late must never meet a later round of the same call): once it runs again it gets nothing more from the waiting call, which keeps looking on the other two and keeps its place there (it does not take itself for queued nowhere), is handed the lock by the holder's unlock (B and C) with A and B, and leaves nothing behind
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
    return array_sum(array_map(fn ($x) => in_array($x[1], ['info', 'zcard', 'exists', 'keys', 'ping'], true) ? 0 : (int) $x[2], $all));
};
$holder = new RedLock($servers, 100, 1);
$held = $holder->lock('lock:gone', 30000);
echo "held: ", var_export(is_array($held), true), "\n";

// The waiter: patience 100 x 100 ms, a read timeout of 0.3 s.
$flag = rl_tmpdir() . '/unlock';
$waiter = new PhpChild(<<<'PHP'
<?php
$r = (new RedLock(json_decode($argv[1]), 100, 100))->lock('lock:gone', 10000);
echo json_encode(is_array($r) ? 'locked' : $r), "\n";
while (!file_exists($argv[2])) {
    usleep(10000);
}
echo json_encode(is_array($r) && (new RedLock(json_decode($argv[1])))->unlock($r)), "\n";
PHP, ['redis_lock.read_timeout' => '0.3'], [json_encode($servers), $flag]);
echo "queued on every master: ", json_encode(rl_eventually(fn () => array_map(fn ($m) => $m->cmd('ZCARD', '{lock:gone}:rq'), [$a, $b, $c]), [1, 1, 1], 5.0)), "\n";

// C stops for 1.5 s, and A loses its copy of the lock (as a master restarted
// empty): the waiter's next look takes A, B says no, and C's answer would
// decide but does not come within the read timeout.
$c->pause();
$a->cmd('DEL', 'lock:gone');
rl_sleep(1.5);
$c->resume();
rl_sleep(0.3); // (what C was sent before, it runs now)
[$a0, $c0] = [$calls($a), $calls($c)];
// Meanwhile the waiter keeps its place on B (a waiter that took itself for
// queued nowhere would leave every queue and sleep its retry delay).
$samples = $away = 0;
for ($until = rl_now() + 1.0; rl_now() < $until; rl_sleep(0.005)) {
    $samples++;
    $away += $b->cmd('ZCARD', '{lock:gone}:rq') === 0 ? 1 : 0;
}
[$a1, $c1] = [$calls($a), $calls($c)];
echo "in the next second: commands on C ", $c1 - $c0, ", the waiter still looks on A: ", var_export($a1 - $a0 >= 5, true),
    ", its place on B gone in ", $away, " of ", $samples > 50 ? 'over 50' : $samples, " looks\n";

echo "unlock: ", var_export($holder->unlock($held), true), "\n";
echo "waiter: ", trim($waiter->readLine(5)), "\n";
touch($flag);
$end = $waiter->wait(10);
echo "its unlock: ", trim($end['out']), ", exit ", $end['status'], "\n";
echo "keys left: ", json_encode(rl_eventually(fn () => array_merge($a->keys(), $b->keys(), $c->keys()), [], 5.0)), "\n";
?>
--EXPECT--
held: true
queued on every master: [1,1,1]
in the next second: commands on C 0, the waiter still looks on A: true, its place on B gone in 0 of over 50 looks
unlock: true
waiter: "locked"
its unlock: true, exit 0
keys left: []
