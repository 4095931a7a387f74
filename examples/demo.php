<?php
// 8 processes each do 500 non-atomic read-modify-write increments of one
// shared counter (a file) inside RedisMutexLock::lock()/release(). Without
// the lock, updates would be lost; with it, the final count is exact.

const WORKERS = 8;
const INCREMENTS = 500;

if (!extension_loaded('redis_lock')) {
    fwrite(STDERR, "load the extension: php -d extension=target/release/libredis_lock.so examples/demo.php\n");
    exit(1);
}
if (!function_exists('pcntl_fork')) {
    fwrite(STDERR, "the demo needs the pcntl extension (php8.2-cli ships it)\n");
    exit(1);
}

$dir = sys_get_temp_dir() . '/redis_lock_demo_' . getmypid();
@mkdir($dir);
$counter = "$dir/counter";
file_put_contents($counter, '0');
$key = 'demo-counter-' . getmypid();

$started = hrtime(true);
$children = [];
for ($w = 0; $w < WORKERS; $w++) {
    $pid = pcntl_fork();
    if ($pid === -1) {
        fwrite(STDERR, "fork failed\n");
        exit(1);
    }
    if ($pid === 0) {
        $waits = [];
        for ($i = 0; $i < INCREMENTS; $i++) {
            $t = hrtime(true);
            if (!RedisMutexLock::lock($key, timeout: 10)) {
                fwrite(STDERR, "worker $w: lock not acquired within 10 s\n");
                exit(2);
            }
            $waits[] = (hrtime(true) - $t) / 1e3;
            // The critical section: read, modify, write back, non-atomically.
            $value = (int) file_get_contents($counter);
            file_put_contents($counter, (string) ($value + 1));
            RedisMutexLock::release($key);
        }
        file_put_contents("$dir/waits.$w", implode("\n", $waits));
        exit(0);
    }
    $children[] = $pid;
}

$failed = 0;
foreach ($children as $pid) {
    pcntl_waitpid($pid, $status);
    $failed += (int) (pcntl_wexitstatus($status) !== 0);
}
$seconds = (hrtime(true) - $started) / 1e9;

$waits = [];
for ($w = 0; $w < WORKERS; $w++) {
    foreach (explode("\n", (string) @file_get_contents("$dir/waits.$w")) as $v) {
        if ($v !== '') {
            $waits[] = (float) $v;
        }
    }
    @unlink("$dir/waits.$w");
}
sort($waits);
$pct = fn (float $p) => $waits ? $waits[min(count($waits) - 1, (int) floor($p * count($waits)))] : NAN;

$expected = WORKERS * INCREMENTS;
$final = (int) file_get_contents($counter);
@unlink($counter);
@rmdir($dir);

printf("workers:            %d processes x %d increments\n", WORKERS, INCREMENTS);
printf("expected count:     %d\n", $expected);
printf("final count:        %d\n", $final);
printf("lost updates:       %d\n", $expected - $final);
printf("acquisitions/s:     %.0f\n", count($waits) / $seconds);
printf("wait p50 / p99:     %.0f us / %.0f us\n", $pct(0.50), $pct(0.99));
printf("failed workers:     %d\n", $failed);
exit($final === $expected && $failed === 0 ? 0 : 1);
