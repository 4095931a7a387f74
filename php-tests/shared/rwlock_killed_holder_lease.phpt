--TEST--
RedisReadWriteLock: a holder SIGKILLed in its section keeps its hold for its lease and not much longer. A writer without renewals (lease 2 s): the two readers and the writer queued behind it get in no earlier than 2 s after its lockWrite() began and within 2 + 1.5 s of it returning, the readers together (inside at once: each stays until both are in), the writer after both. A writer with renewals (auto_renew, lease 2 s) held 3.5 s first: nobody enters before the kill, the first waiter no earlier than 0.5 s after it (its last renewal's lease) and within 2 + 1.5 s. A reader (lease 2 s): the writer queued behind it likewise, and the reader queued behind that writer only after it (FIFO). Never a writer beside another holder, by an independent book.
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/shared.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

function scenario(RedisServer $book, string $key, string $kind, bool $renew, float $holdBeforeKill, array $queue): void
{
    $book->cmd('FLUSHALL');
    $h = rl_shared_start($book, $key, 'H', ['kind' => $kind, 'lease' => 2, 'hold' => null, 'renew' => $renew]);
    echo "H takes it: ", var_export(rl_shared_taken($book, 'H'), true), "\n";
    $t0 = rl_shared_result($book, 'H', 't0');
    $t1 = rl_shared_result($book, 'H', 't1');
    $procs = rl_shared_queue($book, $key, $queue);
    echo "queued: ", implode(' ', array_keys($queue)), "\n";
    rl_sleep(max(0.0, $t1 + $holdBeforeKill - rl_now()));
    $entered = array_keys(rl_shared_entries($book));
    echo "before the kill only H entered: ", var_export($entered === ['H'], true), "\n";
    $killed = $h->kill();
    echo "H killed: ", $h->status, "\n";
    // The waiters that hold until the test says go ('hold' => null: the readers at the head)
    // stay inside until all of them are in (or 10 s passed), then leave: whether they
    // were inside at once does not depend on how fast the later ones were woken.
    $group = array_keys(array_filter($queue, fn ($o) => $o['hold'] === null));
    rl_eventually(fn () => array_values(array_intersect($group, array_keys(rl_shared_entries($book)))), $group, 10);
    foreach ($group as $who) {
        rl_shared_go($book, $who);
    }
    foreach ($procs as $who => $p) {
        echo "$who: ", var_export(rl_shared_taken($book, $who, 20), true), ", exit ", $p->wait(10), "\n";
    }
    foreach ($procs as $who => $p) {
        $ops = rl_shared_result($book, $who, 'ops');
        echo "$who release: ", var_export($ops[0][1], true), "\n";
    }
    $in = rl_shared_entries($book);
    $out = rl_shared_exits($book);
    unset($in['H']);
    echo "order: ", rl_shared_order($book, ['H']), "\n";
    $first = min(array_column($in, 3));
    if ($renew) {
        echo "first entry 0.5 .. 3.5 s after the kill: ", rl_within($first - $killed, 0.5, 3.5), "\n";
        $lostAt = ['H' => $killed];
    } else {
        echo "first entry no earlier than the lease after H's call began: ", rl_within($first - $t0, 2.0 - 0.005, 99), "\n";
        echo "first entry within lease + 1.5 s of H's call returning: ", rl_within($first - $t1, 0, 3.5), "\n";
        $lostAt = ['H' => $t0 + 2.0 - 0.005];
    }
    [$bad, $max] = rl_shared_check($book, [], $lostAt);
    echo "over-admissions: ", $bad === [] ? 'none' : json_encode($bad), "\n";
}

echo "-- a writer, no renewals\n";
scenario($book, 'kw', 'w', false, 0.3, [
    'R1' => ['kind' => 'r', 'timeout' => 15, 'hold' => null],
    'R2' => ['kind' => 'r', 'timeout' => 15, 'hold' => null],
    'W3' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.1],
]);
echo "-- a writer, renewed past its lease\n";
scenario($book, 'kwr', 'w', true, 3.5, [
    'R1' => ['kind' => 'r', 'timeout' => 15, 'hold' => null],
    'R2' => ['kind' => 'r', 'timeout' => 15, 'hold' => null],
    'W3' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.1],
]);
echo "-- a reader, no renewals\n";
scenario($book, 'kr', 'r', false, 0.3, [
    'W1' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.3],
    'R2' => ['kind' => 'r', 'timeout' => 15, 'hold' => 0.1],
]);
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
-- a writer, no renewals
H takes it: true
queued: R1 R2 W3
before the kill only H entered: true
H killed: 137
R1: true, exit 0
R2: true, exit 0
W3: true, exit 0
R1 release: true
R2 release: true
W3 release: true
order: R1+R2 W3
first entry no earlier than the lease after H's call began: true
first entry within lease + 1.5 s of H's call returning: true
over-admissions: none
-- a writer, renewed past its lease
H takes it: true
queued: R1 R2 W3
before the kill only H entered: true
H killed: 137
R1: true, exit 0
R2: true, exit 0
W3: true, exit 0
R1 release: true
R2 release: true
W3 release: true
order: R1+R2 W3
first entry 0.5 .. 3.5 s after the kill: true
over-admissions: none
-- a reader, no renewals
H takes it: true
queued: W1 R2
before the kill only H entered: true
H killed: 137
W1: true, exit 0
R2: true, exit 0
W1 release: true
R2 release: true
order: W1 R2
first entry no earlier than the lease after H's call began: true
first entry within lease + 1.5 s of H's call returning: true
over-admissions: none
keys after 2 s: []
