--TEST--
redis_lock_metrics(): valid OpenMetrics text, parsed back: TYPE/HELP before each family's samples, every sample `name{labels} value`, buckets cumulative and non-decreasing, _count equal to the +Inf bucket, the counts of the calls made, # EOF last
--INI--
redis_lock.metrics_patterns=jobs:*
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

for ($i = 0; $i < 5; $i++) {
    RedisMutexLock::lock("jobs:$i", 0);
    RedisMutexLock::release("jobs:$i");
}
RedisMutexLock::lock('misc', 0);
usleep(30000);
RedisMutexLock::release('misc');
$redis->cmd('SET', 'lock:jobs:x', 'foreign', 'PX', 10000);
RedisMutexLock::lock('jobs:x', 0.05);

$text = redis_lock_metrics();
$lines = explode("\n", rtrim($text, "\n"));
echo "ends with # EOF: ", var_export(end($lines) === '# EOF' && substr_count($text, '# EOF') === 1, true), "\n";
$types = [];
$bad = [];
$samples = [];
$hist = [];
foreach (array_slice($lines, 0, -1) as $line) {
    if (preg_match('/^# (TYPE|HELP|UNIT) (redis_lock_[a-z_]+) (.+)$/', $line, $m)) {
        if ($m[1] === 'TYPE') {
            $types[$m[2]] = $m[3];
        }
        continue;
    }
    if (!preg_match('/^(redis_lock_[a-z_]+)(?:\{((?:[a-z_]+="(?:[^"\\\\]|\\\\.)*",?)*)\})? (\S+)$/', $line, $m) || !is_numeric($m[3])) {
        $bad[] = $line;
        continue;
    }
    [$all, $name, $labels, $value] = $m;
    $family = preg_replace('/_(total|bucket|sum|count)$/', '', $name);
    if (!isset($types[$family])) {
        $bad[] = "no TYPE before: $line";
    }
    preg_match_all('/([a-z_]+)="((?:[^"\\\\]|\\\\.)*)"/', $labels, $lm, PREG_SET_ORDER);
    $l = array_column($lm, 2, 1);
    $samples[$name][json_encode($l)] = $value;
    if (str_ends_with($name, '_bucket')) {
        $le = $l['le'];
        unset($l['le']);
        $hist[$family][json_encode($l)][] = [$le, (float) $value];
    }
}
echo "malformed lines: ", json_encode($bad), "\n";
echo "families: ", implode(', ', array_map(fn ($f, $t) => "$f $t", array_keys($types), $types)), "\n";
$problems = [];
foreach ($hist as $family => $series) {
    foreach ($series as $labels => $buckets) {
        $values = array_column($buckets, 1);
        $sorted = $values;
        sort($sorted);
        if ($values !== $sorted) {
            $problems[] = "$family $labels not cumulative";
        }
        if (end($buckets)[0] !== '+Inf' || (float) $samples["{$family}_count"][$labels] !== end($values)) {
            $problems[] = "$family $labels: _count is not the +Inf bucket";
        }
    }
}
echo "histogram series: ", array_sum(array_map('count', $hist)), ", problems: ", json_encode($problems), "\n";
$acq = $samples['redis_lock_acquisitions_total'];
echo "acquisitions: jobs ", $acq['{"kind":"mutex","pattern":"jobs:*"}'], ", other ", $acq['{"kind":"mutex","pattern":"other"}'], "\n";
echo "timeouts jobs: ", $samples['redis_lock_timeouts_total']['{"kind":"mutex","pattern":"jobs:*"}'], "\n";
$hold = $samples['redis_lock_hold_seconds_bucket'];
echo "misc held > 25 ms: ", $hold['{"kind":"mutex","pattern":"other","le":"0.025"}'], " within 25 ms, ",
    $hold['{"kind":"mutex","pattern":"other","le":"+Inf"}'], " in all\n";
?>
--EXPECT--
ends with # EOF: true
malformed lines: []
families: redis_lock_metrics_shared gauge, redis_lock_acquisitions counter, redis_lock_contended_acquisitions counter, redis_lock_timeouts counter, redis_lock_busy counter, redis_lock_handoffs counter, redis_lock_renewals counter, redis_lock_lost_leases counter, redis_lock_errors counter, redis_lock_wait_seconds histogram, redis_lock_hold_seconds histogram
histogram series: 4, problems: []
acquisitions: jobs 5, other 1
timeouts jobs: 1
misc held > 25 ms: 0 within 25 ms, 1 in all
