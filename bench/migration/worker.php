<?php
/**
 * One process of the mixed fleet (started by run.php):
 *
 *   php worker.php --probe <implementation> <options JSON>
 *       prints "ok <label>" or "skip <reason>": can this process run it?
 *   php worker.php <implementation> <options JSON> <stats file>
 *       warms up, prints "ready", waits for "go <t0> <t_end>" on stdin
 *       (hrtime(true) ns: CLOCK_MONOTONIC, one clock for every process of the
 *       machine), then from t0 until t_end loops:
 *
 *         acquire the lock on the shared key (blocking, at most the timeout)
 *         GET counter, usleep(section µs), SET counter+1   (NOT atomic: two
 *                                                         holders lose an update)
 *         release
 *         usleep(outside µs)
 *
 *       and prints one JSON line of its counts. An acquire still waiting at
 *       t_end finishes its section, so each process ends within one timeout.
 *       SIGTERM (run.php, when a wait does not end) stops it between sections
 *       or while it polls, and it still prints its counts, marked "stopped".
 *       A wait inside the extension does not return to PHP on a signal, so
 *       run.php may have to SIGKILL it: the same counts are therefore also
 *       kept in <stats file>, rewritten after every section (one write).
 */

declare(strict_types=1);

namespace Bench\Migration;

require __DIR__ . '/lib.php';

final class Stop extends \Exception
{
}

/** "Class: message ← Previous: message": frameworks wrap the store's error (symfony's LockAcquiringException). */
function describe(\Throwable $e): string
{
    $text = get_class($e);
    for ($message = $e->getMessage(); ($e = $e->getPrevious()) !== null; $message = $e->getMessage()) {
        // A wrapper that repeats its cause's message: name both classes, the message once.
        $text .= ($e->getMessage() === $message ? '' : ": $message") . ' ← ' . get_class($e);
    }
    return "$text: $message";
}

$probe = ($argv[1] ?? '') === '--probe';
$args = array_slice($argv, $probe ? 2 : 1);
if (count($args) !== ($probe ? 2 : 3)) {
    fwrite(STDERR, "usage: php worker.php --probe <implementation> <options JSON>\n"
        . "       php worker.php <implementation> <options JSON> <stats file>\n");
    exit(2);
}
[$name, $json, $statsPath] = $args + [2 => ''];
$o = Options::fromJson($json);
$class = load_implementation($name);

if ($probe) {
    $why = $class::unavailable($o);
    echo $why === null ? 'ok ' . $class::label($o) : "skip $why", "\n";
    exit(0);
}
if (($why = $class::unavailable($o)) !== null) {
    fwrite(STDERR, "$name: $why\n");
    exit(1);
}

/** @var MixLock $lock */
$lock = new $class($o);
$counter = new \RespClient("tcp://{$o->host}:{$o->port}"); // the shared counter, on a connection of its own

// Warm-up on a key of its own: connections open, classes loaded, scripts
// cached before the start, as in a long-lived application process.
$warm = $o->key . ':warm:' . getmypid();
for ($i = 0; $i < 3; $i++) {
    $lock->acquire($warm) || throw new \RuntimeException("warm-up: could not take $warm");
    $lock->release();
}
echo "ready\n";

$line = fgets(STDIN);
if ($line === false) {
    exit(0); // run.php went away before the start
}
if (!preg_match('/^go (\d+) (\d+)$/', trim($line), $m)) {
    fwrite(STDERR, 'expected "go <t0> <t_end>", got ' . trim($line) . "\n");
    exit(2);
}
[$t0, $tEnd] = [(int) $m[1], (int) $m[2]];

$stats = ['impl' => $name, 'pid' => getmypid(), 'sections' => 0, 'failed' => 0, 'refused' => 0,
    'exceptions' => 0, 'first_exception' => null, 'max_wait_ms' => 0.0, 'stopped' => false];
$statsFile = fopen($statsPath, 'c') ?: throw new \RuntimeException("cannot open $statsPath");
// One fixed-size write at offset 0: a SIGKILL leaves the previous or the new record, never half of one.
$save = function () use (&$stats, $statsFile): void {
    fseek($statsFile, 0);
    fwrite($statsFile, str_pad(json_encode($stats, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), 2048));
};
$save();

// SIGTERM: throw Stop where the process is (a polling wait, the pause
// outside), but never between GET and the count of a section, so that
// sections and counter stay comparable; there it only asks to stop.
$inSection = false;
$stopAsked = false;
pcntl_async_signals(true);
pcntl_signal(SIGTERM, function () use (&$inSection, &$stopAsked): void {
    $stopAsked = true;
    if (!$inSection) {
        throw new Stop();
    }
});

try {
    while (($left = $t0 - hrtime(true)) > 0) {
        usleep(max(1, intdiv($left, 1000)));
    }
    while (hrtime(true) < $tEnd && !$stopAsked) {
        $held = false;
        try {
            $a = hrtime(true);
            if ($lock->acquire($o->key)) {
                $held = true;
                $stats['max_wait_ms'] = max($stats['max_wait_ms'], (hrtime(true) - $a) / 1e6);
                $inSection = true;
                $value = (int) $counter->call('GET', $o->counterKey);
                usleep($o->sectionUs);
                $counter->call('SET', $o->counterKey, $value + 1);
                $stats['sections']++;
                $inSection = false;
                $held = false;
                $lock->release() || $stats['refused']++;
            } else {
                $stats['failed']++;
            }
        } catch (Stop $e) {
            throw $e;
        } catch (\Throwable $e) {
            $inSection = false;
            $stats['exceptions']++;
            $stats['first_exception'] ??= substr(describe($e), 0, 600);
            if ($held) {
                try {
                    $lock->release();
                } catch (\Throwable) {
                }
            }
        }
        $save();
        usleep($o->outsideUs);
    }
} catch (Stop) {
    $stats['stopped'] = true;
} finally {
    pcntl_signal(SIGTERM, SIG_DFL); // a second SIGTERM while printing just ends it
}
$stats['stopped'] = $stats['stopped'] || $stopAsked;
$save();
echo json_encode($stats, JSON_UNESCAPED_SLASHES | JSON_INVALID_UTF8_SUBSTITUTE), "\n";
