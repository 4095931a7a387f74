--TEST--
RedLock: unlock() on servers that have not cached the release script yet still deletes our key on a slow node whose reply it does not wait for
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
// Node 5 answers 30 ms later than the others (a proxy in front of it). The
// servers are fresh: EVALSHA of the release script gets NOSCRIPT everywhere.
$s = rl_start_servers(5);
$proxy = new RlDelayProxy($s[4], 30);
$list = rl_redlock_list($s);
$list[4] = ['127.0.0.1', $proxy->port];
$rl = new RedLock($list);

$lock = $rl->lock('cold', 10000);
echo "locked: ", var_export(is_array($lock), true), "\n";
var_dump($rl->unlock($lock));
// The slow node gets the SET and then the release ~30 ms later: look after 300 ms.
rl_sleep(0.3);
echo "nodes: ", rl_holders($s, 'cold', [$lock['token'] => 'ours']), "\n";

// The same after SCRIPT FLUSH on every node (a restarted or flushed fleet).
foreach ($s as $r) {
    $r->cmd('SCRIPT', 'FLUSH');
}
$lock = $rl->lock('flushed', 10000);
var_dump($rl->unlock($lock));
rl_sleep(0.3);
echo "nodes: ", rl_holders($s, 'flushed', [$lock['token'] => 'ours']), "\n";

// The next holder gets every node.
$next = $rl->lock('cold', 10000);
echo "next lock: ", rl_eventually(fn () => rl_holders($s, 'cold', [$next['token'] => 'ours']), 'ours ours ours ours ours', 3.0), "\n";
var_dump($rl->unlock($next));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] [] []', 3.0), "\n";
?>
--EXPECT--
locked: true
bool(true)
nodes: - - - - -
bool(true)
nodes: - - - - -
next lock: ours ours ours ours ours
bool(true)
keys: [] [] [] [] []
