--TEST--
Audit, PHP itself: exit() inside a destructor while the request holds a RedisMutexLock, a RedLock lock (3 masters), a RedisReadWriteLock write lock and read hold and a RedisSemaphore permit: a destructor run by unset(), by gc_collect_cycles() on a cycle, by the unwinding of an exception, or at the end of the script; a destructor at the end of the script that first releases every hold itself (each true: request end has not run yet), takes new ones of every kind, then calls exit(); and one that waits in the queues of a mutex, a write lock and a semaphore until another process releases them (each true), then calls exit(). The exit code is the destructor's, nothing but the script's own lines is printed (no warning, no panic text), request end releases whatever is still held, no key is left on any server, and another process takes every lock at once (timeout 0) right after
--FILE--
<?php
require __DIR__ . '/../inc/audit_php.inc';
$redis = RedisServer::start();
[$r2, $r3] = rl_start_servers(2);
$nodes = [$redis, $r2, $r3];
$redlock = rl_redlock_list($nodes);
ini_set('redis_lock.server', $redis->dsn());
const HOLDS = ['m' => 'dm', 'L' => 'dl', 'w' => 'dw', 'r' => 'dr', 's' => 'ds'];

$code = <<<'PHP'
[, $case, $redlock] = $argv;
$redlock = json_decode($redlock, true);
const HOLDS = ['m' => 'dm', 'L' => 'dl', 'w' => 'dw', 'r' => 'dr', 's' => 'ds'];
register_shutdown_function(function () { echo "shutdown function\n"; });

final class ExitInDestructor
{
    public ?self $self = null;

    public function __construct(private int $code, private string $what) {}

    public function __destruct()
    {
        echo "destructor ({$this->what}): exit({$this->code})\n";
        exit($this->code);
    }
}

final class ReleaseTakeExitInDestructor
{
    public function __construct(private array $redlock) {}

    public function __destruct()
    {
        $rel = [];
        foreach (HOLDS as $kind => $key) {
            $rel[] = rl_php_release($kind, $key, $this->redlock);
        }
        echo "destructor releases: ", json_encode($rel), "\n";
        $take = [];
        foreach (HOLDS as $kind => $key) {
            $take[] = rl_php_take($kind, "$key-new", 0, 30, 1, $this->redlock);
        }
        echo "destructor takes: ", json_encode($take), "\n";
        exit(6);
    }
}

final class WaitExitInDestructor
{
    public function __destruct()
    {
        echo "destructor waits\n";
        $took = [RedisMutexLock::lock('dq', 5, 30), RedisReadWriteLock::lockWrite('dqr', 5, 30), RedisSemaphore::acquire('dqs', 1, 5, 30)];
        echo "destructor took: ", json_encode($took), "\n";
        exit(7);
    }
}

function throwing(): void
{
    $o = new ExitInDestructor(8, 'unwinding');
    throw new RuntimeException('not seen: exit() ends the request first');
}

$held = [];
foreach (HOLDS as $kind => $key) {
    $held[] = rl_php_take($kind, $key, 0, 30, 1, $redlock);
}
echo 'held ', json_encode($held), "\n";
switch ($case) {
    case 'unset()':
        $o = new ExitInDestructor(4, 'unset');
        unset($o);
        break;
    case 'gc_collect_cycles()':
        $o = new ExitInDestructor(5, 'cycle');
        $o->self = $o;
        unset($o);
        gc_collect_cycles();
        break;
    case 'the unwinding of an exception':
        throwing();
        break;
    case 'end of the script':
        $o = new ExitInDestructor(3, 'script end');
        echo "script ends\n";
        return;
    case 'end of the script, releasing and taking first':
        $o = new ReleaseTakeExitInDestructor($redlock);
        echo "script ends\n";
        return;
    case 'end of the script, waiting for locks another process releases':
        $o = new WaitExitInDestructor();
        echo "script ends\n";
        return;
}
echo "not reached\n";
PHP;

$cases = ['unset()', 'gc_collect_cycles()', 'the unwinding of an exception', 'end of the script',
    'end of the script, releasing and taking first', 'end of the script, waiting for locks another process releases'];
foreach ($cases as $case) {
    echo "-- exit() in a destructor run by $case\n";
    $waits = str_contains($case, 'waiting');
    if ($waits) {
        // This process holds what the destructor waits for, and releases it while it waits.
        var_dump(RedisMutexLock::lock('dq', 0, 30), RedisReadWriteLock::lockRead('dqr', 0, 30), RedisSemaphore::acquire('dqs', 1, 0, 30));
    }
    $child = rl_php_child($code, ['redis_lock.server' => $redis->dsn()], [$case, json_encode($redlock)]);
    $seen = '';
    if ($waits) {
        do {
            $seen .= ($line = $child->readLine(10)) . "\n";
        } while ($line !== 'destructor waits');
        rl_php_wait_queued($redis, 'm', 'dq', 1);
        var_dump(RedisMutexLock::release('dq'));
        rl_php_wait_queued($redis, 'w', 'dqr', 1);
        var_dump(RedisReadWriteLock::release('dqr'));
        rl_php_wait_queued($redis, 's', 'dqs', 1);
        var_dump(RedisSemaphore::release('dqs'));
    }
    $r = $child->wait(15);
    $r['out'] = rl_php_without_unwind_exit($r['out']);
    $r['err'] = rl_php_without_unwind_exit($r['err']);
    echo "exit ", $r['status'], ", printed:\n  ", str_replace("\n", "\n  ", rtrim($seen . $r['out'])), "\n";
    echo "stderr: ", $r['err'] === '' ? 'none' : $r['err'], ", crash or warning text: ", rl_php_crash_text($r['out'] . $r['err']), "\n";
    echo "keys: ", rl_all_keys($nodes), "\n";
    $next = [];
    foreach (HOLDS as $kind => $key) {
        $next[] = rl_php_take($kind, $key, 0, 30, 1, $redlock) && rl_php_release($kind, $key, $redlock);
    }
    echo "another process takes and releases each at once: ", json_encode($next), "\n";
}
echo "keys: ", rl_all_keys($nodes), "\n";
?>
--EXPECT--
-- exit() in a destructor run by unset()
exit 4, printed:
  held [true,true,true,true,true]
  destructor (unset): exit(4)
  shutdown function
stderr: none, crash or warning text: none
keys: [] [] []
another process takes and releases each at once: [true,true,true,true,true]
-- exit() in a destructor run by gc_collect_cycles()
exit 5, printed:
  held [true,true,true,true,true]
  destructor (cycle): exit(5)
  shutdown function
stderr: none, crash or warning text: none
keys: [] [] []
another process takes and releases each at once: [true,true,true,true,true]
-- exit() in a destructor run by the unwinding of an exception
exit 8, printed:
  held [true,true,true,true,true]
  destructor (unwinding): exit(8)
  shutdown function
stderr: none, crash or warning text: none
keys: [] [] []
another process takes and releases each at once: [true,true,true,true,true]
-- exit() in a destructor run by end of the script
exit 3, printed:
  held [true,true,true,true,true]
  script ends
  shutdown function
  destructor (script end): exit(3)
stderr: none, crash or warning text: none
keys: [] [] []
another process takes and releases each at once: [true,true,true,true,true]
-- exit() in a destructor run by end of the script, releasing and taking first
exit 6, printed:
  held [true,true,true,true,true]
  script ends
  shutdown function
  destructor releases: [true,true,true,true,true]
  destructor takes: [true,true,true,true,true]
stderr: none, crash or warning text: none
keys: [] [] []
another process takes and releases each at once: [true,true,true,true,true]
-- exit() in a destructor run by end of the script, waiting for locks another process releases
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
exit 7, printed:
  held [true,true,true,true,true]
  script ends
  shutdown function
  destructor waits
  destructor took: [true,true,true]
stderr: none, crash or warning text: none
keys: [] [] []
another process takes and releases each at once: [true,true,true,true,true]
keys: [] [] []
