--TEST--
Error replies in messages: a NUL byte is shown escaped as \0 in a RedisLockException (not a plain Error); an error that echoes the command's arguments (as a Sentinel answers SET) never puts the lock token into a message, for lock, release, RedLock lock/unlock/extend
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';

$errnul = new RlFakeRedis('errnul');
$echo = new RlFakeRedis('echo');
$echoScripts = new RlFakeRedis('echo', ['only' => ['EVAL', 'EVALSHA']]); // SET gets +OK

$r = rl_child(rl_child_code(<<<'PHP'
[$_, $errnul, $echo, $echoScripts, $errnulPort, $echoPort, $echoScriptsPort] = $argv;
function show(string $name, mixed $r): void {
    $msg = $r instanceof Throwable ? $r->getMessage() : '';
    // Script SHA1s (40 hex) are no secret; a token is 32 hex (or a uuid with dashes).
    $scrubbed = preg_replace('/(?<![0-9a-f])[0-9a-f]{40}(?![0-9a-f])/i', 'SHA1', $msg);
    $token = preg_match('/[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i', $scrubbed);
    echo $name, ': ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r);
    if ($r instanceof Throwable) {
        echo ', no token in it: ', $token ? 'false' : 'true';
    }
    echo "\n";
    if ($r instanceof Throwable) {
        file_put_contents('php://stderr', "$name: $msg\n");
    }
}
ini_set('redis_lock.read_timeout', '1');

ini_set('redis_lock.server', $errnul);
[$r] = rl_timed(fn () => RedisMutexLock::lock('k'));
echo 'errnul lock: ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
    ', shows \0 escaped: ', var_export($r instanceof Throwable && str_contains($r->getMessage(), 'bad\0thing'), true),
    ', no raw NUL: ', var_export($r instanceof Throwable && !str_contains($r->getMessage(), "\0"), true), "\n";
[$r] = rl_timed(fn () => (new RedLock([['127.0.0.1', (int) $errnulPort, 0.5]], 0, 1))->lock('r', 10000));
echo 'errnul RedLock::lock: ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
    ', shows \0 escaped: ', var_export($r instanceof Throwable && str_contains($r->getMessage(), 'bad\0thing'), true),
    ', no raw NUL: ', var_export($r instanceof Throwable && !str_contains($r->getMessage(), "\0"), true), "\n";

ini_set('redis_lock.server', $echo);
show('echo lock', rl_timed(fn () => RedisMutexLock::lock('k'))[0]);
show('echo RedLock::lock', rl_timed(fn () => (new RedLock([['127.0.0.1', (int) $echoPort, 0.5]], 0, 1))->lock('r', 10000))[0]);

ini_set('redis_lock.server', $echoScripts);
echo 'lock where only scripts are refused: ', rl_show(RedisMutexLock::lock('k', 0, 60)), "\n";
show('echo release', rl_timed(fn () => RedisMutexLock::release('k'))[0]);
$rl = new RedLock([['127.0.0.1', (int) $echoScriptsPort, 0.5]], 0, 1);
$lock = $rl->lock('r', 10000);
echo 'RedLock::lock where only scripts are refused: ', is_array($lock) ? 'array' : rl_show($lock), "\n";
if (is_array($lock)) {
    show('echo RedLock::extend', rl_timed(fn () => $rl->extend($lock, 10000))[0]);
    show('echo RedLock::unlock', rl_timed(fn () => $rl->unlock($lock))[0]);
}
PHP), ['redis_lock.release_on_shutdown' => '0'], [$errnul->dsn(), $echo->dsn(), $echoScripts->dsn(), (string) $errnul->port, (string) $echo->port, (string) $echoScripts->port])->wait(20);
echo $r['out'];
echo "child exit ", $r['status'], $r['status'] === 0 ? '' : "\n" . $r['err'], "\n";

// The tokens the fake servers were sent appear in no message at all.
$tokens = [];
foreach ([$echo, $echoScripts] as $f) {
    foreach ($f->commands() as [, $args]) {
        foreach ($args as $a) {
            if (rl_is_token($a)) {
                $tokens[substr($a, 0, 32)] = true; // its secret, random part
            }
        }
    }
}
echo "tokens sent: ", count($tokens) >= 2 ? 'some' : 'none', "\n";
$leaked = array_filter(array_keys($tokens), fn ($t) => str_contains($r['out'] . $r['err'], $t));
echo "tokens in messages: ", count($leaked), "\n";
?>
--EXPECT--
errnul lock: RedisLockException, shows \0 escaped: true, no raw NUL: true
errnul RedLock::lock: RedisLockException, shows \0 escaped: true, no raw NUL: true
echo lock: RedisLockException, no token in it: true
echo RedLock::lock: RedisLockException, no token in it: true
lock where only scripts are refused: true
echo release: RedisLockException, no token in it: true
RedLock::lock where only scripts are refused: array
echo RedLock::extend: RedisLockException, no token in it: true
echo RedLock::unlock: RedisLockException, no token in it: true
child exit 0
tokens sent: some
tokens in messages: 0
