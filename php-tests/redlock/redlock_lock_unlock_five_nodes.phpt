--TEST--
RedLock on 5 nodes: lock() returns validity/resource/token, the token is on every node with the TTL asked; unlock() deletes it everywhere; entry forms mix
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
// Connections opened first, one node at a time: a lock over five new ones
// may write nothing to one that connects later than the others answer by
// more than their answers took (docs/usage.md), and the test looks for its
// token on every node.
rl_warm_up($s);
$rl = new RedLock(rl_redlock_list($s));

$ttl = 10000;
$drift = $ttl * 0.01 + 2;
$lock = $rl->lock('orders:42', $ttl);
echo "keys: ", json_encode(array_keys($lock)), "\n";
echo "types: ", get_debug_type($lock['validity']), ' ', get_debug_type($lock['resource']), ' ', get_debug_type($lock['token']), "\n";
echo "resource: ", $lock['resource'], ", token: ", var_export(rl_is_token($lock['token']), true), "\n";
printf("validity in (ttl - drift - 50, ttl - drift]: %s\n",
    var_export($lock['validity'] > $ttl - $drift - 50 && $lock['validity'] <= $ttl - $drift, true));
// lock() returns once a majority said yes: the other SETs may still be in
// flight (on a busy machine for a while: waiting up to 5 s costs nothing when
// they are there).
echo "nodes: ", rl_eventually(fn () => rl_holders($s, 'orders:42', [$lock['token'] => 'ours']), 'ours ours ours ours ours', 5.0), "\n";
$pttls = array_map(fn ($r) => $r->cmd('PTTL', 'orders:42'), $s); // all SETs have run now
echo "PTTL in (ttl - 500, ttl] on every node: ", var_export(min($pttls) > $ttl - 500 && max($pttls) <= $ttl, true), "\n";
echo "no other key: ", rl_all_keys($s), "\n";

var_dump($rl->unlock($lock));
// unlock() may return once a majority confirmed: the rest is in flight.
$empty = '[] [] [] [] []';
echo "after unlock: ", rl_eventually(fn () => rl_all_keys($s), $empty), "\n";
var_dump($rl->unlock($lock));

// A second lock gets a new token; a second lock() of a held resource is refused.
$again = $rl->lock('orders:42', $ttl);
echo "new token: ", var_export(rl_is_token($again['token']) && $again['token'] !== $lock['token'], true), "\n";
var_dump($rl->lock('orders:42', $ttl));
echo "nodes: ", rl_eventually(fn () => rl_holders($s, 'orders:42', [$again['token'] => 'ours']), 'ours ours ours ours ours', 5.0), "\n";
var_dump($rl->unlock($again));

// Every entry form at once: [host, port], [host, port, timeout], redis:// with and
// without a db, unix:// with a db.
$entries = [
    ['127.0.0.1', $s[0]->port],
    ['127.0.0.1', (string) $s[1]->port, 0.5],
    $s[2]->dsn(),
    $s[3]->dsn('/3'),
    $s[4]->unixDsn('?db=2'),
];
foreach ($entries as $entry) { // (their connections too, as above)
    $one = new RedLock([$entry], 0, 1);
    $one->unlock($one->lock('warm-up', 1000));
}
$mixed = new RedLock($entries);
$lock = $mixed->lock('mixed', $ttl);
$db = function (RedisServer $r, int $db) {
    $c = new RespClient('unix://' . $r->socket);
    $c->cmd('SELECT', $db);
    $v = $c->cmd('GET', 'mixed');
    $c->close();
    return $v;
};
$where = fn () => [$db($s[0], 0), $db($s[1], 0), $db($s[2], 0), $db($s[3], 3), $db($s[4], 2)];
echo "mixed: token on each node in its db: ", var_export(rl_eventually($where, array_fill(0, 5, $lock['token']), 5.0) === array_fill(0, 5, $lock['token']), true), "\n";
echo "not in db 0 of nodes 4 and 5: ", var_export($s[3]->cmd('EXISTS', 'mixed') + $s[4]->cmd('EXISTS', 'mixed') === 0, true), "\n";
var_dump($mixed->unlock($lock));
$dbs = fn () => json_encode([$db($s[0], 0), $db($s[1], 0), $db($s[2], 0), $db($s[3], 3), $db($s[4], 2)]);
echo "after unlock: ", rl_eventually($dbs, '[null,null,null,null,null]'), "\n";
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), $empty), "\n";
?>
--EXPECT--
keys: ["validity","resource","token"]
types: float string string
resource: orders:42, token: true
validity in (ttl - drift - 50, ttl - drift]: true
nodes: ours ours ours ours ours
PTTL in (ttl - 500, ttl] on every node: true
no other key: ["orders:42"] ["orders:42"] ["orders:42"] ["orders:42"] ["orders:42"]
bool(true)
after unlock: [] [] [] [] []
bool(false)
new token: true
bool(false)
nodes: ours ours ours ours ours
bool(true)
mixed: token on each node in its db: true
not in db 0 of nodes 4 and 5: true
bool(true)
after unlock: [null,null,null,null,null]
keys: [] [] [] [] []
