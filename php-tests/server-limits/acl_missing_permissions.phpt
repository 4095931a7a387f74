--TEST--
Server limits: ACL users that lack what the locks need. Without EVAL/EVALSHA, without EVALSHA alone, without BLPOP, without the lock keys, and with only "~lock:*" (the wait queues' keys "{lock:…}:…" not matching): each call of each class (mutex, queued mutex, release, read/write lock, semaphore, RedLock) either works or throws one RedisLockException that names the server and the missing permission (the command, or a key), never a vague error and never false; a refused call leaves nothing behind, and a lock that could be taken but not released is reported by release() (the lock stays held and registered)
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/audit_limits.inc';
$redis = RedisServer::start(['--requirepass', 'adm'], ['password' => 'adm']);
$users = [
    'noscripts' => ['~*', '+@all', '-eval', '-evalsha', '-eval_ro', '-evalsha_ro', '-fcall', '-fcall_ro'],
    'noevalsha' => ['~*', '+@all', '-evalsha', '-evalsha_ro'],
    'noblpop' => ['~*', '+@all', '-blpop'],
    'nokeys' => ['~other:*', '+@all'],
    'prefixonly' => ['~lock:*', '+@all'],
];
foreach ($users as $u => $rules) {
    $redis->cmd('ACL', 'SETUSER', $u, 'on', '>pw', ...$rules);
}
// A holder (with every permission) for the calls that have to wait.
$redis->cmd('ACL', 'SETUSER', 'holder', 'on', '>pw', '~*', '+@all');
$holder = new RlActor($redis, ['redis_lock.server' => "redis://holder:pw@127.0.0.1:{$redis->port}"]);
echo "held by another: ", json_encode([$holder->result('RedisMutexLock::lock', 'held', 0, 20), $holder->result('RedisReadWriteLock::lockWrite', 'rwheld', 0, 20),
    $holder->result('RedisSemaphore::acquire', 'semheld', 1, 0, 20)]), "\n";
$redis->cmd('SET', 'lock:rl-held', str_repeat('ab', 16) . ':another-host:1:1', 'PX', 60000); // RedLock's, another process'
$base = rl_limits_ours($redis);

/** "ok <value>", "NOPERM <the command named>", "NOPERM key", or the whole message. */
function perm(callable $fn, RedisServer $redis): string
{
    try {
        $r = $fn();
        return 'ok ' . (is_array($r) ? 'array' : var_export($r, true));
    } catch (RedisLockException $e) {
        $m = rl_mask_ports($e->getMessage(), [$redis]);
        if (!preg_match('/^(RedLock::\w+\(\): [^:]*: )?Redis at 127\.0\.0\.1:P1: error reply: NOPERM (.*)$/s', $m, $g)) {
            return get_class($e) . ': ' . $m;
        }
        if (preg_match("/run the '([a-z_|]+)' command/", $g[2], $c)) {
            return "NOPERM $c[1]";
        }
        return preg_match('/\bkeys?\b/i', $g[2]) ? 'NOPERM key' : "NOPERM, unclear: $g[2]";
    } catch (Throwable $e) {
        return rl_show($e);
    }
}

// Where the server has a native owner-checked delete (Valkey 9, Redis 8.4+), a
// user without scripts still releases with it (and RedLock unlocks with it).
$native = rl_native_release($redis) !== null;
foreach (array_keys($users) as $u) {
    ini_set('redis_lock.server', "redis://$u:pw@127.0.0.1:{$redis->port}");
    $rl = new RedLock(["redis://$u:pw@127.0.0.1:{$redis->port}"], 10, 1);
    $out = [];
    $out['lock'] = perm(fn () => RedisMutexLock::lock("$u-a", 0), $redis);
    $out['release'] = perm(fn () => RedisMutexLock::release("$u-a"), $redis);
    $out['still held'] = perm(fn () => RedisMutexLock::owner("$u-a") !== null, $redis);
    $out['queued, free'] = perm(fn () => RedisMutexLock::lock("$u-b", 1), $redis);
    $out['queued, held'] = perm(fn () => RedisMutexLock::lock('held', 0.5), $redis);
    $out['read'] = perm(fn () => RedisReadWriteLock::lockRead("$u-rw", 0), $redis);
    $out['write, held'] = perm(fn () => RedisReadWriteLock::lockWrite('rwheld', 0.5), $redis);
    $out['permit'] = perm(fn () => RedisSemaphore::acquire("$u-sem", 2, 0), $redis);
    $out['permit, held'] = perm(fn () => RedisSemaphore::acquire('semheld', 1, 0.5), $redis);
    $out['RedLock'] = perm(function () use ($rl, $u) {
        $l = $rl->lock("lock:rl-$u", 5000);
        return is_array($l) ? $rl->unlock($l) : $l;
    }, $redis);
    // Waiting for a held RedLock resource: in the queue where the user may
    // touch its keys, else as retries; false once the patience is over.
    $out['RedLock, held'] = perm(fn () => (new RedLock(["redis://$u:pw@127.0.0.1:{$redis->port}"], 30, 3))->lock('lock:rl-held', 5000), $redis);
    // What was taken is released by the same user.
    $out['releases'] = implode(', ', [perm(fn () => RedisMutexLock::release("$u-b"), $redis), perm(fn () => RedisReadWriteLock::release("$u-rw"), $redis),
        perm(fn () => RedisSemaphore::release("$u-sem"), $redis)]);
    $byNative = $native && in_array($u, ['noscripts', 'noevalsha'], true) ? ' (a native delete)' : '';
    echo "$u:\n";
    foreach ($out as $what => $r) {
        echo "  $what: $r", in_array($what, ['release', 'RedLock'], true) && $r === 'ok true' ? $byNative : '', "\n";
    }
    // A refused call left nothing; a lock that could not be released is still there.
    $left = array_diff_key(rl_limits_ours($redis), $base);
    echo "  left: ", str_replace("$u-", '', json_encode(array_keys($left))), $left === [] ? $byNative : '', "\n";
    foreach (array_keys($left) as $k) {
        $redis->cmd('DEL', $k);
    }
}

// Without BLPOP a waiter cannot block for its wake-up; it still gets the lock handed over promptly
// (it looks again on its own), and the calls above that answered false did so at their timeout only.
$redis->cmd('ACL', 'SETUSER', 'holder2', 'on', '>pw', '~*', '+@all');
$h2 = new RlActor($redis, ['redis_lock.server' => "redis://holder2:pw@127.0.0.1:{$redis->port}"]);
echo "noblpop waiters, held: ", json_encode([$h2->result('RedisMutexLock::lock', 'hb', 0, 20), $h2->result('RedisReadWriteLock::lockWrite', 'rwhb', 0, 20),
    $h2->result('RedisSemaphore::acquire', 'semhb', 1, 0, 20)]), "\n";
$w = new RlActor($redis, ['redis_lock.server' => "redis://noblpop:pw@127.0.0.1:{$redis->port}"]);
foreach ([['RedisMutexLock::lock', 'hb', 5.0, 20, 100000], ['RedisReadWriteLock::lockRead', 'rwhb', 5.0, 20], ['RedisSemaphore::acquire', 'semhb', 1, 5.0, 20]] as $call) {
    [$method, $k] = $call;
    $w->send(...$call);
    rl_sleep(0.3);
    $rel = $h2->call(str_replace(['lockRead', 'lock', 'acquire'], 'release', $method), $k);
    $a = $w->answer(10);
    // From the release's start: the waiter, handed the lock inside it, may return before the releaser does.
    echo "  $k: ", rl_limits_answer($a, [$redis]), ", within 0.3 s of the release: ", rl_within($a['end'] - $rel['start'], 0, 0.3), "\n";
}
$w->finish();
$h2->finish();
$holder->finish();
?>
--EXPECTF--
held by another: [true,true,true]
noscripts:
  lock: ok true
  release: %r(NOPERM evalsha|ok true \(a native delete\))%r
  still held: NOPERM evalsha
  queued, free: NOPERM evalsha
  queued, held: NOPERM evalsha
  read: NOPERM evalsha
  write, held: NOPERM evalsha
  permit: NOPERM evalsha
  permit, held: NOPERM evalsha
  RedLock: %r(NOPERM evalsha|ok true \(a native delete\))%r
  RedLock, held: ok false
  releases: ok false, ok false, ok false
  left: %r(\["lock:a","lock:rl-noscripts"\]|\[\] \(a native delete\))%r
noevalsha:
  lock: ok true
  release: %r(NOPERM evalsha|ok true \(a native delete\))%r
  still held: NOPERM evalsha
  queued, free: NOPERM evalsha
  queued, held: NOPERM evalsha
  read: NOPERM evalsha
  write, held: NOPERM evalsha
  permit: NOPERM evalsha
  permit, held: NOPERM evalsha
  RedLock: %r(NOPERM evalsha|ok true \(a native delete\))%r
  RedLock, held: ok false
  releases: ok false, ok false, ok false
  left: %r(\["lock:a","lock:rl-noevalsha"\]|\[\] \(a native delete\))%r
noblpop:
  lock: ok true
  release: ok true
  still held: ok false
  queued, free: ok true
  queued, held: ok false
  read: ok true
  write, held: ok false
  permit: ok true
  permit, held: ok false
  RedLock: ok true
  RedLock, held: ok false
  releases: ok true, ok true, ok true
  left: []
nokeys:
  lock: NOPERM key
  release: ok false
  still held: NOPERM key
  queued, free: NOPERM key
  queued, held: NOPERM key
  read: NOPERM key
  write, held: NOPERM key
  permit: NOPERM key
  permit, held: NOPERM key
  RedLock: NOPERM key
  RedLock, held: NOPERM key
  releases: ok false, ok false, ok false
  left: []
prefixonly:
  lock: ok true
  release: ok true
  still held: NOPERM key
  queued, free: NOPERM key
  queued, held: NOPERM key
  read: NOPERM key
  write, held: NOPERM key
  permit: NOPERM key
  permit, held: NOPERM key
  RedLock: ok true
  RedLock, held: ok false
  releases: ok false, ok false, ok false
  left: []
noblpop waiters, held: [true,true,true]
  hb: true, within 0.3 s of the release: true
  rwhb: true, within 0.3 s of the release: true
  semhb: true, within 0.3 s of the release: true
