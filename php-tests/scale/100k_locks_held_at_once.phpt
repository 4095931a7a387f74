--TEST--
Audit, scale: 100,000 distinct locks held at once by 4 processes (per process 15,000 RedisMutexLock locks, 5,000 RedisReadWriteLock read holds and 5,000 RedisSemaphore permits): every take succeeds, the server holds exactly 100,000 keys and every one has a TTL, a second taker is refused on any of them, each holder's request end gives back its 25,000 (pipelined, 1,000 at a time) within 10 s of its exit being asked, and nothing is left
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();
$before = (int) rl_info($redis, 'memory')['used_memory'];

$holder = rl_child_code(<<<'PHP'
ini_set('redis_lock.server', $argv[1]);
$p = $argv[2];
$ok = 0;
for ($i = 0; $i < 15000; $i++) $ok += (int) RedisMutexLock::lock("m$p:$i", 0, 120);
for ($i = 0; $i < 5000; $i++) $ok += (int) RedisReadWriteLock::lockRead("r$p:$i", 0, 120);
for ($i = 0; $i < 5000; $i++) $ok += (int) RedisSemaphore::acquire("s$p:$i", 1, 0, 120);
preg_match('/^VmRSS:\s+(\d+)/m', file_get_contents('/proc/self/status'), $m);
echo "held $ok $m[1]\n";
fgets(STDIN);
echo 'end ', sprintf('%.6f', rl_now()), "\n";
PHP);

$holders = [];
for ($p = 0; $p < 4; $p++) {
    $holders[$p] = rl_child($holder, [], [$redis->dsn(), (string) $p]);
}
$held = 0;
$rss = [];
foreach ($holders as $h) {
    [, $n, $kb] = explode(' ', $h->readLine(120));
    $held += (int) $n;
    $rss[] = (int) $kb;
}
echo "held: $held\n";
preg_match('/keys=(\d+),expires=(\d+)/', rl_info($redis, 'keyspace')['db0'] ?? '', $ks);
echo "keys: {$ks[1]}, with a TTL: {$ks[2]}\n";
$after = (int) rl_info($redis, 'memory')['used_memory'];

// Somebody else on a sample of them: refused at once.
ini_set('redis_lock.server', $redis->dsn());
$refused = 0;
foreach ([0, 7, 3999, 4999] as $i) {
    $refused += (int) !RedisMutexLock::lock("m3:$i", 0, 5);
    $refused += (int) !RedisReadWriteLock::lockWrite("r1:$i", 0, 5);
    $refused += (int) !RedisSemaphore::acquire("s2:$i", 1, 0, 5);
}
echo "refused: $refused of 12\n";

$asked = rl_now();
foreach ($holders as $h) {
    $h->writeLine('go');
}
$slowest = 0.0;
foreach ($holders as $h) {
    $end = (float) substr($h->readLine(30), 4);
    $h->wait(30);
    $slowest = max($slowest, rl_now() - $asked);
}
echo 'request ends within 10 s: ', json_encode($slowest < 10), "\n";
echo 'keys left: ', $redis->cmd('DBSIZE'), "\n";
file_put_contents(sys_get_temp_dir() . '/scale_100k_locks_held_at_once.txt', sprintf(
    "server memory %+.1f MB (%.0f bytes a lock); holder RSS %s kB; request ends done %.2f s after asked\n",
    ($after - $before) / 1e6, ($after - $before) / 100000, implode('/', $rss), $slowest));

function rl_info(RedisServer $s, string $section): array
{
    $out = [];
    foreach (explode("\r\n", (string) $s->cmd('INFO', $section)) as $line) {
        if (str_contains($line, ':')) {
            [$k, $v] = explode(':', $line, 2);
            $out[$k] = $v;
        }
    }
    return $out;
}
?>
--EXPECT--
held: 100000
keys: 100000, with a TTL: 100000
refused: 12 of 12
request ends within 10 s: true
keys left: 0
