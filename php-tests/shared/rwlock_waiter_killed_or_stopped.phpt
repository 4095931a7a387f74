--TEST--
RedisReadWriteLock: a waiter SIGKILLed or frozen (SIGSTOP) in the queue stalls nobody for long: with a writer killed in the middle of the queue, or a writer killed at its head, every waiter behind it gets in less than 1 s after the section before it ended (a dead waiter costs its short place or hand-off grant, not a hold's lease), in FIFO order with the readers at the head let in together (inside at once: each stays until both are in); a writer frozen while the lock is handed on is passed over the same way and, resumed while a reader holds, does not enter beside it: it gets the lock after that reader left. Never a writer beside another holder, by an independent book.
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/shared.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

/** H holds the write lock, $queue waits behind it; $victim is killed (or frozen); H releases. */
function scenario(RedisServer $book, string $key, array $queue, string $victim, bool $stop): array
{
    $book->cmd('FLUSHALL');
    $h = rl_shared_start($book, $key, 'H', ['kind' => 'w', 'lease' => 20, 'hold' => null]);
    echo "H: ", var_export(rl_shared_taken($book, 'H'), true), "\n";
    $procs = rl_shared_queue($book, $key, $queue);
    echo "queued: ", implode(' ', array_keys($queue)), "\n";
    if ($stop) {
        $procs[$victim]->signal(SIGSTOP);
        echo "$victim frozen\n";
    } else {
        $procs[$victim]->kill();
        echo "$victim killed: ", $procs[$victim]->status, "\n";
        unset($procs[$victim]);
    }
    rl_shared_go($book, 'H');
    echo "H exit ", $h->wait(10), ", release: ", var_export(rl_shared_result($book, 'H', 'ops')[0][1], true), "\n";
    return $procs;
}

function report(RedisServer $book, array $procs, array $skipGaps = []): void
{
    foreach ($procs as $who => $p) {
        echo "$who: ", var_export(rl_shared_taken($book, $who, 20), true), ", exit ", $p->wait(10),
            ", release ", var_export(rl_shared_result($book, $who, 'ops')[0][1], true), "\n";
    }
    $gaps = rl_shared_gaps($book, rl_shared_exits($book)['H'], array_merge(['H'], $skipGaps));
    rl_shared_debug('gaps (ms): ' . json_encode(array_map(fn ($g) => (int) round($g * 1000), $gaps)));
    $slow = array_filter($gaps, fn ($g) => $g >= 1.0);
    echo "each one in < 1 s after the section before it ended: ", $slow === [] ? 'true' : 'false ' . json_encode($gaps), "\n";
    [$bad] = rl_shared_check($book);
    echo "over-admissions: ", $bad === [] ? 'none' : json_encode($bad), "\n";
}

echo "-- a writer killed in the middle of the queue\n";
$procs = scenario($book, 'wk', [
    'R1' => ['kind' => 'r', 'timeout' => 15, 'hold' => 0.2],
    'W2' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.2],
    'R3' => ['kind' => 'r', 'timeout' => 15, 'hold' => 0.2],
    'W4' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.2],
    'R5' => ['kind' => 'r', 'timeout' => 15, 'hold' => 0.2],
], 'W2', false);
report($book, $procs);
// (R1 and R3 come in together when W2's place ran out before H's release.)
echo "order: ", str_replace('+', ' ', rl_shared_order($book)), "\n";

echo "-- a writer killed at the head of the queue\n";
$procs = scenario($book, 'wkh', [
    'W1' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.2],
    'R2' => ['kind' => 'r', 'timeout' => 15, 'hold' => null],
    'R3' => ['kind' => 'r', 'timeout' => 15, 'hold' => null],
    'W4' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.2],
], 'W1', false);
// R2 and R3 stay inside until both are in (or 10 s passed), then leave: whether they
// were inside at once does not depend on how fast R3 was woken.
rl_eventually(fn () => array_values(array_intersect(['R2', 'R3'], array_keys(rl_shared_entries($book)))), ['R2', 'R3'], 10);
rl_shared_go($book, 'R2');
rl_shared_go($book, 'R3');
report($book, $procs);
echo "order: ", rl_shared_order($book), "\n";

echo "-- a writer frozen in the middle of the queue, resumed while a reader holds\n";
$procs = scenario($book, 'ws', [
    'R1' => ['kind' => 'r', 'timeout' => 15, 'hold' => 0.2],
    'W2' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.1],
    'R3' => ['kind' => 'r', 'timeout' => 15, 'hold' => 3.0],
    'W4' => ['kind' => 'w', 'timeout' => 15, 'hold' => 0.1],
], 'W2', true);
echo "R3 (behind the frozen one): ", var_export(rl_shared_taken($book, 'R3', 10), true), "\n";
rl_sleep(1.0);
echo "W2 did not enter while frozen: ", var_export(!rl_shared_has($book, 'W2', 'take'), true), "\n";
$procs['W2']->signal(SIGCONT);
// W2's own gap is not bounded: it was frozen. The others' are.
report($book, $procs, ['W2']);
$in = rl_shared_entries($book);
$out = rl_shared_exits($book);
echo "W2 entered after R3 left: ", var_export($in['W2'][3] > $out['R3'], true), "\n";
$order = explode(' ', str_replace('+', ' ', rl_shared_order($book)));
$rest = array_slice($order, 3);
sort($rest);
echo "order: ", implode(' ', array_slice($order, 0, 3)), ", then ", implode(' ', $rest), "\n";
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
-- a writer killed in the middle of the queue
H: true
queued: R1 W2 R3 W4 R5
W2 killed: 137
H exit 0, release: true
R1: true, exit 0, release true
R3: true, exit 0, release true
W4: true, exit 0, release true
R5: true, exit 0, release true
each one in < 1 s after the section before it ended: true
over-admissions: none
order: H R1 R3 W4 R5
-- a writer killed at the head of the queue
H: true
queued: W1 R2 R3 W4
W1 killed: 137
H exit 0, release: true
R2: true, exit 0, release true
R3: true, exit 0, release true
W4: true, exit 0, release true
each one in < 1 s after the section before it ended: true
over-admissions: none
order: H R2+R3 W4
-- a writer frozen in the middle of the queue, resumed while a reader holds
H: true
queued: R1 W2 R3 W4
W2 frozen
H exit 0, release: true
R3 (behind the frozen one): true
W2 did not enter while frozen: true
R1: true, exit 0, release true
W2: true, exit 0, release true
R3: true, exit 0, release true
W4: true, exit 0, release true
each one in < 1 s after the section before it ended: true
over-admissions: none
W2 entered after R3 left: true
order: H R1 R3, then W2 W4
keys after 2 s: []
