--TEST--
Fencing tokens: 10,000 holds of one key by 4 forked racers (queued lock()), each asking fence() inside its critical section and taking a ticket from a counter there: every hold got an int, and the fences strictly increase in the order the holds happened
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/lease.inc';
$redis = RedisServer::start();
$book = RedisServer::start();      // the acquisition order: INCR inside the critical section
ini_set('redis_lock.server', $redis->dsn());
$dir = rl_tmpdir('rl-fence');
$racers = 4;
$cycles = 2500;

$t0 = rl_now();
$pids = [];
for ($i = 0; $i < $racers; $i++) {
    $pids[$i] = rl_fork(function () use ($i, $cycles, $book, $dir): int {
        $b = new RespClient('unix://' . $book->socket);
        $records = [];
        for ($n = 0; $n < $cycles; $n++) {
            if (RedisMutexLock::lock('fenced', 30, 20) !== true) {
                file_put_contents("$dir/error-$i", "lock() was not true at cycle $n");
                return 1;
            }
            $fence = RedisMutexLock::fence('fenced');
            $seq = $b->cmd('INCR', 'seq');
            $records[] = $seq . ' ' . var_export($fence, true) . ' ' . $i;
            if (RedisMutexLock::release('fenced') !== true) {
                file_put_contents("$dir/error-$i", "release() was not true at cycle $n");
                return 2;
            }
        }
        file_put_contents("$dir/records-$i", implode("\n", $records));
        return 0;
    });
}
$codes = [];
foreach ($pids as $i => $pid) {
    $codes[] = rl_wait_bounded($pid, 300 - (rl_now() - $t0));
}
echo "racers' exit codes: ", json_encode($codes), "\n";
foreach (glob("$dir/error-*") as $f) {
    echo basename($f), ": ", file_get_contents($f), "\n";
}
$bySeq = [];
$racerOf = [];
$ints = true;
foreach (glob("$dir/records-*") as $f) {
    foreach (explode("\n", file_get_contents($f)) as $line) {
        [$seq, $fence, $racer] = explode(' ', $line);
        $racerOf[(int) $seq] = $racer;
        $ints = $ints && preg_match('/\A[1-9][0-9]*\z/', $fence) === 1;
        $bySeq[(int) $seq][] = (int) $fence;
    }
}
echo "records: ", array_sum(array_map('count', $bySeq)), "\n";
ksort($bySeq);
echo "tickets 1..10000 once each: ", var_export(array_keys($bySeq) === range(1, 10000) && max(array_map('count', $bySeq)) === 1, true), "\n";
echo "every fence a positive int: ", var_export($ints, true), "\n";
$prev = null;
$bad = [];
foreach ($bySeq as $seq => [$fence]) {
    if ($prev !== null && $fence <= $prev && count($bad) < 5) {
        $bad[] = "hold $seq: $fence after $prev";
    }
    $prev = $fence;
}
echo "fences strictly increase in acquisition order: ", $bad === [] ? 'true' : json_encode($bad), "\n";
ksort($racerOf);
$handovers = 0;
$prev = null;
foreach ($racerOf as $racer) {
    $handovers += (int) ($prev !== null && $racer !== $prev);
    $prev = $racer;
}
echo "the lock went from one racer to another at least 1000 times: ", var_export($handovers >= 1000, true), "\n";
echo "lock key left: ", $redis->cmd('EXISTS', 'lock:fenced'), "\n";
?>
--EXPECT--
racers' exit codes: [0,0,0,0]
records: 10000
tickets 1..10000 once each: true
every fence a positive int: true
fences strictly increase in acquisition order: true
the lock went from one racer to another at least 1000 times: true
lock key left: 0
