--TEST--
RedLock::unlock() of a lock that another owner has taken over (keys overwritten, or expired and re-locked) returns false and leaves their keys intact
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
rl_warm_up($s);
$rl = new RedLock(rl_redlock_list($s));

// Overwritten on every node.
$lock = $rl->lock('job', 10000);
foreach ($s as $r) {
    $r->cmd('SET', 'job', 'foreign', 'PX', 50000);
}
var_dump($rl->unlock($lock));
echo "nodes: ", rl_holders($s, 'job', ['foreign' => 'foreign']), ", TTL untouched: ",
    var_export(min(array_map(fn ($r) => $r->cmd('PTTL', 'job'), $s)) > 49000, true), "\n";

// Expired, then taken by another RedLock (another process would do the same).
$old = $rl->lock('report', 100);
rl_sleep(0.2);
$other = new RedLock(rl_redlock_list($s));
$new = $other->lock('report', 10000);
echo "new owner: ", rl_eventually(fn () => rl_holders($s, 'report', [$new['token'] => 'new']), 'new new new new new'), "\n";
var_dump($rl->unlock($old));
echo "after the old owner's unlock: ", rl_holders($s, 'report', [$new['token'] => 'new']), "\n";
// A lock array with the resource of another lock and our old token: no effect either.
var_dump($rl->unlock(['resource' => 'report', 'token' => $lock['token']]));
var_dump($rl->unlock(['resource' => 'report', 'token' => str_repeat('0', 32)]));
echo "still: ", rl_holders($s, 'report', [$new['token'] => 'new']), "\n";
var_dump($other->unlock($new));
echo "report: ", rl_eventually(fn () => rl_holders($s, 'report'), '- - - - -'), "\n";

// Taken over on 3 of 5: false; the 2 nodes still ours are cleaned, theirs stay.
$lock = $rl->lock('mixed', 10000);
foreach ([1, 2, 4] as $i) {
    $s[$i]->cmd('SET', 'mixed', 'foreign', 'PX', 50000);
}
var_dump($rl->unlock($lock));
echo "mixed: ", rl_eventually(fn () => rl_holders($s, 'mixed', ['foreign' => 'foreign']), '- foreign foreign - foreign'), "\n";
?>
--EXPECT--
bool(false)
nodes: foreign foreign foreign foreign foreign, TTL untouched: true
new owner: new new new new new
bool(false)
after the old owner's unlock: new new new new new
bool(false)
bool(false)
still: new new new new new
bool(true)
report: - - - - -
bool(false)
mixed: - foreign foreign - foreign
