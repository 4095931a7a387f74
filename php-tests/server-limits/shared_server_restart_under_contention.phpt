--TEST--
RedisReadWriteLock and RedisSemaphore (limit 2): the server is SIGKILLed and restarted empty on the same port (no persistence) while 6 processes contend (3 readers/writers, 3 on the semaphore, 2 of them with renewals): every failure is a RedisLockException naming the server (or a RedisLockLostException for a renewed hold the restart wiped), none outside the outage (+ connect_timeout + read_timeout + 2 s), no take answers false; every process recovers (readers, writers and permit holders all get in again after the restart); only holds taken before the restart are lost (their release() false or throwing), some of them still in their sections (1.5 s long) after it, and no over-admission (a writer beside another holder, a third permit) among the valid holds, by an independent book; every key left has a TTL; every process exits 0
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

// Every 8th section lasts 1.5 s: the server is killed while such a hold is under way, so that
// holds taken before the restart are still in their sections when new holders come in after it.
$common = ['key' => 'rs-rw', 'skey' => 'rs-sem', 'limit' => 2, 'timeout' => 5, 'lease' => 10, 'hold' => 0.02, 'longEvery' => 8, 'longHold' => 1.5];
$plan = [
    'rw0' => ['kinds' => ['w', 'r', 'r']],
    'rw1' => ['kinds' => ['r', 'w', 'r']],
    'rw2' => ['kinds' => ['r', 'r', 'w'], 'renew' => true],
    's0' => ['kinds' => ['s']],
    's1' => ['kinds' => ['s']],
    's2' => ['kinds' => ['s'], 'renew' => true],
];
$procs = [];
foreach ($plan as $name => $o) {
    $procs[$name] = new RlSharedProc($name, fn () => rl_shared_worker($book, $name, $o + $common));
}
$warm = rl_eventually(fn () => $book->cmd('LLEN', 'sections') >= 60, true, 15.0);
echo "contention before the restart: ", var_export($warm, true), "\n";
// A long hold that has just begun (its marker's PTTL near the whole hold): one caught late could
// end before the server is back (0.5 s + its start), and nothing would be left to show.
$fresh = fn () => $book->cmd('PTTL', 'inlong') >= (int) ($common['longHold'] * 1000) - 150;
echo "a long hold just begun: ", var_export(rl_eventually($fresh, true, 10.0), true), "\n";
$longLeft = $book->cmd('PTTL', 'inlong') / 1000;
$killAt = rl_now();
$redis->kill();
rl_sleep(0.5);
$redis->restart(false);
$upAt = rl_now();
rl_sleep(3.0);
$book->cmd('SET', 'stop', '1');
foreach ($procs as $name => $p) {
    echo "$name exit ", $p->wait(15), "\n";
}

$sections = rl_shared_sections($book);
$errors = rl_shared_errors($book);
$after = array_filter($sections, fn ($s) => $s['t0'] > $upAt);
$kindsAfter = array_count_values(array_column($after, 'kind'));
ksort($kindsAfter);
echo "sections before the kill: ", count(array_filter($sections, fn ($s) => $s['t1'] < $killAt)) > 0 ? 'some' : 'none',
    ", kinds begun after the restart: ", implode(' ', array_keys($kindsAfter)), "\n";

$falses = array_filter($errors, fn ($e) => str_ends_with($e[2], ': false'));
echo "takes that answered false: ", count($falses), "\n";
$unclear = array_filter($errors, fn ($e) => !preg_match('/^(take|release) [rws]: (RedisLockException: .*127\.0\.0\.1:' . $redis->port . '|RedisLockLostException: )/', $e[2]));
echo "failures other than a RedisLockException naming the server or a RedisLockLostException: ",
    $unclear === [] ? 'none' : json_encode(rl_shared_error_summary($unclear, [$redis])), "\n";
$window = [$killAt, $upAt + 0.5 + 0.5 + 2.0];
$outside = array_filter($errors, fn ($e) => $e[0] < $window[0] || $e[0] > $window[1]);
echo "failures outside the outage: ", $outside === [] ? 'none' : json_encode(array_map(fn ($e) => sprintf('%+.2f s after the restart: %s', $e[0] - $upAt, $e[2]), array_slice($outside, 0, 5))), "\n";

$lost = array_filter($sections, fn ($s) => $s['rel'] !== true);
$lostLate = array_filter($lost, fn ($s) => $s['t1'] >= $upAt);
echo "holds lost: some, only ones taken before the restart: ", $lost !== [] && $lostLate === [] ? 'true' : 'false ' . json_encode(array_values($lostLate)), "\n";
$spanning = array_filter($lost, fn ($s) => $s['tout'] > $upAt);
echo "lost holds still in their section after the restart: ", $spanning !== [] ? 'some' : sprintf('none (the long hold had %.2f s left at the kill; up again %.2f s after it; %d lost, leaving at %s s from the restart)',
    $longLeft, $upAt - $killAt, count($lost), implode(' ', array_map(fn ($s) => sprintf('%+.2f', $s['tout'] - $upAt), $lost))), "\n";
$lostAt = [];
foreach ($lost as $s) {
    $lostAt[$s['who']] = $killAt;
}
[$bad, $max] = rl_shared_check($book, ['rs-sem' => 2], $lostAt);
echo "over-admissions: ", $bad === [] ? 'none' : json_encode(array_slice($bad, 0, 5)), "\n";
echo "every key left expires: ", var_export(rl_all_keys_expire($redis, $badKeys), true), $badKeys ? ' ' . json_encode($badKeys) : '', "\n";
rl_shared_debug(sprintf("%d sections (%d after the restart, %d lost), %d errors: %s; max %s", count($sections), count($after), count($lost), count($errors),
    json_encode(rl_shared_error_summary($errors, [$redis])), json_encode($max)));
?>
--EXPECT--
contention before the restart: true
a long hold just begun: true
rw0 exit 0
rw1 exit 0
rw2 exit 0
s0 exit 0
s1 exit 0
s2 exit 0
sections before the kill: some, kinds begun after the restart: r s w
takes that answered false: 0
failures other than a RedisLockException naming the server or a RedisLockLostException: none
failures outside the outage: none
holds lost: some, only ones taken before the restart: true
lost holds still in their section after the restart: some
over-admissions: none
every key left expires: true
