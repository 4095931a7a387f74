--TEST--
Renewals under valgrind: a renewed lock held past its lease, a fence, inspect(), a lock lost to a takeover (RedisLockLostException), a renewed RedLock, and a renewed lock left to request end: no memory errors, nothing definitely lost
--SKIPIF--
<?php
require __DIR__ . '/../inc/fake_server.inc';
if (!rl_have('valgrind')) die('skip valgrind not installed');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip already under valgrind (run-tests -m)');
?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$dir = rl_tmpdir('rl-vg');
$log = "$dir/valgrind.log";
file_put_contents("$dir/renew.php", <<<'PHP'
<?php
ini_set('redis_lock.server', $argv[1]);
ini_set('redis_lock.auto_renew', '1');
$a = RedisMutexLock::lock('vg', 0, 1);
$f = RedisMutexLock::fence('vg');
time_nanosleep(1, 500000000);                       // renewals run meanwhile
$i = RedisMutexLock::inspect('vg');
$b = RedisMutexLock::release('vg');
$c = RedisMutexLock::lock('vg-lost', 0, 1);
$s = stream_socket_client($argv[2]);                 // another client takes it over
fwrite($s, "*5\r\n\$3\r\nSET\r\n\$12\r\nlock:vg-lost\r\n\$7\r\nforeign\r\n\$2\r\nPX\r\n\$5\r\n60000\r\n");
fgets($s);
time_nanosleep(1, 200000000);
try {
    $d = var_export(RedisMutexLock::release('vg-lost'), true);
} catch (RedisLockLostException $e) {
    $d = 'lost';
}
$rl = new RedLock([$argv[1]]);
$l = $rl->lock('vg-rl', 1000);
time_nanosleep(1, 500000000);
$e = is_array($l) && $rl->unlock($l);
$g = RedisMutexLock::lock('vg-kept', 0, 1);          // kept: request end releases it and stops its renewals
echo json_encode([$a, is_int($f), $i['held'], $b, $c, $d, $e, $g]), "\n";
PHP);
$vg = new RlProcess(['env', 'USE_ZEND_ALLOC=0', 'ZEND_DONT_UNLOAD_MODULES=1', 'valgrind', '--leak-check=full', '--errors-for-leak-kinds=definite', '--error-exitcode=99',
    "--log-file=$log", PHP_BINARY, '-n', '-d', 'extension=' . rl_extension_path(), "$dir/renew.php", $redis->dsn(), 'unix://' . $redis->socket]);
$deadline = rl_now() + 120;
while ($vg->running() && rl_now() < $deadline) {
    rl_sleep(0.1);
}
echo "ended: ", var_export(!$vg->running(), true), ", printed: ", trim($vg->output()), "\n";
$text = (string) @file_get_contents($log);
echo "valgrind: ", preg_match('/ERROR SUMMARY: 0 errors/', $text) ? 'no errors' : "errors:\n$text", "\n";
echo "definitely lost: ", preg_match('/definitely lost: ([\d,]+) bytes/', $text, $m) ? ($m[1] === '0' ? 'none' : $m[1] . " bytes\n$text") : 'none', "\n";
echo "lock keys: ", json_encode(array_values(array_filter($redis->keys(), fn ($k) => str_starts_with($k, 'lock:') || $k === 'vg-rl'))), "\n";
?>
--EXPECT--
ended: true, printed: [true,true,true,true,true,"lost",true,true]
valgrind: no errors
definitely lost: none
lock keys: ["lock:vg-lost"]
