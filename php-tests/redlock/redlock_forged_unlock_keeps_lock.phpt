--TEST--
A forged or misdirected RedLock::unlock() (another resource with our token, or our lock through another RedLock with other servers) returns false, deletes nothing, and does not make the process forget the real lock: it is still released at request end
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$sa = rl_start_servers(3);
$sb = rl_start_servers(3);
$code = rl_child_code(<<<'PHP'
$a = json_decode($argv[1], true);
$b = json_decode($argv[2], true);
$ports = json_decode($argv[3], true);
$holders = function (string $key, string $token) use ($ports): string {
    $out = [];
    foreach ($ports as $p) {
        $c = new RespClient("tcp://127.0.0.1:$p");
        $v = $c->cmd('GET', $key);
        $c->close();
        $out[] = $v === null ? '-' : ($v === $token ? 'ours' : '?');
    }
    return implode(' ', $out);
};
$rl = new RedLock($a, 0, 1);
$lock = $rl->lock('real', 10000);
echo 'lock: ', is_array($lock) ? 'array' : rl_show($lock), "\n";
$token = is_array($lock) ? $lock['token'] : '?';
if ($argv[4] === 'other resource') {
    echo 'unlock of another resource with our token: ', rl_show(rl_timed(fn () => $rl->unlock(['resource' => 'other', 'token' => $token]))[0]), "\n";
} else {
    $rl2 = new RedLock($b, 0, 1);
    echo 'our lock through a RedLock with other servers: ', rl_show(rl_timed(fn () => $rl2->unlock($lock))[0]), "\n";
    echo 'another resource with our token, same: ', rl_show(rl_timed(fn () => $rl2->unlock(['resource' => 'other', 'token' => $token]))[0]), "\n";
}
echo 'real: ', rl_eventually(fn () => $holders('real', $token), 'ours ours ours'), "\n";
// the request ends without unlock()
PHP);
foreach (['other resource', 'other servers'] as $case) {
    $r = rl_child($code, [], [json_encode(rl_redlock_list($sa)), json_encode(rl_redlock_list($sb)),
        json_encode(array_map(fn ($s) => $s->port, $sa)), $case])->wait(20);
    echo "$case:\n", $r['out'], "exit ", $r['status'], $r['err'] === '' ? '' : "\n" . $r['err'], "\n";
    echo "real after the request ended: ", rl_eventually(fn () => rl_holders($sa, 'real'), '- - -'), "\n";
    echo "keys: ", rl_all_keys(array_merge($sa, $sb)), "\n";
    foreach ($sa as $x) {
        $x->cmd('FLUSHALL'); // the next case starts clean even when this one failed
    }
}
?>
--EXPECT--
other resource:
lock: array
unlock of another resource with our token: false
real: ours ours ours
exit 0
real after the request ended: - - -
keys: [] [] [] [] [] []
other servers:
lock: array
our lock through a RedLock with other servers: false
another resource with our token, same: false
real: ours ours ours
exit 0
real after the request ended: - - -
keys: [] [] [] [] [] []
