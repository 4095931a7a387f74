<?php
/**
 * One contender in its own long-lived PHP process, driven by run_rounds():
 *   php worker.php <contender> <host:port[,host:port…]>
 * Builds the contender once (one client reused across all cycles, as an
 * application's worker process would), checks once that a held lock really
 * is in Redis with the right TTL and is gone after release, warms up, and
 * prints "ready". Then, for each line "run <seconds>" on stdin, runs
 * acquire+release cycles for that long and prints
 * {"cycles":…, "seconds":…, "cpu_us":…, "p50_us":…, "p99_us":…} (percentiles
 * of the cycles' durations). Any failed cycle ends the process (exit 1, the
 * reason on stderr).
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

[, $name, $serverList] = $argv + [null, '', ''];
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

    // Sanity check, untimed: the lock is really taken with our TTL, and really
    // released. A Redlock contender (OnNodes) must hold it on a majority of its
    // nodes right after acquire (the others may still have the SET in flight:
    // a fan-out returns once a majority answered), and it must be gone from
    // all of them shortly after release. An OnCluster contender's key is
    // asked of the master its slot lies on.
    $nodes = $c instanceof OnNodes ? $c->nodes() : 1;
    $checks = [];
    if ($c instanceof OnCluster) {
        $checks['the cluster'] = new \RedisCluster(null, array_map(fn (array $s) => "{$s['host']}:{$s['port']}", $servers), 1.0, 1.0);
    } else {
        foreach (array_slice($servers, 0, $nodes) as $s) {
            $check = new \Redis();
            $check->connect($s['host'], $s['port'], 1.0);
            $checks["{$s['host']}:{$s['port']}"] = $check;
        }
    }
    $key = $c->redisKey();
    $c->acquire();
    $held = 0;
    foreach ($checks as $where => $check) {
        $pttl = $check->pttl($key);
        if ($pttl > (TTL_SECONDS - 1) * 1000 && $pttl <= TTL_SECONDS * 1000) {
            $held++;
        } elseif ($nodes === 1 || $pttl !== -2) {
            fail("after acquire, PTTL $key on $where is $pttl ms, expected about " . TTL_SECONDS * 1000);
        }
    }
    if ($held < intdiv($nodes, 2) + 1) {
        fail("after acquire, $key is held on $held of $nodes nodes only");
    }
    $c->release();
    $until = hrtime(true) + ($nodes === 1 ? 0 : 1_000_000_000);
    do {
        $left = array_keys(array_filter($checks, fn (\Redis|\RedisCluster $check) => $check->exists($key)));
    } while ($left && hrtime(true) < $until && usleep(1000) === null);
    if ($left) {
        fail("after release, $key still exists on " . implode(', ', $left));
    }
    foreach ($checks as $check) {
        $check->close();
    }

    // Warm-up: connections, autoloading, script caches.
    $until = hrtime(true) + 200_000_000;
    do {
        $c->acquire();
        $c->release();
    } while (hrtime(true) < $until);
    echo "ready\n";

    while (($line = fgets(STDIN)) !== false && preg_match('/^run ([0-9.]+)$/', trim($line), $m)) {
        $ns = []; // each cycle's duration
        $cpu = cpu_us();
        $start = $now = hrtime(true);
        $until = $start + (int) ((float) $m[1] * 1e9);
        do {
            $c->acquire();
            $c->release();
            $cycleStart = $now;
            $now = hrtime(true);
            $ns[] = $now - $cycleStart;
        } while ($now < $until);
        $cpu = cpu_us() - $cpu;
        sort($ns);
        echo json_encode(['cycles' => count($ns), 'seconds' => ($now - $start) / 1e9, 'cpu_us' => $cpu,
            'p50_us' => pct($ns, 0.5) / 1e3, 'p99_us' => pct($ns, 0.99) / 1e3]), "\n";
    }
} catch (\Throwable $e) {
    note(get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine());
    exit(1);
}
