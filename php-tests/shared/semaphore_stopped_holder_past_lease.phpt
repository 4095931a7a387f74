--TEST--
RedisSemaphore (limit 2): a holder frozen (SIGSTOP) in its section past its lease (2 s) loses its permit: the first waiter gets it after the lease (without renewals: no earlier than 2 s after the frozen one's acquire() began, within 2 + 1.5 s; with renewals, frozen after 2.5 s of renewed holding: 0.5 .. 3.5 s after the SIGSTOP). Resumed (SIGCONT) while the other two hold, the frozen one is told (with renewals release() throws RedisLockLostException once, then false; without, release() and extend() are false) and gives back nobody else's permit: the second waiter stays out until one of the two holders leaves. Never more than 2 holders, by an independent book.
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
    $s = ['kind' => 's', 'limit' => 2];
    $a = rl_shared_start($book, $key, 'A', $s + ['lease' => 2, 'hold' => null, 'renew' => $renew,
        'ops' => ['inspect', 'release', 'release', 'extend']]);
    echo "A takes a permit: ", var_export(rl_shared_taken($book, 'A'), true), "\n";
    $h2 = rl_shared_start($book, $key, 'H2', $s + ['lease' => 20, 'hold' => null]);
    echo "H2 takes a permit: ", var_export(rl_shared_taken($book, 'H2'), true), "\n";
    $t0 = rl_shared_result($book, 'A', 't0');
    $t1 = rl_shared_result($book, 'A', 't1');
    $procs = rl_shared_queue($book, $key, [
        'S3' => $s + ['timeout' => 15, 'hold' => null],
        'S4' => $s + ['timeout' => 15, 'hold' => 0.1],
    ]);
    echo "queued: S3 S4\n";
    rl_sleep(max(0.0, $t1 + $holdBeforeStop - rl_now()));
    echo "before the SIGSTOP only A and H2 entered: ", var_export(array_keys(rl_shared_entries($book)) === ['A', 'H2'], true), "\n";
    $a->signal(SIGSTOP);
    $stopped = rl_now();
    echo "S3: ", var_export(rl_shared_taken($book, 'S3', 10), true), "\n";
    $in = rl_shared_entries($book);
    if ($renew) {
        echo "S3 0.5 .. 3.5 s after the SIGSTOP: ", rl_within($in['S3'][3] - $stopped, 0.5, 3.5), "\n";
        $lostAt = ['A' => $stopped];
    } else {
        echo "S3 no earlier than the lease after A's call began: ", rl_within($in['S3'][3] - $t0, 2.0 - 0.005, 99), "\n";
        echo "S3 within lease + 1.5 s of A's call returning: ", rl_within($in['S3'][3] - $t1, 0, 3.5), "\n";
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
    rl_sleep(0.5);                    // a permit wrongly given back would let S4 in by now
    $i = RedisSemaphore::inspect($key);
    echo "after A's calls: used ", $i['used'], ", S4 still waits: ", var_export(!rl_shared_has($book, 'S4', 'take'), true), "\n";
    rl_shared_go($book, 'S3');
    foreach ($procs as $who => $p) {
        echo "$who exit ", $p->wait(10), ", took ", var_export(rl_shared_result($book, $who, 'take'), true),
            ", release ", var_export(rl_shared_result($book, $who, 'ops')[0][1], true), "\n";
    }
    rl_shared_go($book, 'H2');
    echo "H2 exit ", $h2->wait(10), ", release ", var_export(rl_shared_result($book, 'H2', 'ops')[0][1], true), "\n";
    echo "order: ", rl_shared_order($book), "\n";
    [$bad, $max] = rl_shared_check($book, [$key => 2], $lostAt);
    echo "over-admissions: ", $bad === [] ? 'none' : json_encode($bad), ", most holders at once: ", $max[$key]['s'], "\n";
}

echo "-- renewals on\n";
scenario($book, 'ss', true, 2.5);
echo "-- renewals off\n";
scenario($book, 'ssn', false, 0.3);
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
-- renewals on
A takes a permit: true
H2 takes a permit: true
queued: S3 S4
before the SIGSTOP only A and H2 entered: true
S3: true
S3 0.5 .. 3.5 s after the SIGSTOP: true
A exit 0
  A inspect: held false, lost true
  A release: RedisLockLostException
  A release: false
  A extend: false
after A's calls: used 2, S4 still waits: true
S3 exit 0, took true, release true
S4 exit 0, took true, release true
H2 exit 0, release true
order: A H2 S3 S4
over-admissions: none, most holders at once: 2
-- renewals off
A takes a permit: true
H2 takes a permit: true
queued: S3 S4
before the SIGSTOP only A and H2 entered: true
S3: true
S3 no earlier than the lease after A's call began: true
S3 within lease + 1.5 s of A's call returning: true
A exit 0
  A inspect: held false, lost false
  A release: false
  A release: false
  A extend: false
after A's calls: used 2, S4 still waits: true
S3 exit 0, took true, release true
S4 exit 0, took true, release true
H2 exit 0, release true
order: A H2 S3 S4
over-admissions: none, most holders at once: 2
keys after 2 s: []
