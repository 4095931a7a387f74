<?php
// The installed extension at work, for make test-dist: run inside a clean
// chroot that has no redis-cli, against the throwaway redis-server whose port
// is argv[1]. Prints one line and exits 0, or names what failed (exit 1).
// argv[2] = "adapters": also a Symfony lock through the adapters' store,
// loaded from Debian's include_path as the package documents.
$port = (int) $argv[1];
$ask = function (string $command) use ($port): string {
    $s = fsockopen('127.0.0.1', $port, $errno, $error, 2) or exit("no connection to 127.0.0.1:$port: $error\n");
    fwrite($s, "$command\r\n");
    $reply = trim((string) fgets($s));
    fclose($s);
    return $reply;
};
$check = function (bool $ok, string $what): void {
    if (!$ok) {
        echo "FAILED: $what\n";
        exit(1);
    }
};
ini_set('redis_lock.server', "redis://127.0.0.1:$port");
$key = 'dist-smoke:' . getmypid();
$check(RedisMutexLock::lock($key, 1, 10), 'RedisMutexLock::lock returned false');
$check($ask("EXISTS lock:$key") === ':1', "lock:$key is not in Redis while held");
$check(RedisMutexLock::release($key), 'RedisMutexLock::release returned false');
$check($ask("EXISTS lock:$key") === ':0', "lock:$key is still in Redis after release");
$rl = new RedLock([['127.0.0.1', $port]]);
$l = $rl->lock("dist-smoke-redlock:" . getmypid(), 5000);
$check($l !== false && $ask("EXISTS {$l['resource']}") === ':1', 'RedLock::lock did not take the resource');
$check($rl->unlock($l) && $ask("EXISTS {$l['resource']}") === ':0', 'RedLock::unlock left the resource');
$done = 'lock/release and RedLock on 127.0.0.1:' . $port;
if (($argv[2] ?? '') === 'adapters') {
    require_once 'RedisLock/autoload.php';
    require_once 'Symfony/Component/Lock/autoload.php';
    $factory = new Symfony\Component\Lock\LockFactory(new RedisLock\Symfony\RedisLockStore());
    $lock = $factory->createLock('dist-smoke-symfony');
    $check($lock->acquire(), 'the Symfony lock was not acquired');
    $check($ask('KEYS *dist-smoke-symfony*') !== '*0', 'the Symfony lock left no key in Redis');
    $lock->release();
    $check(!$lock->isAcquired(), 'the Symfony lock is still acquired after release');
    $done .= '; a Symfony lock through RedisLock/autoload.php';
}
echo "$done: ok\n";
