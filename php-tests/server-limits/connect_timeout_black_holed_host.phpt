--TEST--
A black-holed host (SYN never answered, or a unix listener whose backlog is full): RedisMutexLock::lock() throws RedisLockException "cannot connect" within redis_lock.connect_timeout
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$tcp = RlBlackHole::tcp();
$unix = RlBlackHole::unix();

// In another process: a connect that never ends must not hang this test.
$child = rl_child(rl_child_code(<<<'PHP'
[$_, $port, $path] = $argv;
$report = function (string $name, mixed $r, float $secs, string $re, float $limit): void {
    $msg = $r instanceof Throwable ? $r->getMessage() : '';
    echo $name, ': ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
        ', message as expected: ', preg_match($re, $msg) ? 'true' : 'false (' . $msg . ')',
        ", < $limit s: ", $secs < $limit ? 'true' : sprintf('false (%.3f s)', $secs), "\n";
};
ini_set('redis_lock.connect_timeout', '0.2');
ini_set('redis_lock.server', "redis://127.0.0.1:$port");
$tcpRe = '/^Redis at 127\.0\.0\.1:\d+: cannot connect: timed out/';
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k'));
$report('tcp lock', $r, $secs, $tcpRe, 0.6);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k', 0.1));
$report('tcp lock, timeout 0.1', $r, $secs, $tcpRe, 0.6);

ini_set('redis_lock.connect_timeout', '0.3');
ini_set('redis_lock.server', "unix://$path");
$unixRe = '/^Redis at \S+black-hole\.sock: cannot connect: (timed out|Resource temporarily unavailable)/';
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k'));
$report('unix lock', $r, $secs, $unixRe, 1.0);
PHP), [], [(string) $tcp->port, $unix->path]);
$r = $child->wait(10);
echo $r['out'];
echo "child: exit ", $r['status'], $r['status'] === 0 ? '' : ' after ' . round($r['seconds'], 1) . " s\n" . $r['err'], "\n";
?>
--EXPECT--
tcp lock: RedisLockException, message as expected: true, < 0.6 s: true
tcp lock, timeout 0.1: RedisLockException, message as expected: true, < 0.6 s: true
unix lock: RedisLockException, message as expected: true, < 1 s: true
child: exit 0
