<?php
/**
 * One of the K processes of the rwlock and semaphore scenarios (scenario_shared.php):
 *
 *   php shared_worker.php <rwlock|semaphore> <implementation> <host:port> <key>
 *       <check file> <result file> <section µs> <outside µs> <write ‰> <seed> <n>
 *
 * Builds the implementation (<scenario>/<implementation>.php, given <n>: the
 * permits of the semaphore, the number of processes for the rwlock) once,
 * warms it up on a key of its own (connections, autoloading, script caches),
 * prints "ready" and waits for one line "go <t0> <t_end>" (hrtime(true)
 * values, ns: CLOCK_MONOTONIC, the same clock in every process of the
 * machine). It sleeps until t0, then, while hrtime(true) < t_end, loops:
 *
 *   mode: rwlock: 'write' with probability <write ‰>/1000, else 'read', drawn
 *         from mt_rand() seeded with <seed> (the same sequence for every
 *         implementation); semaphore: 'permit'
 *   hold($key, mode, section), where the section is:
 *       enter the check file, usleep(<section µs>), leave the check file
 *   usleep(<outside µs>)               (other work, nothing held)
 *
 * The check file is the second, independent witness besides the time stamps:
 * four counters (readers or permit holders in a section now, writers in a
 * section now, the most holders seen at once, violations), changed under
 * flock(LOCK_EX) as a section enters and leaves. Entering as a writer while
 * anybody is in a section, as a reader while a writer is, or as the
 * (n+1)-th permit holder counts a violation.
 *
 * A hold still waiting at t_end finishes (its section runs), so every process
 * stops after at most one more section. Then it writes five integers per
 * section to <result file> (pack('q*'): hold called, section entered (hold
 * taken), section left (release about to be called), hold returned, 1 for a
 * write else 0), prints "done" and exits. Any failure ends the process with
 * exit 1 and the reason on stderr.
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

[, $scenario, $name, $hostPort, $key, $checkFile, $resultFile, $sectionUs, $outsideUs, $writePermille, $seed, $n]
    = $argv + array_fill(0, 12, '');
if (!in_array($scenario, ['rwlock', 'semaphore'], true) || !preg_match('/^[a-z0-9_]+$/', $name)
    || !is_file(__DIR__ . "/$scenario/$name.php")) {
    note("unknown implementation '$scenario/$name'");
    exit(2);
}
[$host, $port] = explode(':', $hostPort) + ['', '0'];
$sectionUs = (int) $sectionUs;
$outsideUs = (int) $outsideUs;
$writePermille = (int) $writePermille;
$n = (int) $n;

/** The check file: [inside (readers or permit holders), writers, most at once, violations], under flock. */
final class Check
{
    private $fh;

    public function __construct(string $file, private bool $rw, private int $permits)
    {
        $this->fh = fopen($file, 'c+');
        $this->fh !== false || fail("cannot open $file");
    }

    /** Applies $change to the four counters under an exclusive flock. */
    private function update(callable $change): void
    {
        flock($this->fh, LOCK_EX) || fail('flock failed');
        fseek($this->fh, 0);
        $raw = (string) fread($this->fh, 80);
        $c = strlen($raw) === 80 ? array_map('intval', str_split($raw, 20)) : [0, 0, 0, 0];
        $c = $change($c);
        fseek($this->fh, 0);
        fwrite($this->fh, vsprintf('%020d%020d%020d%020d', $c)) === 80 || fail('cannot write the check file');
        fflush($this->fh);
        flock($this->fh, LOCK_UN);
    }

    public function enter(bool $write): void
    {
        $this->update(function (array $c) use ($write): array {
            [$inside, $writers, $most, $violations] = $c;
            if ($write) {
                $violations += ($inside > 0 || $writers > 0) ? 1 : 0;
                $writers++;
            } else {
                $violations += $this->rw ? ($writers > 0 ? 1 : 0) : ($inside >= $this->permits ? 1 : 0);
                $inside++;
            }
            return [$inside, $writers, max($most, $inside + $writers), $violations];
        });
    }

    public function leave(bool $write): void
    {
        $this->update(function (array $c) use ($write): array {
            $write ? $c[1]-- : $c[0]--;
            return $c;
        });
    }
}

try {
    /** @var callable(string, int, int): SharedContender $make */
    $make = require __DIR__ . "/$scenario/$name.php";
    $c = $make($host, (int) $port, $n);
    $rw = $scenario === 'rwlock';
    $check = new Check($checkFile, $rw, $n);

    // Warm-up on a key nobody else uses: the timed run starts with connected
    // clients and loaded scripts, as in a long-lived application process.
    $warmKey = "bench:$scenario:warm:$name:" . getmypid();
    foreach ($rw ? ['read', 'write', 'read'] : ['permit', 'permit', 'permit'] as $mode) {
        $ran = 0;
        $c->hold($warmKey, $mode, function () use (&$ran) {
            $ran++;
        });
        $ran === 1 || fail("warm-up: hold() ran the section $ran times");
    }
    echo "ready\n";

    $line = fgets(STDIN);
    if ($line === false) {
        exit(0); // the scenario went away before the start
    }
    preg_match('/^go (\d+) (\d+)$/', trim($line), $m) || fail('expected "go <t0> <t_end>", got ' . trim($line));
    [$t0, $tEnd] = [(int) $m[1], (int) $m[2]];
    mt_srand((int) $seed);

    // The barrier: every process starts at t0.
    while (($left = $t0 - hrtime(true)) > 0) {
        usleep(max(1, intdiv($left, 1000)));
    }

    $stamps = [];
    while (hrtime(true) < $tEnd) {
        $write = $rw && mt_rand(1, 1000) <= $writePermille;
        $mode = $rw ? ($write ? 'write' : 'read') : 'permit';
        $a1 = $r0 = 0;
        $ran = 0;
        $a0 = hrtime(true);
        $c->hold($key, $mode, function () use (&$a1, &$r0, &$ran, $check, $write, $sectionUs) {
            $a1 = hrtime(true);
            $ran++;
            $check->enter($write);
            usleep($sectionUs);
            $check->leave($write);
            $r0 = hrtime(true);
        });
        $r1 = hrtime(true);
        $ran === 1 || fail("hold() ran the section $ran times");
        array_push($stamps, $a0, $a1, $r0, $r1, $write ? 1 : 0);
        usleep($outsideUs);
    }

    file_put_contents($resultFile, $stamps ? pack('q*', ...$stamps) : '') !== false || fail("cannot write $resultFile");
    echo "done\n";
} catch (\Throwable $e) {
    note(get_class($e) . ': ' . $e->getMessage() . ' at ' . $e->getFile() . ':' . $e->getLine());
    exit(1);
}
