--TEST--
A session save handler that locks in read() and releases in close() (session written at request end, after RSHUTDOWN of this extension): 6 concurrent requests lose no update and every close() releases its own lock; the same with redis_lock.release_on_shutdown=0
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$redis = RedisServer::start();
$dir = rl_tmpdir('rl-sess');

$code = rl_child_code(<<<'PHP'
[$_, $socket, $log, $id] = $argv;
final class LockingHandler implements SessionHandlerInterface
{
    private ?RespClient $redis = null;
    private string $id = '';

    public function __construct(private string $socket, private string $log)
    {
    }

    private function log(string $line): void
    {
        file_put_contents($this->log, $line . "\n", FILE_APPEND | LOCK_EX);
    }

    public function open(string $path, string $name): bool
    {
        $this->redis = new RespClient('unix://' . $this->socket);
        return true;
    }

    public function read(string $id): string|false
    {
        $this->id = $id;
        if (!RedisMutexLock::lock("sess:$id", 10)) {
            $this->log('read: lock not taken');
            return false;
        }
        return (string) ($this->redis->cmd('GET', "data:$id") ?? '');
    }

    public function write(string $id, string $data): bool
    {
        rl_sleep(0.05); // a slow write: a waiter has time to get in if the lock is gone already
        return $this->redis->cmd('SET', "data:$id", $data) === 'OK';
    }

    public function close(): bool
    {
        try {
            $r = RedisMutexLock::release("sess:{$this->id}");
            $this->log(var_export($r, true));
        } catch (Throwable $e) {
            $this->log('close: ' . rl_show($e));
        }
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
session_set_save_handler(new LockingHandler($socket, $log), false);
session_id($id);
session_start();
$_SESSION['n'] = ($_SESSION['n'] ?? 0) + 1;
// no session_write_close(): the session module writes and closes at request end
PHP);

foreach ([
    'release_on_shutdown=1' => [],
    'release_on_shutdown=0' => ['redis_lock.release_on_shutdown' => '0'],
] as $name => $extra) {
    $id = 'sess' . bin2hex(random_bytes(4));
    $log = "$dir/$id.log";
    touch($log);
    $ini = $extra + ['redis_lock.server' => $redis->dsn(), 'session.use_cookies' => '0',
        'session.cache_limiter' => '', 'session.use_strict_mode' => '0', 'session.gc_probability' => '0'];
    $children = [];
    for ($i = 0; $i < 6; $i++) {
        $children[] = rl_child($code, $ini, [$redis->socket, $log, $id]);
    }
    $statuses = [];
    $output = '';
    foreach ($children as $c) {
        $r = $c->wait(30);
        $statuses[] = $r['status'];
        $output .= $r['out'] . $r['err'];
    }
    $data = (string) $redis->cmd('GET', "data:$id");
    $results = array_filter(explode("\n", file_get_contents($log)));
    sort($results);
    echo "$name: exit ", implode(' ', $statuses), ", n = ", preg_match('/n\|i:(\d+);/', $data, $m) ? $m[1] : "? ($data)", "\n";
    echo "$name: close() released: ", implode(' ', $results), "\n";
    echo "$name: output: ", $output === '' ? 'none' : $output, "\n";
    echo "$name: lock keys left: ", json_encode($redis->cmd('KEYS', 'lock:*')), "\n";
}
?>
--EXPECT--
release_on_shutdown=1: exit 0 0 0 0 0 0, n = 6
release_on_shutdown=1: close() released: true true true true true true
release_on_shutdown=1: output: none
release_on_shutdown=1: lock keys left: []
release_on_shutdown=0: exit 0 0 0 0 0 0, n = 6
release_on_shutdown=0: close() released: true true true true true true
release_on_shutdown=0: output: none
release_on_shutdown=0: lock keys left: []
