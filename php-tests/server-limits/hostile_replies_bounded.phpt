--TEST--
Hostile replies (arrays nested 100,000 deep, a bulk of 999999999999 bytes, an 8 MB line without CRLF, garbage): RedisLockException in bounded time and memory, no crash, the connection dropped, and a real server still works afterwards
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();

$cases = [
    // mode => [message regex, time limit in s]
    'nest' => ['/^Redis at 127\.0\.0\.1:\d+: protocol error/', 2.0],
    'hugebulk' => ['/^Redis at 127\.0\.0\.1:\d+: /', 2.0],
    'longline' => ['/^Redis at 127\.0\.0\.1:\d+: /', 2.0],
    'garbage' => ['/^Redis at 127\.0\.0\.1:\d+: protocol error/', 2.0],
];
foreach ($cases as $mode => [$re, $limit]) {
    $fake = new RlFakeRedis($mode);
    $child = rl_child(rl_child_code(<<<'PHP'
[$_, $fake, $real, $re, $limit] = $argv;
ini_set('redis_lock.read_timeout', '1');
ini_set('redis_lock.server', $fake);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('k'));
$msg = $r instanceof Throwable ? $r->getMessage() : '';
$rss = rl_peak_rss_mb();
echo $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
    ', message as expected: ', preg_match($re, $msg) ? 'true' : "false ($msg)",
    ", < $limit s: ", $secs < (float) $limit ? 'true' : sprintf('false (%.3f s)', $secs),
    ', peak RSS < 200 MB: ', $rss < 200 ? 'true' : "false ($rss MB)", "\n";
echo "checkpoint\n";
fgets(STDIN);
ini_set('redis_lock.server', $real);
echo 'real server afterwards: ', rl_show(RedisMutexLock::lock('after') && RedisMutexLock::release('after')), "\n";
PHP), [], [$fake->dsn(), $redis->dsn(), $re, (string) $limit]);
    try {
        echo "$mode: ", $child->readLine(20), "\n";
        $child->readLine(5);
        echo "$mode: connection dropped: ", var_export(rl_eventually(fn () => $fake->closed(1), true, 2.0), true), "\n";
        $child->writeLine('go');
    } catch (RuntimeException $e) {
        echo "$mode: ", $e->getMessage(), "\n";
    }
    $r = $child->wait(10);
    echo "$mode: ", trim($r['out']), "\n";
    $crash = $r['status'] >= 128 || preg_match('/Segmentation|panicked|overflow|Aborted|Fatal/i', $r['out'] . $r['err']);
    echo "$mode: child exit ", $r['status'], ', no crash message: ', $crash ? "false\n" . $r['err'] : 'true', "\n";
    $fake->stop();
}
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
nest: RedisLockException, message as expected: true, < 2 s: true, peak RSS < 200 MB: true
nest: connection dropped: true
nest: real server afterwards: true
nest: child exit 0, no crash message: true
hugebulk: RedisLockException, message as expected: true, < 2 s: true, peak RSS < 200 MB: true
hugebulk: connection dropped: true
hugebulk: real server afterwards: true
hugebulk: child exit 0, no crash message: true
longline: RedisLockException, message as expected: true, < 2 s: true, peak RSS < 200 MB: true
longline: connection dropped: true
longline: real server afterwards: true
longline: child exit 0, no crash message: true
garbage: RedisLockException, message as expected: true, < 2 s: true, peak RSS < 200 MB: true
garbage: connection dropped: true
garbage: real server afterwards: true
garbage: child exit 0, no crash message: true
keys: []
