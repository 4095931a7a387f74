--TEST--
Native commands where the server has them (learned from INFO server once per connection): an uncontended RedisMutexLock release and a RedLock unlock are one DELIFEQ (Valkey 9.0+) or DELEX IFEQ (Redis 8.4+), an extend one SET IFEQ PX (Valkey 8.1+, Redis 8.4+), counted in INFO commandstats; elsewhere the scripts. A waiter's mark on the holder's value sends the release on as the hand-off script (the waiter is woken, not left to poll), and extend, owner() and inspect() see through it; a RedLock lock taken in the queue sends its unlock as that script at once. A native command the server refuses (renamed away, or denied by an ACL) falls back to the script on the same call
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';

$r = RedisServer::start();
$info = $r->cmd('INFO', 'server');
$ver = fn (string $field) => preg_match("/^$field:(\\d+)\\.(\\d+)/m", $info, $m) ? [(int) $m[1], (int) $m[2]] : null;
$valkey = $ver('valkey_version');
$redis = $valkey === null ? $ver('redis_version') : null;
// What the server has, by its documented versions (independent of the extension's own table).
$delifeq = $valkey !== null && $valkey >= [9, 0];
$delex = $redis !== null && $redis >= [8, 4];
$setIfEq = ($valkey !== null && $valkey >= [8, 1]) || $delex;
$nativeRelease = $delifeq ? 'delifeq' : ($delex ? 'delex' : null);
getenv('RL_DEBUG') && file_put_contents(getenv('RL_DEBUG'), "server: " . ($valkey ? 'valkey ' . implode('.', $valkey) : 'redis ' . implode('.', $redis)) . ", native release: " . ($nativeRelease ?? 'none') . ", SET IFEQ: " . var_export($setIfEq, true) . "\n", FILE_APPEND);

$count = function (RedisServer $s): array {
    $out = [];
    foreach (['evalsha', 'eval', 'delifeq', 'delex', 'set', 'del'] as $c) {
        $out[$c] = $s->calls($c);
    }
    return $out;
};
$delta = fn (array $a, array $b) => array_map(fn ($k) => $b[$k] - $a[$k], array_combine(array_keys($a), array_keys($a)));
$scripts = fn (array $d) => $d['evalsha'] + $d['eval'];
$natives = fn (array $d) => $d['delifeq'] + $d['delex'];

ini_set('redis_lock.server', $r->dsn());

// 1. Uncontended lock + release, three times (the first on a new connection).
$before = $count($r);
$ok = true;
for ($i = 0; $i < 3; $i++) {
    $ok = $ok && RedisMutexLock::lock('a') && RedisMutexLock::release('a');
}
$d = $delta($before, $count($r));
echo "uncontended: ", var_export($ok, true), ", gone: ", var_export($r->cmd('EXISTS', 'lock:a') === 0, true), "\n";
echo "  releases went as the native delete where the server has one: ",
    var_export($nativeRelease ? ($d[$nativeRelease] === 3 && $scripts($d) === 0) : ($natives($d) === 0 && $scripts($d) >= 3), true), "\n";

// 2. Extend: SET IFEQ PX where the server has it.
RedisMutexLock::lock('b', 0, 20);
$before = $count($r);
$extended = RedisMutexLock::extend('b', 40);
$d = $delta($before, $count($r));
echo "extend: ", var_export($extended, true), ", TTL now above 20 s: ", var_export($r->cmd('PTTL', 'lock:b') > 20000, true), "\n";
echo "  went as SET IFEQ where the server has it: ",
    var_export($setIfEq ? ($d['set'] === 1 && $scripts($d) === 0) : ($d['set'] === 0 && $scripts($d) >= 1), true), "\n";
RedisMutexLock::release('b');

// 3. A waiter marks the holder's value; the release then hands off.
RedisMutexLock::lock('c', 0, 20);
$token = $r->cmd('GET', 'lock:c');
$book = RedisServer::start();
$child = rl_fork(function () use ($r, $book): int {
    ini_set('redis_lock.server', $r->dsn());
    // A check interval of 5 s: only a hand-off wakes it sooner.
    $got = RedisMutexLock::lock('c', 10, 20, 5000000);
    $book->cmd('SET', 'took', sprintf('%.6f', microtime(true)));
    return $got && RedisMutexLock::release('c') ? 0 : 1;
});
$deadline = microtime(true) + 5;
while (RedisMutexLock::inspect('c')['waiters'] < 1 && microtime(true) < $deadline) {
    usleep(10000);
}
$raw = $r->cmd('GET', 'lock:c');
echo "waiter queued: value marked: ", var_export($raw === $token . "\0q", true),
    ", owner() without the mark: ", var_export(RedisMutexLock::owner('c') === $token, true), "\n";
$before = $count($r);
echo "  extend while marked: ", var_export(RedisMutexLock::extend('c', 30), true), ", value still marked: ", var_export($r->cmd('GET', 'lock:c') === $token . "\0q", true), "\n";
$released = microtime(true);
echo "  release while marked: ", var_export(RedisMutexLock::release('c'), true);
$exit = rl_wait($child);
$took = (float) $book->cmd('GET', 'took');
echo ", the waiter took it by hand-off (well within its 5 s check): ", var_export($took > 0 && $took - $released < 1.0, true), ", child: $exit\n";
$d = $delta($before, $count($r));
echo "  the native delete said no and the hand-off script ran: ",
    // (The waiter's own release, uncontended, is the second native delete.)
    var_export($nativeRelease ? ($d[$nativeRelease] === 2 && $scripts($d) >= 3) : ($natives($d) === 0), true), "\n";
echo "  nothing left: ", json_encode(preg_grep('/^lock:c/', $r->keys())), "\n";

// 3b. An owner token (the framework adapters) is never marked: its value stays what the caller knows.
$owner = RedisMutexLock::newOwner();
RedisMutexLock::acquire('f', $owner, 20000);
$child = rl_fork(function () use ($r): int {
    ini_set('redis_lock.server', $r->dsn());
    return RedisMutexLock::acquire('f', RedisMutexLock::newOwner(), 20000, 10) ? 0 : 1;
});
$deadline = microtime(true) + 5;
while (RedisMutexLock::inspect('f')['waiters'] < 1 && microtime(true) < $deadline) {
    usleep(10000);
}
echo "owner token with a waiter queued: value unchanged: ", var_export($r->cmd('GET', 'lock:f') === $owner, true),
    ", released to the waiter: ", var_export(RedisMutexLock::releaseOwner('f', $owner), true), ", child: ", rl_wait($child), "\n";
RedisMutexLock::forceRelease('f');

// 4. RedLock over one server: unlock and extend natively too.
$rl = new RedLock([['127.0.0.1', $r->port, 0.5]]);
$before = $count($r);
$lock = $rl->lock('d', 5000);
$ext = $lock ? $rl->extend($lock, 8000) : false;
$rl->unlock($lock);
$d = $delta($before, $count($r));
echo "redlock: ", var_export(is_array($lock) && is_array($ext), true), ", gone: ", var_export($r->cmd('EXISTS', 'd') === 0, true),
    ", natives as the server has them: ", var_export(
        ($nativeRelease ? $d[$nativeRelease] === 1 : $natives($d) === 0) && ($setIfEq ? $d['set'] === 2 : $d['set'] === 1)
        && ($nativeRelease && $setIfEq ? $scripts($d) === 0 : $scripts($d) >= 1), true), "\n";

// 4b. A RedLock lock taken in the queue, with another waiter behind it: its
// unlock goes straight to the hand-off script (a native delete would only be
// refused by that waiter's mark, one round trip more on every contended unlock).
$held = $rl->lock('g', 10000);
$queued = fn () => (int) $r->cmd('ZCARD', '{g}:rq');
$waiter = function (string $name) use ($r, $book): int {
    $book->reconnect(); // a connection of its own, not the parent's
    $rl = new RedLock([['127.0.0.1', $r->port, 0.5]], 200, 50); // 10 s of patience
    $lock = $rl->lock('g', 10000);
    if (!is_array($lock)) {
        return 1;
    }
    $book->cmd('SET', "$name:held", '1');
    $deadline = microtime(true) + 5;
    while ($book->cmd('GET', "$name:go") === null && microtime(true) < $deadline) {
        usleep(2000);
    }
    $unlocked = $rl->unlock($lock);
    $book->cmd('SET', "$name:done", '1');
    return $unlocked ? 0 : 2;
};
$b = rl_fork(fn () => $waiter('b'));
echo "redlock waiter b queued: ", rl_eventually($queued, 1, 5.0), "\n";
$c = rl_fork(fn () => $waiter('c'));
echo "redlock waiter c queued: ", rl_eventually($queued, 2, 5.0), "\n";
echo "holder's unlock: ", var_export($rl->unlock($held), true);
echo ", b holds with c queued behind: ", var_export(rl_eventually(fn () => $book->cmd('GET', 'b:held'), '1', 5.0) === '1' && $queued() === 1, true), "\n";
$before = $count($r);
$book->cmd('SET', 'b:go', '1');
$unlocked = rl_eventually(fn () => $book->cmd('GET', 'b:done'), '1', 5.0) === '1';
$d = $delta($before, $count($r));
echo "  b's unlock: ", var_export($unlocked, true), ", no native delete, the hand-off script: ",
    var_export($natives($d) === 0 && $scripts($d) >= 1, true), ", c handed the lock: ",
    var_export(rl_eventually(fn () => $book->cmd('GET', 'c:held'), '1', 5.0) === '1', true), "\n";
$book->cmd('SET', 'c:go', '1');
echo "  children: ", rl_wait($b), ' ', rl_wait($c), ", nothing left: ", rl_eventually(fn () => json_encode($r->keys()), '[]', 2.0), "\n";

// 5. A native the server refuses: renamed away, or denied by an ACL.
$variants = ['renamed' => null, 'acl' => null];
if ($nativeRelease !== null) {
    $variants['renamed'] = RedisServer::start(['--rename-command', strtoupper($nativeRelease), '']);
    $variants['acl'] = RedisServer::start();
    $variants['acl']->cmd('ACL', 'SETUSER', 'app', 'on', '>pw', '~*', '+@all', '-' . $nativeRelease);
} else {
    $variants['renamed'] = $variants['acl'] = RedisServer::start();
}
foreach ($variants as $name => $s) {
    ini_set('redis_lock.server', $name === 'acl' && $nativeRelease !== null ? "redis://app:pw@127.0.0.1:{$s->port}" : $s->dsn());
    $ok = true;
    for ($i = 0; $i < 3; $i++) {
        $ok = $ok && RedisMutexLock::lock("e$name") && RedisMutexLock::release("e$name");
    }
    $d = $delta(['evalsha' => 0, 'eval' => 0, 'delifeq' => 0, 'delex' => 0, 'set' => 0, 'del' => 0], $count($s));
    echo "native $name: releases ", var_export($ok, true), ", gone: ", var_export($s->cmd('EXISTS', "lock:e$name") === 0, true),
        ", by script after the refusal: ", var_export($scripts($d) >= 3, true), "\n";
}
?>
--EXPECT--
uncontended: true, gone: true
  releases went as the native delete where the server has one: true
extend: true, TTL now above 20 s: true
  went as SET IFEQ where the server has it: true
waiter queued: value marked: true, owner() without the mark: true
  extend while marked: true, value still marked: true
  release while marked: true, the waiter took it by hand-off (well within its 5 s check): true, child: 0
  the native delete said no and the hand-off script ran: true
  nothing left: []
owner token with a waiter queued: value unchanged: true, released to the waiter: true, child: 0
redlock: true, gone: true, natives as the server has them: true
redlock waiter b queued: 1
redlock waiter c queued: 2
holder's unlock: true, b holds with c queued behind: true
  b's unlock: true, no native delete, the hand-off script: true, c handed the lock: true
  children: 0 0, nothing left: []
native renamed: releases true, gone: true, by script after the refusal: true
native acl: releases true, gone: true, by script after the refusal: true
