--TEST--
Labelled lock tokens (redis_lock.label, RedisLock::setLabel(); the label rides in the token's host field) are still marked by their waiters and handed off at release (a waiter whose next look is 5 s away gets the lock at once); setLabel('') goes back to the setting; a waiter killed while it waits shows as dead once its place runs out and RedisLock::evict() drops it from the queue (a second evict says false); a hash-tagged lock's helper keys (its fence record, its waiters' places) are not listed as locks
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
ini_set('redis_lock.label', 'from-ini');

RedisLock::setLabel('holder.1');
var_dump(RedisMutexLock::lock('{7}:job', 0, 30));
echo "the label rides in the host field: ", var_export((bool) preg_match('/^[0-9a-f]{32}:[\w.-]+__holder\.1:\d+:\d+$/', $redis->cmd('GET', 'lock:{7}:job')), true), "\n";
$fence = RedisMutexLock::fence('{7}:job');
RedisLock::setLabel('');
var_dump(RedisMutexLock::lock('{7}:other', 0, 30));
echo "back to the setting: ", RedisLock::describe('{7}:other')['holders'][0]['label'], "\n";

$book = RedisServer::start();
// A waiter that looks only every 5 s: only a hand-off gets it the lock within a second.
$waiter = rl_fork(function () use ($book): int {
    RedisLock::setLabel('waiter-a');
    $ok = RedisMutexLock::lock('{7}:job', 10, 5, 5000000);
    $book->cmd('SET', 'got', sprintf('%.6f', microtime(true)));
    return $ok && RedisMutexLock::release('{7}:job') ? 0 : 1;
});
rl_eventually(fn () => count(RedisLock::describe('{7}:job')['waiters'] ?? []), 1, 5.0);
echo "holder's value marked: ", var_export(str_ends_with($redis->cmd('GET', 'lock:{7}:job'), "\0q"), true), "\n";
// A waiter killed while it waits: its place lives on until it runs out.
$doomed = rl_fork(function (): int {
    RedisLock::setLabel('doomed');
    RedisMutexLock::lock('{7}:other', 30, 5, 100000);
    return 1;
});
rl_eventually(fn () => count(RedisLock::describe('{7}:other')['waiters'] ?? []), 1, 5.0);
posix_kill($doomed, SIGKILL);
echo "killed: ", rl_wait($doomed), "\n";

echo "keys: ", implode(' ', array_column(RedisLock::locks('*'), 'key')), "\n";
echo "helper keys there: ", implode(' ', array_values(array_filter($redis->keys(), fn ($k) => preg_match('/^lock:\{7\}:\w+:(f|t)$/', $k)))), "\n";

$released = microtime(true);
var_dump(RedisMutexLock::release('{7}:job'));
echo "waiter: ", rl_wait($waiter), ", handed off within 1 s: ", var_export((float) $book->cmd('GET', 'got') - $released < 1.0, true), "\n";

$dead = rl_eventually(fn () => (RedisLock::describe('{7}:other')['waiters'][0]['place_ms'] ?? 1) <= 0, true, 5.0);
$w = RedisLock::describe('{7}:other')['waiters'][0];
echo "dead waiter shown: ", var_export($dead, true), ", label ", $w['label'], "\n";
var_dump(RedisLock::evict('{7}:other', $w['token']), RedisLock::evict('{7}:other', $w['token']));
echo "waiters now: ", count(RedisLock::describe('{7}:other')['waiters']), "\n";
try { RedisLock::evict('{7}:other', "a\0b"); } catch (ValueError $e) { echo $e->getMessage(), "\n"; }
var_dump(RedisMutexLock::release('{7}:other'));
?>
--EXPECT--
bool(true)
the label rides in the host field: true
bool(true)
back to the setting: from-ini
holder's value marked: true
killed: 137
keys: {7}:job {7}:other
helper keys there: lock:{7}:job:f lock:{7}:job:t lock:{7}:other:t
bool(true)
waiter: 0, handed off within 1 s: true
dead waiter shown: true, label doomed
bool(true)
bool(false)
waiters now: 0
RedisLock::evict(): Argument #2 ($token) must not contain any null bytes
bool(true)
