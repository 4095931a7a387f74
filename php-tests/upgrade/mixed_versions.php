<?php
/*
 * make test-upgrade: a rolling upgrade, measured. Processes of an earlier
 * build of redis_lock (--old=its module) and of this one take turns on the
 * same keys of real redis-servers, each kind of lock in turn, and each mix
 * is set against a fleet of this build alone on the same keys:
 *   mutex     RedisMutexLock::lock($k, 5) / release: the FIFO queue and hand-off
 *   owner     acquire($k, newOwner(), ttl, 5) / releaseOwner (the adapters' path)
 *   renewed   lock() with redis_lock.auto_renew and a 1 s lockSecond, sections
 *             of 0.4 s: renewed once each (at a third of the TTL) under the
 *             other build's waiters
 *   redlock   RedLock over 3 servers, lock/unlock retried every 5 ms
 *   rwlock    RedisReadWriteLock: a quarter writes, the rest reads
 *   semaphore RedisSemaphore with a limit of 2
 * Every section is checked by an independent book in Redis (a counter
 * written non-atomically under the lock: GET, pause, SET; for readers, the
 * counter unchanged across their section; for the semaphore, INCR/DECR of
 * the holders inside with the peak kept): a lost update, a reader beside a
 * writer or a third permit is a broken exclusion.
 * The rule the project keeps against its previous minor release
 * (docs/protocol.md): no broken exclusion, every process of either build
 * gets in, no call fails, and the mixed fleet makes at least 1/1.5 of the
 * sections of the slower build alone (each build alone is run too; where
 * that build made at least 200: fewer do not measure throughput).
 *   --old=PATH        the earlier build's module     --label=NAME  for the output
 *   --expect=compatible (exit 1 if the rule is broken) | break (exit 1 if it
 *                     is kept: shows that the check sees a known break)
 *   --kinds=a,b       (default: all that both builds have)  --seconds=S (3)
 */
declare(strict_types=1);
require __DIR__ . '/../inc/redis_server.inc';

$opt = getopt('', ['old:', 'label:', 'expect:', 'kinds:', 'seconds:']);
$old = (string) ($opt['old'] ?? '');
$label = (string) ($opt['label'] ?? basename(dirname($old)));
$expect = (string) ($opt['expect'] ?? 'compatible');
$seconds = (float) ($opt['seconds'] ?? 3);
if (!is_file($old) || !in_array($expect, ['compatible', 'break'], true)) {
    fwrite(STDERR, "usage: php mixed_versions.php --old=PATH/redis_lock.so [--label=NAME] [--expect=compatible|break] [--kinds=mutex,...] [--seconds=3]\n");
    exit(2);
}
$new = rl_extension_path();
$all = ['mutex', 'owner', 'renewed', 'redlock', 'rwlock', 'semaphore'];
$kinds = isset($opt['kinds']) ? explode(',', (string) $opt['kinds']) : $all;

/** What a build says of itself: its version, and the classes it registers (an earlier one may lack the shared locks). */
function build_of(string $so): array
{
    $r = PhpChild::run('<?php echo json_encode([phpversion("redis_lock"), array_values(array_filter(["RedisMutexLock", "RedLock", "RedisReadWriteLock", "RedisSemaphore"], "class_exists"))]);', ['extension' => $so], [], false);
    return json_decode(trim($r['out']), true) ?? ['?', []];
}
$needs = ['mutex' => 'RedisMutexLock', 'owner' => 'RedisMutexLock', 'renewed' => 'RedisMutexLock', 'redlock' => 'RedLock',
          'rwlock' => 'RedisReadWriteLock', 'semaphore' => 'RedisSemaphore'];
[$oldVersion, $oldClasses] = build_of($old);
[$newVersion] = build_of($new);

// A worker: runs its kind until the common end, then prints its counts.
const WORKER = <<<'PHP'
<?php
[$kind, $key, $book, $servers, $from, $until] = json_decode($argv[1], true);
$c = fsockopen('127.0.0.1', $book, $e, $m, 5) or exit("book: $m\n");
function ask($c, string $line): string { fwrite($c, "$line\r\n"); $r = fgets($c); if ($r[0] === '$' && $r !== "\$-1\r\n") { $r = fgets($c); } return trim($r); }
$n = $fail = $broken = 0; $error = null;
while (microtime(true) < $from) { usleep(1000); }
while (microtime(true) < $until) {
    try {
        switch ($kind) {
            case 'mutex': case 'renewed':
                $ok = RedisMutexLock::lock($key, 5, $kind === 'renewed' ? 1 : 20);
                break;
            case 'owner':
                $owner = RedisMutexLock::newOwner();
                $ok = RedisMutexLock::acquire($key, $owner, 20000, 5);
                break;
            case 'redlock':
                $rl ??= new RedLock(array_map(fn ($p) => ['127.0.0.1', $p], $servers), 5, 1000);
                $ok = $rl->lock($key, 20000);
                break;
            case 'rwlock':
                $write = mt_rand(0, 3) === 0;
                $ok = $write ? RedisReadWriteLock::lockWrite($key, 5) : RedisReadWriteLock::lockRead($key, 5);
                break;
            case 'semaphore':
                $ok = RedisSemaphore::acquire($key, 2, 5);
                break;
        }
        if ($ok === false) { $fail++; continue; }
        if ($kind === 'semaphore') {
            $in = (int) substr(ask($c, 'INCR inside'), 1);
            if ($in > 2) { $broken++; }
            usleep(500);
            ask($c, 'DECR inside');
        } elseif ($kind === 'rwlock' && !$write) {
            $v = ask($c, 'GET counter'); usleep(500);
            if (ask($c, 'GET counter') !== $v) { $broken++; }
        } else {
            $v = (int) ask($c, 'GET counter');
            usleep($kind === 'renewed' ? 400000 : 500);
            ask($c, 'SET counter ' . ($v + 1));
            ask($c, 'INCR sections');
        }
        $n++;
        $released = match ($kind) {
            'mutex', 'renewed' => RedisMutexLock::release($key),
            'owner' => RedisMutexLock::releaseOwner($key, $owner),
            'redlock' => $rl->unlock($ok),
            'rwlock' => RedisReadWriteLock::release($key),
            'semaphore' => RedisSemaphore::release($key),
        };
        if (!$released) { $fail++; }
    } catch (Throwable $t) {
        $fail++; $error ??= get_class($t) . ': ' . $t->getMessage();
    }
    usleep(3000);
}
echo json_encode(['n' => $n, 'fail' => $fail, 'broken' => $broken, 'error' => $error]), "\n";
PHP;

/** Runs $builds (one module path per process) on $kind together; returns the processes' counts and the book's. */
function fleet(string $kind, array $builds, array $servers, RedisServer $book, float $seconds): array
{
    $book->cmd('DEL', 'counter', 'sections', 'inside');
    $key = "upgrade:$kind";
    $from = microtime(true) + 1.0; // every process started and warm before the first take
    $procs = [];
    foreach ($builds as $so) {
        // Labelled tokens (a build that knows redis_lock.label writes them): the
        // earlier build must still take its turn behind them.
        $ini = ['extension' => $so, 'redis_lock.server' => $servers[0]->dsn(), 'redis_lock.label' => 'proc-' . count($procs)];
        if ($kind === 'renewed') {
            $ini['redis_lock.auto_renew'] = '1';
        }
        $procs[] = new PhpChild(WORKER, $ini, [json_encode([$kind, $key, $book->port, array_map(fn ($s) => $s->port, $servers), $from, $from + $seconds])], false);
    }
    $rows = [];
    foreach ($procs as $i => $p) {
        $r = $p->wait($seconds + 30);
        $rows[] = json_decode(trim($r['out']), true) ?? ['n' => 0, 'fail' => 1, 'broken' => 0, 'error' => 'exit ' . $r['status'] . ': ' . trim($r['out'] . $r['err'])];
    }
    $counted = in_array($kind, ['mutex', 'owner', 'renewed', 'redlock', 'rwlock'], true);
    $lost = $counted ? (int) $book->cmd('GET', 'sections') - (int) $book->cmd('GET', 'counter') : 0;
    foreach ($servers as $s) {
        $s->cmd('FLUSHALL');
    }
    return ['rows' => $rows, 'lost' => $lost];
}

$servers = rl_start_servers(3);
$book = RedisServer::start();
rl_warm_up($servers);
$redisVersion = preg_match('/redis_version:([0-9.]+)/', (string) $servers[0]->cmd('INFO', 'server'), $m) ? $m[1] : '?';
printf("%s (%s) beside this build (%s), %.0f s per fleet, on Redis %s\n\n", $label, $oldVersion, $newVersion, $seconds, $redisVersion);
echo "| kind | earlier build alone: sections | this build alone | mixed: earlier build's processes | mixed: this build's | mixed / the slower alone | failed calls | broken exclusion |\n|---|---|---|---|---|---|---|---|\n";
$kept = true;
$why = [];
foreach ($kinds as $kind) {
    if (!in_array($needs[$kind] ?? '', $oldClasses, true)) {
        echo "| $kind | (the earlier build has no {$needs[$kind]}) | | | | | | |\n";
        continue;
    }
    // Each build alone on the same keys, then the two together. The mix is
    // set against the slower of the two: an earlier build's own slowness is
    // not the mix's.
    $oldAlone = fleet($kind, [$old, $old, $old, $old], $servers, $book, $seconds);
    $alone = fleet($kind, [$new, $new, $new, $new], $servers, $book, $seconds);
    $mixed = fleet($kind, [$old, $new, $old, $new], $servers, $book, $seconds);
    $sum = fn (array $rows) => array_sum(array_column($rows, 'n'));
    $oldRows = [$mixed['rows'][0], $mixed['rows'][2]];
    $newRows = [$mixed['rows'][1], $mixed['rows'][3]];
    $slower = min($sum($oldAlone['rows']), $sum($alone['rows']));
    $ratio = $slower > 0 ? $sum($mixed['rows']) / $slower : 0.0;
    $failed = array_sum(array_column($mixed['rows'], 'fail'));
    $broken = $mixed['lost'] + array_sum(array_column($mixed['rows'], 'broken'));
    $aloneBad = $alone['lost'] + array_sum(array_column($alone['rows'], 'broken')) + array_sum(array_column($alone['rows'], 'fail'));
    $errors = array_filter(array_column($mixed['rows'], 'error'));
    printf("| %s | %d | %d | %s | %s | %.2f | %d%s | %d |\n", $kind, $sum($oldAlone['rows']), $sum($alone['rows']),
        implode(', ', array_column($oldRows, 'n')), implode(', ', array_column($newRows, 'n')), $ratio, $failed,
        $errors ? ' (' . substr((string) reset($errors), 0, 120) . ')' : '', $broken);
    if ($aloneBad) {
        $why[] = "$kind: this build alone failed ($aloneBad failed calls or broken sections)";
    }
    if ($broken) {
        $why[] = "$kind: exclusion broken $broken times";
    }
    if ($failed) {
        $why[] = "$kind: $failed calls failed or timed out";
    }
    if (min(array_column($mixed['rows'], 'n')) === 0) {
        $why[] = "$kind: a process never got in";
    }
    // Throughput is compared where there is enough of it to compare (a
    // fleet bound by its sections' own length makes a few dozen).
    if ($slower >= 200 && $ratio < 1 / 1.5) {
        $why[] = sprintf('%s: the mixed fleet made %.2f of the slower single build\'s sections (the rule: at least 0.67)', $kind, $ratio);
    }
}
$kept = $why === [];
echo "\n", $kept ? "the rule is kept: no broken exclusion, everyone got in, no call failed, mixed throughput at least 1/1.5 of the slower build's alone\n"
    : "the rule is broken:\n  " . implode("\n  ", $why) . "\n";
$asExpected = $kept === ($expect === 'compatible');
echo "test-upgrade: $label: ", $asExpected ? 'as expected' : 'NOT as expected', " (expected: $expect)\n";
exit($asExpected ? 0 : 1);
