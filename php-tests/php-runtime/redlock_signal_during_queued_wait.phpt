--TEST--
RedLock's queue: a signal whose pcntl handler throws arrives while a waiter waits on 3 nodes: the wait goes on for the time that was left (a signal never cuts it short nor extends it), lock() returns false once the patience (retryCount × retryDelay = 1 s) is over and the handler's exception then reaches the code; its place is gone from every node's queue right away (not when it would have lapsed), the holder's value loses the waiters' mark again, and a second waiter still gets the lock handed by the holder's unlock
--SKIPIF--
<?php if (!function_exists('pcntl_async_signals') || !function_exists('posix_kill')) die('skip pcntl and posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(3);
$dir = rl_tmpdir();
$rl = new RedLock(rl_redlock_list($s), 200, 50); // 10 s of patience
$held = $rl->lock('sig', 30000);
$token = is_array($held) ? $held['token'] : '';
$queued = fn () => implode(' ', array_map(fn ($r) => (int) $r->cmd('ZCARD', '{sig}:rq'), $s));
$values = fn () => implode(' ', array_map(fn ($r) => $r->cmd('GET', 'sig') === $token ? 'ours' : (str_starts_with((string) $r->cmd('GET', 'sig'), "$token\0") ? 'ours, marked' : '?'), $s));

$waiter = function (string $name, bool $handler) use ($s, $dir) {
    return rl_fork(function () use ($s, $dir, $name, $handler) {
        if ($handler) {
            pcntl_async_signals(true);
            pcntl_signal(SIGUSR1, function () { throw new RuntimeException('interrupted'); });
        }
        $start = rl_now();
        try {
            $r = (new RedLock(rl_redlock_list($s), 200, $handler ? 5 : 50))->lock('sig', 10000);
            $out = is_array($r) ? 'locked' : 'false';
            if (is_array($r)) {
                (new RedLock(rl_redlock_list($s)))->unlock($r);
            }
        } catch (RuntimeException $e) {
            $out = get_class($e) . ': ' . $e->getMessage();
        }
        file_put_contents("$dir/$name", json_encode([$out, rl_now() - $start, rl_now()]));
        return 0;
    });
};
$a = $waiter('a', true);
echo "a waits on every node: ", rl_eventually($queued, '1 1 1', 5.0), ", the holder's value: ", $values(), "\n";
rl_sleep(0.2);
posix_kill($a, SIGUSR1);
echo "a: exit ", rl_wait($a), "\n";
[$out, $secs, $ended] = json_decode((string) file_get_contents("$dir/a"), true);
echo "a's lock(): $out, after 1 s of patience (1.0..1.6 s): ", $secs >= 1.0 && $secs < 1.6 ? 'true' : sprintf('false (%.3f s)', $secs), "\n";
echo "queues right after: ", rl_eventually($queued, '0 0 0', 0.2), ", the holder's value: ", rl_eventually($values, 'ours ours ours', 0.2), "\n";
$b = $waiter('b', false);
echo "b waits on every node: ", rl_eventually($queued, '1 1 1', 5.0), "\n";
$released = rl_now();
var_dump($rl->unlock($held));
echo "b: exit ", rl_wait($b), "\n";
[$out, $secs, $ended] = json_decode((string) file_get_contents("$dir/b"), true);
echo "b's lock(): $out\n";
// An unlock that ran late on one node may have granted the lock to a waiter that had
// won elsewhere: its wake-up list there lives 4 × the grant (800 ms) where the
// native delete (no script) released it.
echo "keys: ", rl_eventually(fn () => rl_all_keys($s), '[] [] []', 1.5), "\n";
?>
--EXPECT--
a waits on every node: 1 1 1, the holder's value: ours, marked ours, marked ours, marked
a: exit 0
a's lock(): RuntimeException: interrupted, after 1 s of patience (1.0..1.6 s): true
queues right after: 0 0 0, the holder's value: ours ours ours
b waits on every node: 1 1 1
bool(true)
b: exit 0
b's lock(): locked
keys: [] [] []
