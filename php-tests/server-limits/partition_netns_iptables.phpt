--TEST--
A host cut off by iptables DROP (real redis-servers in a network namespace of the test's own, behind a veth pair; no RST, packets vanish): RedLock over 3 nodes locks with 2 of 3 within the node timeout, the cut node a failed vote; RedisMutexLock throws "no reply within 0.2 s" on a pooled connection and "cannot connect" on a new one, each within its timeout; once the rule is lifted everything works again
--CONFLICTS--
all # alone: the node timeouts are 0.2 s; beside other tests, the healed node's new connection came later than the others' answers by more than they took (docs/usage.md)
--SKIPIF--
<?php
require __DIR__ . '/../inc/fake_server.inc';
if (($why = RlNetns::unavailable()) !== null) {
    die("skip $why");
}
?>
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';

$ns = RlNetns::create();
$dir = rl_tmpdir('rl-netns');
$procs = [];
/** A redis-server on $ns->nsAddr:$port inside the namespace; the test reads it over a unix socket (no network). */
$start = function (int $port) use ($ns, $dir, &$procs): RespClient {
    $sock = "$dir/redis-$port.sock";
    $procs[] = $p = $ns->spawn(['redis-server', '--bind', $ns->nsAddr, '--port', (string) $port, '--unixsocket', $sock,
        '--unixsocketperm', '700', '--dir', $dir, '--dbfilename', "dump-$port.rdb", '--daemonize', 'no', '--save', '', '--appendonly', 'no',
        '--protected-mode', 'no']); // bound to the namespace's address only
    $up = rl_eventually(function () use ($sock) {
        try {
            return (new RespClient("unix://$sock", 1))->cmd('PING') === 'PONG';
        } catch (RuntimeException) {
            return false;
        }
    }, true, 10);
    if (!$up) {
        throw new RuntimeException("redis-server in the namespace did not start: " . $p->output());
    }
    return new RespClient("unix://$sock");
};
$cutNode = $start(6379);   // a RedLock node
$cutMutex = $start(6380);  // the server of RedisMutexLock
[$s1, $s2] = rl_start_servers(2);
$addr = preg_quote($ns->nsAddr, '/');
$get = fn (RespClient $c, string $key) => $c->cmd('GET', $key);
$report = function (string $name, mixed $r, string $re, float $secs, float $limit): void {
    $msg = $r instanceof Throwable ? $r->getMessage() : '';
    echo $name, ': ', $r instanceof RedisLockException ? 'RedisLockException' : rl_show($r),
        ', message as expected: ', preg_match($re, $msg) ? 'true' : "false ($msg)",
        ", < $limit s: ", $secs < $limit ? 'true' : sprintf('false (%.3f s)', $secs), "\n";
};

// Before the cut: everything works, and this process has a pooled connection to every server.
$rl = new RedLock([[$ns->nsAddr, 6379, 0.1], ['127.0.0.1', $s1->port, 0.1], ['127.0.0.1', $s2->port, 0.1]], 50, 2);
$holders = function (string $key, array $labels = []) use ($cutNode, $s1, $s2): string {
    $v = $cutNode->cmd('GET', $key);
    return ($v === null ? '-' : ($labels[$v] ?? '?')) . ' ' . rl_holders([$s1, $s2], $key, $labels);
};
// Open the connection to the namespace's server with time to spare (the
// first packets over a new veth pair may be slow on a loaded machine).
(new RedLock([[$ns->nsAddr, 6379, 2.0]], 0, 1))->unlock(['resource' => 'warm-up', 'token' => 'none']);
$lock = $rl->lock('r', 10000);
echo "before: RedLock::lock(): ", is_array($lock) ? 'array' : rl_show($lock), ", holders: ",
    $holders('r', [is_array($lock) ? $lock['token'] : '' => 'ours']), "\n";
echo "before: unlock(): ", rl_show(is_array($lock) ? $rl->unlock($lock) : 'no lock'), ", holders: ", rl_eventually(fn () => $holders('r'), '- - -'), "\n";
ini_set('redis_lock.server', "redis://{$ns->nsAddr}:6380");
ini_set('redis_lock.connect_timeout', '0.2');
ini_set('redis_lock.read_timeout', '0.2');
echo "before: RedisMutexLock::lock(): ", rl_show(RedisMutexLock::lock('m', 0, 60)), ", release(): ", rl_show(RedisMutexLock::release('m')), "\n";

// The cut: the namespace drops every packet on its end of the veth pair.
$ns->cut();
[$probe, $secs] = rl_timed(fn () => @stream_socket_client("tcp://{$ns->nsAddr}:6380", $errno, $errstr, 0.3) ?: $errno);
echo "cut: a probe connect is left unanswered (dropped, not refused): ", var_export($probe === 110 && $secs > 0.25, true), "\n";

// RedLock: the cut node's pooled connection gets a SET that is never answered; then new connections.
[$lock, $secs] = rl_timed(fn () => $rl->lock('r', 10000));
echo "RedLock::lock(), pooled connection to the cut node: ", is_array($lock) ? 'array' : rl_show($lock),
    ", validity > 9000: ", var_export(is_array($lock) && $lock['validity'] > 9000, true),
    ", < 0.5 s: ", $secs < 0.5 ? 'true' : sprintf('false (%.3f s)', $secs),
    ", holders: ", $holders('r', [is_array($lock) ? $lock['token'] : '' => 'ours']), "\n";
[$r, $secs] = rl_timed(fn () => is_array($lock) ? $rl->unlock($lock) : 'no lock');
echo "unlock(): ", rl_show($r), ", < 0.5 s: ", $secs < 0.5 ? 'true' : sprintf('false (%.3f s)', $secs),
    ", holders: ", rl_eventually(fn () => $holders('r'), '- - -'), "\n";
// Where the cut node's vote decides (a third node refuses connections), it is a failed vote, named with its cause.
$refusing = rl_free_port();
$rl2 = new RedLock([[$ns->nsAddr, 6379, 0.1], ['127.0.0.1', $s1->port, 0.1], ['127.0.0.1', $refusing, 0.1]], 50, 2);
[$r, $secs] = rl_timed(fn () => $rl2->lock('r2', 10000));
$report('RedLock::lock() with a third node refusing connections', $r,
    "/^RedLock::lock\\(\\): fewer than 2 of 3 Redis nodes could be reached: Redis at $addr:6379: (no reply within 0\\.1 s|cannot connect: .*); Redis at 127\\.0\\.0\\.1:$refusing: cannot connect: .*$/", $secs, 0.5);
echo "r2 holders: ", rl_eventually(fn () => $holders('r2'), '- - -'), "\n";
[$lock, $secs] = rl_timed(fn () => $rl->lock('r3', 10000));
echo "RedLock::lock() again: ", is_array($lock) ? 'array' : rl_show($lock), ", < 0.5 s: ", $secs < 0.5 ? 'true' : sprintf('false (%.3f s)', $secs),
    ", unlock(): ", rl_show(is_array($lock) ? $rl->unlock($lock) : 'no lock'), "\n";

// RedisMutexLock: its pooled connection, then a new one.
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('m', 0, 60));
$report('RedisMutexLock::lock(), pooled connection', $r, "/^Redis at $addr:6380: no reply within 0\\.2 s$/", $secs, 0.6);
[$r, $secs] = rl_timed(fn () => RedisMutexLock::lock('m', 0, 60));
$report('RedisMutexLock::lock(), new connection', $r, "/^Redis at $addr:6380: cannot connect: timed out/", $secs, 0.6);
echo "lock:m on the cut server: ", var_export($get($cutMutex, 'lock:m'), true), "\n";

// The rule is lifted: a connect timeout is remembered for 1 s, then the servers are reached again.
$ns->restore();
$t = rl_now();
$errors = [];
while (($r = rl_timed(fn () => RedisMutexLock::lock('m', 0, 60))[0]) !== true && rl_now() - $t < 3) {
    $errors[$r instanceof Throwable ? preg_replace('/\d+(\.\d+)?/', 'N', $r->getMessage()) : rl_show($r)] = true;
    rl_sleep(0.02);
}
$secs = rl_now() - $t;
echo "after: RedisMutexLock::lock(): ", rl_show($r), ", within 1.5 s: ", $secs < 1.5 ? 'true' : sprintf('false (%.3f s)', $secs),
    $r === true ? '' : ', errors: ' . json_encode(array_keys($errors)), "\n";
echo "after: lock:m is a token on the server: ", var_export(rl_is_token($get($cutMutex, 'lock:m')), true), ", release(): ", rl_show(RedisMutexLock::release('m')), "\n";
$lock = $rl->lock('r4', 10000);
// (lock() returns once a majority said yes: the third SET may be in flight.)
echo "after: RedLock::lock(): ", is_array($lock) ? 'array' : rl_show($lock), ", holders: ",
    rl_eventually(fn () => $holders('r4', [is_array($lock) ? $lock['token'] : '' => 'ours']), 'ours ours ours', 5.0), "\n";
echo "after: unlock(): ", rl_show(is_array($lock) ? $rl->unlock($lock) : 'no lock'), ", holders: ", rl_eventually(fn () => $holders('r4'), '- - -'), "\n";

// Cleanup: the servers, then the namespace and the veth pair (and so the rules).
foreach ($procs as $p) {
    $p->stop();
}
$ns->destroy();
echo "cleanup: namespace and veth pair gone: ", var_export($ns->gone(), true), "\n";
?>
--EXPECT--
before: RedLock::lock(): array, holders: ours ours ours
before: unlock(): true, holders: - - -
before: RedisMutexLock::lock(): true, release(): true
cut: a probe connect is left unanswered (dropped, not refused): true
RedLock::lock(), pooled connection to the cut node: array, validity > 9000: true, < 0.5 s: true, holders: - ours ours
unlock(): true, < 0.5 s: true, holders: - - -
RedLock::lock() with a third node refusing connections: RedisLockException, message as expected: true, < 0.5 s: true
r2 holders: - - -
RedLock::lock() again: array, < 0.5 s: true, unlock(): true
RedisMutexLock::lock(), pooled connection: RedisLockException, message as expected: true, < 0.6 s: true
RedisMutexLock::lock(), new connection: RedisLockException, message as expected: true, < 0.6 s: true
lock:m on the cut server: NULL
after: RedisMutexLock::lock(): true, within 1.5 s: true
after: lock:m is a token on the server: true, release(): true
after: RedLock::lock(): array, holders: ours ours ours
after: unlock(): true, holders: - - -
cleanup: namespace and veth pair gone: true
