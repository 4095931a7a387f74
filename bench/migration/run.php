<?php
/**
 * Mixed-fleet benchmark for migrations: processes of different lock
 * implementations contend for ONE lock key on one throwaway redis-server, as
 * old and new code do side by side during a rolling deploy. Each process
 * (worker.php) guards a non-atomic read-modify-write of a shared counter with
 * the lock; at the end, sections counted by the processes minus the counter =
 * updates lost because two processes held the lock at once.
 *
 *   php bench/migration/run.php --mix="handrolled:2,ours:2" [--mix=…] [options]
 *
 *   --mix=NAME:N,…     implementations and process counts, run together; several
 *                      --mix options run one after the other, each on a fresh server.
 *                      NAME: handrolled, ours, ours-laravel, ours-symfony, laravel,
 *                      symfony, old:<path to another build's .so>, none (self-check)
 *   --seconds=6        how long each process loops
 *   --key=lock:mix     the Redis key they all lock (the extension's names are it
 *                      without redis_lock.prefix, "lock:")
 *   --timeout=5        seconds a blocking acquire waits, where the implementation
 *                      has a deadline (symfony's acquire(true) has none)
 *   --ttl=20           seconds every implementation takes the lock for
 *   --sleep=100000     µs between the hand-rolled lock's attempts
 *   --section-us=500   µs between GET and SET inside the lock
 *   --outside-us=3000  µs after each release
 *   --so=PATH          the current build (default: $REDIS_LOCK_SO, else
 *                      target/release/libredis_lock.so)
 *   --check            a test (make test-migration), not a measurement: every
 *                      implementation of a mix must run here, and beside
 *                      another implementation this extension's processes
 *                      (ours, ours-laravel, ours-symfony) must each get in,
 *                      never fail or throw, and make at least their share of
 *                      the processes' sections
 *
 * Prints Markdown. An implementation this machine cannot run (a Debian package
 * missing) is left out of its mix with a line saying why. Exit status 1 when
 * an update was lost, a worker's counts are incomplete or a --check failed,
 * 2 on a usage error.
 */

declare(strict_types=1);

namespace Bench\Migration;

require __DIR__ . '/lib.php';

const USAGE = 'usage: php bench/migration/run.php --mix=NAME:N[,NAME:N…] [--mix=…] [--seconds=6] [--key=lock:mix] '
    . '[--timeout=5] [--ttl=20] [--sleep=100000] [--section-us=500] [--outside-us=3000] [--so=PATH] [--check]';

function usage_error(string $message): never
{
    fwrite(STDERR, "$message\n" . USAGE . "\n");
    exit(2);
}

function note(string $message): void
{
    fwrite(STDERR, "$message\n");
}

// ---- Options.
$mixes = [];
$o = new Options(adapters: dirname(__DIR__, 2) . '/adapters');
$seconds = 6.0;
$check = false;
$so = getenv('REDIS_LOCK_SO') ?: dirname(__DIR__, 2) . '/target/release/libredis_lock.so';
foreach (array_slice($argv, 1) as $arg) {
    if (!preg_match('/^--([a-z-]+)(?:=(.*))?$/s', $arg, $m)) {
        usage_error("unexpected argument '$arg'");
    }
    $value = $m[2] ?? '';
    $number = function (float $min) use ($m, $value): float {
        is_numeric($value) && (float) $value >= $min || usage_error("--{$m[1]} must be a number >= $min, got '$value'");
        return (float) $value;
    };
    match ($m[1]) {
        'mix' => $mixes[] = $value,
        'seconds' => $seconds = $number(0.1),
        'key' => $value !== '' ? $o->key = $value : usage_error('--key must not be empty'),
        'timeout' => $o->timeout = $number(0.01),
        'ttl' => $o->ttl = (int) $number(1),
        'sleep' => $o->sleep = (int) $number(1),
        'section-us' => $o->sectionUs = (int) $number(0),
        'outside-us' => $o->outsideUs = (int) $number(0),
        'so' => $so = $value,
        'check' => $check = true,
        'help' => usage_error('Mixed-fleet lock benchmark; see bench/migration/README.md.'),
        default => usage_error("unknown option --{$m[1]}"),
    };
}
$mixes !== [] || usage_error('no --mix given');

/** "handrolled:2,old:/x/y.so:1" => [['name' => 'handrolled', 'impl' => …, 'so' => …, 'count' => 2], …] */
function parse_mix(string $mix, string $so): array
{
    $entries = [];
    foreach (explode(',', $mix) as $part) {
        // The count follows the last ':' (an old build's path comes before it).
        if (!preg_match('/^(.+):(\d+)$/', trim($part), $m) || (int) $m[2] < 1) {
            usage_error("--mix: '$part' is not NAME:N (N >= 1)");
        }
        [$name, $count] = [$m[1], (int) $m[2]];
        $impl = str_starts_with($name, 'old:') ? 'old' : $name;
        isset(IMPLEMENTATIONS[$impl]) && $name !== 'old'
            || usage_error("--mix: unknown implementation '$name' (known: " . implode(', ', array_diff(array_keys(IMPLEMENTATIONS), ['old'])) . ', old:<.so>)');
        $entrySo = $impl === 'old' ? substr($name, 4) : $so;
        if ($impl === 'old' && !is_file($entrySo)) {
            usage_error("--mix: $name: no such file");
        }
        $entries[] = ['name' => $name, 'impl' => $impl, 'so' => $entrySo, 'count' => $count];
    }
    return $entries;
}
$plans = array_map(fn (string $mix) => parse_mix($mix, $so), $mixes);

// ---- The machine.
$missing = [];
extension_loaded('pcntl') || $missing[] = 'pcntl (in php-cli)';
trim((string) shell_exec('command -v redis-server')) !== '' || $missing[] = 'redis-server (apt-get install redis-server)';
is_file($so) || $missing[] = "the extension at $so (cargo build --release, or --so=PATH)";
if ($missing) {
    note("bench/migration: missing:\n  - " . implode("\n  - ", $missing));
    exit(1);
}
if (extension_loaded('redis_lock')) {
    note("bench/migration: php's own ini files load redis_lock; remove it there so that --so is the build measured");
    exit(1);
}

$dir = sys_get_temp_dir() . '/redis_lock_migration.' . getmypid();
if (!@mkdir($dir, 0700) || !copy($so, "$dir/redis_lock.so")) { // a copy: one fixed build, even if target/ is rebuilt meanwhile
    note("bench/migration: cannot create $dir or copy $so there");
    exit(1);
}
$current = "$dir/redis_lock.so";

/** @var array<string, resource> every process we started and have not reaped: stopped at exit */
$children = [];
register_shutdown_function(function () use (&$children, $dir): void {
    foreach ($children as $proc) {
        @proc_terminate($proc, 9);
        @proc_close($proc);
    }
    foreach ([...(glob("$dir/*/*") ?: []), ...(glob("$dir/*") ?: []), $dir] as $f) {
        is_dir($f) ? @rmdir($f) : @unlink($f);
    }
});
pcntl_async_signals(true);
foreach ([SIGINT, SIGTERM] as $signal) {
    pcntl_signal($signal, fn () => exit(130)); // exit() runs the shutdown function above
}

/** The command line of a worker: old builds alone (-n: no other ini, no other redis_lock), the rest with php's ini (phpredis, include path). */
function php_command(array $entry, string $current, Options $o): array
{
    $ini = ['-d', 'redis_lock.server=' . $o->dsn(), '-d', 'display_errors=stderr'];
    return $entry['impl'] === 'old'
        ? [PHP_BINARY, '-n', '-d', 'extension=' . $entry['so'], ...$ini]
        : [PHP_BINARY, '-d', "extension=$current", ...$ini];
}

/**
 * Can this machine run the entry? "ok <label>" or "skip <reason>" from the
 * worker itself, started as it will be started (so an old build names itself).
 */
function probe(array $entry, string $current, Options $o): array
{
    $cmd = [...php_command($entry, $current, $o), __DIR__ . '/worker.php', '--probe', $entry['impl'], $o->toJson()];
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    $out = trim((string) stream_get_contents($pipes[1]));
    $err = trim((string) stream_get_contents($pipes[2]));
    proc_close($proc);
    if (preg_match('/^ok (.*)$/', $out, $m)) {
        return ['ok' => true, 'label' => $m[1]];
    }
    return ['ok' => false, 'why' => preg_match('/^skip (.*)$/', $out, $m) ? $m[1] : "it does not start: $out $err"];
}

/** Runs one mix on a fresh server; prints its Markdown; returns whether nothing was lost and every count is complete. */
function run_mix(array $plan, string $mixArg, float $seconds, Options $base, string $current, string $dir, array &$children, bool $check): bool
{
    $server = \RedisServer::start(); // a free loopback port, no persistence; stopped on any exit
    $port = $server->port;
    $o = clone $base;
    $o->port = $port;

    printf("\n### `%s`: %g s on one key, `%s`\n\n", $mixArg, $seconds, $o->key);
    $entries = [];
    $skipped = false; // with --check, a mix that cannot run whole fails
    foreach ($plan as $entry) {
        $p = probe($entry, $current, $o);
        if ($p['ok']) {
            $entries[] = $entry + ['label' => $p['label']];
        } else {
            printf("- **%s %s**: %s\n", $check ? 'FAILED: cannot run' : 'skipped', $entry['name'], $p['why']);
            $skipped = $skipped || $check;
        }
    }
    if ($entries === [] || $skipped) {
        print("- nothing of this mix can run here\n");
        $server->stop();
        return !$skipped;
    }
    $r = $server->client();

    // Start every worker; each warms up and says "ready".
    $workers = [];
    foreach ($entries as $e => $entry) {
        for ($i = 0; $i < $entry['count']; $i++) {
            $id = count($workers);
            $cmd = [...php_command($entry, $current, $o), __DIR__ . '/worker.php', $entry['impl'], $o->toJson(), "$dir/stats-$id.json"];
            $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', "$dir/worker-$id.log", 'w']], $pipes);
            $children["worker-$id"] = $proc;
            $workers[$id] = ['entry' => $e, 'proc' => $proc, 'in' => $pipes[0], 'out' => $pipes[1], 'lines' => []];
        }
    }
    $collect = function (float $until) use (&$workers): void {
        // Reads workers' stdout lines until every pipe is closed or $until (hrtime s) passes.
        while (hrtime(true) / 1e9 < $until) {
            $open = array_filter(array_map(fn ($w) => $w['out'], $workers), 'is_resource');
            if ($open === []) {
                return;
            }
            $read = array_values($open);
            $none = null;
            if (@stream_select($read, $none, $none, 0, 100_000) < 1) {
                continue;
            }
            foreach ($read as $pipe) {
                $id = array_search($pipe, $open, true);
                $line = fgets($pipe);
                if ($line === false) {
                    fclose($pipe);
                } else {
                    $workers[$id]['lines'][] = trim($line);
                }
            }
        }
    };
    $ready = function () use (&$workers): int { // by reference: $collect keeps adding lines
        return count(array_filter($workers, fn ($w) => in_array('ready', $w['lines'], true)));
    };
    $deadline = hrtime(true) / 1e9 + 30;
    while ($ready() < count($workers) && hrtime(true) / 1e9 < $deadline) {
        $collect(min($deadline, hrtime(true) / 1e9 + 0.1));
        foreach ($workers as $id => $w) {
            if (!in_array('ready', $w['lines'], true) && !is_resource($w['out'])) {
                note("bench/migration: worker $id ({$entries[$w['entry']]['name']}) ended before it was ready:\n" . file_get_contents("$dir/worker-$id.log"));
                exit(1);
            }
        }
    }
    if ($ready() < count($workers)) {
        note('bench/migration: workers not ready within 30 s');
        exit(1);
    }

    // The start barrier: everybody gets the same t0 and t_end.
    $r->call('SET', $o->counterKey, 0);
    $r->call('DEL', $o->key);
    $t0 = hrtime(true) + 300_000_000;
    $tEnd = $t0 + (int) ($seconds * 1e9);
    foreach ($workers as $w) {
        fwrite($w['in'], "go $t0 $tEnd\n");
    }

    // A process waits at most one timeout past t_end, plus one section; then SIGTERM, then SIGKILL.
    $grace = $tEnd / 1e9 + $o->timeout + 10;
    $collect($grace);
    $signalled = [];
    foreach ([15 => 3, 9 => 2] as $signal => $wait) {
        foreach ($workers as $id => $w) {
            if (is_resource($w['out'])) {
                proc_terminate($w['proc'], $signal);
                $signalled[$id] = $signal;
            }
        }
        $collect(hrtime(true) / 1e9 + $wait);
    }

    // Counts: the worker's JSON line; else (killed) its stats file, as of its last section.
    $rows = [];
    $sum = 0;
    $complete = true;
    foreach ($workers as $id => $w) {
        fclose($w['in']);
        proc_close($w['proc']);
        unset($children["worker-$id"]);
        $line = end($w['lines']);
        $stats = is_string($line) && str_starts_with($line, '{') ? json_decode($line, true) : null;
        $how = $signalled[$id] ?? 0;
        if ($stats === null) {
            $stats = json_decode(trim((string) @file_get_contents("$dir/stats-$id.json")), true);
            $complete = false;
            $how = $how ?: 'crashed';
            if ($stats === null) {
                note("bench/migration: worker $id ({$entries[$w['entry']]['name']}) left no counts:\n" . file_get_contents("$dir/worker-$id.log"));
                $stats = ['sections' => 0, 'failed' => 0, 'refused' => 0, 'exceptions' => 0, 'first_exception' => null, 'max_wait_ms' => 0];
            }
        }
        $stats['how'] = $how;
        $sum += $stats['sections'];
        $rows[$w['entry']][] = $stats;
        if (($log = trim((string) file_get_contents("$dir/worker-$id.log"))) !== '') {
            note("bench/migration: worker $id ({$entries[$w['entry']]['name']}) said on stderr:\n$log");
        }
    }
    $counter = (int) $r->call('GET', $o->counterKey);
    $left = $r->call('GET', $o->key);
    $leftTtl = $r->call('PTTL', $o->key);
    $version = preg_match('/redis_version:(\S+)/', (string) $r->call('INFO', 'server'), $m) ? $m[1] : '?';
    $server->stop();

    // The table.
    print("| implementation | processes | sections per process | failed / timeouts | release refused | longest wait | exceptions |\n");
    print("|---|---:|---|---:|---:|---:|---|\n");
    foreach ($entries as $e => $entry) {
        $all = $rows[$e];
        $field = fn (string $k) => array_sum(array_column($all, $k));
        $sections = implode(', ', array_map(function (array $s): string {
            return $s['sections'] . match ($s['how']) {
                0 => '',
                15 => ' (stopped: SIGTERM)',
                9 => ' (killed: SIGKILL, counted to its last section)',
                default => ' (crashed, counted to its last section)',
            };
        }, $all));
        $first = array_values(array_filter(array_column($all, 'first_exception')))[0] ?? null;
        printf("| **%s**: %s | %d | %s | %d | %d | %s | %s |\n",
            $entry['name'], $entry['label'], count($all), $sections, $field('failed'), $field('refused'),
            $field('sections') > 0 ? number_format(max(array_column($all, 'max_wait_ms')), 0, '.', '') . ' ms' : '–',
            $field('exceptions') === 0 ? '0' : $field('exceptions') . ': ' . str_replace(['|', "\n"], ['\\|', ' '], (string) $first));
    }
    $lost = $sum - $counter;
    printf("\n**Lost updates: %d** (sections counted by the processes: %d, shared counter: %d)%s. redis-server %s.\n",
        $lost, $sum, $counter, $lost < 0 ? '; negative: a killed process had finished a section it had not yet counted' : '', $version);
    if ($left !== null) {
        printf("The lock key was still held at the end (value `%s`, %s): a release that did not delete it, or a process stopped while it held it.\n",
            addcslashes($left, "\0..\37\\`"), $leftTtl > 0 ? sprintf('expiring in %.1f s', $leftTtl / 1000) : 'no TTL');
    }
    if (!$complete) {
        print("Counts are incomplete (a process had to be killed): lost updates cannot be excluded.\n");
    }
    return $lost === 0 && $complete && (!$check || check_mix($entries, $rows));
}

/**
 * --check: beside any other implementation, this extension's processes each
 * get in without a failure or an exception, and make at least their share of
 * the sections (sections of ours / all >= processes of ours / all). Prints
 * one line per finding; true when there is none.
 */
function check_mix(array $entries, array $rows): bool
{
    $ours = ['ours', 'ours-laravel', 'ours-symfony'];
    $problems = [];
    $processes = $oursProcesses = $sections = $oursSections = 0;
    foreach ($entries as $e => $entry) {
        $isOurs = in_array($entry['impl'], $ours, true);
        foreach ($rows[$e] as $s) {
            $processes++;
            $sections += $s['sections'];
            if (!$isOurs) {
                continue;
            }
            $oursProcesses++;
            $oursSections += $s['sections'];
            $s['sections'] > 0 || $problems[] = "a process of {$entry['name']} never got in";
            $s['failed'] + $s['exceptions'] === 0 || $problems[] = sprintf('%s: %d timeouts, %d exceptions (first: %s)',
                $entry['name'], $s['failed'], $s['exceptions'], $s['first_exception'] ?? '–');
        }
    }
    $share = $sections > 0 ? $oursSections / $sections : 0.0;
    $due = $processes > 0 ? $oursProcesses / $processes : 0.0;
    if ($oursProcesses < $processes && $share < $due) {
        $problems[] = sprintf("this extension's processes made %.2f of the sections, below their share of the processes (%.2f)", $share, $due);
    }
    printf("\n**Check**: %s\n", $problems === [] ? sprintf("passed (this extension's share of the sections %.2f, of the processes %.2f)", $share, $due)
        : "FAILED:\n" . implode("\n", array_map(fn ($p) => "- $p", $problems)));
    return $problems === [];
}

printf("## Mixed fleet: one lock key, several implementations\n\n`%s`\n\nPHP %s; each process: acquire (timeout %g s, TTL %d s), GET counter, usleep(%d), SET counter+1, release, usleep(%d). Current build: `%s` (%s).\n",
    implode(' ', ['php bench/migration/run.php', ...array_map(fn ($a) => preg_match('/^[\w.:\/=,-]+$/', $a) ? $a : escapeshellarg($a), array_slice($argv, 1))]),
    PHP_VERSION, $o->timeout, $o->ttl, $o->sectionUs, $o->outsideUs, $so,
    trim((string) shell_exec(implode(' ', array_map('escapeshellarg', [PHP_BINARY, '-n', '-d', "extension=$current", '-r', 'echo phpversion("redis_lock");'])))) ?: '?');
$ok = true;
foreach ($plans as $i => $plan) {
    $ok = run_mix($plan, $mixes[$i], $seconds, $o, $current, $dir, $children, $check) && $ok;
}
exit($ok ? 0 : 1);
