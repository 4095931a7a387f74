--TEST--
pcntl_fork(): the child uses its own connection and fresh tokens, and cannot take or release the parent's lock
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

var_dump(RedisMutexLock::lock('parent', 0, 30));
$parentToken = $redis->cmd('GET', 'lock:parent');
echo "parent connections: ", $redis->otherClients(), "\n";

// Each child: cannot take the parent's lock, cannot release it, takes its own key
// (kept past its end), then reports and waits until the parent has looked.
$children = [];
foreach (['c1', 'c2'] as $name) {
    [$ours, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $pid = rl_fork(function () use ($name, $ours, $theirs) {
        fclose($ours);
        ini_set('redis_lock.release_on_shutdown', '0');
        $a = RedisMutexLock::lock('parent');
        $b = RedisMutexLock::release('parent');
        $c = RedisMutexLock::lock($name, 0, 30);
        fwrite($theirs, json_encode([$a, $b, $c]) . "\n");
        fgets($theirs); // the parent's go-ahead
        return 0;
    });
    fclose($theirs);
    $children[$name] = [$pid, $ours];
}
foreach ($children as $name => [$pid, $sock]) {
    echo "$name: ", trim(fgets($sock)), "\n";
}
echo "connections while both children are connected: ", $redis->otherClients(), "\n";
foreach ($children as $name => [$pid, $sock]) {
    fwrite($sock, "go\n");
    echo "$name exit: ", rl_wait($pid), "\n";
}

$c1 = $redis->cmd('GET', 'lock:c1');
$c2 = $redis->cmd('GET', 'lock:c2');
echo "children's tokens are tokens: ", var_export(rl_is_token($c1) && rl_is_token($c2), true), "\n";
echo "all different: ", var_export(count(array_unique([$parentToken, $c1, $c2])) === 3, true), "\n";
echo "parent's lock untouched: ", var_export($redis->cmd('GET', 'lock:parent') === $parentToken, true), "\n";

// The parent's pooled connection still answers its own commands correctly.
var_dump(RedisMutexLock::lock('after', 0, 30));
$next = $redis->cmd('GET', 'lock:after');
echo "parent's next token is fresh: ", var_export(rl_is_token($next) && !in_array($next, [$parentToken, $c1, $c2], true), true), "\n";
var_dump(RedisMutexLock::release('after'));
var_dump(RedisMutexLock::release('parent'));
// The children's keys are not the parent's to release.
var_dump(RedisMutexLock::release('c1'));
echo "keys: ", json_encode($redis->keys()), "\n";
?>
--EXPECT--
bool(true)
parent connections: 1
c1: [false,false,true]
c2: [false,false,true]
connections while both children are connected: 3
c1 exit: 0
c2 exit: 0
children's tokens are tokens: true
all different: true
parent's lock untouched: true
bool(true)
parent's next token is fresh: true
bool(true)
bool(true)
bool(false)
keys: ["lock:c1","lock:c2"]
