--TEST--
One Redis server never votes twice, whatever names reach it: RedLock over [127.0.0.1:A, localhost:A, 127.0.0.1:B] (and over DSN spellings of A) works while B is up; with B killed, lock() and extend() do not succeed and the message names the duplicate
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$a = RedisServer::start();
$b = RedisServer::start();
$mask = function (mixed $r) use ($a, $b): string {
    $text = rl_show($r);
    $text = preg_replace('/(?<=localhost:)' . $a->port . '(?!\d)/', 'P1', $text);
    return rl_mask_ports($text, [$a, $b]);
};
$sameRe = '/same Redis server as 127\.0\.0\.1:P1/';

foreach ([
    'host names' => [['127.0.0.1', $a->port], ['localhost', $a->port], ['127.0.0.1', $b->port]],
    'DSNs' => ["redis://127.0.0.1:{$a->port}", "redis://localhost:{$a->port}/0", $b->dsn()],
] as $name => $servers) {
    if (!$b->running()) {
        $b->restart(false);
    }
    $rl = new RedLock($servers, 0, 1);
    $lock = $rl->lock('x', 10000);
    echo "$name, all up: lock: ", is_array($lock) ? 'array' : $mask($lock), "\n";
    $token = is_array($lock) ? $lock['token'] : '?';
    echo "$name, all up: holders: ", rl_eventually(fn () => rl_holders([$a, $b], 'x', [$token => 'ours']), 'ours ours'), "\n";
    echo "$name, all up: unlock: ", $mask(rl_timed(fn () => is_array($lock) ? $rl->unlock($lock) : 'no lock')[0]), "\n";
    echo "$name, all up: keys: ", rl_eventually(fn () => rl_all_keys([$a, $b]), '[] []'), "\n";

    $held = $rl->lock('held', 30000);
    echo "$name: held: ", is_array($held) ? 'array' : $mask($held), "\n";
    $b->kill();
    [$r] = rl_timed(fn () => $rl->lock('y', 10000));
    echo "$name, B killed: lock: ", $r instanceof RedisLockException ? 'RedisLockException' : $mask($r),
        ', names the duplicate: ', $r instanceof Throwable && preg_match($sameRe, $mask($r)) ? 'true' : 'false', "\n";
    echo "$name, B killed: y on A: ", rl_eventually(fn () => rl_holders([$a], 'y'), '-'), "\n";
    [$r] = rl_timed(fn () => is_array($held) ? $rl->extend($held, 30000) : 'no lock');
    echo "$name, B killed: extend: ", $r instanceof RedisLockException ? 'RedisLockException' : $mask($r), "\n";
    $a->cmd('FLUSHALL');
}
?>
--EXPECT--
host names, all up: lock: array
host names, all up: holders: ours ours
host names, all up: unlock: true
host names, all up: keys: [] []
host names: held: array
host names, B killed: lock: RedisLockException, names the duplicate: true
host names, B killed: y on A: -
host names, B killed: extend: RedisLockException
DSNs, all up: lock: array
DSNs, all up: holders: ours ours
DSNs, all up: unlock: true
DSNs, all up: keys: [] []
DSNs: held: array
DSNs, B killed: lock: RedisLockException, names the duplicate: true
DSNs, B killed: y on A: -
DSNs, B killed: extend: RedisLockException
