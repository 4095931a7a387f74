--TEST--
RedLock's queue under contention (4 processes, 5 nodes, an independent book) while one node is cut off by iptables DROP (a real redis-server in a network namespace of the test's own: no RST, packets vanish) and then reachable again: never two holders, no lost update, every process keeps getting the lock in every phase, and afterwards the cut node takes part again (a lock is on all 5 nodes within 10 s: a command sent during the cut may still arrive by TCP retransmission and hold the key there for a worker's TTL)
--SKIPIF--
<?php
if (!function_exists('pcntl_fork')) die('skip pcntl needed');
require __DIR__ . '/../inc/fake_server.inc';
if (($why = RlNetns::unavailable()) !== null) {
    die("skip $why");
}
?>
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
require __DIR__ . '/../inc/redlock_queue.inc';
$ns = RlNetns::create();
$dir = rl_tmpdir();
$sock = "$dir/redis-ns.sock";
$proc = $ns->spawn(['redis-server', '--bind', $ns->nsAddr, '--port', '6379', '--unixsocket', $sock, '--unixsocketperm', '700',
    '--dir', $dir, '--daemonize', 'no', '--save', '', '--appendonly', 'no', '--protected-mode', 'no']);
$up = rl_eventually(function () use ($sock) {
    try {
        return (new RespClient("unix://$sock", 1))->cmd('PING') === 'PONG';
    } catch (RuntimeException) {
        return false;
    }
}, true, 10);
echo "node in the namespace: ", var_export($up, true), "\n";
$cut = new RespClient("unix://$sock");
$s = rl_start_servers(4);
$book = RedisServer::start();
$list = rl_redlock_list($s, 0.2);
array_splice($list, 2, 0, [[$ns->nsAddr, 6379, 0.2]]);
// The first packets over a new veth pair may be slow on a loaded machine.
(new RedLock([[$ns->nsAddr, 6379, 2.0]], 0, 1))->unlock(['resource' => 'warm-up', 'token' => 'none']);
$pids = rlq_workers($list, $book, $dir, 4);
$phases = [
    'all 5 nodes reachable' => fn () => null,
    'node 3 cut off' => fn () => $ns->cut(),
    'node 3 reachable again' => fn () => $ns->restore(),
];
rlq_run($phases, $dir, $pids);
rlq_report($book, array_keys($phases), 4);
// Afterwards the cut node takes part again. A command sent to it during the
// cut (a look, a lock, an unlock of a call long over) may still arrive by
// TCP retransmission after the cut and hold or mark its key there for up to
// a worker's TTL (2 s): one lock per probe until the node has ours, 10 s.
$rl = new RedLock($list, 100, 30);
$unlocked = null;
$probe = function () use ($rl, $s, $cut, &$unlocked): string {
    $lock = $rl->lock('res', 10000);
    if (!is_array($lock)) {
        return 'not locked';
    }
    $t = $lock['token'];
    $v = $cut->cmd('GET', 'res');
    $on = rl_holders(array_slice($s, 0, 2), 'res', [$t => 'ours']) . ' ' . ($v === $t ? 'ours' : ($v === null ? '-' : ($v === "$t\0q" ? 'ours-marked' : 'other')))
        . ' ' . rl_holders(array_slice($s, 2), 'res', [$t => 'ours']);
    $unlocked = $rl->unlock($lock);
    return $on;
};
echo "then a lock on: ", rl_eventually($probe, 'ours ours ours ours ours', 10.0), "\n";
var_dump($unlocked);
$proc->stop();
?>
--EXPECT--
node in the namespace: true
workers: 0 0 0 0
all 5 nodes reachable: every process locked: true, errors 0, gave up 0
node 3 cut off: every process locked: true, errors 0, gave up 0
node 3 reachable again: every process locked: true, errors 0, gave up 0
overlaps: 0
lost updates: 0
then a lock on: ours ours ours ours ours
bool(true)
