--TEST--
RedLock after pcntl_fork(): the child's locks get fresh tokens, the child cannot take the parent's resource, and the child's exit releases only its own locks
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
rl_warm_up($s); // pooled connections that the child inherits and must not use
$rl = new RedLock(rl_redlock_list($s), 0, 1);
$parent = $rl->lock('parent', 30000);   // held (in the registry) when the child is forked
// lock() returns once a majority said yes: the other SETs may still be in flight.
echo "parent: ", rl_eventually(fn () => rl_holders($s, 'parent', [$parent['token'] => 'parent']), 'parent parent parent parent parent'), "\n";

[$ours, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = rl_fork(function () use ($rl, $theirs) {
    // The inherited RedLock object and a new one: both work in the child.
    $a = $rl->lock('parent', 30000);
    $b = $rl->lock('child', 30000);
    $c = (new RedLock([['127.0.0.1', 1]], 0, 1)) instanceof RedLock;
    fwrite($theirs, json_encode([$a, $b['token'] ?? null, $c]) . "\n");
    fgets($theirs); // waits until the parent has looked
    return 0;       // a normal end of the child's request
});
fclose($theirs);
[$a, $childToken, $c] = json_decode(fgets($ours), true);
echo "child's lock of the parent's resource: ", var_export($a, true), "\n";
echo "child's token: ", var_export(rl_is_token($childToken), true), ", differs from the parent's: ", var_export($childToken !== $parent['token'], true), "\n";
echo "child: ", rl_eventually(fn () => rl_holders($s, 'child', [$childToken => 'child']), 'child child child child child'), "\n";
fwrite($ours, "go\n");
echo "child exit: ", rl_wait($pid), "\n";

// The child's request end released its own lock and not the parent's.
echo "child after its exit: ", rl_eventually(fn () => rl_holders($s, 'child'), '- - - - -'), "\n";
echo "parent after the child's exit: ", rl_holders($s, 'parent', [$parent['token'] => 'parent']), "\n";
$pttl = min(array_map(fn ($r) => $r->cmd('PTTL', 'parent'), $s));
echo "parent's TTL intact: ", var_export($pttl > 25000, true), "\n";

// The parent's connections still give the parent its own answers.
$next = $rl->lock('next', 30000);
echo "parent's next token is fresh: ", var_export(!in_array($next['token'], [$parent['token'], $childToken], true), true), "\n";
var_dump($rl->lock('parent', 30000));
var_dump($rl->unlock($next), $rl->unlock($parent));
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] [] [] []'), "\n";
?>
--EXPECT--
parent: parent parent parent parent parent
child's lock of the parent's resource: false
child's token: true, differs from the parent's: true
child: child child child child child
child exit: 0
child after its exit: - - - - -
parent after the child's exit: parent parent parent parent parent
parent's TTL intact: true
parent's next token is fresh: true
bool(false)
bool(true)
bool(true)
keys: [] [] [] [] []
