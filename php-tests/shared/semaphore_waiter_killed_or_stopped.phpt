--TEST--
RedisSemaphore (limit 2, both permits held): a waiter SIGKILLed or frozen (SIGSTOP) in the queue stalls nobody for long: killed in the middle or at the head of the queue, every waiter behind it gets a permit less than 1 s after the section before it ended, in FIFO order; frozen while a permit is handed on, it is passed over the same way and, resumed while both permits are held, does not enter as a third holder: it gets a permit once one comes free. Never more than 2 holders, by an independent book.
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/shared.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
const S = ['kind' => 's', 'limit' => 2];

/** A and B hold the two permits, $queue waits; $victim is killed (or frozen); A releases. */
function scenario(RedisServer $book, string $key, array $queue, string $victim, bool $stop): array
{
    $book->cmd('FLUSHALL');
    $a = rl_shared_start($book, $key, 'A', S + ['lease' => 20, 'hold' => null]);
    echo "A: ", var_export(rl_shared_taken($book, 'A'), true), "\n";
    $b = rl_shared_start($book, $key, 'B', S + ['lease' => 20, 'hold' => null]);
    echo "B: ", var_export(rl_shared_taken($book, 'B'), true), "\n";
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
    rl_shared_go($book, 'A');
    echo "A exit ", $a->wait(10), ", release: ", var_export(rl_shared_result($book, 'A', 'ops')[0][1], true), "\n";
    return [$b, $procs];
}

function report(RedisServer $book, string $key, RlSharedProc $b, array $procs, array $skipGaps = []): void
{
    foreach ($procs as $who => $p) {
        echo "$who: ", var_export(rl_shared_taken($book, $who, 20), true), ", exit ", $p->wait(10),
            ", release ", var_export(rl_shared_result($book, $who, 'ops')[0][1], true), "\n";
    }
    rl_shared_go($book, 'B');
    echo "B exit ", $b->wait(10), ", release: ", var_export(rl_shared_result($book, 'B', 'ops')[0][1], true), "\n";
    $gaps = rl_shared_gaps($book, rl_shared_exits($book)['A'], array_merge(['A', 'B'], $skipGaps));
    rl_shared_debug('gaps (ms): ' . json_encode(array_map(fn ($g) => (int) round($g * 1000), $gaps)));
    $slow = array_filter($gaps, fn ($g) => $g >= 1.0);
    echo "each one in < 1 s after the section before it ended: ", $slow === [] ? 'true' : 'false ' . json_encode($gaps), "\n";
    [$bad, $max] = rl_shared_check($book, [$key => 2]);
    echo "over-admissions: ", $bad === [] ? 'none' : json_encode($bad), ", most holders at once: ", $max[$key]['s'], "\n";
}

echo "-- killed in the middle of the queue\n";
[$b, $procs] = scenario($book, 'sk', [
    'S1' => S + ['timeout' => 15, 'hold' => 0.2],
    'S2' => S + ['timeout' => 15, 'hold' => 0.2],
    'S3' => S + ['timeout' => 15, 'hold' => 0.2],
    'S4' => S + ['timeout' => 15, 'hold' => 0.2],
], 'S2', false);
report($book, 'sk', $b, $procs);
echo "order: ", rl_shared_order($book), "\n";

echo "-- killed at the head of the queue\n";
[$b, $procs] = scenario($book, 'skh', [
    'S1' => S + ['timeout' => 15, 'hold' => 0.2],
    'S2' => S + ['timeout' => 15, 'hold' => 0.2],
    'S3' => S + ['timeout' => 15, 'hold' => 0.2],
], 'S1', false);
report($book, 'skh', $b, $procs);
echo "order: ", rl_shared_order($book), "\n";

echo "-- frozen in the middle of the queue, resumed while both permits are held\n";
[$b, $procs] = scenario($book, 'ss', [
    'S1' => S + ['timeout' => 15, 'hold' => 0.2],
    'S2' => S + ['timeout' => 15, 'hold' => 0.1],
    'S3' => S + ['timeout' => 15, 'hold' => 4.0],
    'S4' => S + ['timeout' => 15, 'hold' => 0.1],
], 'S2', true);
echo "S3 (behind the frozen one): ", var_export(rl_shared_taken($book, 'S3', 10), true), "\n";
rl_sleep(1.0);
echo "S2 did not enter while frozen: ", var_export(!rl_shared_has($book, 'S2', 'take'), true), "\n";
$procs['S2']->signal(SIGCONT);
rl_sleep(1.0);                        // B and S3 hold: S2 and S4 must still wait
echo "a second after the SIGCONT S2 and S4 still wait: ", var_export(!rl_shared_has($book, 'S2', 'take') && !rl_shared_has($book, 'S4', 'take'), true), "\n";
report($book, 'ss', $b, $procs, ['S2']);
$order = explode(' ', rl_shared_order($book));
$rest = array_slice($order, 4);
sort($rest);
echo "order: ", implode(' ', array_slice($order, 0, 4)), ", then ", implode(' ', $rest), "\n";
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
-- killed in the middle of the queue
A: true
B: true
queued: S1 S2 S3 S4
S2 killed: 137
A exit 0, release: true
S1: true, exit 0, release true
S3: true, exit 0, release true
S4: true, exit 0, release true
B exit 0, release: true
each one in < 1 s after the section before it ended: true
over-admissions: none, most holders at once: 2
order: A B S1 S3 S4
-- killed at the head of the queue
A: true
B: true
queued: S1 S2 S3
S1 killed: 137
A exit 0, release: true
S2: true, exit 0, release true
S3: true, exit 0, release true
B exit 0, release: true
each one in < 1 s after the section before it ended: true
over-admissions: none, most holders at once: 2
order: A B S2 S3
-- frozen in the middle of the queue, resumed while both permits are held
A: true
B: true
queued: S1 S2 S3 S4
S2 frozen
A exit 0, release: true
S3 (behind the frozen one): true
S2 did not enter while frozen: true
a second after the SIGCONT S2 and S4 still wait: true
S1: true, exit 0, release true
S2: true, exit 0, release true
S3: true, exit 0, release true
S4: true, exit 0, release true
B exit 0, release: true
each one in < 1 s after the section before it ended: true
over-admissions: none, most holders at once: 2
order: A B S1 S3, then S2 S4
keys after 2 s: []
