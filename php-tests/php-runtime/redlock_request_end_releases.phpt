--TEST--
RedLock locks not unlocked are released at request end (normal end, exit(), uncaught exception, fatal error, object gone); with redis_lock.release_on_shutdown=0 they stay
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(3);
rl_warm_up($s);
$list = json_encode(rl_redlock_list($s));

$endings = [
    'normal end' => '',
    'exit(3)' => 'exit(3);',
    'uncaught exception' => 'throw new RuntimeException("boom");',
    'fatal error' => 'undefined_function();',
    'object unset first' => 'unset($rl); gc_collect_cycles();',
    'one of two unlocked' => '$rl->unlock($lock);',
];
foreach ($endings as $name => $ending) {
    $code = "<?php\n\$rl = new RedLock(json_decode(\$argv[1], true));\n"
        . "\$lock = \$rl->lock('job', 30000);\n\$two = (new RedLock(json_decode(\$argv[1], true)))->lock('job2', 30000);\n"
        . "echo is_array(\$lock) && is_array(\$two) ? 'locked' : 'not locked', ' ', \$lock['token'], ' ', \$two['token'], \"\\n\";\n$ending\n";
    $r = PhpChild::run($code, [], [$list]);
    [$status, $tokens] = [$r['status'], explode(' ', strtok($r['out'], "\n"))];
    preg_match('/(Fatal error: .*?) in /', $r['out'], $m);
    printf("%s: exit %d, %s%s; job: %s; job2: %s\n", $name, $status, $tokens[0], isset($m[1]) ? " ($m[1])" : '',
        rl_eventually(fn () => rl_holders($s, 'job'), '- - -'), rl_eventually(fn () => rl_holders($s, 'job2'), '- - -'));
}

// Off: the keys stay with their TTL, on every node.
foreach ([
    '-d release_on_shutdown=0, exit()' => [['redis_lock.release_on_shutdown' => '0'], 'exit(0);'],
    'ini_set(..., "0"), fatal error' => [[], 'ini_set("redis_lock.release_on_shutdown", "0"); undefined_function();'],
] as $name => [$ini, $ending]) {
    $code = "<?php\n\$rl = new RedLock(json_decode(\$argv[1], true));\n\$lock = \$rl->lock('kept', 30000);\necho \$lock['token'], \"\\n\";\n$ending\n";
    $r = PhpChild::run($code, $ini + ['display_errors' => '0'], [$list]);
    $token = trim($r['out']);
    $pttl = min(array_map(fn ($x) => $x->cmd('PTTL', 'kept'), $s));
    printf("%s: exit %d; kept: %s, TTL intact: %s\n", $name, $r['status'],
        rl_holders($s, 'kept', [$token => 'theirs']), var_export($pttl > 20000, true));
    foreach ($s as $x) {
        $x->cmd('DEL', 'kept');
    }
}
echo "keys: ", rl_all_keys($s), "\n";
?>
--EXPECT--
normal end: exit 0, locked; job: - - -; job2: - - -
exit(3): exit 3, locked; job: - - -; job2: - - -
uncaught exception: exit 255, locked (Fatal error: Uncaught RuntimeException: boom); job: - - -; job2: - - -
fatal error: exit 255, locked (Fatal error: Uncaught Error: Call to undefined function undefined_function()); job: - - -; job2: - - -
object unset first: exit 0, locked; job: - - -; job2: - - -
one of two unlocked: exit 0, locked; job: - - -; job2: - - -
-d release_on_shutdown=0, exit(): exit 0; kept: theirs theirs theirs, TTL intact: true
ini_set(..., "0"), fatal error: exit 255; kept: theirs theirs theirs, TTL intact: true
keys: [] [] []
