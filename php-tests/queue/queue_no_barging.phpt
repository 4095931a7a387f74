--TEST--
Queue: newcomers never jump ahead of queued waiters: a timeout-0 lock() is one SET NX that returns false while the lock is held (and never queues), a tight loop of them (20 or more failed tries while four waiters holding 0.1 s each are served) never wins a hand-off: it takes the key before the last of the queue got in only when the server left it free by design (a hand-off not confirmed within its 100 ms grant, or a release with no waiter to come holding a live place; judged from MONITOR, on the server's clock), and a newcomer with a timeout is served after everyone queued before it (but for a waiter that lost its place so)
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:nb';
$q = rl_queue_keys($K);

var_dump(RedisMutexLock::lock('nb', 0, 30));
// MONITOR, with the server's own times, from before anybody queued to the
// end: what was done to lock:nb and to the waiters' places, and when.
$timed = new RlMonitor($redis);
$opts = [];
for ($i = 0; $i < 3; $i++) {
    $opts[] = ['key' => 'nb', 'i' => $i, 'timeout' => 30, 'hold' => 0.1];
}
[$waiters, $tokens] = rl_queue_waiters($redis, $book, $K, $opts);
$queue = rl_queue_tokens($redis, $K);
echo "queued: ", count($queue), "\n";

// A newcomer with timeout 0, on a connection of its own: one SET NX, false.
$mon = new RlMonitor($redis);
$r = PhpChild::run(rl_child_code(<<<'PHP'
ini_set('redis_lock.server', $argv[1]);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('nb', 0));
echo rl_show($r), ' in < 0.5 s: ', var_export($secs < 0.5, true), "\n";
PHP), [], [$redis->dsn()]);
echo "timeout 0 newcomer: ", trim($r['out'] . $r['err']), "\n";
// Every command of the connection(s) that sent the newcomer's SET.
$seen = $mon->collect(0.1);
$from = [];
foreach ($seen as [$client, $args]) {
    if ($client !== 'lua' && strtoupper($args[0]) === 'SET' && ($args[1] ?? '') === $K) {
        $from[$client] = true;
    }
}
$cmds = [];
foreach ($seen as [$client, $args]) {
    // (INFO server: once per new connection, what the server is.)
    if (isset($from[$client]) && !(strtoupper($args[0]) === 'INFO' && strtolower($args[1] ?? '') === 'server')) {
        $cmds[] = strtoupper($args[0]) . (strtoupper($args[0]) === 'SET' ? ' ' . $args[1] . ' ' . strtoupper($args[3] ?? '') : '');
    }
}
$mon->close();
echo "its commands: ", json_encode($cmds), "\n";
echo "queue unchanged: ", var_export(rl_queue_tokens($redis, $K) === $queue, true), "\n";

// A newcomer with a timeout joins at the back.
[$late, $lateTokens] = rl_queue_waiters($redis, $book, $K, [['key' => 'nb', 'i' => 3, 'timeout' => 30, 'hold' => 0.1]]);
$waiters += $late;
$tokens += $lateTokens;
echo "queued: ", count(rl_queue_tokens($redis, $K)), "\n";

// A barger: lock('nb', 0) in a tight loop, from before the release until after everybody was served.
// Each win is recorded in the book ("B" in "order", the lock's value it set in "bwins").
$barger = rl_child(rl_child_code(<<<'PHP'
ini_set('redis_lock.server', $argv[1]);
stream_set_blocking(STDIN, false);
$fails = []; $wins = 0; $errors = [];
$lockServer = new RespClient('unix://' . $argv[3]);
echo "started\n";
while (true) {
    $in = fread(STDIN, 100);
    if ($in === '' && feof(STDIN)) { break; }
    $t = rl_now();
    try {
        if (RedisMutexLock::lock('nb', 0, 5)) {
            $wins++;
            $book = new RespClient('unix://' . $argv[2]);
            $book->cmd('RPUSH', 'bwins', (string) $lockServer->cmd('GET', 'lock:nb'));
            $book->cmd('RPUSH', 'order', 'B');
            RedisMutexLock::release('nb');
        } else {
            $fails[] = round($t, 6);
        }
    } catch (Throwable $e) {
        $errors[] = rl_show($e);
    }
    rl_sleep(0.002);
}
echo json_encode(['fails' => $fails, 'wins' => $wins, 'errors' => $errors]), "\n";
PHP), [], [$redis->dsn(), $book->socket, $redis->socket]);
echo "barger: ", $barger->readLine(), "\n";
rl_sleep(0.05);

$tRelease = rl_now();
var_dump(RedisMutexLock::release('nb'));
foreach ($waiters as $i => $w) {
    $r = $w->result(15);
    echo "waiter $i: ", var_export($r['r'], true), "\n";
}
// The barger wins once the last of the queue is done.
$order = fn () => $book->cmd('LRANGE', 'order', 0, -1);
$lastIn = fn (array $o) => max(array_keys(array_filter($o, fn ($x) => $x !== 'B')) ?: [count($o)]);
rl_eventually(fn () => in_array('B', array_slice($o = $order(), $lastIn($o) + 1), true), true, 2.0);
$b = $barger->wait(5);
$stats = json_decode(trim($b['out']), true) ?? ['fails' => [], 'wins' => 0, 'errors' => [$b['out'] . $b['err']]];
$order = $order();
$last = $lastIn($order);
$allIn = max(array_column(rl_book_times($book, 'acq'), 1) ?: [INF]);
$tries = count(array_filter($stats['fails'], fn ($t) => $t >= $tRelease && $t <= $allIn));
echo "barger: ", $tries >= 20 ? '20 or more' : $tries, " failed attempts while the queue was served, won after it: ",
    var_export(in_array('B', array_slice($order, $last + 1), true), true), ", errors: ", json_encode($stats['errors']), "\n";

// What the server ran, on its clock, up to a marker: [client, args, time].
$redis->cmd('ECHO', 'end of the barging');
$ran = [];
$until = rl_now() + 5;
$marker = fn (array $c) => $c[0] !== 'lua' && strtoupper($c[1][0] ?? '') === 'ECHO' && ($c[1][1] ?? '') === 'end of the barging';
do {
    $ran = array_merge($ran, $timed->collect(0.1));
} while (array_filter($ran, $marker) === [] && rl_now() < $until);

// By design a waiter can lose its place, on the server's clock: a hand-off
// it did not confirm within its grant (100 ms: the key then expires, free
// for anybody; the waiter joins again at the front), or a place that
// ran out (it is passed over, or the queue's keys expire; it joins again at
// the back). Such a waiter may be served after its turn, and the barger may
// take a key left free so. From MONITOR: the writes to lock:nb (a script's
// SET to a waiter's token with PX: a hand-off, or a take; the barger's
// winning SET NX; deletes; PEXPIREs), not the barger's failed SET NX nor a
// waiter marking a held lock (KEEPTTL); and each waiter's place.
$bwins = array_map(fn ($v) => preg_replace('/\x00q$/', '', $v), $book->cmd('LRANGE', 'bwins', 0, -1));
$waiterOf = [];
foreach ($tokens as $i => $token) {
    $waiterOf[$token] = (string) $i;
}
$writes = [];     // [time, what, who, px]
$deadline = [];   // waiter => its place's deadline (server ms, its last ZADD); unset once removed
$pushes = [];     // waiter => how often it was pushed onto the queue
$lost = [];       // waiter => true: it lost its place at some point
$placeless = [];  // index in $writes of a delete => the waiters without a live place then
foreach ($ran as [$client, $args, $t]) {
    $cmd = strtoupper($args[0] ?? '');
    $key = $args[1] ?? '';
    $w = $waiterOf[$args[$cmd === 'ZADD' ? 3 : 2] ?? ''] ?? null;
    if ($client === 'lua' && $key === $q['q'] && in_array($cmd, ['RPUSH', 'LPUSH'], true) && $w !== null) {
        $pushes[$w] = ($pushes[$w] ?? 0) + 1;
        if ($pushes[$w] > 1) {
            $lost[$w] = true;
        }
    } elseif ($client === 'lua' && $key === $q['t'] && $cmd === 'ZADD' && $w !== null) {
        $deadline[$w] = (float) $args[2];
    } elseif ($client === 'lua' && $key === $q['t'] && $cmd === 'ZREM' && $w !== null) {
        if (($deadline[$w] ?? INF) < $t * 1000) {
            $lost[$w] = true;
        }
        unset($deadline[$w]);
    } elseif ($key === $K && !in_array($cmd, ['GET', 'PTTL', 'TTL', 'EXISTS', 'TYPE', 'STRLEN'], true)) {
        $up = array_map('strtoupper', $args);
        $value = $cmd === 'SET' ? preg_replace('/\x00q$/', '', $args[2] ?? '') : null;
        $win = $client !== 'lua' && $cmd === 'SET' ? array_search($value, $bwins, true) : false;
        if (($cmd === 'SET' && in_array('KEEPTTL', $up, true)) || ($client !== 'lua' && $cmd === 'SET' && $win === false)) {
            continue;
        }
        if (in_array($cmd, ['DEL', 'UNLINK', 'GETDEL', 'DELEX', 'DELIFEQ'], true)) {
            $placeless[count($writes)] = array_values(array_filter($waiterOf, fn ($x) => ($deadline[$x] ?? -INF) < $t * 1000));
        }
        $px = array_search('PX', $up, true);
        $writes[] = [$t, $win !== false ? 'win' : $cmd, $win !== false ? $win : ($value === null ? null : ($waiterOf[$value] ?? $value)), $px === false ? null : (int) $args[$px + 1]];
    }
}
// A hand-off: a script's SET of the key to a waiter's token for its grant
// (a waiter's own take sets its lockSecond, 20 s). One that ran out: nothing
// touched the key until its grant was over (no confirming PEXPIRE).
$handOff = fn (?array $w) => $w !== null && $w[1] === 'SET' && in_array($w[2], $waiterOf, true) && $w[3] !== null && $w[3] < 20000;
$ranOut = [];
foreach ($writes as $i => [$t, $what, $who, $px]) {
    if ($handOff($writes[$i]) && ($writes[$i + 1][1] ?? '') !== 'PEXPIRE' && ($writes[$i + 1][0] ?? INF) - $t >= max(0.095, $px / 1000 - 0.005)) {
        $lost[$who] = true;
        $ranOut[$i] = true;
    }
}
// A barger win before the last queued waiter got in must find the key left
// free by design: right after a hand-off that ran out; right after a
// holder's release that deleted the key (not a live hand-off's) when every
// waiter still to come had no live place; or right after the barger's own
// release of such a win (its lock, unmarked, is deleted: none of the
// waiters had looked meanwhile).
$bpos = array_keys(array_filter($order, fn ($x) => $x === 'B'));
$excused = [];
$barged = [];
$seenWins = [];
foreach ($writes as $i => [$t, $what, $n]) {
    if ($what !== 'win') {
        continue;
    }
    $seenWins[$n] = true;
    $pos = $bpos[$n] ?? PHP_INT_MAX;
    $prev = $writes[$i - 1] ?? null;
    $before = $writes[$i - 2] ?? null;
    $liveHandOff = $handOff($before) && $prev[0] - $before[0] < $before[3] / 1000;
    $toCome = array_filter(array_slice($order, $pos + 1), fn ($x) => $x !== 'B');
    if (isset($ranOut[$i - 1])
        || (isset($placeless[$i - 1]) && isset($excused[$i - 2]))
        || (isset($placeless[$i - 1]) && !$liveHandOff && array_diff($toCome, $placeless[$i - 1]) === [])) {
        $excused[$i] = true;
    } elseif ($pos < $last) {
        $barged[] = $prev === null ? "win $n: the first write seen" : sprintf('win %d, %.1f ms after %s %s', $n, ($t - $prev[0]) * 1000, $prev[1], $prev[2] ?? '');
    }
}
foreach ($bpos as $n => $pos) {
    if ($pos < $last && !isset($seenWins[$n])) {
        $barged[] = "win $n: its SET not seen";
    }
}
$lost = array_map('strval', array_keys($lost));
$turns = array_values(array_diff(array_map('strval', array_keys($tokens)), $lost));
$inTurn = array_values(array_diff(array_filter($order, fn ($x) => $x !== 'B'), $lost));
echo "queued served in their turn (but for one that lost its place): ",
    $inTurn === $turns ? 'true' : 'false (' . implode(' ', array_filter($order, fn ($x) => $x !== 'B')) . '; lost: ' . implode(' ', $lost) . ')',
    ", after the last of them only the barger: ", var_export(array_unique(array_slice($order, $last + 1)) === ['B'], true), "\n";
echo "barger wins before the last queued waiter got in, on a key not left free by design: ",
    $barged === [] ? 'none' : count($barged) . ' ' . json_encode(array_slice($barged, 0, 3)), "\n";
if (($dbg = getenv('RL_DEBUG')) !== false && $dbg !== '' && $dbg !== '0') {
    $line = sprintf("[queue_no_barging] barger tries while the queue was served: %d; waiters that lost their place: %s; barger wins on a key left free before the last one got in: %d\n",
        $tries, json_encode($lost), count(array_filter(array_keys($excused), fn ($i) => ($bpos[$writes[$i][2]] ?? PHP_INT_MAX) < $last)));
    $dbg === '1' ? fwrite(STDERR, $line) : file_put_contents($dbg, $line, FILE_APPEND);
}
echo "two holders at once: ", json_encode($book->cmd('LRANGE', 'violations', 0, -1)), "\n";
foreach ($waiters as $w) {
    $w->finish(5);
}
echo "keys: ", rl_keys_left($redis, $tokens), "\n";
?>
--EXPECT--
bool(true)
queued: 3
timeout 0 newcomer: false in < 0.5 s: true
its commands: ["SET lock:nb NX"]
queue unchanged: true
queued: 4
barger: started
bool(true)
waiter 0: true
waiter 1: true
waiter 2: true
waiter 3: true
barger: 20 or more failed attempts while the queue was served, won after it: true, errors: []
queued served in their turn (but for one that lost its place): true, after the last of them only the barger: true
barger wins before the last queued waiter got in, on a key not left free by design: none
two holders at once: []
keys: []
