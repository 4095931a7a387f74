<?php
// Run by `make test-valgrind`: every code path of the extension, many times.
$cycles = (int) ($argv[1] ?? 3000);
$ok = 0;
for ($i = 0; $i < $cycles; $i++) {
    $key = "leak-$i-\0\r\n" . str_repeat('x', $i % 64);
    $ok += (int) RedisMutexLock::lock($key, 0, 5);
    $ok += (int) !RedisMutexLock::lock($key);          // held: refused
    $ok += (int) RedisMutexLock::release($key);
    $ok += (int) !RedisMutexLock::release($key);       // not ours any more
}
$errors = 0;
$calls = [
    fn () => RedisMutexLock::lock(''),
    fn () => RedisMutexLock::lock('k', -1),
    fn () => RedisMutexLock::lock('k', NAN),
    fn () => RedisMutexLock::lock('k', 0, 0),
    fn () => RedisMutexLock::lock('k', 0, 1, -1),
    fn () => RedisMutexLock::lock([]),
    fn () => RedisMutexLock::release(''),
];
for ($i = 0; $i < 100; $i++) {
    foreach ($calls as $call) {
        try { $call(); } catch (Throwable $e) { $errors++; }
    }
}
$server = ini_get('redis_lock.server');
ini_set('redis_lock.server', 'redis://127.0.0.1:1');
for ($i = 0; $i < 50; $i++) {
    try { RedisMutexLock::lock('k'); } catch (RedisLockException $e) { $errors++; }
}
ini_set('redis_lock.server', 'nonsense');
try { RedisMutexLock::lock('k'); } catch (ValueError $e) { $errors++; }
ini_set('redis_lock.server', $server);
RedisMutexLock::lock('held-at-exit');                  // released at request shutdown
printf("%d of %d checks passed, %d errors thrown\n", $ok, 4 * $cycles, $errors);
exit($ok === 4 * $cycles && $errors === 751 ? 0 : 1);
