--TEST--
RedLock's waiters are listed: RedisLock::describe() on each node shows the resource's queued callers in ticket order (the order they called lock(), the same on every node) with their labels, pids, how long they waited and their places; a waiter killed while it waits behind a live one shows as dead once its place runs out (a dead head would be passed over by the next look), RedisLock::evict() drops it on each node (a second evict says false), the live one is handed the lock at the unlock, and nothing is left on any node
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$nodes = [RedisServer::start(), RedisServer::start(), RedisServer::start()];
$dsns = array_map(fn ($n) => $n->dsn(), $nodes);
$book = RedisServer::start();
ini_set('redis_lock.prefix', '');

// The listing of one node: each waiter as "label" or "label(dead)".
function rl_listed(string $dsn): array
{
    ini_set('redis_lock.server', $dsn);
    $d = RedisLock::describe('batch');
    return $d === null ? [] : array_map(fn ($w) => $w['label'] . ($w['place_ms'] > 0 ? '' : '(dead)'), $d['waiters']);
}

$rl = new RedLock($dsns, 200, 50);
$held = $rl->lock('batch', 30000);
echo "held: ", var_export(is_array($held), true), "\n";

$waiter = function (string $label) use ($dsns, $book): int {
    RedisLock::setLabel($label);
    $lock = (new RedLock($dsns, 200, 50))->lock('batch', 5000); // 10 s of patience
    $book->cmd('SET', "got:$label", sprintf('%.6f', microtime(true)));
    return is_array($lock) && (new RedLock($dsns))->unlock($lock) ? 0 : 1;
};
$first = rl_fork(fn () => $waiter('first'));
rl_eventually(fn () => count(rl_listed($dsns[0])), 1, 5.0);
$second = rl_fork(fn () => $waiter('second'));
foreach ($dsns as $dsn) {
    rl_eventually(fn () => count(rl_listed($dsn)), 2, 5.0);
}
foreach ($dsns as $i => $dsn) {
    ini_set('redis_lock.server', $dsn);
    $d = RedisLock::describe('batch');
    $w = $d['waiters'];
    printf("node %d: %s, waiters %s, queued %d, waited ok %s, places ok %s, pids ok %s\n", $i,
        $d['holders'][0]['token'] === $held['token'] ? 'the holder holds' : json_encode($d['holders']),
        implode(' ', array_column($w, 'label')), $d['queued'],
        var_export($w[0]['waited_ms'] > $w[1]['waited_ms'] && $w[1]['waited_ms'] >= 0, true),
        var_export($w[0]['place_ms'] > 0 && $w[1]['place_ms'] > 0, true),
        var_export(array_column($w, 'pid') === [$first, $second], true));
}
echo "queue keys not listed as locks: ", implode(' ', array_column(RedisLock::locks('*'), 'key')), "\n";

// The second waiter dies while it waits: its place lives on until it runs out.
posix_kill($second, SIGKILL);
echo "killed: ", rl_wait($second), "\n";
foreach ($dsns as $dsn) {
    rl_eventually(fn () => rl_listed($dsn), ['first', 'second(dead)'], 10.0);
}
echo "dead waiter shown on every node: ", implode(' ', rl_listed($dsns[0])), "\n";
ini_set('redis_lock.server', $dsns[0]);
$token = RedisLock::describe('batch')['waiters'][1]['token'];
foreach ($dsns as $i => $dsn) {
    ini_set('redis_lock.server', $dsn);
    echo "evict on node $i: ", var_export(RedisLock::evict('batch', $token), true), ", again: ", var_export(RedisLock::evict('batch', $token), true), ", waiters now: ", implode(' ', rl_listed($dsn)), "\n";
}

$released = microtime(true);
var_dump($rl->unlock($held));
echo "first: ", rl_wait($first), ", handed over within 1 s: ", var_export((float) $book->cmd('GET', 'got:first') - $released < 1.0, true), "\n";
foreach ($nodes as $i => $node) {
    echo "node $i afterwards: ", json_encode(rl_eventually(fn () => $node->keys(), [], 5.0)), "\n";
}
?>
--EXPECT--
held: true
node 0: the holder holds, waiters first second, queued 2, waited ok true, places ok true, pids ok true
node 1: the holder holds, waiters first second, queued 2, waited ok true, places ok true, pids ok true
node 2: the holder holds, waiters first second, queued 2, waited ok true, places ok true, pids ok true
queue keys not listed as locks: batch
killed: 137
dead waiter shown on every node: first second(dead)
evict on node 0: true, again: false, waiters now: first
evict on node 1: true, again: false, waiters now: first
evict on node 2: true, again: false, waiters now: first
bool(true)
first: 0, handed over within 1 s: true
node 0 afterwards: []
node 1 afterwards: []
node 2 afterwards: []
