--TEST--
Renewals leave no thread behind: a PHP process that took renewed locks (released, kept to request end, RedLock, ended by a fatal error) has every other thread exit(…) before its main thread's exit_group, and ends promptly even with a 30 s lease (strace -f)
--SKIPIF--
<?php
require __DIR__ . '/../inc/fake_server.inc';
if (!rl_have('strace')) die('skip strace not installed');
[$code, $out] = rl_run(['strace', '-f', '-qq', '-e', 'trace=exit_group', '-o', '/dev/null', 'true']);
if ($code !== 0) die('skip strace cannot trace here: ' . trim($out));
?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$dir = rl_tmpdir('rl-strace');

$cases = [
    'released' => '$a = RedisMutexLock::lock("a", 0, 1); time_nanosleep(0, 700000000); echo json_encode([$a, RedisMutexLock::release("a")]);',
    'kept to request end' => '$a = RedisMutexLock::lock("b", 0, 30); time_nanosleep(0, 200000000); echo json_encode([$a]);',
    'RedLock kept' => '$rl = new RedLock([$argv[1]]); $l = $rl->lock("c", 30000); time_nanosleep(0, 200000000); echo json_encode([is_array($l)]);',
    'fatal error' => '$a = RedisMutexLock::lock("d", 0, 30); echo json_encode([$a]); undefined_function();',
];
foreach ($cases as $name => $body) {
    $script = "$dir/case.php";
    file_put_contents($script, "<?php\nini_set('redis_lock.server', \$argv[1]);\nini_set('redis_lock.auto_renew', '1');\n$body\n");
    $trace = "$dir/trace.txt";
    @unlink($trace);
    [[$code, $out], $secs] = (function () use ($trace, $script, $redis) {
        $t = rl_now();
        $r = rl_run(['strace', '-f', '-qq', '-e', 'trace=exit,exit_group', '-o', $trace,
            PHP_BINARY, '-n', '-d', 'display_errors=1', '-d', 'log_errors=0', '-d', 'html_errors=0', '-d', 'extension=' . rl_extension_path(), $script, $redis->dsn()], 60);
        return [$r, rl_now() - $t];
    })();
    $lines = array_values(array_filter(explode("\n", (string) @file_get_contents($trace)),
        fn ($l) => preg_match('/^\d+\s+(exit|exit_group)\(/', $l) === 1));
    $main = null;
    $threadExits = 0;
    $order = 'ok';
    foreach ($lines as $n => $l) {
        preg_match('/^(\d+)\s+(exit|exit_group)\(/', $l, $m);
        if ($m[2] === 'exit_group') {
            $main = $m[1];
            if ($n !== count($lines) - 1) {
                $order = 'syscalls after exit_group: ' . json_encode(array_slice($lines, $n + 1));
            }
        } elseif ($main !== null) {
            $order = "a thread exited after exit_group: $l";
        } else {
            $threadExits++;
        }
    }
    $printed = trim((string) strtok($out, "\n")) . (str_contains($out, 'Fatal error: Uncaught Error: Call to undefined function') ? ' and the fatal error' : '');
    printf("%s: printed %s, threads exited before exit_group: %s, order: %s, under 5 s: %s\n", $name, $printed,
        $threadExits >= 1 ? 'yes' : 'none' . "\n" . implode("\n", $lines), $order, $secs < 5 ? 'true' : sprintf('false (%.1f s)', $secs));
}
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
released: printed [true,true], threads exited before exit_group: yes, order: ok, under 5 s: true
kept to request end: printed [true], threads exited before exit_group: yes, order: ok, under 5 s: true
RedLock kept: printed [true], threads exited before exit_group: yes, order: ok, under 5 s: true
fatal error: printed [true] and the fatal error, threads exited before exit_group: yes, order: ok, under 5 s: true
keys: []
