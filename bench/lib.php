<?php
/**
 * Shared by every benchmark scenario: throwaway Redis servers, the contender
 * interface, the interleaved rounds, medians and the Markdown table.
 *
 * A scenario (e.g. scenario_mutex.php) starts the servers it needs, lists its
 * contenders and calls run_rounds(); each contender runs in its own long-lived PHP
 * process (worker.php), so no implementation warms or pollutes another.
 * Scenarios with several servers (RedLock over 5) start several
 * RedisServer; DelayProxy (delay_proxy.php) sits between the contenders and a
 * server to add network latency (the kernel here has no netem).
 */

declare(strict_types=1);

namespace Bench;

const TTL_SECONDS = 10;

/** One lock implementation, driven by worker.php. Every method throws on failure. */
interface Contender
{
    /** The Redis key that holds the lock while it is taken (checked once before timing). */
    public function redisKey(): string;

    /** Takes the uncontended lock for TTL_SECONDS; throws if it was not taken. */
    public function acquire(): void;

    /** Releases it; throws if the release did not delete our lock. */
    public function release(): void;
}

/**
 * One lock implementation of the contention scenario (contention/*.php),
 * driven by contention_worker.php: K processes each hold one, all on the same
 * key. Every method throws on failure.
 */
interface BlockingContender
{
    /** The Redis key that holds the lock on $key while it is taken. */
    public function redisKey(string $key): string;

    /**
     * Waits until this process holds the lock on $key (TTL CONTENTION_TTL_SECONDS),
     * as the implementation waits when blocking; throws when it gives up
     * (after CONTENTION_TIMEOUT_SECONDS) or fails.
     */
    public function acquire(string $key): void;

    /** Releases the lock acquire() took; throws if the release did not delete our lock. */
    public function release(): void;
}

const CONTENTION_TTL_SECONDS = 10;
const CONTENTION_TIMEOUT_SECONDS = 30;

/**
 * One implementation of the rwlock or semaphore scenario (rwlock/*.php,
 * semaphore/*.php), driven by shared_worker.php: K processes each take holds
 * of the same key. hold() waits as the implementation waits when blocking
 * (giving up after CONTENTION_TIMEOUT_SECONDS, with an exception), runs
 * $section exactly once while the hold is taken, then releases it; it throws
 * on any failure (not taken, release refused). Callback-shaped because some
 * peers (Laravel's funnel) release only around a callback.
 */
interface SharedContender
{
    /** @param string $mode 'read' or 'write' (rwlock), 'permit' (semaphore) */
    public function hold(string $key, string $mode, callable $section): void;
}

/**
 * A contender that spreads its lock over the first nodes() servers (Redlock):
 * the worker's check then looks for the key on all of them.
 */
interface OnNodes
{
    public function nodes(): int;
}

/**
 * A contender whose servers are the seed nodes of a Redis Cluster: the
 * worker's check asks the cluster (phpredis RedisCluster) for the key.
 */
interface OnCluster
{
}

const CLUSTER_KEYS = 1000;

/**
 * The keys of an OnCluster contender: cycle i locks KEY:k(i mod CLUSTER_KEYS),
 * keys whose slots lie on every master. redisKey() and key() name the key of
 * the cycle under way, or of the next one; release() calls nextKey().
 */
trait SpreadKeys
{
    private int $cycle = 0;

    private function key(): string
    {
        return self::KEY . ':k' . ($this->cycle % CLUSTER_KEYS);
    }

    private function nextKey(): void
    {
        $this->cycle++;
    }
}

/**
 * acquire()/release() of the symfony/lock contenders: a Lock from
 * $this->factory, as an application uses it.
 */
trait SymfonyLockCycle
{
    private ?\Symfony\Component\Lock\LockInterface $lock = null;

    public function redisKey(): string
    {
        return self::KEY;
    }

    public function acquire(): void
    {
        $this->lock = $this->factory->createLock(self::KEY, TTL_SECONDS);
        $this->lock->acquire() || fail('Lock::acquire() returned false');
    }

    public function release(): void
    {
        $this->lock->release(); // throws LockReleasingException on failure
        $this->lock = null;
    }
}

/**
 * The Redlock-shaped contenders ($this->redlock->lock() returns the lock
 * array, over $this->servers): key, node count and acquire(); each keeps
 * its own release(), since their unlock() results differ.
 */
trait RedlockArrayCycle
{
    private array|false $lock = false;

    public function redisKey(): string
    {
        return self::KEY;
    }

    public function nodes(): int
    {
        return count($this->servers);
    }

    public function acquire(): void
    {
        $this->lock = $this->redlock->lock(self::KEY, TTL_SECONDS * 1000);
        is_array($this->lock) || fail(get_class($this->redlock) . '::lock() returned ' . var_export($this->lock, true));
    }
}

/**
 * The RedisMutexLock contention contenders: the extension loaded, the key
 * as the extension prefixes it, and release(); each keeps its own acquire().
 */
trait RedisMutexLockCycle
{
    private string $key = '';

    public function __construct()
    {
        if (!extension_loaded('redis_lock')) {
            fail('the redis_lock extension is not loaded');
        }
    }

    public function redisKey(string $key): string
    {
        return ini_get('redis_lock.prefix') . $key;
    }

    public function release(): void
    {
        \RedisMutexLock::release($this->key) || fail('RedisMutexLock::release() returned false');
    }
}

/**
 * Laravel 8's cache RedisStore, built by hand without the framework: a
 * RedisManager with the phpredis driver and a persistent connection, the
 * store on it with the prefix ''.
 */
function laravel_store(string $host, int $port): \Illuminate\Cache\RedisStore
{
    require_once 'Illuminate/Cache/autoload.php';
    require_once 'Illuminate/Redis/autoload.php';
    $redis = new \Illuminate\Redis\RedisManager(null, 'phpredis', [
        'default' => ['host' => $host, 'port' => $port, 'timeout' => 1.0, 'persistent' => true],
    ]);
    return new \Illuminate\Cache\RedisStore($redis, '', 'default');
}

/**
 * INFO commandstats (calls and usec per command) and the server's CPU time (µs,
 * user+sys). The two INFO calls are themselves counted by the server (INFO
 * commandstats does not count itself, but a later snapshot sees them both):
 * callers leave "info" out of their deltas.
 */
function redis_snapshot(\Redis $r): array
{
    $calls = [];
    $usec = [];
    foreach ($r->info('commandstats') as $name => $value) {
        if (!str_starts_with((string) $name, 'cmdstat_')) {
            continue;
        }
        $text = is_array($value) ? http_build_query($value, '', ',') : (string) $value;
        if (preg_match('/(?:^|,)calls=(\d+)/', $text, $m)) {
            $calls[substr((string) $name, 8)] = (int) $m[1];
        }
        if (preg_match('/(?:^|,)usec=(\d+)/', $text, $m)) {
            $usec[substr((string) $name, 8)] = (int) $m[1];
        }
    }
    $cpu = $r->info('cpu');
    return ['calls' => $calls, 'usec' => $usec, 'cpu_us' => ((float) $cpu['used_cpu_sys'] + (float) $cpu['used_cpu_user']) * 1e6];
}

/**
 * What the server did between two snapshots (redis_snapshot(), Masters::snapshot()),
 * divided by $cycles, with the harness's own INFO calls left out: ['calls' =>
 * [command => calls per cycle], 'usec' => commandstats usec per cycle, summed
 * over the commands, 'usec_by' => [command => usec per cycle], 'cpu' => used_cpu_user + used_cpu_sys µs per cycle].
 */
function server_work(array $before, array $after, int $cycles): array
{
    $per = function (array $after, array $before) use ($cycles): array {
        $out = [];
        foreach (array_diff_key($after, ['info' => 0]) as $cmd => $n) {
            if (($d = $n - ($before[$cmd] ?? 0)) > 0) {
                $out[$cmd] = $d / max(1, $cycles);
            }
        }
        return $out;
    };
    $usec = $per($after['usec'] ?? [], $before['usec'] ?? []);
    return [
        'calls' => $per($after['calls'], $before['calls']),
        'usec' => array_sum($usec),
        'usec_by' => $usec,
        'cpu' => ($after['cpu_us'] - $before['cpu_us']) / max(1, $cycles),
    ];
}

/**
 * Saves what a chart of this scenario shows, for bench/charts.py (run by
 * bench/run.sh): "bars" (one value per label) or "grouped" (one value per
 * x category and series). Values are medians the tables print too.
 */
function chart(string $name, array $chart): void
{
    $dir = run_dir() . '/charts';
    if (!is_dir($dir)) {
        mkdir($dir, 0777, true);
    }
    file_put_contents("$dir/$name.json", json_encode($chart, JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE));
}

/** Median µs per cycle of each implementation, labelled, for chart(). */
function cycle_bars(array $results, array $labels): array
{
    $bars = [];
    foreach ($labels as $name => $label) {
        if (isset($results[$name])) {
            $bars[$label] = median(array_map(fn ($r) => 1e6 / $r['rate'], $results[$name]));
        }
    }
    return $bars;
}

final class Failure extends \RuntimeException
{
}

function fail(string $message): never
{
    throw new Failure($message);
}

function note(string $message): void
{
    fwrite(STDERR, $message . "\n");
}

/**
 * Directory for this run's pid, log and result files; bench/run.sh kills what
 * it lists. A scenario run by itself makes a fresh one, removed at its end:
 * pids come round again, and another run's result files must never be read
 * as this one's (BENCH_RUN_DIR=DIR keeps them).
 */
function run_dir(): string
{
    static $own = null;
    $dir = getenv('BENCH_RUN_DIR');
    if ($dir === false || $dir === '') {
        if ($own === null) {
            $own = sprintf('%s/redis_lock_bench.%d.%s', sys_get_temp_dir(), getmypid(), bin2hex(random_bytes(4)));
            if (!mkdir($own, 0700)) {
                fail("cannot create $own");
            }
            $pid = getmypid();
            register_shutdown_function(static fn () => getmypid() === $pid && exec('rm -rf ' . escapeshellarg($own)));
        }
        return $own;
    }
    if (!is_dir($dir) && !mkdir($dir, 0700, true)) {
        fail("cannot create $dir");
    }
    return $dir;
}

/**
 * RedLock's 5 masters for a contention worker: the scenario's server, then
 * the 4 that BENCH_REDLOCK_MORE lists ("host:port host:port …").
 *
 * @return list<array{string, int}>
 */
function redlock_masters(string $host, int $port): array
{
    $servers = [[$host, $port]];
    foreach (preg_split('/\s+/', trim((string) getenv('BENCH_REDLOCK_MORE')), -1, PREG_SPLIT_NO_EMPTY) as $hp) {
        [$h, $p] = explode(':', $hp);
        $servers[] = [$h, (int) $p];
    }
    count($servers) === 5 || fail('BENCH_REDLOCK_MORE must list 4 more masters');
    return $servers;
}

/** A loopback TCP port nobody listens on right now (never 6379). */
function free_port(): int
{
    for ($i = 0; $i < 20; $i++) {
        $sock = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        if ($sock === false) {
            fail("cannot pick a free port: $errstr");
        }
        $port = (int) substr(strrchr(stream_socket_get_name($sock, false), ':'), 1);
        fclose($sock);
        if ($port !== 6379) {
            return $port;
        }
    }
    fail('cannot pick a free port');
}

/** A redis-server this process started on a free loopback port, with no persistence. */
final class RedisServer
{
    /** @var array<int, self> servers still running, stopped at exit */
    private static array $running = [];

    private $proc;
    private string $pidFile;
    private string $dataDir;

    private function __construct(public readonly string $host, public readonly int $port, $proc, string $pidFile, string $dataDir)
    {
        $this->proc = $proc;
        $this->pidFile = $pidFile;
        $this->dataDir = $dataDir;
    }

    /**
     * With $cluster, a node of a Redis Cluster still to be joined
     * (ClusterServers::start()), its cluster bus on a free port of its own.
     */
    public static function start(bool $cluster = false): self
    {
        $dir = run_dir();
        for ($attempt = 1; ; $attempt++) {
            $port = free_port();
            $log = "$dir/redis-$port.log";
            $dataDir = "$dir/redis-$port"; // its own: a cluster node writes its nodes.conf there
            is_dir($dataDir) || mkdir($dataDir, 0700) || fail("cannot create $dataDir");
            $cmd = ['redis-server', '--bind', '127.0.0.1', '--port', (string) $port,
                '--save', '', '--appendonly', 'no', '--daemonize', 'no',
                '--dir', $dataDir, '--logfile', $log];
            if ($cluster) {
                // The bus port defaults to port + 10000, which may be taken or above 65535.
                do {
                    $busPort = free_port();
                } while ($busPort === $port);
                array_push($cmd, '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf',
                    '--cluster-node-timeout', '5000', '--cluster-port', (string) $busPort);
            }
            $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', $log, 'a']], $pipes);
            if ($proc === false) {
                fail('cannot run redis-server');
            }
            $pidFile = "$dir/redis-$port.pid";
            file_put_contents($pidFile, (string) proc_get_status($proc)['pid']);
            $server = new self('127.0.0.1', $port, $proc, $pidFile, $dataDir);
            if (count(self::$running) === 0) {
                register_shutdown_function([self::class, 'stopAll']);
            }
            self::$running[$port] = $server;
            if ($server->waitReady()) {
                return $server;
            }
            $server->stop();
            if ($attempt >= 3) {
                fail("redis-server did not start on 127.0.0.1:$port; see its log:\n" . @file_get_contents($log));
            }
            // Somebody took the port between free_port() and the bind: try another.
        }
    }

    private function waitReady(): bool
    {
        $until = microtime(true) + 5;
        while (microtime(true) < $until) {
            if (!proc_get_status($this->proc)['running']) {
                return false;
            }
            try {
                $r = new \Redis();
                if ($r->connect($this->host, $this->port, 0.2) && $r->ping()) {
                    $r->close();
                    return true;
                }
            } catch (\RedisException) {
            }
            usleep(20_000);
        }
        return false;
    }

    public function pid(): int
    {
        return (int) proc_get_status($this->proc)['pid'];
    }

    public function dsn(): string
    {
        return "redis://{$this->host}:{$this->port}";
    }

    /** A fresh phpredis client, for checks and INFO (not for timed work). */
    public function client(): \Redis
    {
        $r = new \Redis();
        $r->connect($this->host, $this->port, 1.0);
        return $r;
    }

    public function version(): string
    {
        return server_name($this->client()->info('server'));
    }

    public function stop(): void
    {
        if (!isset(self::$running[$this->port])) {
            return;
        }
        unset(self::$running[$this->port]);
        proc_terminate($this->proc, 15);
        $until = microtime(true) + 5;
        while (proc_get_status($this->proc)['running'] && microtime(true) < $until) {
            usleep(10_000);
        }
        if (proc_get_status($this->proc)['running']) {
            proc_terminate($this->proc, 9);
        }
        proc_close($this->proc);
        @unlink($this->pidFile);
        array_map('unlink', glob("{$this->dataDir}/*") ?: []);
        @rmdir($this->dataDir);
    }

    public static function stopAll(): void
    {
        foreach (self::$running as $server) {
            $server->stop();
        }
    }
}

/**
 * A throwaway Redis Cluster of this process: $masters RedisServer nodes in
 * cluster mode, no replicas, joined by redis-cli --cluster create. Its nodes
 * stop with the other servers (RedisServer::stopAll()).
 */
final class ClusterServers
{
    /** @param list<RedisServer> $nodes */
    private function __construct(public readonly array $nodes)
    {
    }

    /** Starts and joins the nodes; returns once every node says cluster_state:ok. */
    public static function start(int $masters = 3): self
    {
        $nodes = [];
        for ($i = 0; $i < $masters; $i++) {
            $nodes[] = RedisServer::start(true);
        }
        $cluster = new self($nodes);
        $log = run_dir() . "/cluster-create-{$nodes[0]->port}.log";
        $cmd = ['redis-cli', '--cluster', 'create', ...$cluster->seeds(), '--cluster-replicas', '0', '--cluster-yes'];
        $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'w'], 2 => ['file', $log, 'a']], $pipes);
        if ($proc === false) {
            fail('cannot run redis-cli');
        }
        $until = microtime(true) + 30;
        while (($status = proc_get_status($proc))['running'] && microtime(true) < $until) {
            usleep(20_000);
        }
        if ($status['running']) {
            proc_terminate($proc, 9);
        }
        proc_close($proc);
        if ($status['running'] || $status['exitcode'] !== 0) {
            fail(($status['running'] ? 'redis-cli --cluster create did not finish within 30 s' : 'redis-cli --cluster create failed')
                . ":\n" . @file_get_contents($log));
        }
        foreach ($nodes as $node) {
            $r = $node->client();
            while (!str_contains($info = (string) $r->rawCommand('CLUSTER', 'INFO'), 'cluster_state:ok')) {
                microtime(true) < $until || fail("node {$node->host}:{$node->port} is not cluster_state:ok after 30 s:\n$info");
                usleep(50_000);
            }
            $r->close();
        }
        return $cluster;
    }

    /** @return list<string> host:port of every node */
    public function seeds(): array
    {
        return array_map(fn (RedisServer $n) => "{$n->host}:{$n->port}", $this->nodes);
    }

    public function dsn(): string
    {
        return 'redis-cluster://' . implode(',', $this->seeds());
    }

    /** @return list<int> */
    public function pids(): array
    {
        return array_map(fn (RedisServer $n) => $n->pid(), $this->nodes);
    }
}

/**
 * Every master of the Redis a DSN names, for set-up, INFO and checks (not
 * for timed work): redis://host:port is one server; redis-cluster://seed,…
 * a cluster, whose masters its seeds' slot map lists.
 */
final class Masters
{
    /**
     * @param list<\Redis> $clients one per master
     * @param \Redis|\RedisCluster $router asks the master that holds a key
     */
    private function __construct(public readonly string $dsn, public readonly array $clients,
        private readonly \Redis|\RedisCluster $router)
    {
    }

    public static function of(string $dsn): self
    {
        if (!preg_match('~^(redis|redis-cluster)://([^/?]+)~', $dsn, $m)) {
            fail("$dsn: expected redis://host:port or redis-cluster://host:port,…");
        }
        $connect = function (string $host, int $port): \Redis {
            $r = new \Redis();
            $r->connect($host, $port, 1.0);
            return $r;
        };
        if ($m[1] === 'redis') {
            [$host, $port] = explode(':', $m[2]) + ['', '6379'];
            $r = $connect($host, (int) $port);
            return new self($dsn, [$r], $r);
        }
        $router = new \RedisCluster(null, explode(',', $m[2]), 1.0, 1.0);
        return new self($dsn, array_map(fn (array $hp) => $connect($hp[0], (int) $hp[1]), $router->_masters()), $router);
    }

    /** What a heading calls it. */
    public function where(): string
    {
        return $this->router instanceof \RedisCluster ? sprintf('a Redis Cluster of %d masters', count($this->clients)) : 'one Redis server';
    }

    /** @return array{0: string, 1: int} the first master, for clients that talk to one server */
    public function first(): array
    {
        return [$this->clients[0]->getHost(), $this->clients[0]->getPort()];
    }

    public function flushAll(): void
    {
        foreach ($this->clients as $r) {
            $r->flushAll();
        }
    }

    /**
     * These masters and the servers at $dsns (RedLock's other masters,
     * redis://host:port): counted and flushed together; keys are still
     * looked up on these.
     */
    public function plus(array $dsns): self
    {
        $more = array_map(function (string $dsn): \Redis {
            [$host, $port] = explode(':', substr($dsn, strlen('redis://')));
            $r = new \Redis();
            $r->connect($host, (int) $port, 1.0);
            return $r;
        }, $dsns);
        return new self($this->dsn, [...$this->clients, ...$more], $this->router);
    }

    /** redis_snapshot() summed over the masters. */
    public function snapshot(): array
    {
        $sum = ['calls' => [], 'usec' => [], 'cpu_us' => 0.0];
        foreach ($this->clients as $r) {
            $one = redis_snapshot($r);
            foreach (['calls', 'usec'] as $field) {
                foreach ($one[$field] as $cmd => $n) {
                    $sum[$field][$cmd] = ($sum[$field][$cmd] ?? 0) + $n;
                }
            }
            $sum['cpu_us'] += $one['cpu_us'];
        }
        return $sum;
    }

    public function exists(string $key): bool
    {
        return (int) $this->router->exists($key) > 0;
    }

    public function version(): string
    {
        return server_name($this->clients[0]->info('server'));
    }
}

/**
 * A delay_proxy.php process in front of one server: a loopback port where
 * every byte arrives $delayMs later than it was sent, in each direction.
 * Contenders connect to $host:$port as if it were the server.
 */
final class DelayProxy
{
    /** @var array<int, self> proxies still running, stopped at exit */
    private static array $running = [];

    private $proc;
    private $stdin;
    private string $pidFile;

    private function __construct(public readonly string $host, public readonly int $port,
        public readonly RedisServer $upstream, $proc, $stdin, string $pidFile)
    {
        $this->proc = $proc;
        $this->stdin = $stdin;
        $this->pidFile = $pidFile;
    }

    public function pid(): int
    {
        return (int) proc_get_status($this->proc)['pid'];
    }

    public static function start(RedisServer $upstream, float $delayMs): self
    {
        $dir = run_dir();
        $log = "$dir/proxy-{$upstream->port}.log";
        $cmd = [PHP_BINARY, __DIR__ . '/delay_proxy.php', "{$upstream->host}:{$upstream->port}", (string) $delayMs];
        // stdin stays open for the proxy's lifetime: when this process goes away
        // (even killed), the proxy reads EOF and exits.
        $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $log, 'a']], $pipes);
        if ($proc === false) {
            fail('cannot run delay_proxy.php');
        }
        $pid = proc_get_status($proc)['pid'];
        $pidFile = "$dir/proxy-$pid.pid";
        file_put_contents($pidFile, (string) $pid);
        $line = fgets($pipes[1]);
        fclose($pipes[1]);
        if ($line === false || !preg_match('/^listening (\d+)$/', trim($line), $m)) {
            proc_terminate($proc, 9);
            proc_close($proc);
            @unlink($pidFile);
            fail("delay_proxy.php did not start:\n" . @file_get_contents($log));
        }
        $proxy = new self('127.0.0.1', (int) $m[1], $upstream, $proc, $pipes[0], $pidFile);
        if (count(self::$running) === 0) {
            register_shutdown_function([self::class, 'stopAll']);
        }
        self::$running[$proxy->port] = $proxy;
        return $proxy;
    }

    public function stop(): void
    {
        if (!isset(self::$running[$this->port])) {
            return;
        }
        unset(self::$running[$this->port]);
        fclose($this->stdin);
        proc_terminate($this->proc, 15);
        proc_close($this->proc);
        @unlink($this->pidFile);
    }

    public static function stopAll(): void
    {
        foreach (self::$running as $proxy) {
            $proxy->stop();
        }
    }
}

/**
 * Mean round trip of $n PINGs (after 10 untimed ones) to host:port over one
 * phpredis connection, in ms.
 */
function ping_rtt_ms(string $host, int $port, int $n = 100): float
{
    $r = new \Redis();
    $r->connect($host, $port, 1.0);
    for ($i = 0; $i < 10; $i++) {
        $r->ping();
    }
    $t = hrtime(true);
    for ($i = 0; $i < $n; $i++) {
        $r->ping();
    }
    $ms = (hrtime(true) - $t) / 1e6 / $n;
    $r->close();
    return $ms;
}

/** This process's user+sys CPU time in µs (getrusage()). */
function cpu_us(): float
{
    $u = getrusage();
    return ($u['ru_utime.tv_sec'] + $u['ru_stime.tv_sec']) * 1e6 + $u['ru_utime.tv_usec'] + $u['ru_stime.tv_usec'];
}

/**
 * CPU time (user+sys, all threads) that processes $pids have used so far, in
 * µs: the scheduler's own count (/proc/<pid>/task/<tid>/schedstat, in ns),
 * else /proc/<pid>/stat in clock ticks.
 */
function cpu_us_of(array $pids): float
{
    $total = 0.0;
    foreach ($pids as $pid) {
        $tasks = glob("/proc/$pid/task/*/schedstat") ?: [];
        if ($tasks) {
            foreach ($tasks as $f) {
                $total += (int) explode(' ', (string) @file_get_contents($f))[0] / 1e3;
            }
            continue;
        }
        $stat = (string) @file_get_contents("/proc/$pid/stat");
        $fields = explode(' ', substr($stat, (int) strrpos($stat, ')') + 2));
        $total += ((int) ($fields[11] ?? 0) + (int) ($fields[12] ?? 0)) * 1e6 / 100;
    }
    return $total;
}

/** Nearest-rank percentile of a sorted list (null when empty). */
function pct(array $sorted, float $p): ?float
{
    $n = count($sorted);
    return $n === 0 ? null : (float) $sorted[max(0, (int) ceil($p * $n) - 1)];
}

/** Cycles of $cycle per second for $seconds (each cycle must succeed). */
function rate(callable $cycle, float $seconds): float
{
    $n = 0;
    $start = hrtime(true);
    $until = $start + (int) ($seconds * 1e9);
    do {
        for ($i = 0; $i < 50; $i++) {
            $cycle() || fail('a cycle failed');
        }
        $n += 50;
        $now = hrtime(true);
    } while ($now < $until);
    return $n / (($now - $start) / 1e9);
}

function median(array $xs): float
{
    sort($xs);
    $n = count($xs);
    return $n % 2 ? (float) $xs[intdiv($n, 2)] : ($xs[$n / 2 - 1] + $xs[$n / 2]) / 2;
}

/** A contender's long-lived worker process (worker.php). */
final class Worker
{
    private $proc;
    private array $pipes = [];
    private string $errFile;

    public function __construct(public readonly string $name, array $servers, array $ini)
    {
        $cmd = [PHP_BINARY, '-d', 'extension=' . so_path()];
        foreach ($ini as $key => $value) {
            array_push($cmd, '-d', "$key=$value");
        }
        $serverList = implode(',', array_map(fn (RedisServer|DelayProxy $s) => "{$s->host}:{$s->port}", $servers));
        array_push($cmd, __DIR__ . '/worker.php', $name, $serverList);
        $this->errFile = run_dir() . "/worker-$name.err";
        $this->proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', $this->errFile, 'w']], $this->pipes);
        if ($this->proc === false) {
            fail("cannot start the $name worker");
        }
        $this->expect('ready');
    }

    /**
     * Runs cycles for $seconds; returns ['rate' => cycles/s, 'cpu' => CPU µs per cycle, 'cycles' => n,
     * 'p50' => …, 'p99' => µs per cycle, percentiles of this run's cycles].
     */
    public function run(float $seconds): array
    {
        fwrite($this->pipes[0], "run $seconds\n");
        $res = json_decode($this->expect('{'), true);
        return ['rate' => $res['cycles'] / $res['seconds'], 'cpu' => $res['cpu_us'] / $res['cycles'], 'cycles' => $res['cycles'],
            'p50' => $res['p50_us'], 'p99' => $res['p99_us']];
    }

    private function expect(string $prefix): string
    {
        $line = fgets($this->pipes[1]);
        if ($line === false || !str_starts_with($line, $prefix)) {
            $this->stop();
            fail("{$this->name} failed:\n" . trim((string) $line . "\n" . @file_get_contents($this->errFile)));
        }
        return $line;
    }

    public function stop(): void
    {
        if ($this->proc === null) {
            return;
        }
        fclose($this->pipes[0]); // EOF: the worker's loop ends
        fclose($this->pipes[1]);
        proc_close($this->proc);
        $this->proc = null;
    }
}

/**
 * Starts one long-lived worker process per contender, then runs $rounds
 * rounds; in each, every contender runs for $seconds in turn, in a rotating
 * order (round r starts with contender r), while the others wait idle. Many
 * short rounds interleave the contenders finely, so that load from elsewhere
 * on the machine lands on all of them alike; medians drop the outliers.
 * Aborts on the first failed cycle. Returns, per contender and round,
 * ['rate' => cycles/s, 'cpu' => the worker's own CPU µs (user+sys) per cycle,
 *  'p50', 'p99' => µs per cycle, 'watch' => [group => CPU µs per cycle of the $watch processes],
 *  with $serverWork also 'server' => server_work() of the run: the server's commands and CPU per cycle].
 *
 * @param list<string> $contenders file names under contenders/, without .php
 * @param list<RedisServer|DelayProxy> $servers where the contenders connect (all get the same list)
 * @param array<string, string> $ini extra -d settings for the workers
 * @param array<string, list<int>> $watch groups of other processes (servers,
 *        proxies) whose CPU time is counted during each run: only one worker
 *        runs at a time, so it is that worker's load on them
 * @param ?Masters $serverWork the server(s) whose INFO commandstats and INFO cpu
 *        are read before and after each run (outside the timing)
 */
function run_rounds(array $contenders, array $servers, int $rounds, float $seconds, array $ini = [], array $watch = [],
    ?Masters $serverWork = null): array
{
    return run_rounds_each(array_fill_keys($contenders, [$servers, $ini]), $rounds, $seconds, $watch, $serverWork);
}

/**
 * run_rounds() for contenders that each connect elsewhere.
 *
 * @param array<string, array{0: list<RedisServer|DelayProxy>, 1: array<string, string>}> $setups
 *        contender => [its servers, its extra -d settings]
 */
function run_rounds_each(array $setups, int $rounds, float $seconds, array $watch = [], ?Masters $serverWork = null): array
{
    $contenders = array_keys($setups);
    $workers = [];
    try {
        foreach ($setups as $name => [$servers, $ini]) {
            $workers[$name] = new Worker($name, $servers, $ini);
        }
        $results = array_fill_keys($contenders, []);
        $k = count($contenders);
        for ($round = 0; $round < $rounds; $round++) {
            $progress = [];
            for ($i = 0; $i < $k; $i++) {
                $name = $contenders[($round + $i) % $k];
                // INFO before and after, outside the worker's timing; only this worker talks to the server meanwhile.
                $snapshot = $serverWork?->snapshot();
                $before = array_map(fn (array $pids) => cpu_us_of($pids), $watch);
                $run = $workers[$name]->run($seconds);
                $run['watch'] = [];
                foreach ($watch as $group => $pids) {
                    $run['watch'][$group] = (cpu_us_of($pids) - $before[$group]) / $run['cycles'];
                }
                if ($serverWork !== null) {
                    $run['server'] = server_work($snapshot, $serverWork->snapshot(), $run['cycles']);
                }
                $results[$name][] = $run;
                $progress[] = sprintf('%s %.0f/s', $name, $run['rate']);
            }
            note(sprintf('round %2d/%d: %s', $round + 1, $rounds, implode(', ', $progress)));
        }
        return $results;
    } finally {
        foreach ($workers as $worker) {
            $worker->stop();
        }
    }
}

function so_path(): string
{
    $so = getenv('REDIS_LOCK_SO') ?: __DIR__ . '/../target/release/libredis_lock.so';
    if (!is_file($so)) {
        fail("extension not found: $so (run cargo build --release, or set REDIS_LOCK_SO)");
    }
    return realpath($so);
}

/**
 * The Markdown table: median cycles/s, median µs/cycle, with $percentiles
 * the medians of the rounds' p50 and p99 µs per cycle, and each cycle time
 * relative to the reference contender.
 *
 * @param array<string, list<array{rate: float, cpu: float}>> $results from run_rounds()
 * @param array<string, string> $labels name => what the table calls it
 * @param ?string $referenceName what the last column's header calls the reference (default: its label)
 */
function table(array $results, array $labels, string $reference, ?string $referenceName = null, bool $percentiles = false): string
{
    $us = fn (array $runs) => median(array_map(fn ($r) => 1e6 / $r['rate'], $runs));
    $refUs = $us($results[$reference]);
    $pcts = fn (array $runs) => $percentiles
        ? sprintf(' %.1f / %.1f |', median(array_column($runs, 'p50')), median(array_column($runs, 'p99'))) : '';
    $lines = [
        '| implementation | cycles/s | µs/cycle |' . ($percentiles ? ' p50 / p99 µs per cycle |' : '')
            . ' cycle time vs ' . ($referenceName ?? $labels[$reference]) . ' |',
        '|---|---:|---:|' . ($percentiles ? '---:|' : '') . '---:|',
    ];
    foreach ($results as $name => $runs) {
        $lines[] = sprintf('| %s | %s | %.1f |%s %.2f× |',
            $labels[$name], number_format(median(array_column($runs, 'rate'))), $us($runs), $pcts($runs), $us($runs) / $refUs);
    }
    return implode("\n", $lines) . "\n";
}

/**
 * Cycle-time ratio $a / $b over the medians, and the median of the same ratio
 * taken round by round (each round's runs are close in time, so it is less
 * exposed to load that drifts during the run).
 *
 * @return array{0: float, 1: float}
 */
function cycle_ratio(array $results, string $a, string $b): array
{
    $us = fn (string $name) => median(array_map(fn ($r) => 1e6 / $r['rate'], $results[$name]));
    $paired = median(array_map(fn ($x, $y) => $y['rate'] / $x['rate'], $results[$a], $results[$b]));
    return [$us($a) / $us($b), $paired];
}

/** The warning printed when the middle half of some contender's rounds spans over 20 % of its median ('' if none). */
function noise_note(array $results, array $labels, ?float $pressure = null): string
{
    $psi = $pressure === null ? '' : sprintf('CPU pressure during the runs: some task was waiting for a CPU %.0f %% of the time '
        . "(/proc/pressure/cpu, the benchmark's own processes included).\n\n", $pressure);
    $noisy = array_filter($results, function (array $runs): bool {
        $rates = array_column($runs, 'rate');
        sort($rates);
        $n = count($rates);
        return ($rates[intdiv(3 * $n, 4)] - $rates[intdiv($n, 4)]) > 0.2 * median($rates);
    });
    if (!$noisy) {
        return $psi;
    }
    return $psi . 'Noisy machine: the middle half of the rounds of ' . implode(', ', array_map(fn ($n) => $labels[$n], array_keys($noisy)))
        . " spans more than 20 % of the median (spread below). Other load on the machine (see /proc/pressure/cpu) "
        . "moved the results; rerun when it is quiet, or with more rounds.\n\n";
}

/** "1" for a count within 0.005 of a whole number, else "1.25". */
function count_text(float $n): string
{
    return abs($n - round($n)) < 0.005 ? sprintf('%d', round($n)) : sprintf('%.2f', $n);
}

/**
 * The server's work per cycle of each contender, from the 'server' facts
 * run_rounds() collects with $serverWork: [name => ['cpu' => median µs of
 * server CPU per cycle (INFO cpu), 'usec' => median commandstats usec per
 * cycle, 'calls' => [command => calls per cycle, over every round's cycles
 * together, most first, then by name], 'cmds' => their sum]].
 */
function server_work_summary(array $results): array
{
    $out = [];
    foreach ($results as $name => $runs) {
        $calls = [];
        $cycles = 0;
        foreach ($runs as $r) {
            foreach ($r['server']['calls'] as $cmd => $n) {
                $calls[$cmd] = ($calls[$cmd] ?? 0) + $n * $r['cycles'];
            }
            $cycles += $r['cycles'];
        }
        $calls = array_map(fn ($n) => $n / max(1, $cycles), $calls);
        uksort($calls, fn ($a, $b) => [round($calls[$b], 2), $a] <=> [round($calls[$a], 2), $b]);
        $out[$name] = [
            'cpu' => median(array_map(fn ($r) => $r['server']['cpu'], $runs)),
            'usec' => median(array_map(fn ($r) => $r['server']['usec'], $runs)),
            'calls' => $calls,
            'cmds' => array_sum($calls),
        ];
    }
    return $out;
}

/**
 * The Markdown table of server_work_summary(): server CPU and commandstats
 * usec per cycle, each also relative to $reference, and the commands per cycle.
 */
function server_work_table(array $summary, array $labels, string $reference, string $referenceName): string
{
    $ref = $summary[$reference];
    $ratio = fn (float $v, float $r) => $r > 0 ? sprintf('%.2f×', $v / $r) : '–';
    $lines = [
        "| implementation | server CPU µs/cycle | server CPU vs $referenceName | commandstats usec/cycle "
            . "| usec vs $referenceName | commands/cycle | commands per cycle |",
        '|---|---:|---:|---:|---:|---:|---|',
    ];
    foreach ($summary as $name => $w) {
        $lines[] = sprintf('| %s | %.1f | %s | %.1f | %s | %s | %s |', $labels[$name], $w['cpu'], $ratio($w['cpu'], $ref['cpu']),
            $w['usec'], $ratio($w['usec'], $ref['usec']), count_text($w['cmds']),
            implode(', ', array_map(fn ($cmd, $n) => "$cmd " . count_text($n), array_keys($w['calls']), $w['calls'])));
    }
    return implode("\n", $lines) . "\n";
}

/**
 * Saves one scenario's measures against the targets, for bench/targets.php
 * (run by bench/run.sh after the scenarios), which prints the Targets block.
 */
function target_facts(string $scenario, array $facts): void
{
    $dir = run_dir() . '/targets';
    if (!is_dir($dir)) {
        mkdir($dir, 0777, true);
    }
    file_put_contents("$dir/$scenario.json", json_encode($facts, JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE));
}

/** The collapsed table of slowest/fastest rounds and CPU time per cycle. */
function spread_details(array $results, array $labels): string
{
    $groups = array_keys(reset($results)[0]['watch'] ?? []);
    $out = "<details><summary>spread over rounds; CPU time of the PHP process per cycle"
        . ($groups ? ' and of the ' . implode(' and the ', $groups) : '') . "</summary>\n\n"
        . '| implementation | slowest round, cycles/s | fastest round, cycles/s | CPU µs/cycle (median) |'
        . implode('', array_map(fn ($g) => " $g' CPU µs/cycle (median) |", $groups)) . "\n"
        . '|---|---:|---:|---:|' . str_repeat('---:|', count($groups)) . "\n";
    foreach ($results as $name => $runs) {
        $rates = array_column($runs, 'rate');
        $out .= sprintf("| %s | %s | %s | %.1f |", $labels[$name], number_format(min($rates)), number_format(max($rates)),
            median(array_column($runs, 'cpu')));
        foreach ($groups as $g) {
            $out .= sprintf(' %.1f |', median(array_map(fn ($r) => $r['watch'][$g], $runs)));
        }
        $out .= "\n";
    }
    return $out . "\n</details>\n";
}

/**
 * Share of wall time, since $since (from pressure_mark()), during which some
 * runnable task waited for a CPU (/proc/pressure/cpu "some"): load from the
 * benchmark's own processes and from anything else on the machine. Null
 * without PSI.
 */
function cpu_pressure_since(?array $since): ?float
{
    $now = pressure_mark();
    if ($since === null || $now === null) {
        return null;
    }
    return ($now[0] - $since[0]) / max(1, $now[1] - $since[1]) * 100;
}

/** [stall µs total, monotonic µs] for cpu_pressure_since(). */
function pressure_mark(): ?array
{
    $psi = @file_get_contents('/proc/pressure/cpu');
    if ($psi === false || !preg_match('/^some .*total=(\d+)/m', $psi, $m)) {
        return null;
    }
    return [(int) $m[1], intdiv(hrtime(true), 1000)];
}

/** "Valkey 9.1.2" or "Redis 8.0.6" from INFO server (Valkey also reports a redis_version: 7.2.4). */
function server_name(array|false $info): string
{
    if (isset($info['valkey_version'])) {
        return 'Valkey ' . $info['valkey_version'];
    }
    return 'Redis ' . ($info['redis_version'] ?? '?');
}

/** One line of machine facts for under the table. */
function machine_facts(RedisServer|Masters $server): string
{
    preg_match('/^model name\s*:\s*(.+)$/m', (string) @file_get_contents('/proc/cpuinfo'), $m);
    $pkg = function (string $p): string {
        $v = trim((string) shell_exec('dpkg-query -W -f=\'${Version}\' ' . escapeshellarg($p) . ' 2>/dev/null'));
        return $v === '' ? '?' : $v;
    };
    return sprintf('nproc %s (%s), Linux %s; PHP %s; %s; redis_lock %s (.so sha256 %s); phpredis %s; '
        . 'symfony/lock %s; illuminate %s (Debian packages)',
        trim((string) shell_exec('nproc')), $m[1] ?? '?', php_uname('r'), PHP_VERSION,
        $server->version(), phpversion('redis_lock') ?: '?', substr(hash_file('sha256', so_path()), 0, 12),
        phpversion('redis') ?: '?',
        $pkg('php-symfony-lock'), $pkg('php-illuminate-cache'));
}

/**
 * The worker processes of the current run of the contention scenario
 * (contention_worker.php) or the rwlock and semaphore scenarios
 * (shared_worker.php); stopped by Workers::killAll(), which the scenario also
 * registers as a shutdown function.
 */
final class Workers
{
    /** @var array<int, array{proc: resource, in: resource, out: resource, pidFile: string, buf?: string, status?: int}> */
    public static array $list = [];

    /** Closes worker $i's pipes and waits for its exit; records its exit status. */
    public static function close(int $i): void
    {
        $w = &self::$list[$i];
        foreach (['in', 'out'] as $p) {
            if (is_resource($w[$p])) {
                fclose($w[$p]);
            }
        }
        if (!isset($w['status'])) {
            $w['status'] = proc_close($w['proc']);
            @unlink($w['pidFile']);
        }
    }

    /** Kills (SIGKILL) every worker still running and forgets them all. */
    public static function killAll(): void
    {
        foreach (self::$list as $i => $w) {
            if (!isset($w['status']) && proc_get_status($w['proc'])['running']) {
                proc_terminate($w['proc'], 9);
            }
            self::close($i);
        }
        self::$list = [];
    }
}
/**
 * Waits until every worker has printed the line $expect. Returns null, or why
 * not: a worker that exited first (with its stderr) or the deadline.
 */
function await_line(string $expect, float $timeoutSeconds, string $errDir): ?string
{
    $deadline = hrtime(true) + (int) ($timeoutSeconds * 1e9);
    $waiting = [];
    foreach (array_keys(Workers::$list) as $i) {
        Workers::$list[$i]['buf'] = '';
        $waiting[$i] = true;
    }
    $k = count(Workers::$list);
    while ($waiting) {
        $left = $deadline - hrtime(true);
        if ($left <= 0) {
            return sprintf('%d of %d processes did not print "%s" within %.0f s', count($waiting), $k, $expect, $timeoutSeconds);
        }
        $read = array_map(fn ($i) => Workers::$list[$i]['out'], array_keys($waiting));
        $write = $except = null;
        if (@stream_select($read, $write, $except, intdiv($left, 1_000_000_000), intdiv($left % 1_000_000_000, 1000)) === false) {
            return 'stream_select() failed';
        }
        foreach (array_keys($waiting) as $i) {
            $out = Workers::$list[$i]['out'];
            if (!in_array($out, $read, true)) {
                continue;
            }
            $chunk = fread($out, 8192);
            if ($chunk !== false) {
                Workers::$list[$i]['buf'] .= $chunk;
            }
            if (str_contains(Workers::$list[$i]['buf'], "$expect\n")) {
                unset($waiting[$i]);
            } elseif (feof($out)) {
                Workers::close($i);
                $err = trim((string) @file_get_contents("$errDir/err-$i"));
                return sprintf('process %d of %d ended (status %d) before "%s": %s', $i + 1, $k,
                    Workers::$list[$i]['status'], $expect, $err === '' ? '(no message)' : $err);
            }
        }
    }
    return null;
}

/** How many values of the sorted list $xs are < $t (binary search). */
function count_below(array $xs, int $t): int
{
    [$lo, $hi] = [0, count($xs)];
    while ($lo < $hi) {
        $mid = ($lo + $hi) >> 1;
        if ($xs[$mid] < $t) {
            $lo = $mid + 1;
        } else {
            $hi = $mid;
        }
    }
    return $lo;
}
