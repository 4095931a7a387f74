--TEST--
RedLock: refusals that arrive before the answers of slower free nodes mean false ("somebody else holds it"), never a RedisLockException
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
// Held nodes answer at once; free nodes answer 30 ms later (a proxy in front of
// each). Every node is up, so an outage must not be reported.
$s = rl_start_servers(4);
$proxies = [new RlDelayProxy($s[2], 30), new RlDelayProxy($s[3], 30)];
$entries = fn (array $nodes) => array_map(
    fn ($i) => ['127.0.0.1', $i >= 2 ? $proxies[$i - 2]->port : $s[$i]->port], $nodes);
$s[0]->cmd('SET', 'job', 'foreign', 'PX', 60000);
$s[1]->cmd('SET', 'job', 'foreign', 'PX', 60000);

foreach ([
    '2 nodes, 1 held (fast), 1 free (slow)' => [0, 2],
    '2 nodes, both held' => [0, 1],
    '4 nodes, 2 held (fast), 2 free (slow)' => [0, 1, 2, 3],
    '3 nodes, 2 held (fast), 1 free (slow)' => [0, 1, 2],
] as $name => $nodes) {
    $rl = new RedLock($entries($nodes), 0, 1);
    [$r, $secs] = rl_timed(fn () => $rl->lock('job', 10000));
    echo "$name: ", rl_show($r), "\n";
}
// The free nodes got our SET late; the failed attempts must have taken it back.
rl_sleep(0.3);
echo "nodes: ", rl_holders($s, 'job', ['foreign' => 'foreign']), "\n";
?>
--EXPECT--
2 nodes, 1 held (fast), 1 free (slow): false
2 nodes, both held: false
4 nodes, 2 held (fast), 2 free (slow): false
3 nodes, 2 held (fast), 1 free (slow): false
nodes: foreign foreign - -
