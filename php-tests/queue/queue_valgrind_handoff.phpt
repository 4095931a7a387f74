--TEST--
Queue under valgrind: a waiter that is handed the lock, one that leaves at its deadline, and one whose request ends holding a lock others wait for: no memory errors, nothing definitely lost
--SKIPIF--
<?php
require __DIR__ . '/../inc/fake_server.inc';
if (!rl_have('valgrind')) die('skip valgrind not installed');
if (getenv('USE_ZEND_ALLOC') === '0') die('skip already under valgrind (run-tests -m)');
?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$dir = rl_tmpdir('rl-vg');
$log = "$dir/valgrind.log";
file_put_contents("$dir/waiter.php", <<<'PHP'
<?php
ini_set('redis_lock.server', $argv[1]);
echo "start\n";
$a = RedisMutexLock::lock('vg', 120, 20, 1000000);         // handed over by the test
$b = $a && RedisMutexLock::release('vg');
$c = RedisMutexLock::lock('vg2', 0.5, 20, 1000000);         // held throughout: leaves at its deadline
$d = RedisMutexLock::lock('vg3', 0, 20);                    // kept: released (handed on) at request end
echo json_encode([$a, $b, $c, $d]), "\n";
while (!file_exists($argv[2])) { time_nanosleep(0, 10000000); }          // the test's waiter is queued on vg3
echo "done\n";
PHP);
var_dump(RedisMutexLock::lock('vg', 0, 120));
var_dump(RedisMutexLock::lock('vg2', 0, 120));
$go = "$dir/go";
$vg = new RlProcess(['env', 'USE_ZEND_ALLOC=0', 'ZEND_DONT_UNLOAD_MODULES=1', 'valgrind', '--leak-check=full', '--errors-for-leak-kinds=definite', '--error-exitcode=99',
    "--log-file=$log", PHP_BINARY, '-n', '-d', 'extension=' . rl_extension_path(), "$dir/waiter.php", $redis->dsn(), $go]);
rl_queue_wait_len($redis, 'lock:vg', 1, 30.0, 'the process under valgrind');
rl_sleep(0.2);
var_dump(RedisMutexLock::release('vg'));
// Its lock on vg3, waited for by this process, is handed to us when its request ends.
$deadline = rl_now() + 20;
while (!str_contains($vg->output(), ']') && rl_now() < $deadline) {
    rl_sleep(0.05);
}
echo "valgrind'd process: ", trim(explode("\n", $vg->output())[1] ?? '(nothing)'), "\n";
$me = rl_child(rl_child_code(<<<'PHP'
ini_set('redis_lock.server', $argv[1]);
var_dump(RedisMutexLock::lock('vg3', 90, 20, 1000000));
PHP), [], [$redis->dsn()]);
rl_queue_wait_len($redis, 'lock:vg3', 1, 10.0, 'the waiter for vg3');
touch($go);
$res = $me->wait(20);
echo "waiter for vg3: ", trim($res['out'] . $res['err']), "\n";
$deadline = rl_now() + 20;
while ($vg->running() && rl_now() < $deadline) {
    rl_sleep(0.05);
}
echo "ended: ", var_export(!$vg->running(), true), ", printed: ", json_encode(array_values(array_filter(explode("\n", $vg->output())))), "\n";
$text = (string) @file_get_contents($log);
echo "valgrind: ", preg_match('/ERROR SUMMARY: 0 errors/', $text) ? 'no errors' : "errors:\n$text", "\n";
echo "definitely lost: ", preg_match('/definitely lost: ([\d,]+) bytes/', $text, $m) ? ($m[1] === '0' ? 'none' : $m[1] . " bytes\n$text") : 'none', "\n";
var_dump(RedisMutexLock::release('vg2'));
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
valgrind'd process: [true,true,false,true]
waiter for vg3: bool(true)
ended: true, printed: ["start","[true,true,false,true]","done"]
valgrind: no errors
definitely lost: none
bool(true)
keys: []
