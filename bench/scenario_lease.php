<?php
/**
 * Scenario: what lease control costs, on one throwaway Redis server.
 *  1. A nested hold: lock() + release() of a key this process already holds
 *     (each one owner-checked script), beside the uncontended lock() +
 *     release() cycle (SET NX PX + one script), interleaved round by round.
 *  2. One renewal: N renewed locks (redis_lock.auto_renew) with a 1 s lease,
 *     renewed every third of it, held while the main thread sleeps; Redis
 *     counts the renewals it ran, and the CPU time of the renewal thread and
 *     of Redis is divided by that count.
 * Progress goes to stderr; the Markdown result to stdout.
 *
 *   BENCH_ROUNDS (default 20), BENCH_SECONDS per measurement per round (default 0.25)
 *   BENCH_RENEW_LOCKS (default 200), BENCH_RENEW_SECONDS (default 5)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

$rounds = (int) (getenv('BENCH_ROUNDS') ?: 20);
$seconds = (float) (getenv('BENCH_SECONDS') ?: 0.25);
$locks = (int) (getenv('BENCH_RENEW_LOCKS') ?: 200);
$renewSeconds = (float) (getenv('BENCH_RENEW_SECONDS') ?: 5);

/** CPU µs of this process' renewal thread so far. */
function renewal_thread_cpu_us(): float
{
    foreach (glob('/proc/self/task/*') ?: [] as $task) {
        if (trim((string) @file_get_contents("$task/comm")) === 'rl-renew') {
            return (int) explode(' ', (string) file_get_contents("$task/schedstat"))[0] / 1e3;
        }
    }
    fail('no renewal thread');
}

try {
    $server = RedisServer::start();
    ini_set('redis_lock.server', $server->dsn());
    note("{$server->version()} on {$server->host}:{$server->port}; nested holds: $rounds rounds × {$seconds} s; "
        . "renewals: $locks locks × {$renewSeconds} s");

    // 1. Nested holds beside the plain cycle.
    $plain = $nested = [];
    for ($round = 0; $round < $rounds; $round++) {
        $plain[] = rate(fn () => \RedisMutexLock::lock('bench') && \RedisMutexLock::release('bench'), $seconds);
        \RedisMutexLock::lock('bench') || fail('cannot hold the key');
        $nested[] = rate(fn () => \RedisMutexLock::lock('bench') && \RedisMutexLock::release('bench'), $seconds);
        \RedisMutexLock::release('bench') || fail('cannot release the key');
    }
    $us = fn (array $rates) => median(array_map(fn ($r) => 1e6 / $r, $rates));

    // 2. Renewals.
    $client = $server->client();
    ini_set('redis_lock.auto_renew', '1');
    for ($i = 0; $i < $locks; $i++) {
        \RedisMutexLock::lock("renewed:$i", 0, 1) || fail('cannot take a renewed lock');
    }
    $before = redis_snapshot($client);
    $thread0 = renewal_thread_cpu_us();
    $t0 = hrtime(true);
    usleep((int) ($renewSeconds * 1e6));
    $elapsed = (hrtime(true) - $t0) / 1e9;
    $after = redis_snapshot($client);
    $thread1 = renewal_thread_cpu_us();
    // Only renewals run scripts meanwhile.
    $scripts = fn (array $snap) => ($snap['calls']['evalsha'] ?? 0) + ($snap['calls']['eval'] ?? 0);
    $renewals = max($scripts($after) - $scripts($before), 1);
    $still = 0;
    for ($i = 0; $i < $locks; $i++) {
        $still += \RedisMutexLock::release("renewed:$i") ? 1 : 0;
    }
    $expected = $locks * $elapsed / (1.0 / 3);

    echo "### Lease control: nested holds and renewals, one Redis server (loopback)\n\n";
    echo "| operation | µs | note |\n|---|---:|---|\n";
    printf("| uncontended lock() + release() | %.1f | SET NX PX + one script |\n", $us($plain));
    printf("| nested lock() + release() of a held key | %.1f | two owner-checked scripts (%.2f× the plain cycle) |\n",
        $us($nested), $us($nested) / $us($plain));
    printf("| one renewal: CPU of the renewal thread | %.1f | %d renewals of %d locks in %.1f s (%.0f expected at every third of a 1 s lease) |\n",
        ($thread1 - $thread0) / $renewals, $renewals, $locks, $elapsed, $expected);
    printf("| one renewal: CPU of Redis | %.1f | includes Redis' own housekeeping in that time |\n\n", ($after['cpu_us'] - $before['cpu_us']) / $renewals);
    printf("Medians over %d interleaved rounds of %s s each for the first two rows. All %d renewed locks were still ours at the end: %s.\n\n",
        $rounds, $seconds, $locks, $still === $locks ? 'yes' : "NO ($still)");
    echo 'Machine: ', machine_facts($server), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
}
