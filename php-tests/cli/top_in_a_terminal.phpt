--TEST--
redis-lock top as a terminal program (in tmux: send-keys, capture-pane) under real contention (3 PHP processes taking and releasing one key, a long-held key beside it): the screen shows the keys and the waiter count, sorted by waiters; `a` re-sorts by age, `w` back; j/k move the selection; `r` asks y/n, `n` keeps the lock, `y` force-releases it (gone from Redis); a server killed shows as a server error in the status line and the view keeps refreshing until it is back; `q` and Ctrl-C quit with the terminal restored (icanon, echo, isig)
--SKIPIF--
<?php
if (!function_exists('proc_open') || !is_executable(__DIR__ . '/../../target/release/redis-lock')) die('skip redis-lock not built');
exec('command -v tmux', $o, $rc);
if ($rc !== 0) die('skip tmux not installed (scripts/deps.sh installs it)');
?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';

$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$sock = 'rl-cli-' . getmypid();
$tmux = fn (string ...$args) => exec(implode(' ', array_map('escapeshellarg', ['tmux', '-L', $sock, '-f', '/dev/null', ...$args])) . ' 2>&1', $out, $rc) !== false && $rc === 0;
register_shutdown_function(fn () => $tmux('kill-server'));
$screen = function (bool $escapes = false) use ($sock): string {
    exec(implode(' ', array_map('escapeshellarg', ['tmux', '-L', $sock, 'capture-pane', '-p', ...($escapes ? ['-e'] : []), '-t', 'cli'])), $lines);
    return implode("\n", $lines);
};
/** The screen once $re matches it (or what it shows after 5 s). */
$until = function (string $re, float $timeout = 5) use ($screen): string {
    $deadline = rl_now() + $timeout;
    do {
        $s = $screen();
        if (preg_match($re, $s)) {
            return $s;
        }
        usleep(20000);
    } while (rl_now() < $deadline);
    echo "screen never matched $re:\n$s\n";
    return $s;
};
/** The table's rows: [key, waiters]. */
$rows = function (string $s): array {
    $lines = explode("\n", $s);
    $at = array_search(true, array_map(fn ($l) => str_starts_with($l, 'KEY '), $lines), true);
    $out = [];
    foreach (array_slice($lines, $at + 1) as $l) {
        $cells = preg_split('/\s{2,}/', trim($l));
        if (count($cells) >= 7) {
            $out[] = [$cells[0], (int) $cells[5]];
        }
    }
    return $out;
};
$keys = fn (array $rows) => implode(',', array_column($rows, 0));

RedisMutexLock::lock('old', 0, 60);
$stop = rl_tmpdir('rl-cli') . '/stop';
$loop = '<?php $end = microtime(true) + 20; while (microtime(true) < $end && !file_exists(' . var_export($stop, true) . ')) { try { if (RedisMutexLock::lock("hot", 5, 5)) { usleep(150000); RedisMutexLock::release("hot"); } } catch (RedisLockException) { usleep(50000); } }';
$workers = [];
foreach (range(1, 3) as $i) {
    $workers[] = new PhpChild($loop, ['redis_lock.server' => $redis->dsn()]);
}
rl_eventually(fn () => RedisMutexLock::inspect('hot')['waiters'] >= 1, true, 5);

$tmux('new-session', '-d', '-s', 'cli', '-x', '150', '-y', '30', 'env PS1="rl$ " bash --norc --noprofile');
$tmux('send-keys', '-t', 'cli', rl_cli_path() . ' --server ' . $redis->dsn() . ' top --interval 0.2', 'Enter');
$s = $until('/sorted by waiters.*\n(.*\n)*hot +mutex .*\n(.*\n)*old +mutex/');
$r = $rows($s);
echo "by waiters: ", $keys($r), "; hot has waiters: ", json_encode($r[0][1] >= 1), "; old none: ", json_encode($r[1][1] === 0), "\n";
$tmux('send-keys', '-t', 'cli', 'a');
echo "by age: ", $keys($rows($until('/sorted by age.*\n(.*\n)*old +mutex .*\n(.*\n)*hot +mutex/'))), "\n";
$selected = function () use ($screen): string {
    // tmux writes reverse video as 7 alone or among other attributes (…;7m), never 27 (its end).
    return preg_match('/\e\[(?:[\d;]*;)?7m(?:\e\[[\d;]*m)*([^\s\e]+)/', $screen(true), $m) ? $m[1] : 'none';
};
$tmux('send-keys', '-t', 'cli', 'j');
echo "j selects: ", rl_eventually($selected, 'hot', 3), "\n";
$tmux('send-keys', '-t', 'cli', 'k');
echo "k selects: ", rl_eventually($selected, 'old', 3), "\n";
$tmux('send-keys', '-t', 'cli', 'w');
echo "by waiters again: ", $keys($rows($until('/sorted by waiters.*\n(.*\n)*hot +mutex .*\n(.*\n)*old +mutex/'))), "\n";

$tmux('send-keys', '-t', 'cli', 'r');
preg_match('/^Release .*y\/n$/m', $until('/^Release /m'), $m);
echo "r asks: ", preg_replace('#redis://127\.0\.0\.1:\d+#', 'DSN', $m[0] ?? 'nothing'), "\n";
$tmux('send-keys', '-t', 'cli', 'n');
$until('/^not released/m');
echo "n: not released, old still there: ", json_encode($redis->cmd('EXISTS', 'lock:old')), "\n";
$tmux('send-keys', '-t', 'cli', 'r');
$until('/^Release old/m');
$tmux('send-keys', '-t', 'cli', 'y');
$until('/^released old/m');
echo "y: released, old in Redis: ", json_encode($redis->cmd('EXISTS', 'lock:old')), ", old on screen: ", json_encode(in_array('old', array_column($rows($screen()), 0), true)), "\n";

touch($stop);
foreach ($workers as $w) {
    $w->wait(5);
}
$redis->kill();
$s = $until('/^server error: /m');
preg_match('/^server error: .*$/m', $s, $m);
echo "server killed: ", preg_replace('#redis://127\.0\.0\.1:\d+#', 'DSN', $m[0] ?? 'nothing'), "\n";
$redis->restart();
RedisMutexLock::lock('back', 0, 60);
$s = $until('/back +mutex/');
echo "server back: status cleared ", json_encode(!str_contains($s, 'server error')), ", shows back: ", json_encode(in_array('back', array_column($rows($s), 0), true)), "\n";

$restored = function () use ($tmux, $until): string {
    $tmux('send-keys', '-t', 'cli', "stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo|isig)' | tr '\\n' ' '; echo :END", 'Enter');
    preg_match('/^((?:-?\w+ )+):END$/m', $until('/^(-?\w+ )+:END$/m'), $m);
    $tmux('send-keys', '-t', 'cli', 'clear', 'Enter');
    return trim($m[1] ?? 'nothing');
};
$tmux('send-keys', '-t', 'cli', 'q');
$until('/^rl\$\s*$/m');
echo "q quits, terminal: ", $restored(), "\n";
$tmux('send-keys', '-t', 'cli', rl_cli_path() . ' --server ' . $redis->dsn() . ' top', 'Enter');
$until('/sorted by waiters/');
$tmux('send-keys', '-t', 'cli', 'C-c');
$until('/^rl\$\s*$/m');
echo "Ctrl-C quits, terminal: ", $restored(), "\n";
?>
--EXPECTF--
by waiters: hot,old; hot has waiters: true; old none: true
by age: old,hot
j selects: hot
k selects: old
by waiters again: hot,old
r asks: Release old on DSN (forced, whoever holds it)? y/n
n: not released, old still there: 1
y: released, old in Redis: 0, old on screen: false
server killed: server error: DSN: Redis at %s: cannot connect: %s
server back: status cleared true, shows back: true
q quits, terminal: isig icanon echo
Ctrl-C quits, terminal: isig icanon echo
