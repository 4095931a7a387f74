<?php
/**
 * One timed run of one contender, in its own PHP process:
 *   php worker.php <contender> <seconds> <host:port[,host:port…]>
 * Builds the contender once (one client reused across cycles, as an app
 * would), checks once that a held lock really is in Redis with the right TTL
 * and is gone after release, warms up, then runs acquire+release cycles for
 * <seconds>. Prints {"cycles":…, "seconds":…, "cpu_us":…, "failures":0}; any
 * failed cycle aborts the run (exit 1, the reason on stderr).
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

[, $name, $seconds, $serverList] = $argv + [null, '', '1', ''];
if (!preg_match('/^[a-z0-9_]+$/', $name) || !is_file(__DIR__ . "/contenders/$name.php")) {
    note("unknown contender '$name'");
    exit(2);
}
$servers = array_map(function (string $hp): array {
    [$host, $port] = explode(':', $hp);
    return ['host' => $host, 'port' => (int) $port];
}, explode(',', $serverList));

try {
    /** @var callable(list<array{host: string, port: int}>): Contender $make */
    $make = require __DIR__ . "/contenders/$name.php";
    $c = $make($servers);

    // Sanity check, untimed: the lock is really taken with our TTL, and really released.
    $check = new \Redis();
    $check->connect($servers[0]['host'], $servers[0]['port'], 1.0);
    $key = $c->redisKey();
    $c->acquire();
    $pttl = $check->pttl($key);
    if ($pttl <= (TTL_SECONDS - 1) * 1000 || $pttl > TTL_SECONDS * 1000) {
        fail("after acquire, PTTL $key is $pttl ms, expected about " . TTL_SECONDS * 1000);
    }
    $c->release();
    if ($check->exists($key)) {
        fail("after release, $key still exists");
    }
    $check->close();

    // Warm-up: connections, autoloading, script caches.
    $until = hrtime(true) + 200_000_000;
    do {
        $c->acquire();
        $c->release();
    } while (hrtime(true) < $until);

    $cycles = 0;
    $cpu0 = getrusage();
    $start = hrtime(true);
    $until = $start + (int) ((float) $seconds * 1e9);
    do {
        $c->acquire();
        $c->release();
        $cycles++;
    } while (($now = hrtime(true)) < $until);

    $cpu1 = getrusage();
    $cpu = fn (array $u) => $u['ru_utime.tv_sec'] * 1e6 + $u['ru_utime.tv_usec'] + $u['ru_stime.tv_sec'] * 1e6 + $u['ru_stime.tv_usec'];
    echo json_encode([
        'cycles' => $cycles,
        'seconds' => ($now - $start) / 1e9,
        'cpu_us' => $cpu($cpu1) - $cpu($cpu0), // this PHP process's user+sys time
        'failures' => 0,
    ]), "\n";
} catch (\Throwable $e) {
    note(get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine());
    echo json_encode(['cycles' => $cycles ?? 0, 'seconds' => 0, 'failures' => 1]), "\n";
    exit(1);
}
