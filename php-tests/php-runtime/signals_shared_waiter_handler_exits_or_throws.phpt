--TEST--
Audit, PHP itself: a RedisReadWriteLock or RedisSemaphore waiter whose pcntl signal handler calls exit() (SIGTERM) or throws (SIGUSR1) while it waits in the queue, with another waiter behind it: the signal does not end the wait (PHP runs the handler once the call returned); when the holder releases, the signalled waiter is handed the lock, its handler ends its request (exit code 3; request end releases) or throws into its code (which then holds it: inspect() held, count 1; request end releases), and the waiter behind gets it after that request ended, < 1 s after the holder's release. A handler that throws during a wait that times out: the exception comes after the call's own timeout, nothing held, and the waiter behind moves up (a reader behind a writer gets in beside the reading holder at once). No key left.
--SKIPIF--
<?php if (!function_exists('pcntl_async_signals') || !function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_php.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

const SIGNALLED = <<<'PHP'
pcntl_async_signals(true);
[, $dsn, $kind, $key, $how, $timeout] = $argv;
ini_set('redis_lock.server', $dsn);
register_shutdown_function(function () { echo 'end ', sprintf('%.6f', rl_now()), "\n"; });
if ($how === 'exit') {
    pcntl_signal(SIGTERM, function () { exit(3); });
} else {
    pcntl_signal(SIGUSR1, function () { throw new RuntimeException('interrupted'); });
}
echo 'waiting, pid ', getmypid(), "\n";
$t0 = rl_now();
try {
    $r = rl_shared_take($kind, $key, (float) $timeout, 20);
} catch (Throwable $e) {
    $r = $e;
}
$t1 = rl_now();
$i = rl_shared_inspect($kind, $key);
echo 'result ', json_encode(['r' => rl_show($r), 'secs' => $t1 - $t0, 't1' => $t1, 'held' => $i['held'], 'count' => $i['count']]), "\n";
PHP;

/**
 * This process holds $key as $hk; S (signalled: exit or throw) queues as $sk,
 * N behind it as $nk; S gets its signal. $timeout null: the holder releases
 * 0.3 s later. Else S's wait times out meanwhile, then the holder releases.
 */
function scenario(RedisServer $redis, RedisServer $book, string $key, string $hk, string $sk, string $nk, string $how, ?float $timeout = null): void
{
    $book->cmd('FLUSHALL');
    if (!rl_shared_take($hk, $key, 0, 20)) {
        throw new RuntimeException("the holder could not take $key");
    }
    $s = rl_php_child(SIGNALLED, [], [$redis->dsn(), $sk, $key, $how, (string) ($timeout ?? 30)]);
    $line = $s->readLine(10);
    echo "S: ", preg_replace('/\d+$/', 'PID', $line), "\n";
    $pid = (int) substr($line, strrpos($line, ' ') + 1);
    rl_php_wait_queued($redis, $sk, $key, 1);
    $n = rl_php_waiter($book, $nk, $key, 'N', ['timeout' => 10]);
    rl_php_wait_queued($redis, $sk, $key, 2);
    rl_signal($pid, $how === 'exit' ? SIGTERM : SIGUSR1);
    if ($timeout === null) {
        rl_sleep(0.3);
        echo "0.3 s after the signal, both still queued: ", var_export(rl_shared_inspect($sk, $key)['waiters'] === 2, true), "\n";
        $t0 = rl_now();
        echo "holder's release: ", var_export(rl_shared_release($hk, $key), true), "\n";
        $released = rl_now();
    }
    $out = $s->wait(10);
    $lines = array_values(array_filter(explode("\n", $out['out']), fn ($l) => $l !== ''));
    $end = null;
    foreach ($lines as $l) {
        if (str_starts_with($l, 'result ')) {
            $r = json_decode(substr($l, 7), true);
            echo "S's call: ", $r['r'], $timeout === null ? '' : ', after its timeout (< 1 s past it): ' . rl_within($r['secs'], $timeout - 0.05, $timeout + 1.0),
                ", then inspect(): held ", var_export($r['held'], true), ", count ", $r['count'], "\n";
        } elseif (str_starts_with($l, 'end ')) {
            $end = (float) substr($l, 4);
        } else {
            echo "S printed: $l\n";
        }
    }
    echo "S: exit ", $out['status'], ", request end ran: ", var_export($end !== null, true), $out['err'] === '' ? '' : ", stderr: {$out['err']}", "\n";
    if ($timeout !== null) {
        // S left the queue: N is next, and a reader fits beside the reading holder at once.
        $beside = $nk === 'r' && $hk === 'r';
        if ($beside) {
            rl_shared_result($book, 'N', 't1', 5);
        }
        echo "waiters once S ended: ", rl_shared_inspect($nk, $key)['waiters'], "\n";
        $t0 = rl_now();
        echo "holder's release: ", var_export(rl_shared_release($hk, $key), true), "\n";
        $released = rl_now();
        [$what, $after, $ref] = $beside ? ["S's wait timed out", $r['t1'] - $r['secs'] + $timeout - 0.05, $r['t1']] : ["the holder's release", $t0, $released];
    } else {
        [$what, $after, $ref] = ["S's request end", $end ?? INF, $released];
    }
    $nt = rl_shared_result($book, 'N', 't1', 10);
    echo "N: ", var_export(rl_shared_result($book, 'N', 'take'), true), ", got it after $what: ", var_export($nt > $after, true),
        ", < 1 s after ", $ref === $released ? "the holder's release" : "S's call ended", ": ", rl_within($nt - $ref, -10.0, 0.999),
        ", its release: ", rl_php_rel($book, 'N'), "\n";
    echo "N exit ", $n->wait(10), ", keys: ", json_encode(rl_eventually(fn () => rl_audit_keys_of($redis, $key), [], 1.0)), "\n";
}

$n = 0;
foreach (['exit', 'throw'] as $how) {
    echo "-- a writer waiting behind a writer, $how\n";
    scenario($redis, $book, 'x' . $n++, 'w', 'w', 'r', $how);
    echo "-- a reader waiting behind a writer, $how\n";
    scenario($redis, $book, 'x' . $n++, 'w', 'r', 'w', $how);
    echo "-- a semaphore waiter, $how\n";
    scenario($redis, $book, 'x' . $n++, 's', 's', 's', $how);
}
echo "-- a semaphore waiter whose wait times out, throw\n";
scenario($redis, $book, 'x' . $n++, 's', 's', 's', 'throw', 0.5);
echo "-- a writer waiting behind a reader whose wait times out, a reader behind it, throw\n";
scenario($redis, $book, 'x' . $n++, 'r', 'w', 'r', 'throw', 0.5);
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
-- a writer waiting behind a writer, exit
S: waiting, pid PID
0.3 s after the signal, both still queued: true
holder's release: true
S: exit 3, request end ran: true
N: true, got it after S's request end: true, < 1 s after the holder's release: true, its release: true
N exit 0, keys: []
-- a reader waiting behind a writer, exit
S: waiting, pid PID
0.3 s after the signal, both still queued: true
holder's release: true
S: exit 3, request end ran: true
N: true, got it after S's request end: true, < 1 s after the holder's release: true, its release: true
N exit 0, keys: []
-- a semaphore waiter, exit
S: waiting, pid PID
0.3 s after the signal, both still queued: true
holder's release: true
S: exit 3, request end ran: true
N: true, got it after S's request end: true, < 1 s after the holder's release: true, its release: true
N exit 0, keys: []
-- a writer waiting behind a writer, throw
S: waiting, pid PID
0.3 s after the signal, both still queued: true
holder's release: true
S's call: RuntimeException: interrupted, then inspect(): held true, count 1
S: exit 0, request end ran: true
N: true, got it after S's request end: true, < 1 s after the holder's release: true, its release: true
N exit 0, keys: []
-- a reader waiting behind a writer, throw
S: waiting, pid PID
0.3 s after the signal, both still queued: true
holder's release: true
S's call: RuntimeException: interrupted, then inspect(): held true, count 1
S: exit 0, request end ran: true
N: true, got it after S's request end: true, < 1 s after the holder's release: true, its release: true
N exit 0, keys: []
-- a semaphore waiter, throw
S: waiting, pid PID
0.3 s after the signal, both still queued: true
holder's release: true
S's call: RuntimeException: interrupted, then inspect(): held true, count 1
S: exit 0, request end ran: true
N: true, got it after S's request end: true, < 1 s after the holder's release: true, its release: true
N exit 0, keys: []
-- a semaphore waiter whose wait times out, throw
S: waiting, pid PID
S's call: RuntimeException: interrupted, after its timeout (< 1 s past it): true, then inspect(): held false, count 0
S: exit 0, request end ran: true
waiters once S ended: 1
holder's release: true
N: true, got it after the holder's release: true, < 1 s after the holder's release: true, its release: true
N exit 0, keys: []
-- a writer waiting behind a reader whose wait times out, a reader behind it, throw
S: waiting, pid PID
S's call: RuntimeException: interrupted, after its timeout (< 1 s past it): true, then inspect(): held false, count 0
S: exit 0, request end ran: true
waiters once S ended: 0
holder's release: true
N: true, got it after S's wait timed out: true, < 1 s after S's call ended: true, its release: true
N exit 0, keys: []
keys: []
