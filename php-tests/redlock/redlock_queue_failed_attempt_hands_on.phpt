--TEST--
RedLock's queue over 3 masters: a caller whose one attempt got the lock on one master only (A had lost the holder's copy) gives that part to the waiter first in line there, who is blocked on A for just that, instead of deleting it (which left the waiter asleep until its next look); the waiter's token holds A right after the failed attempt returns, and it gets the lock at the holder's unlock; nothing is left behind
--CONFLICTS--
all # alone: the hand-on to A is waited for only when A answered the attempt with the others; a busy machine makes it a straggler now and then
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(3);
$holder = new RedLock(rl_redlock_list($s), 100, 1);
$held = $holder->lock('ho', 30000);
echo "held: ", var_export(is_array($held), true), "\n";
$flag = rl_tmpdir() . '/unlock';
$w = new PhpChild(<<<'PHP'
<?php
$rl = new RedLock(json_decode($argv[1]), 100, 100); // 10 s of patience
$r = $rl->lock('ho', 10000);
echo json_encode(is_array($r) ? 'locked' : $r), "\n";
while (!file_exists($argv[2])) {
    usleep(10000);
}
echo json_encode(is_array($r) && $rl->unlock($r)), "\n";
PHP, [], [json_encode(rl_redlock_list($s)), $flag]);
echo "the waiter is queued on every master: ", rl_eventually(fn () => implode(' ', array_map(fn ($r) => $r->cmd('ZCARD', '{ho}:rq'), $s)), '1 1 1', 5.0), "\n";
$waiter = $s[1]->cmd('ZRANGE', '{ho}:rq', 0, 0)[0];

// A loses the holder's copy; one attempt (no queue) gets A alone: refused on B and C.
$s[0]->cmd('DEL', 'ho');
$once = (new RedLock(rl_redlock_list($s), 100, 1))->lock('ho', 10000);
$a = $s[0]->cmd('GET', 'ho');
echo "the one attempt: ", var_export($once, true), "; A right after: ", $a === null ? 'free' : (str_starts_with($a, $waiter) ? "the waiter's" : 'another'), "\n";

echo "unlock: ", var_export($holder->unlock($held), true), "\n";
echo "waiter: ", trim($w->readLine(5)), "\n";
touch($flag);
$end = $w->wait(10);
echo "its unlock: ", trim($end['out']), ", exit ", $end['status'], "\n";
echo "keys left: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []', 2.0), "\n";
?>
--EXPECT--
held: true
the waiter is queued on every master: 1 1 1
the one attempt: false; A right after: the waiter's
unlock: true
waiter: "locked"
its unlock: true, exit 0
keys left: [] [] []
