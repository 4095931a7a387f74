--TEST--
RedisReadWriteLock and RedisSemaphore against a server frozen with SIGSTOP (it accepts connections and says nothing), connect_timeout and read_timeout 0.5 s: every call (lockRead, lockWrite, acquire, with and without a wait, extend, release, inspect) throws a RedisLockException naming the server within 2 s (connect_timeout + read_timeout + slack), and a reader and a permit waiter queued before the freeze throw one within 4 s of it (their blocking look, then connect_timeout + read_timeout of trying again; not at the end of their 10 s timeout). After SIGCONT the holds taken before are still ours (lease 30 s); then 4 processes contend for 2 s: no failure, nobody over-admitted (no writer beside another holder, never a third permit), no increment lost, every key left has a TTL
--SKIPIF--
<?php if (!function_exists('posix_kill') || !function_exists('pcntl_fork')) die('skip posix and pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/shared.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.connect_timeout', '0.5');
ini_set('redis_lock.read_timeout', '0.5');
$port = $redis->port;
$clear = fn ($r) => $r instanceof RedisLockException && get_class($r) === 'RedisLockException' && str_contains($r->getMessage(), "127.0.0.1:$port")
    ? 'RedisLockException naming the server' : rl_show($r);
$b = new RlBook($book);

// This process holds the write lock and the only permit (lease 30 s); a reader and a permit waiter queue behind.
$t0 = rl_now();
var_dump(RedisReadWriteLock::lockWrite('st-rw', 0, 30));
$b->enter('st-rw', 'P', 'w', 1, $t0, rl_now());
$t0 = rl_now();
var_dump(RedisSemaphore::acquire('st-sem', 2, 0, 30), RedisSemaphore::acquire('st-sem2', 1, 0, 30));
$b->enter('st-sem', 'PS', 's', 2, $t0, rl_now());
$other = new RlSharedProc('O', fn () => rl_shared_section($book, 'st-sem', 'O', ['kind' => 's', 'limit' => 2, 'lease' => 30, 'hold' => null]));
echo "another process takes the second permit: ", var_export(rl_shared_taken($book, 'O'), true), "\n";
$waiters = rl_shared_queue($book, 'st-rw', ['R' => ['kind' => 'r', 'timeout' => 10, 'lease' => 3, 'hold' => 0.1]]);
$waiters += rl_shared_queue($book, 'st-sem', ['S' => ['kind' => 's', 'limit' => 2, 'timeout' => 10, 'lease' => 3, 'hold' => 0.1]]);
echo "queued: R S\n";

$redis->pause();
$stoppedAt = rl_now();
$calls = [
    'lockWrite(other, 0)' => fn () => RedisReadWriteLock::lockWrite('st-other', 0, 5),
    'lockRead(other, 3)' => fn () => RedisReadWriteLock::lockRead('st-other2', 3, 5),
    'acquire(other, 0)' => fn () => RedisSemaphore::acquire('st-other-sem', 2, 0, 5),
    'acquire(other, 3)' => fn () => RedisSemaphore::acquire('st-other-sem2', 2, 3, 5),
    'extend(held rw)' => fn () => RedisReadWriteLock::extend('st-rw', 30),
    'extend(held permit)' => fn () => RedisSemaphore::extend('st-sem', 30),
    'release(held permit of st-sem2)' => fn () => RedisSemaphore::release('st-sem2'),
    'inspect(rw)' => fn () => RedisReadWriteLock::inspect('st-rw'),
    'inspect(semaphore)' => fn () => RedisSemaphore::inspect('st-sem'),
];
foreach ($calls as $name => $fn) {
    [$r, $secs] = rl_timed($fn);
    echo "frozen: $name: ", $clear($r), ", within 2 s: ", rl_within($secs, 0, 2.0), "\n";
}
foreach ($waiters as $who => $p) {
    $take = rl_shared_taken($book, $who, 10);
    $at = rl_shared_result($book, $who, 't1') - $stoppedAt;
    $ok = is_string($take) && str_starts_with($take, 'RedisLockException: ') && str_contains($take, "127.0.0.1:$port");
    echo "waiter $who: ", $ok ? 'RedisLockException naming the server' : var_export($take, true), ", within 4 s of the freeze: ", rl_within($at, 0, 4.0), "\n";
    echo "waiter $who exit ", $p->wait(5), "\n";
}
rl_sleep(max(0.0, $stoppedAt + 4.0 - rl_now()));
$redis->resume();
$resumedAt = rl_now();

$i = RedisReadWriteLock::inspect('st-rw');
echo "resumed: the write lock is still ours: ", var_export($i['held'] && $i['mode'] === 'write', true), "\n";
$i = RedisSemaphore::inspect('st-sem');
echo "resumed: the permit is still ours: ", var_export($i['held'], true), ", used ", $i['used'], "\n";
$b->leave('st-rw', 'P', 'w');
var_dump(RedisReadWriteLock::release('st-rw'));
$b->leave('st-sem', 'PS', 's');
var_dump(RedisSemaphore::release('st-sem'));
rl_shared_go($book, 'O');
echo "O exit ", $other->wait(10), ", release ", var_export(rl_shared_result($book, 'O', 'ops')[0][1], true), "\n";
// (st-sem2's release was sent while frozen: it may have run late or not.)
echo "st-sem2 released now or before: ", var_export(in_array(RedisSemaphore::release('st-sem2'), [true, false], true), true), "\n";

$common = ['key' => 'st-rw', 'skey' => 'st-sem', 'limit' => 2, 'timeout' => 8, 'lease' => 3, 'hold' => 0.01];
$procs = [];
foreach (['rw0' => ['w', 'r', 'r'], 'rw1' => ['r', 'w', 'r'], 's0' => ['s'], 's1' => ['s']] as $name => $kinds) {
    $procs[$name] = new RlSharedProc($name, fn () => rl_shared_worker($book, $name, ['kinds' => $kinds] + $common));
}
rl_sleep(2.0);
$book->cmd('SET', 'stop', '1');
foreach ($procs as $name => $p) {
    echo "$name exit ", $p->wait(15), "\n";
}
$sections = rl_shared_sections($book);
$kinds = array_count_values(array_column($sections, 'kind'));
ksort($kinds);
echo "after the SIGCONT, sections of each kind: ", implode(' ', array_keys($kinds)), "\n";
$errors = rl_shared_errors($book);
echo "failures after the SIGCONT: ", $errors === [] ? 'none' : json_encode(rl_shared_error_summary($errors, [$redis])), "\n";
echo "releases not true: ", count(array_filter($sections, fn ($s) => $s['rel'] !== true)), "\n";
[$bad, $max] = rl_shared_check($book, ['st-sem' => 2]);
echo "over-admissions: ", $bad === [] ? 'none' : json_encode(array_slice($bad, 0, 5)), "\n";
echo "live over-admissions: ", json_encode($book->cmd('LRANGE', 'live_violations', 0, 4)), "\n";
echo "lost increments: ", (int) $book->cmd('GET', 'writes') - (int) $book->cmd('GET', 'counter'), "\n";
echo "every key left expires: ", var_export(rl_all_keys_expire($redis, $badKeys), true), $badKeys ? ' ' . json_encode($badKeys) : '', "\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
another process takes the second permit: true
queued: R S
frozen: lockWrite(other, 0): RedisLockException naming the server, within 2 s: true
frozen: lockRead(other, 3): RedisLockException naming the server, within 2 s: true
frozen: acquire(other, 0): RedisLockException naming the server, within 2 s: true
frozen: acquire(other, 3): RedisLockException naming the server, within 2 s: true
frozen: extend(held rw): RedisLockException naming the server, within 2 s: true
frozen: extend(held permit): RedisLockException naming the server, within 2 s: true
frozen: release(held permit of st-sem2): RedisLockException naming the server, within 2 s: true
frozen: inspect(rw): RedisLockException naming the server, within 2 s: true
frozen: inspect(semaphore): RedisLockException naming the server, within 2 s: true
waiter R: RedisLockException naming the server, within 4 s of the freeze: true
waiter R exit 0
waiter S: RedisLockException naming the server, within 4 s of the freeze: true
waiter S exit 0
resumed: the write lock is still ours: true
resumed: the permit is still ours: true, used 2
bool(true)
bool(true)
O exit 0, release true
st-sem2 released now or before: true
rw0 exit 0
rw1 exit 0
s0 exit 0
s1 exit 0
after the SIGCONT, sections of each kind: r s w
failures after the SIGCONT: none
releases not true: 0
over-admissions: none
live over-admissions: []
lost increments: 0
every key left expires: true
