--TEST--
RedisSemaphore (limit 2): a holder SIGKILLed in its section keeps its permit for its lease and not much longer, the other holder keeps its own. Without renewals (lease 2 s): the first waiter gets the permit no earlier than 2 s after the killed holder's acquire() began and within 2 + 1.5 s of it returning; the second waiter not before the first one leaves (the other holder still holds: 2 permits in use). With renewals (auto_renew, lease 2 s) held 3.5 s first: nobody enters before the kill, the first waiter 0.5 .. 3.5 s after it. Never more than 2 holders, by an independent book.
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/shared.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

function scenario(RedisServer $book, string $key, bool $renew, float $holdBeforeKill): void
{
    $book->cmd('FLUSHALL');
    $s = ['kind' => 's', 'limit' => 2];
    $h1 = rl_shared_start($book, $key, 'H1', $s + ['lease' => 2, 'hold' => null, 'renew' => $renew]);
    echo "H1 takes a permit: ", var_export(rl_shared_taken($book, 'H1'), true), "\n";
    $h2 = rl_shared_start($book, $key, 'H2', $s + ['lease' => 20, 'hold' => null]);
    echo "H2 takes a permit: ", var_export(rl_shared_taken($book, 'H2'), true), "\n";
    $t0 = rl_shared_result($book, 'H1', 't0');
    $t1 = rl_shared_result($book, 'H1', 't1');
    $procs = rl_shared_queue($book, $key, [
        'S3' => $s + ['timeout' => 15, 'hold' => 1.0],
        'S4' => $s + ['timeout' => 15, 'hold' => 0.1],
    ]);
    echo "queued: S3 S4\n";
    rl_sleep(max(0.0, $t1 + $holdBeforeKill - rl_now()));
    $entered = array_keys(rl_shared_entries($book));
    echo "before the kill only H1 and H2 entered: ", var_export($entered === ['H1', 'H2'], true), "\n";
    $killed = $h1->kill();
    echo "H1 killed: ", $h1->status, "\n";
    foreach ($procs as $who => $p) {
        echo "$who: ", var_export(rl_shared_taken($book, $who, 20), true), ", exit ", $p->wait(10), "\n";
        echo "$who release: ", var_export(rl_shared_result($book, $who, 'ops')[0][1], true), "\n";
    }
    rl_shared_go($book, 'H2');
    echo "H2 exit ", $h2->wait(10), ", release: ", var_export(rl_shared_result($book, 'H2', 'ops')[0][1], true), "\n";
    $in = rl_shared_entries($book);
    $out = rl_shared_exits($book);
    echo "order: ", rl_shared_order($book), "\n";
    $first = $in['S3'][3];
    if ($renew) {
        echo "S3 0.5 .. 3.5 s after the kill: ", rl_within($first - $killed, 0.5, 3.5), "\n";
        $lostAt = ['H1' => $killed];
    } else {
        echo "S3 no earlier than the lease after H1's call began: ", rl_within($first - $t0, 2.0 - 0.005, 99), "\n";
        echo "S3 within lease + 1.5 s of H1's call returning: ", rl_within($first - $t1, 0, 3.5), "\n";
        $lostAt = ['H1' => $t0 + 2.0 - 0.005];
    }
    echo "S4 after S3 left: ", var_export($in['S4'][3] > $out['S3'], true), "\n";
    [$bad, $max] = rl_shared_check($book, [$key => 2], $lostAt);
    echo "over-admissions: ", $bad === [] ? 'none' : json_encode($bad), ", most holders at once: ", $max[$key]['s'], "\n";
}

echo "-- no renewals\n";
scenario($book, 'ks', false, 0.3);
echo "-- renewed past its lease\n";
scenario($book, 'ksr', true, 3.5);
echo "keys after 2 s: ", json_encode(rl_eventually(fn () => $redis->keys(), [], 2.0)), "\n";
?>
--EXPECT--
-- no renewals
H1 takes a permit: true
H2 takes a permit: true
queued: S3 S4
before the kill only H1 and H2 entered: true
H1 killed: 137
S3: true, exit 0
S3 release: true
S4: true, exit 0
S4 release: true
H2 exit 0, release: true
order: H1 H2 S3 S4
S3 no earlier than the lease after H1's call began: true
S3 within lease + 1.5 s of H1's call returning: true
S4 after S3 left: true
over-admissions: none, most holders at once: 2
-- renewed past its lease
H1 takes a permit: true
H2 takes a permit: true
queued: S3 S4
before the kill only H1 and H2 entered: true
H1 killed: 137
S3: true, exit 0
S3 release: true
S4: true, exit 0
S4 release: true
H2 exit 0, release: true
order: H1 H2 S3 S4
S3 0.5 .. 3.5 s after the kill: true
S4 after S3 left: true
over-admissions: none, most holders at once: 2
keys after 2 s: []
