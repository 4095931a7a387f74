--TEST--
Queue: newcomers never jump ahead of queued waiters: a timeout-0 lock() is one SET NX that returns false while the lock is held (and never queues), a tight loop of them never wins a hand-off, and a newcomer with a timeout is served after everyone queued before it
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$K = 'lock:nb';
$q = rl_queue_keys($K);

var_dump(RedisMutexLock::lock('nb', 0, 30));
$opts = [];
for ($i = 0; $i < 3; $i++) {
    $opts[] = ['key' => 'nb', 'i' => $i, 'timeout' => 30, 'hold' => 0.05];
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
[$late, $lateTokens] = rl_queue_waiters($redis, $book, $K, [['key' => 'nb', 'i' => 3, 'timeout' => 30, 'hold' => 0.05]]);
$waiters += $late;
$tokens += $lateTokens;
echo "queued: ", count(rl_queue_tokens($redis, $K)), "\n";

// A barger: lock('nb', 0) in a tight loop, from before the release until after everybody was served.
$barger = rl_child(rl_child_code(<<<'PHP'
ini_set('redis_lock.server', $argv[1]);
stream_set_blocking(STDIN, false);
$attempts = 0; $before = null; $wins = 0; $errors = [];
echo "started\n";
while (true) {
    $in = fread(STDIN, 100);
    if ($in === '' && feof(STDIN)) { break; }
    $attempts++;
    try {
        if (RedisMutexLock::lock('nb', 0, 5)) {
            $wins++;
            $before ??= $attempts - 1;
            (new RespClient('unix://' . $argv[2]))->cmd('RPUSH', 'order', 'B');
            RedisMutexLock::release('nb');
        }
    } catch (Throwable $e) {
        $errors[] = rl_show($e);
    }
    rl_sleep(0.002);
}
echo json_encode(['before' => $before ?? $attempts, 'wins' => $wins, 'errors' => $errors]), "\n";
PHP), [], [$redis->dsn(), $book->socket]);
echo "barger: ", $barger->readLine(), "\n";
rl_sleep(0.05);

var_dump(RedisMutexLock::release('nb'));
foreach ($waiters as $i => $w) {
    $r = $w->result(15);
    echo "waiter $i: ", var_export($r['r'], true), "\n";
}
rl_eventually(fn () => in_array('B', $book->cmd('LRANGE', 'order', 0, -1), true), true, 2.0);
$b = $barger->wait(5);
$stats = json_decode(trim($b['out']), true) ?? ['before' => 0, 'wins' => 0, 'errors' => [$b['out'] . $b['err']]];
echo "barger: ", $stats['before'] >= 20 ? '20 or more' : $stats['before'], " failed attempts before its first win, won after the queue: ",
    var_export($stats['wins'] >= 1, true), ", errors: ", json_encode($stats['errors']), "\n";
$order = $book->cmd('LRANGE', 'order', 0, -1);
echo "order: ", implode(' ', array_slice($order, 0, 4)), ", then only the barger: ",
    var_export(array_unique(array_slice($order, 4)) === ['B'], true), "\n";
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
barger: 20 or more failed attempts before its first win, won after the queue: true, errors: []
order: 0 1 2 3, then only the barger: true
two holders at once: []
keys: []
