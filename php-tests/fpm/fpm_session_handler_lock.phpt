--TEST--
PHP-FPM: a user session handler that locks the session id with RedisMutexLock in read() and releases in close(): 2 sessions × 16 concurrent requests each append their number to their session (slow write, 4 workers recycled every 10 requests); each session ends up with all 16 entries, every close() released its own lock, no lock key left; the same handler without the lock loses entries
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
if (($why = rl_fpm_skip_reason()) !== null) die("skip $why");
?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$redis = RedisServer::start();
$pool = FpmPool::start(['children' => 4, 'max_requests' => 10, 'ini' => [
    'redis_lock.server' => $redis->dsn(),
    'session.use_cookies' => '0', 'session.use_trans_sid' => '0',
    'session.cache_limiter' => '', 'session.use_strict_mode' => '0', 'session.gc_probability' => '0',
]]);

$pool->script('session.php', sprintf(<<<'PHP'
final class LockingHandler implements SessionHandlerInterface
{
    private ?RespClient $redis = null;
    private string $id = '';

    public function __construct(private bool $locking)
    {
    }

    public function open(string $path, string $name): bool
    {
        $this->redis = new RespClient(%s);
        return true;
    }

    public function read(string $id): string|false
    {
        $this->id = $id;
        if ($this->locking && !RedisMutexLock::lock("sess:$id", 10, 30)) {
            $this->redis->cmd('RPUSH', "log:$id", 'read: lock not taken');
            return false;
        }
        return (string) ($this->redis->cmd('GET', "data:$id") ?? '');
    }

    public function write(string $id, string $data): bool
    {
        rl_sleep(0.01); // a slow write: a request that read before it would lose this one's entry
        return $this->redis->cmd('SET', "data:$id", $data) === 'OK';
    }

    public function close(): bool
    {
        try {
            $r = $this->locking ? var_export(RedisMutexLock::release("sess:{$this->id}"), true) : 'no lock';
        } catch (Throwable $e) {
            $r = 'close: ' . rl_show($e);
        }
        $this->redis->cmd('RPUSH', "log:{$this->id}", $r);
        return true;
    }

    public function destroy(string $id): bool
    {
        return true;
    }

    public function gc(int $max_lifetime): int|false
    {
        return 0;
    }
}
session_set_save_handler(new LockingHandler($_GET['lock'] === '1'), false);
session_id($_GET['sid']);
session_start();
$_SESSION['entries'][] = (int) $_GET['n'];
echo count($_SESSION['entries']), "\n";
// no session_write_close(): the session module writes and closes at request end
PHP, var_export('unix://' . $redis->socket, true)));

foreach (['with the lock' => '1', 'without the lock' => '0'] as $name => $lock) {
    $sids = ['a' . bin2hex(random_bytes(6)), 'b' . bin2hex(random_bytes(6))];
    $requests = [];
    for ($n = 0; $n < 16; $n++) {
        foreach ($sids as $sid) {
            $requests[] = ['session.php', ['sid' => $sid, 'n' => $n, 'lock' => $lock]];
        }
    }
    [$responses, $took] = rl_timed(fn () => $pool->run($requests, 16, 30));
    $bad = array_filter($responses, fn ($r) => $r->outcome !== 'ok' || !preg_match('/^\d+$/', trim($r->body())));
    echo "$name: responses: ", $bad ? implode('; ', array_map(fn ($r) => $r->describe(), $bad)) : 'all ok', "\n";
    foreach ($sids as $i => $sid) {
        $data = (string) $redis->cmd('GET', "data:$sid");
        $entries = preg_match_all('/i:\d+;i:(\d+);/', $data, $m) ? array_map('intval', $m[1]) : [];
        sort($entries);
        $closes = array_count_values($redis->cmd('LRANGE', "log:$sid", 0, -1));
        ksort($closes);
        if ($lock === '1') {
            printf("%s: session %d: %s; close() released: %s\n", $name, $i + 1,
                $entries === range(0, 15) ? 'all 16 entries' : 'entries ' . json_encode($entries),
                json_encode($closes));
        } else {
            printf("%s: session %d: entries lost: %s\n", $name, $i + 1, var_export(count($entries) < 16, true));
        }
    }
    echo "$name: lock keys left: ", json_encode($redis->cmd('KEYS', '*lock:*')), "\n";
    if ($lock === '1') {
        echo "$name: within 20 s: ", $took < 20 ? 'true' : sprintf('false (%.1f s)', $took), "\n";
    }
}
echo "worker crashes: ", json_encode($pool->crashLines()), "\n";
?>
--EXPECT--
with the lock: responses: all ok
with the lock: session 1: all 16 entries; close() released: {"true":16}
with the lock: session 2: all 16 entries; close() released: {"true":16}
with the lock: lock keys left: []
with the lock: within 20 s: true
without the lock: responses: all ok
without the lock: session 1: entries lost: true
without the lock: session 2: entries lost: true
without the lock: lock keys left: []
worker crashes: []
