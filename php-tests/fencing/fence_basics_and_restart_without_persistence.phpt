--TEST--
fence(): null when not held (never, taken over, released); the first call of a hold asks Redis, later ones return the same int without a command; a greater one for each later hold, also after Redis restarted without persistence (all data lost) and after a last fence ahead of the server's clock
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();     // --save "" --appendonly no: a restart loses everything
ini_set('redis_lock.server', $redis->dsn());
$commands = fn () => (int) preg_replace('/.*total_commands_processed:(\d+).*/s', '$1', $redis->cmd('INFO', 'stats'));

echo "never held: ", rl_show(RedisMutexLock::fence('f')), "\n";
var_dump(RedisMutexLock::lock('f', 0, 30));
$before = $commands();
$f1 = RedisMutexLock::fence('f');
$first = $commands() - $before - 1;
echo "first call: ", is_int($f1) && $f1 > 0 ? 'a positive int' : rl_show($f1), ", asked Redis: ", var_export($first >= 1, true), "\n";
$before = $commands();
$again = RedisMutexLock::fence('f');
echo "second call: ", var_export($again === $f1, true), ", commands it sent: ", $commands() - $before - 1, "\n";
echo "inspect shows it: ", var_export(RedisMutexLock::inspect('f')['fence'] === $f1, true), "\n";
$pttl = $redis->cmd('PTTL', '{lock:f}:f');
echo "its record expires: ", var_export(is_int($pttl) && $pttl > 0, true), "\n";
echo "nested hold, same fence: ", rl_show(RedisMutexLock::lock('f', 0, 30)), " ", var_export(RedisMutexLock::fence('f') === $f1, true), "\n";
var_dump(RedisMutexLock::release('f'));
echo "held once more, same fence: ", var_export(RedisMutexLock::fence('f') === $f1, true), "\n";
var_dump(RedisMutexLock::release('f'));
echo "released: ", rl_show(RedisMutexLock::fence('f')), "\n";

var_dump(RedisMutexLock::lock('f', 0, 30));
$f2 = RedisMutexLock::fence('f');
echo "next hold: greater: ", var_export(is_int($f2) && $f2 > $f1, true), "\n";
var_dump(RedisMutexLock::release('f'));

$redis->restart(false);
echo "after the restart: keys ", json_encode($redis->keys()), "\n";
var_dump(RedisMutexLock::lock('f', 0, 30));
$f3 = RedisMutexLock::fence('f');
echo "greater than before the restart: ", var_export(is_int($f3) && $f3 > $f2, true), "\n";
var_dump(RedisMutexLock::release('f'));

// The last fence is ahead of the server's clock (its clock was stepped back): the next one is greater still.
$ahead = $f3 + 10 ** 12;
$redis->cmd('SET', '{lock:f}:f', "$ahead x", 'PX', 60000);
var_dump(RedisMutexLock::lock('f', 0, 30));
$f4 = RedisMutexLock::fence('f');
echo "greater than a fence ahead of the clock: ", var_export(is_int($f4) && $f4 > $ahead, true), "\n";
var_dump(RedisMutexLock::release('f'));

// A hold taken over before its first fence() call gets none: no fence for a non-holder.
var_dump(RedisMutexLock::lock('g', 0, 30));
$redis->cmd('SET', 'lock:g', 'foreign', 'PX', 60000);
echo "taken over: ", rl_show(RedisMutexLock::fence('g')), ", theirs untouched: ", var_export($redis->cmd('GET', 'lock:g') === 'foreign', true), "\n";
echo "release: ", rl_show(RedisMutexLock::release('g')), "\n";
$redis->cmd('DEL', 'lock:g');
var_dump(RedisMutexLock::lock('g', 0, 30));
$g = RedisMutexLock::fence('g');
echo "g's own fence: ", var_export(is_int($g) && $g > 0, true), "\n";
var_dump(RedisMutexLock::release('g'));
echo "lock keys: ", json_encode(array_values(array_filter($redis->keys(), fn ($k) => str_starts_with($k, 'lock:')))), "\n";
?>
--EXPECT--
never held: NULL
bool(true)
first call: a positive int, asked Redis: true
second call: true, commands it sent: 0
inspect shows it: true
its record expires: true
nested hold, same fence: true true
bool(true)
held once more, same fence: true
bool(true)
released: NULL
bool(true)
next hold: greater: true
bool(true)
after the restart: keys []
bool(true)
greater than before the restart: true
bool(true)
bool(true)
greater than a fence ahead of the clock: true
bool(true)
bool(true)
taken over: NULL, theirs untouched: true
release: false
bool(true)
g's own fence: true
bool(true)
lock keys: []
