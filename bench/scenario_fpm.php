<?php
/**
 * Scenario: what one lock + release adds to a request under PHP-FPM.
 *
 * ab (apache2-utils, keep-alive) → nginx-light (1 worker) → php-fpm (pm =
 * static, 4 children, pm.max_requests = 0, opcache on, unix socket) → one
 * throwaway redis-server, all on this machine. Each endpoint (bench/fpm/*.php)
 * takes and releases one uncontended lock per request (one key per worker),
 * the way an application does in a request: the extension on its per-worker
 * persistent connection; Laravel 8 and symfony/lock 5.4 on phpredis with a new
 * connection per request and with pconnect; the hand-written SET NX PX + EVAL
 * mutex likewise; and an empty endpoint as the ceiling. Every endpoint
 * answers 500 on a failed lock or release, and any non-2xx or failed request
 * aborts the scenario. Endpoints are interleaved over rounds in a rotating
 * order; medians are reported. Progress goes to stderr; Markdown to stdout.
 *
 *   BENCH_FPM_ROUNDS (default 12), BENCH_FPM_SECONDS per endpoint per round (whole seconds, default 1),
 *   BENCH_FPM_CONCURRENCY ab -c (default 8), BENCH_FPM_CHILDREN php-fpm workers (default 4)
 */

declare(strict_types=1);

namespace Bench;

require __DIR__ . '/lib.php';

$rounds = (int) (getenv('BENCH_FPM_ROUNDS') ?: 12);
$seconds = max(1, (int) (getenv('BENCH_FPM_SECONDS') ?: 1)); // ab -t takes whole seconds
$concurrency = (int) (getenv('BENCH_FPM_CONCURRENCY') ?: 8);
$children = (int) (getenv('BENCH_FPM_CHILDREN') ?: 4);
$reference = 'redis_mutex_lock';
$ceiling = 'empty';
$labels = [
    'empty' => 'empty endpoint, no lock (ceiling)',
    'redis_mutex_lock' => 'RedisMutexLock (persistent connection of the extension)',
    'laravel_connect' => 'Laravel 8 RedisStore::lock()->get()/release(), new phpredis connection per request',
    'laravel_pconnect' => 'Laravel 8 RedisStore::lock()->get()/release(), phpredis pconnect',
    'symfony_connect' => 'symfony/lock 5.4 RedisStore, new phpredis connection per request',
    'symfony_pconnect' => 'symfony/lock 5.4 RedisStore, phpredis pconnect',
    'phpredis_connect' => 'seed-style mutex: phpredis SET NX PX + EVAL, new connection per request',
    'phpredis_pconnect' => 'the same, phpredis pconnect (hand-written floor)',
];

/** A process of this scenario (php-fpm or nginx master), recorded for bench/run.sh's cleanup and stopped at exit. */
final class Daemon
{
    /** @var list<self> */
    private static array $running = [];

    private $proc;
    private string $pidFile;

    public function __construct(public readonly string $name, array $cmd, array $env, private string $log)
    {
        $dir = run_dir();
        $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', $log, 'a'], 2 => ['file', $log, 'a']], $pipes, $dir, $env);
        if ($proc === false) {
            fail("cannot run {$cmd[0]}");
        }
        $this->proc = $proc;
        $this->pidFile = "$dir/$name-" . $this->pid() . '.pid';
        file_put_contents($this->pidFile, (string) $this->pid());
        if (!self::$running) {
            register_shutdown_function([self::class, 'stopAll']);
        }
        self::$running[] = $this;
    }

    public function pid(): int
    {
        return (int) proc_get_status($this->proc)['pid'];
    }

    public function running(): bool
    {
        return $this->proc !== null && proc_get_status($this->proc)['running'];
    }

    /** Its children's pids (php-fpm: the workers; nginx: its worker). */
    public function children(): array
    {
        $pids = [];
        foreach (glob('/proc/' . $this->pid() . '/task/*/children') ?: [] as $f) {
            foreach (preg_split('/\s+/', trim((string) @file_get_contents($f))) as $p) {
                if ($p !== '') {
                    $pids[] = (int) $p;
                }
            }
        }
        return $pids;
    }

    public function waitFor(callable $ready, float $timeout = 10): void
    {
        $until = microtime(true) + $timeout;
        while (microtime(true) < $until) {
            if (!$this->running()) {
                fail("{$this->name} exited at start:\n" . @file_get_contents($this->log));
            }
            if ($ready()) {
                return;
            }
            usleep(20_000);
        }
        fail("{$this->name} did not get ready within {$timeout} s:\n" . @file_get_contents($this->log));
    }

    public function stop(): void
    {
        if ($this->proc === null) {
            return;
        }
        proc_terminate($this->proc, 15);
        $until = microtime(true) + 10;
        while (proc_get_status($this->proc)['running'] && microtime(true) < $until) {
            usleep(10_000);
        }
        if (proc_get_status($this->proc)['running']) {
            foreach ($this->children() as $c) {
                posix_kill($c, 9);
            }
            proc_terminate($this->proc, 9);
        }
        proc_close($this->proc);
        $this->proc = null;
        @unlink($this->pidFile);
    }

    public static function stopAll(): void
    {
        foreach (array_reverse(self::$running) as $d) {
            $d->stop();
        }
        self::$running = [];
    }
}

function is_root(): bool
{
    return function_exists('posix_geteuid') && posix_geteuid() === 0;
}

function fpm_binary(): string
{
    $bin = '/usr/sbin/php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION;
    is_executable($bin) || fail("$bin not found (apt-get install php" . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '-fpm)');
    return $bin;
}

function start_fpm(RedisServer $server, int $children): array
{
    $dir = run_dir() . '/fpm';
    @mkdir("$dir/conf.d", 0700, true);
    $socket = "$dir/fpm.sock";
    // Same settings for every endpoint: the extension, phpredis (with igbinary, which
    // Debian's redis.so needs), opcache as production has it.
    $extDir = ini_get('extension_dir');
    file_put_contents("$dir/conf.d/bench.ini", implode("\n", [
        'extension=' . so_path(),
        'redis_lock.server=' . $server->dsn(),
        "extension=$extDir/igbinary.so",
        "extension=$extDir/redis.so",
        "zend_extension=$extDir/opcache.so",
        'opcache.enable=1',
        'opcache.jit=off',
        'opcache.validate_timestamps=0',
        'display_errors=0',
        'log_errors=1',
        'memory_limit=128M',
    ]) . "\n");
    file_put_contents("$dir/php.ini", "; every setting is in conf.d\n");
    $user = is_root() ? "user = root\ngroup = root\n" : '';
    file_put_contents("$dir/fpm.conf", <<<CONF
[global]
pid = $dir/fpm.pid
error_log = $dir/fpm.log
daemonize = no

[bench]
{$user}listen = $socket
listen.backlog = 4096
pm = static
pm.max_children = $children
pm.max_requests = 0
catch_workers_output = yes
env[BENCH_REDIS_PORT] = {$server->port}

CONF);
    $cmd = [fpm_binary(), '-F', '-y', "$dir/fpm.conf", '-c', "$dir/php.ini"];
    if (is_root()) {
        $cmd[] = '-R';
    }
    $env = getenv();
    $env['PHP_INI_SCAN_DIR'] = "$dir/conf.d";
    $fpm = new Daemon('php-fpm', $cmd, $env, "$dir/fpm.stderr");
    $fpm->waitFor(fn () => file_exists($socket) && count($fpm->children()) === $children);
    $log = (string) @file_get_contents("$dir/fpm.log") . @file_get_contents("$dir/fpm.stderr");
    if (preg_match('/(WARNING|ERROR).*/', $log, $m)) {
        fail("php-fpm complained at start: {$m[0]}");
    }
    return [$fpm, $socket, "$dir/fpm.log"];
}

function start_nginx(string $fpmSocket): array
{
    $dir = run_dir() . '/nginx';
    @mkdir("$dir/tmp", 0700, true);
    $port = free_port();
    $root = __DIR__ . '/fpm';
    $user = is_root() ? "user root;\n" : '';
    file_put_contents("$dir/nginx.conf", <<<CONF
{$user}worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    client_body_temp_path $dir/tmp/body;
    fastcgi_temp_path $dir/tmp/fastcgi;
    proxy_temp_path $dir/tmp/proxy;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    keepalive_requests 100000000;
    keepalive_timeout 60s;
    server {
        listen 127.0.0.1:$port backlog=4096;
        root $root;
        location ~ ^/[a-z_]+\.php$ {
            fastcgi_pass unix:$fpmSocket;
            fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
            fastcgi_param SCRIPT_NAME \$fastcgi_script_name;
            fastcgi_param QUERY_STRING \$query_string;
            fastcgi_param REQUEST_METHOD \$request_method;
            fastcgi_param REQUEST_URI \$request_uri;
            fastcgi_param DOCUMENT_ROOT \$document_root;
            fastcgi_param SERVER_PROTOCOL \$server_protocol;
            fastcgi_param GATEWAY_INTERFACE CGI/1.1;
            fastcgi_param REMOTE_ADDR \$remote_addr;
            fastcgi_param SERVER_NAME \$server_name;
            fastcgi_param SERVER_PORT \$server_port;
        }
    }
}

CONF);
    $nginx = new Daemon('nginx', ['nginx', '-p', $dir, '-e', "$dir/error.log", '-c', "$dir/nginx.conf"], getenv(), "$dir/stderr.log");
    $nginx->waitFor(function () use ($port): bool {
        $c = @stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 0.2);
        if ($c === false) {
            return false;
        }
        fclose($c);
        return true;
    });
    return [$nginx, $port];
}

/** Redis commands the server has run so far, INFO left out. */
function redis_calls(RedisServer $server): int
{
    return array_sum(array_diff_key(redis_snapshot($server->client())['calls'], ['info' => 0]));
}

/**
 * One ab run: for $seconds (whole seconds: ab reads -t as an integer), or for
 * $requests requests when $seconds is 0. Returns its figures, or fails on any
 * failed or non-2xx request.
 */
function ab(int $port, string $endpoint, int $seconds, int $concurrency, int $requests = 100_000_000): array
{
    $cmd = sprintf('timeout %d ab -q -k -c %d %s -n %d %s 2>&1', max($seconds, 10) + 60, $concurrency,
        $seconds > 0 ? "-t $seconds" : '', $requests, escapeshellarg("http://127.0.0.1:$port/$endpoint.php"));
    $out = (string) shell_exec($cmd);
    $num = function (string $re) use ($out): ?float {
        return preg_match($re, $out, $m) ? (float) $m[1] : null;
    };
    $complete = $num('/^Complete requests:\s+(\d+)/m');
    $failed = $num('/^Failed requests:\s+(\d+)/m');
    $non2xx = $num('/^Non-2xx responses:\s+(\d+)/m') ?? 0.0;
    $rate = $num('/^Requests per second:\s+([\d.]+)/m');
    $latency = $num('/^Time per request:\s+([\d.]+) \[ms\] \(mean\)$/m');
    $p99 = $num('/^\s+99%\s+(\d+)/m');
    if ($complete === null || $rate === null || $latency === null) {
        fail("ab against $endpoint.php printed no result:\n$out");
    }
    if ($failed > 0 || $non2xx > 0 || $complete < 1) {
        $body = @file_get_contents("http://127.0.0.1:$port/$endpoint.php");
        fail("$endpoint.php: $complete requests, $failed failed, $non2xx non-2xx (one response now: " . var_export($body, true) . ")");
    }
    return ['rate' => $rate, 'latency_ms' => $latency, 'p99_ms' => $p99, 'requests' => (int) $complete];
}

try {
    trim((string) shell_exec('command -v ab')) !== '' || fail('ab not found (apt-get install apache2-utils)');
    trim((string) shell_exec('command -v nginx')) !== '' || fail('nginx not found (apt-get install nginx-light)');
    $server = RedisServer::start();
    [$fpm, $socket, $fpmLog] = start_fpm($server, $children);
    [$nginx, $port] = start_nginx($socket);
    note("{$server->version()} on {$server->host}:{$server->port}; php-fpm ($children workers) on $socket; "
        . "nginx on 127.0.0.1:$port; $rounds rounds × " . count($labels) . " endpoints × {$seconds} s, ab -k -c $concurrency");

    // Warm-up: opcache, the workers' persistent connections, the script caches of Redis.
    foreach (array_keys($labels) as $name) {
        ab($port, $name, 0, $concurrency, 500);
    }

    $names = array_keys($labels);
    $k = count($names);
    $results = array_fill_keys($names, []);
    $mark = pressure_mark();
    for ($round = 0; $round < $rounds; $round++) {
        $progress = [];
        for ($i = 0; $i < $k; $i++) {
            $name = $names[($round + $i) % $k];
            $workers = $fpm->children();
            $watched = ['php-fpm workers' => $workers, 'Redis server' => [$server->pid()], 'nginx' => [$nginx->pid(), ...$nginx->children()]];
            $before = array_map(fn (array $pids) => cpu_us_of($pids), $watched);
            $calls = redis_calls($server);
            $run = ab($port, $name, $seconds, $concurrency);
            $run['commands'] = (redis_calls($server) - $calls) / $run['requests'];
            $run['watch'] = [];
            foreach ($watched as $group => $pids) {
                $run['watch'][$group] = (cpu_us_of($pids) - $before[$group]) / $run['requests'];
            }
            $fpm->children() === $workers || fail('php-fpm workers changed during a run (a worker died?): see ' . $fpmLog);
            $results[$name][] = $run;
            $progress[] = sprintf('%s %.0f/s', $name, $run['rate']);
        }
        note(sprintf('round %d/%d: %s', $round + 1, $rounds, implode(', ', $progress)));
    }
    $pressure = cpu_pressure_since($mark);

    $keys = $server->client()->keys('*');
    $keys === [] || fail('keys left in Redis after the runs: ' . json_encode($keys));
    $log = (string) @file_get_contents($fpmLog);
    if (preg_match('/.*(exited on signal|WARNING|ERROR).*/', $log, $m)) {
        fail("php-fpm log: {$m[0]}");
    }

    $us = fn (string $name) => median(array_map(fn ($r) => 1e6 / $r['rate'], $results[$name]));
    $refUs = $us($reference);
    $ceilUs = $us($ceiling);
    echo "### Per-request cost under PHP-FPM: one lock + release per request (nginx → php-fpm → Redis, loopback)\n\n";
    // The same ratio round by round (each round's runs are close in time), less exposed to drifting load.
    $paired = fn (string $name) => median(array_map(fn ($a, $b) => $a['rate'] / $b['rate'], $results[$reference], $results[$name]));
    echo "| endpoint | requests/s | mean latency (ms) | time per request vs RedisMutexLock | the same, median of the per-round ratios | added per request over the empty endpoint (µs) |\n";
    echo "|---|---:|---:|---:|---:|---:|\n";
    foreach ($results as $name => $runs) {
        printf("| %s | %s | %.2f | %.2f× | %.2f× | %s |\n", $labels[$name], number_format(median(array_column($runs, 'rate'))),
            median(array_column($runs, 'latency_ms')), $us($name) / $refUs, $paired($name),
            $name === $ceiling ? '—' : sprintf('%+.0f', $us($name) - $ceilUs));
    }
    echo "\n";
    if (function_exists(__NAMESPACE__ . '\chart')) {
        $bars = [];
        foreach ([$reference, ...array_diff($names, [$reference, $ceiling]), $ceiling] as $name) {
            $bars[$labels[$name]] = $us($name);
        }
        chart('fpm', ['kind' => 'bars', 'title' => 'One lock + release per request under PHP-FPM (ab → nginx → php-fpm, 2 vCPUs)',
            'unit' => 'µs per request at saturation, 1 / (requests/s) (lower is better)', 'bars' => $bars]);
    }
    printf("Medians over %d interleaved rounds of %s s per endpoint (rotating order), after a warm-up of 500 requests each. "
        . "Load: `ab -k -c %d` (HTTP keep-alive to nginx) → nginx-light %s (1 worker, a new FastCGI connection per request) "
        . "→ php-fpm (pm = static, %d workers, pm.max_requests = 0, opcache on, unix socket; the same pool and settings "
        . "for every endpoint) → one redis-server; everything on this machine, so the figures are throughput at saturation "
        . "of its %s CPUs, where the lock's cost includes Redis' and the client's CPU. \"Time per request\" is 1 / (requests/s), "
        . "which at saturation is the CPU time a request costs the whole machine; \"added\" is that minus the empty "
        . "endpoint's. Each lock endpoint takes one uncontended key per worker (TTL 10 s) and answers 500 if the lock or the "
        . "release failed: every request of every run succeeded (ab: 0 failed, 0 non-2xx), no worker died, and no key "
        . "was left in Redis.\n\n",
        $rounds, $seconds, $concurrency, trim((string) preg_replace('/^nginx version: nginx\//', '', (string) shell_exec('nginx -v 2>&1'))),
        $children, trim((string) shell_exec('nproc')));
    echo noise_note($results, $labels, $pressure);
    echo 'Machine: ', machine_facts($server), "\n\n";
    echo 'Command: `', getenv('BENCH_COMMAND') ?: 'bash bench/run.sh', "`\n\n";

    $groups = array_keys(reset($results)[0]['watch']);
    echo "<details><summary>spread over rounds; latency; Redis commands and CPU time per request of the php-fpm workers, Redis and nginx</summary>\n\n";
    echo '| endpoint | slowest round, requests/s | fastest round, requests/s | 99th percentile latency (ms, median) | Redis commands per request (inner calls of Lua scripts included) |',
        implode('', array_map(fn ($g) => " $g CPU µs/request (median) |", $groups)), "\n";
    echo '|---|---:|---:|---:|---:|', str_repeat('---:|', count($groups)), "\n";
    foreach ($results as $name => $runs) {
        $rates = array_column($runs, 'rate');
        printf('| %s | %s | %s | %s | %.1f |', $labels[$name], number_format(min($rates)), number_format(max($rates)),
            number_format(median(array_column($runs, 'p99_ms'))), median(array_column($runs, 'commands')));
        foreach ($groups as $g) {
            printf(' %.0f |', median(array_map(fn ($r) => $r['watch'][$g], $runs)));
        }
        echo "\n";
    }
    echo "\n</details>\n\n";
} catch (Failure $e) {
    note('benchmark aborted: ' . $e->getMessage());
    exit(1);
}
