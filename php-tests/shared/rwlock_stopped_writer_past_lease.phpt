--TEST--
RedisReadWriteLock: a writer frozen (SIGSTOP) in its section past its lease (2 s) loses the lock: the writer queued behind it gets in after the lease (without renewals: no earlier than 2 s after the frozen one's lockWrite() began, within 2 + 1.5 s; with renewals, frozen after 2.5 s of renewed holding: 0.5 .. 3.5 s after the SIGSTOP). Resumed (SIGCONT) while the new writer holds, the frozen one is told: with renewals its release() throws RedisLockLostException once (then false), without them release() is false, extend() false and inspect() says it does not hold; the new writer's hold is untouched (its release() is true, the reader queued behind it enters only after it left). Never two writers, never a reader beside a writer, by an independent book.
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/shared.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

function scenario(RedisServer $book, string $key, bool $renew, float $holdBeforeStop): void
{
    $book->cmd('FLUSHALL');
    $a = rl_shared_start($book, $key, 'A', ['kind' => 'w', 'lease' => 2, 'hold' => null, 'renew' => $renew,
        'ops' => ['inspect', 'release', 'release', 'extend', 'inspect']]);
    echo "A takes the write lock: ", var_export(rl_shared_taken($book, 'A'), true), "\n";
    $t0 = rl_shared_result($book, 'A', 't0');
    $t1 = rl_shared_result($book, 'A', 't1');
    $procs = rl_shared_queue($book, $key, [
        'B' => ['kind' => 'w', 'timeout' => 15, 'hold' => null, 'ops' => ['inspect', 'release']],
        'C' => ['kind' => 'r', 'timeout' => 15, 'hold' => 0.1],
    ]);
    echo "queued: B C\n";
    rl_sleep(max(0.0, $t1 + $holdBeforeStop - rl_now()));
    echo "before the SIGSTOP only A entered: ", var_export(array_keys(rl_shared_entries($book)) === ['A'], true), "\n";
    $a->signal(SIGSTOP);
    $stopped = rl_now();
    echo "B: ", var_export(rl_shared_taken($book, 'B', 10), true), "\n";
    $in = rl_shared_entries($book);
    if ($renew) {
        echo "B 0.5 .. 3.5 s after the SIGSTOP: ", rl_within($in['B'][3] - $stopped, 0.5, 3.5), "\n";
        $lostAt = ['A' => $stopped];
    } else {
        echo "B no earlier than the lease after A's call began: ", rl_within($in['B'][3] - $t0, 2.0 - 0.005, 99), "\n";
        echo "B within lease + 1.5 s of A's call returning: ", rl_within($in['B'][3] - $t1, 0, 3.5), "\n";
        $lostAt = ['A' => $t0 + 2.0 - 0.005];
    }
    $a->signal(SIGCONT);
    rl_sleep(1.0);                    // an overdue renewal runs (and is refused)
    rl_shared_go($book, 'A');
    echo "A exit ", $a->wait(10), "\n";
    foreach (rl_shared_result($book, 'A', 'ops') as [$op, $r]) {
        $r = is_string($r) && str_starts_with($r, 'RedisLockLostException: ') ? 'RedisLockLostException' : $r;
        $r = is_string($r) ? preg_replace('/, count \d+$/', '', $r) : $r; // (what count says of a lost hold is open)
        echo "  A $op: ", is_string($r) ? $r : var_export($r, true), "\n";
    }
    $i = RedisReadWriteLock::inspect($key);
    echo "after A's calls: writer ", var_export($i['writer'], true), ", readers ", $i['readers'], ", holders ", count($i['holders']), "\n";
    echo "C still waits: ", var_export(!rl_shared_has($book, 'C', 'take'), true), "\n";
    rl_shared_go($book, 'B');
    foreach ($procs as $who => $p) {
        echo "$who exit ", $p->wait(10), ", took ", var_export(rl_shared_result($book, $who, 'take'), true), "\n";
        foreach (rl_shared_result($book, $who, 'ops') as [$op, $r]) {
            echo "  $who $op: ", is_string($r) ? $r : var_export($r, true), "\n";
        }
    }
    echo "order: ", rl_shared_order($book), "\n";
    [$bad] = rl_shared_check($book, [], $lostAt);
    echo "over-admissions: ", $bad === [] ? 'none' : json_encode($bad), "\n";
}

echo "-- renewals on\n";
scenario($book, 'sw', true, 2.5);
echo "-- renewals off\n";
scenario($book, 'swn', false, 0.3);
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
-- renewals on
A takes the write lock: true
queued: B C
before the SIGSTOP only A entered: true
B: true
B 0.5 .. 3.5 s after the SIGSTOP: true
A exit 0
  A inspect: held false, lost true
  A release: RedisLockLostException
  A release: false
  A extend: false
  A inspect: held false, lost false
after A's calls: writer true, readers 0, holders 1
C still waits: true
B exit 0, took true
  B inspect: held true, lost false, count 1
  B release: true
C exit 0, took true
  C release: true
order: A B C
over-admissions: none
-- renewals off
A takes the write lock: true
queued: B C
before the SIGSTOP only A entered: true
B: true
B no earlier than the lease after A's call began: true
B within lease + 1.5 s of A's call returning: true
A exit 0
  A inspect: held false, lost false
  A release: false
  A release: false
  A extend: false
  A inspect: held false, lost false
after A's calls: writer true, readers 0, holders 1
C still waits: true
B exit 0, took true
  B inspect: held true, lost false, count 1
  B release: true
C exit 0, took true
  C release: true
order: A B C
over-admissions: none
keys after 2 s: []
