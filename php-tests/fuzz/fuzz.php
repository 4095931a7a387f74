<?php
/*
 * Randomized argument and INI fuzzing of RedisMutexLock and RedLock against a
 * real redis-server. Usage (PHP with or without the extension loaded):
 *
 *   php php-tests/fuzz/fuzz.php [--calls=N] [--seed=S] [--from=I]
 *
 * It starts a redis-server, runs the calls in a child PHP with the extension
 * and checks each one: the result has the declared return type, or the
 * thrown class is exactly TypeError, ValueError, ArgumentCountError or
 * RedisLockException; an invalid input (TypeError, ValueError,
 * ArgumentCountError) sent no command to Redis; and the child never
 * crashes (exit status, "panicked" on stderr). Call I of seed S is the same
 * call on every run: a failure is replayed with --seed=S --from=I --calls=I+1.
 * The last line: "fuzz: N calls, C crashes, W wrong exception classes, ...".
 */
require_once __DIR__ . '/../inc/redis_server.inc';

$opt = getopt('', ['calls:', 'seed:', 'from:']);
$calls = (int) ($opt['calls'] ?? 3000);
$seed = (int) ($opt['seed'] ?? random_int(1, 1 << 30));
$from = (int) ($opt['from'] ?? 0);
echo "fuzz: seed $seed, calls $from to ", $calls - 1, " (replay: php php-tests/fuzz/fuzz.php --seed=$seed --from=I --calls=I+1)\n";

$redis = RedisServer::start();
$closed = rl_free_port();
$totals = ['calls' => 0, 'crashes' => 0, 'wrong' => 0, 'types' => 0, 'sent' => 0];
$child = '<?php require $argv[1]; exit(fuzz_child(...array_map("intval", array_slice($argv, 2))));';
while ($from < $calls) {
    $r = PhpChild::run($child, ['redis_lock.server' => "redis://127.0.0.1:{$redis->port}"], [__DIR__ . '/child.inc', $seed, $from, $calls, $redis->port, $closed], true, null, max(60, ($calls - $from) * 0.01));
    $last = $from - 1;
    foreach (explode("\n", $r['out']) as $line) {
        if (preg_match('/^#(\d+)$/', $line, $m)) {
            $last = (int) $m[1];
        } elseif (preg_match('/^DONE (\d+) (\d+) (\d+) (\d+)$/', $line, $m)) {
            $totals['wrong'] += (int) $m[2];
            $totals['types'] += (int) $m[3];
            $totals['sent'] += (int) $m[4];
        } elseif ($line !== '') {
            echo $line, "\n";
        }
    }
    $crashed = $r['status'] !== 0 || preg_match('/panick|RUST_BACKTRACE/', $r['err']) || !str_contains($r['out'], "\nDONE ");
    if ($crashed) {
        $totals['crashes']++;
        $at = max($last, $from);
        echo "CRASH at call $at (seed $seed): exit status {$r['status']}: ", substr(trim($r['err']), -2000), "\n";
        $totals['calls'] += $at - $from + 1;
        $from = $at + 1;
        continue;
    }
    if ($r['err'] !== '') {
        echo "stderr: ", substr($r['err'], 0, 2000), "\n";
    }
    $totals['calls'] += $calls - $from;
    $from = $calls;
}
printf("fuzz: %d calls, %d crashes, %d wrong exception classes, %d wrong return types, %d invalid calls that reached Redis (seed %d)\n",
    $totals['calls'], $totals['crashes'], $totals['wrong'], $totals['types'], $totals['sent'], $seed);
exit($totals['crashes'] + $totals['wrong'] + $totals['types'] + $totals['sent'] === 0 ? 0 : 1);
