--TEST--
RedLock validity shrinks with latency: behind proxies adding 30 ms each way, validity <= ttl - drift - 60 ms; a TTL shorter than one round trip gives false (or, with the default node timeout of ttl/10, an outage) and leaves nothing behind
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(3);
rl_warm_up($s); // scripts cached on the servers
$d = 30;
$proxies = array_map(fn ($r) => new RlDelayProxy($r, $d), $s);
$via = fn (?float $timeout = null) => array_map(
    fn ($p) => $timeout === null ? ['127.0.0.1', $p->port] : ['127.0.0.1', $p->port, $timeout], $proxies);

$ttl = 10000;
$drift = $ttl * 0.01 + 2;
$rl = new RedLock($via(), 0, 1);
foreach (['first (new connections)', 'second (pooled)'] as $name) {
    [$lock, $secs] = rl_timed(fn () => $rl->lock("slow", $ttl));
    printf("%s: %s, took >= 2·D: %s, validity in (ttl - drift - 2·D - 150, ttl - drift - 2·D]: %s\n", $name,
        is_array($lock) ? 'locked' : rl_show($lock), var_export($secs >= 2 * $d / 1000, true),
        var_export(is_array($lock) && $lock['validity'] > $ttl - $drift - 2 * $d - 150 && $lock['validity'] <= $ttl - $drift - 2 * $d, true));
    echo "  nodes: ", rl_eventually(fn () => rl_holders($s, 'slow', [$lock['token'] => 'ours']), 'ours ours ours'), "\n";
    $ext = $rl->extend($lock, 20000);
    printf("  extend: validity in (20000 - 202 - 2·D - 150, 20000 - 202 - 2·D]: %s\n",
        var_export(is_array($ext) && $ext['validity'] > 20000 - 202 - 2 * $d - 150 && $ext['validity'] <= 20000 - 202 - 2 * $d, true));
    echo "  unlock: ", var_export($rl->unlock($lock), true), "\n";
    // the last node's release arrives 30 ms later
    echo "  nodes: ", rl_eventually(fn () => rl_holders($s, 'slow'), '- - -', 3.0), "\n";
}

// ttl 40 ms < one round trip (60 ms), nodes with their own timeout of 0.5 s: every
// node says yes, too late: false, and the keys are taken back.
$rl = new RedLock($via(0.5), 0, 1);
[$r, $secs] = rl_timed(fn () => $rl->lock('short', 40));
echo "ttl 40, own timeouts: ", rl_show($r), ", in 0.06..0.5 s: ", var_export($secs >= 0.06 && $secs < 0.5, true), "\n";
rl_sleep(0.2);
echo "  nodes: ", rl_holders($s, 'short'), "\n";
// The same with the default node timeout (ttl/10, at least 10 ms): nobody answers in time.
$rl = new RedLock($via(), 0, 1);
[$r, $secs] = rl_timed(fn () => $rl->lock('short', 40));
$msg = rl_show($r);
foreach ($proxies as $i => $p) {
    $msg = str_replace("127.0.0.1:{$p->port}", 'PROXY' . ($i + 1), $msg);
}
echo "ttl 40, default timeouts: $msg, under 0.5 s: ", var_export($secs < 0.5, true), "\n";
rl_sleep(0.2);
echo "  nodes: ", rl_holders($s, 'short'), "\n";
?>
--EXPECTF--
first (new connections): locked, took >= 2·D: true, validity in (ttl - drift - 2·D - 150, ttl - drift - 2·D]: true
  nodes: ours ours ours
  extend: validity in (20000 - 202 - 2·D - 150, 20000 - 202 - 2·D]: true
  unlock: true
  nodes: - - -
second (pooled): locked, took >= 2·D: true, validity in (ttl - drift - 2·D - 150, ttl - drift - 2·D]: true
  nodes: ours ours ours
  extend: validity in (20000 - 202 - 2·D - 150, 20000 - 202 - 2·D]: true
  unlock: true
  nodes: - - -
ttl 40, own timeouts: false, in 0.06..0.5 s: true
  nodes: - - -
ttl 40, default timeouts: RedisLockException: RedLock::lock(): fewer than 2 of 3 Redis nodes could be reached: Redis at PROXY1: no reply within 0.01 s; Redis at PROXY2: no reply within 0.01 s%S, under 0.5 s: true
  nodes: - - -
