--TEST--
RedLock: invalid constructor, lock(), unlock() and extend() arguments throw ValueError/TypeError/ArgumentCountError worded as PHP's own, without contacting Redis
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(3);
$p = $s[0]->port;
$connections = fn () => array_sum(array_map(
    fn ($r) => (int) preg_replace('/.*total_connections_received:(\d+).*/s', '$1', $r->cmd('INFO', 'stats')), $s));
$before = $connections();
$rl = new RedLock(rl_redlock_list($s));
$good = ['resource' => 'k', 'token' => str_repeat('a', 32)];

$calls = [
    // constructor: the server list
    'no servers' => fn () => new RedLock([]),
    'entry int' => fn () => new RedLock([6379]),
    'entry null' => fn () => new RedLock([null]),
    'entry [host]' => fn () => new RedLock([['127.0.0.1']]),
    'entry [host, port, timeout, x]' => fn () => new RedLock([['127.0.0.1', $p, 1.0, 1]]),
    'entry [port, host]' => fn () => new RedLock([[$p, '127.0.0.1']]),
    'entry [empty host]' => fn () => new RedLock([['', $p]]),
    'entry [host, null]' => fn () => new RedLock([['127.0.0.1', null]]),
    'entry [host, 1.5]' => fn () => new RedLock([['127.0.0.1', 1.5]]),
    'second entry bad' => fn () => new RedLock([['127.0.0.1', $p], ['127.0.0.1']]),
    'port 0' => fn () => new RedLock([['127.0.0.1', 0]]),
    'port 65536' => fn () => new RedLock([['127.0.0.1', 65536]]),
    'port -1' => fn () => new RedLock([['127.0.0.1', -1]]),
    'port "x"' => fn () => new RedLock([['127.0.0.1', 'x']]),
    'timeout -1' => fn () => new RedLock([['127.0.0.1', $p, -1]]),
    'timeout 0' => fn () => new RedLock([['127.0.0.1', $p, 0]]),
    'timeout 0.0' => fn () => new RedLock([['127.0.0.1', $p, 0.0]]),
    'timeout NAN' => fn () => new RedLock([['127.0.0.1', $p, NAN]]),
    'timeout INF' => fn () => new RedLock([['127.0.0.1', $p, INF]]),
    'timeout "x"' => fn () => new RedLock([['127.0.0.1', $p, 'x']]),
    'DSN without scheme' => fn () => new RedLock(["127.0.0.1:$p"]),
    'DSN port 0' => fn () => new RedLock(['redis://127.0.0.1:0']),
    'DSN with a password, bad port' => fn () => new RedLock(['redis://user:hunter2@127.0.0.1:99999']),
    'DSN relative unix path' => fn () => new RedLock(['unix://relative.sock']),
    'same server twice' => fn () => new RedLock([['127.0.0.1', $p], ['127.0.0.1', $p]]),
    'same server as array and DSN' => fn () => new RedLock([['127.0.0.1', $p], "redis://127.0.0.1:$p"]),
    'same server, other timeout' => fn () => new RedLock([['127.0.0.1', $p, 0.5], ['127.0.0.1', $p]]),
    'retryDelay -1' => fn () => new RedLock([['127.0.0.1', $p]], -1),
    'retryDelay PHP_INT_MIN' => fn () => new RedLock([['127.0.0.1', $p]], PHP_INT_MIN),
    'retryCount 0' => fn () => new RedLock([['127.0.0.1', $p]], 200, 0),
    'retryCount -1' => fn () => new RedLock([['127.0.0.1', $p]], 200, -1),
    'retryCount 4294967296' => fn () => new RedLock([['127.0.0.1', $p]], 200, 4294967296),
    'servers string' => fn () => new RedLock("redis://127.0.0.1:$p"),
    'servers null' => fn () => new RedLock(null),
    'retryDelay string' => fn () => new RedLock([['127.0.0.1', $p]], 'soon'),
    'retryCount 1e30' => fn () => new RedLock([['127.0.0.1', $p]], 200, 1e30),
    'no arguments' => fn () => new RedLock(),
    '4 arguments' => fn () => new RedLock([['127.0.0.1', $p]], 1, 1, 1),
    // lock()
    'lock empty resource' => fn () => $rl->lock('', 1000),
    'lock ttl 0' => fn () => $rl->lock('k', 0),
    'lock ttl -1' => fn () => $rl->lock('k', -1),
    'lock ttl 4611686018427387904' => fn () => $rl->lock('k', 4611686018427387904),
    'lock ttl PHP_INT_MAX' => fn () => $rl->lock('k', PHP_INT_MAX),
    'lock resource array' => fn () => $rl->lock([], 1000),
    'lock ttl string' => fn () => $rl->lock('k', '10 s'),
    'lock ttl NAN' => fn () => $rl->lock('k', NAN),
    'lock one argument' => fn () => $rl->lock('k'),
    // unlock()
    'unlock []' => fn () => $rl->unlock([]),
    'unlock no token' => fn () => $rl->unlock(['resource' => 'k']),
    'unlock no resource' => fn () => $rl->unlock(['token' => $good['token']]),
    'unlock empty resource' => fn () => $rl->unlock(['resource' => ''] + $good),
    'unlock empty token' => fn () => $rl->unlock(['token' => ''] + $good),
    'unlock int token' => fn () => $rl->unlock(['token' => 5] + $good),
    'unlock array resource' => fn () => $rl->unlock(['resource' => ['k']] + $good),
    'unlock list' => fn () => $rl->unlock(['k', $good['token']]),
    'unlock string' => fn () => $rl->unlock('k'),
    'unlock no arguments' => fn () => $rl->unlock(),
    // extend()
    'extend ttl 0' => fn () => $rl->extend($good, 0),
    'extend ttl -5' => fn () => $rl->extend($good, -5),
    'extend ttl PHP_INT_MAX' => fn () => $rl->extend($good, PHP_INT_MAX),
    'extend no token' => fn () => $rl->extend(['resource' => 'k'], 1000),
    'extend empty resource' => fn () => $rl->extend(['resource' => ''] + $good, 1000),
    'extend ttl string' => fn () => $rl->extend($good, 'x'),
    'extend one argument' => fn () => $rl->extend($good),
];
foreach ($calls as $name => $call) {
    echo "$name: ", rl_mask_ports(rl_show(rl_timed($call)[0]), $s), "\n";
}
echo "keys: ", rl_all_keys($s), ", connections made: ", $connections() - $before, "\n";

// The extreme valid values still work.
$rl = new RedLock(rl_redlock_list($s), 0, 1);
$lock = $rl->lock('k', 4611686018427387903);
echo "longest ttl: ", is_array($lock) ? 'locked' : rl_show($lock), ", PTTL huge: ",
    var_export(rl_eventually(fn () => min(array_map(fn ($r) => $r->cmd('PTTL', 'k'), $s)) > 4611686018427380000, true), true), "\n";
var_dump($rl->unlock($lock));
// 1 or 2 ms cannot cover the clock drift allowance (2 ms + 1 %): refused as invalid.
echo "ttl 2: ", rl_show(rl_timed(fn () => $rl->lock('k', 2))[0]), "\n";
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []'), "\n";
?>
--EXPECT--
no servers: ValueError: RedLock::__construct(): Argument #1 ($servers) must not be empty
entry int: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
entry null: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
entry [host]: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
entry [host, port, timeout, x]: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
entry [port, host]: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
entry [empty host]: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
entry [host, null]: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
entry [host, 1.5]: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
second entry bad: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 1 must be a DSN string or an array [host, port] or [host, port, timeout]
port 0: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid port (expected 1 to 65535)
port 65536: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid port (expected 1 to 65535)
port -1: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid port (expected 1 to 65535)
port "x": ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid port (expected 1 to 65535)
timeout -1: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid timeout -1 (expected seconds greater than 0)
timeout 0: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid timeout 0 (expected seconds greater than 0)
timeout 0.0: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid timeout 0 (expected seconds greater than 0)
timeout NAN: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid timeout NAN (expected seconds greater than 0)
timeout INF: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 has an invalid timeout INF (expected seconds greater than 0)
timeout "x": ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 must be a DSN string or an array [host, port] or [host, port, timeout]
DSN without scheme: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 is not a valid server: expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel://
DSN port 0: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 is not a valid server: invalid port (expected 1 to 65535)
DSN with a password, bad port: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 is not a valid server: invalid port (expected 1 to 65535)
DSN relative unix path: ValueError: RedLock::__construct(): Argument #1 ($servers) entry 0 is not a valid server: a unix socket path must be absolute (unix:///path/to.sock)
same server twice: ValueError: RedLock::__construct(): Argument #1 ($servers) must not list 127.0.0.1:P1 twice (it would vote twice)
same server as array and DSN: ValueError: RedLock::__construct(): Argument #1 ($servers) must not list 127.0.0.1:P1 twice (it would vote twice)
same server, other timeout: ValueError: RedLock::__construct(): Argument #1 ($servers) must not list 127.0.0.1:P1 twice (it would vote twice)
retryDelay -1: ValueError: RedLock::__construct(): Argument #2 ($retryDelay) must be greater than or equal to 0
retryDelay PHP_INT_MIN: ValueError: RedLock::__construct(): Argument #2 ($retryDelay) must be greater than or equal to 0
retryCount 0: ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 1 and 4294967295
retryCount -1: ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 1 and 4294967295
retryCount 4294967296: ValueError: RedLock::__construct(): Argument #3 ($retryCount) must be between 1 and 4294967295
servers string: TypeError: RedLock::__construct(): Argument #1 ($servers) must be of type array, string given
servers null: TypeError: RedLock::__construct(): Argument #1 ($servers) must be of type array, null given
retryDelay string: TypeError: RedLock::__construct(): Argument #2 ($retryDelay) must be of type int, string given
retryCount 1e30: TypeError: RedLock::__construct(): Argument #3 ($retryCount) must be of type int, float given
no arguments: ArgumentCountError: RedLock::__construct() expects at least 1 argument, 0 given
4 arguments: ArgumentCountError: RedLock::__construct() expects at most 3 arguments, 4 given
lock empty resource: ValueError: RedLock::lock(): Argument #1 ($resource) must not be empty
lock ttl 0: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
lock ttl -1: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
lock ttl 4611686018427387904: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
lock ttl PHP_INT_MAX: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
lock resource array: TypeError: RedLock::lock(): Argument #1 ($resource) must be of type string, array given
lock ttl string: TypeError: RedLock::lock(): Argument #2 ($ttl) must be of type int, string given
lock ttl NAN: TypeError: RedLock::lock(): Argument #2 ($ttl) must be of type int, float given
lock one argument: ArgumentCountError: RedLock::lock() expects exactly 2 arguments, 1 given
unlock []: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "resource"
unlock no token: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "token"
unlock no resource: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "resource"
unlock empty resource: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "resource"
unlock empty token: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "token"
unlock int token: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "token"
unlock array resource: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "resource"
unlock list: ValueError: RedLock::unlock(): Argument #1 ($lock) must contain a non-empty string "resource"
unlock string: TypeError: RedLock::unlock(): Argument #1 ($lock) must be of type array, string given
unlock no arguments: ArgumentCountError: RedLock::unlock() expects exactly 1 argument, 0 given
extend ttl 0: ValueError: RedLock::extend(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
extend ttl -5: ValueError: RedLock::extend(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
extend ttl PHP_INT_MAX: ValueError: RedLock::extend(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
extend no token: ValueError: RedLock::extend(): Argument #1 ($lock) must contain a non-empty string "token"
extend empty resource: ValueError: RedLock::extend(): Argument #1 ($lock) must contain a non-empty string "resource"
extend ttl string: TypeError: RedLock::extend(): Argument #2 ($ttl) must be of type int, string given
extend one argument: ArgumentCountError: RedLock::extend() expects exactly 2 arguments, 1 given
keys: [] [] [], connections made: 0
longest ttl: locked, PTTL huge: true
bool(true)
ttl 2: ValueError: RedLock::lock(): Argument #2 ($ttl) must be between 3 and 4611686018427387903
keys: [] [] []
