<?php
/**
 * One of the K processes of the contention scenario (scenario_contention.php):
 *
 *   php contention_worker.php <implementation> <host:port> <key> <counter file>
 *       <result file> <section µs> <outside µs>
 *
 * Builds the implementation (contention/<implementation>.php) once, warms it
 * up on a key of its own (connections, autoloading, script caches), prints
 * "ready" and waits for one line "go <t0> <t_end>" (hrtime(true) values, ns:
 * CLOCK_MONOTONIC, the same clock in every process of the machine). It sleeps
 * until t0, then, while hrtime(true) < t_end, loops:
 *
 *   acquire($key)                      (blocking, as the implementation blocks)
 *   critical section: read the shared counter from <counter file>,
 *       usleep(<section µs>), write counter + 1 back: a NON-atomic
 *       read-modify-write, so two holders at once lose an update
 *   release()
 *   usleep(<outside µs>)               (other work, lock not held)
 *
 * An acquire that is still waiting at t_end finishes (the lock is then used
 * and released as usual), so every process stops after at most one more
 * section. Then it writes four hrtime(true) stamps per section to
 * <result file> (pack('q*'): acquire called, acquire returned, release
 * called, release returned) and the CPU time the process used in the loop
 * (getrusage(): user + system, µs) to <result file>.cpu, prints "done" and
 * exits. Any failure ends the process with exit 1 and the reason on stderr.
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

[, $name, $hostPort, $key, $counterFile, $resultFile, $sectionUs, $outsideUs] = $argv + array_fill(0, 8, '');
if (!preg_match('/^[a-z0-9_]+$/', $name) || !is_file(__DIR__ . "/contention/$name.php")) {
    note("unknown implementation '$name'");
    exit(2);
}
[$host, $port] = explode(':', $hostPort) + ['', '0'];
$sectionUs = (int) $sectionUs;
$outsideUs = (int) $outsideUs;

try {
    /** @var callable(string, int): BlockingContender $make */
    $make = require __DIR__ . "/contention/$name.php";
    $c = $make($host, (int) $port);
    $counter = fopen($counterFile, 'c+');
    $counter !== false || fail("cannot open $counterFile");

    // Warm-up on a key nobody else uses: the timed run starts with connected
    // clients and loaded scripts, as in a long-lived application process.
    $warmKey = "bench:contention:warm:$name:" . getmypid();
    for ($i = 0; $i < 3; $i++) {
        $c->acquire($warmKey);
        $c->release();
    }
    echo "ready\n";

    $line = fgets(STDIN);
    if ($line === false) {
        exit(0); // the scenario went away before the start
    }
    preg_match('/^go (\d+) (\d+)$/', trim($line), $m) || fail('expected "go <t0> <t_end>", got ' . trim($line));
    [$t0, $tEnd] = [(int) $m[1], (int) $m[2]];

    // The barrier: every process starts at t0.
    while (($left = $t0 - hrtime(true)) > 0) {
        usleep(max(1, intdiv($left, 1000)));
    }

    $stamps = [];
    $cpu0 = cpu_us();
    while (hrtime(true) < $tEnd) {
        $a0 = hrtime(true);
        $c->acquire($key);
        $a1 = hrtime(true);
        fseek($counter, 0);
        $value = (int) fread($counter, 32);
        usleep($sectionUs);
        fseek($counter, 0);
        fwrite($counter, sprintf('%020d', $value + 1)) === 20 || fail("cannot write $counterFile");
        $r0 = hrtime(true);
        $c->release();
        $r1 = hrtime(true);
        array_push($stamps, $a0, $a1, $r0, $r1);
        usleep($outsideUs);
    }

    $cpu = cpu_us() - $cpu0;
    file_put_contents($resultFile, $stamps ? pack('q*', ...$stamps) : '') !== false || fail("cannot write $resultFile");
    file_put_contents("$resultFile.cpu", sprintf('%.0f', $cpu)) !== false || fail("cannot write $resultFile.cpu");
    echo "done\n";
} catch (\Throwable $e) {
    note(get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine());
    exit(1);
}
