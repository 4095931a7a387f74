<?php

/*
 * Shared by the end-to-end tests in this directory (run by
 * scripts/test-frameworks.sh, or one at a time: php -d extension=... FILE).
 *
 * A test is one PHP script. Run without arguments it is the test: it starts a
 * throwaway redis-server, starts copies of itself as other processes (roles)
 * and checks what they report and what is left in Redis. Run with a role name
 * as its first argument it is that process: it writes lines ("ran", "skipped",
 * ...) to its stdout, which the test reads.
 *
 * Times: when a lock runs out or changes hands is read in Redis (changed());
 * the moment a lock was taken is known only from the line its process writes
 * after taking it, which can come a few hundred ms late on a loaded machine.
 * So a 2 s TTL is checked to run out between 1.2 and 2.4 s after that line:
 * loose below, tight above (a lock that outlives its TTL fails).
 *
 * Exit codes: 0 passed (after the last line, "passed"), 1 failed, 77 skipped
 * (the framework feature is not installed; the reason is printed).
 *
 * The frameworks are Debian's packages: /usr/share/php/Illuminate (Laravel)
 * and /usr/share/php/Symfony (symfony). Laravel tests boot a real
 * Illuminate\Foundation\Application from config files written into a
 * temporary base path; Symfony ones boot a MicroKernel with FrameworkBundle
 * and adapters/config/symfony/redis_lock.php, or use the components directly.
 */

declare(strict_types=1);

use RedisLock\Tests\Support\RespClient;
use RedisLock\Tests\Support\ThrowawayRedis;

const E2E_SKIP = 77;

require_once __DIR__ . '/../autoload.php';

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'RedisLock\\Tests\\', 16) === 0) {
        $file = __DIR__ . '/../tests/' . str_replace('\\', '/', substr($class, 16)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

if (!extension_loaded('redis_lock')) {
    fwrite(STDERR, "the redis_lock extension is not loaded: php -d extension=target/release/libredis_lock.so FILE\n");
    exit(2);
}
if (!getenv('REDIS_LOCK_SO') && is_file($so = dirname(__DIR__, 2) . '/target/release/libredis_lock.so')) {
    putenv('REDIS_LOCK_SO=' . $so);
}
// The test's Redis, for the test and every process it starts (see e2e_redis()).
if ($server = getenv('REDIS_LOCK_SERVER')) {
    ini_set('redis_lock.server', $server);
}

// ---------------------------------------------------------------- outcome

final class E2EFailure extends RuntimeException
{
}

/**
 * Failures end the process with exit code 1: the test's with a FAIL line, a
 * role's with its exception on stderr. Installed again after a framework
 * boots, whose own handler would log the exception and exit 0.
 */
function e2e_handle_failures(): void
{
    set_exception_handler(static function (Throwable $e): void {
        $role = e2e_role();
        if ($role !== null) {
            fwrite(STDERR, "[$role] " . $e::class . ': ' . $e->getMessage() . "\n" . $e->getTraceAsString() . "\n");
            exit(1);
        }
        echo $e instanceof E2EFailure ? 'FAIL: ' . $e->getMessage() : 'FAIL: ' . $e::class . ': ' . $e->getMessage() . "\n" . $e->getTraceAsString(), "\n";
        exit(1);
    });
}
e2e_handle_failures();
// A test stopped by the runner's timeout (SIGTERM) still kills its Redis and
// its processes on the way out.
if (function_exists('pcntl_async_signals')) {
    pcntl_async_signals(true);
    pcntl_signal(SIGTERM, static function (): void {
        echo "FAIL: stopped (SIGTERM)\n";
        exit(1);
    });
}

/** The test's last line: the runner counts a test passed only when it exits 0 after this. */
function passed(): void
{
    echo "passed\n";
    exit(0);
}

/**
 * Passes or fails the test. A failure also shows what every role that ended
 * since the last check wrote: a role's exception is often the reason.
 */
function check(bool $condition, string $what): void
{
    $ended = $GLOBALS['__e2e_ended'] ?? [];
    $GLOBALS['__e2e_ended'] = [];
    if (!$condition) {
        throw new E2EFailure($what . ($ended === [] ? '' : "\n    roles that ended since the last check:\n      " . implode("\n      ", $ended)));
    }
    echo "ok - $what\n";
}

/** Skips the test (exit 77) with a reason unless $condition holds. */
function need(bool $condition, string $reason): void
{
    if (!$condition) {
        echo "skip: $reason\n";
        exit(E2E_SKIP);
    }
}

/** Loads Debian's autoloaders (e.g. 'Symfony/Component/Lock'); false when one is missing. */
function load(string ...$packages): bool
{
    foreach ($packages as $package) {
        $file = $package . '/autoload.php';
        $path = stream_resolve_include_path($file) ?: '/usr/share/php/' . $file;
        if (!is_file($path)) {
            return false;
        }
        require_once $path;
    }

    return true;
}

/**
 * A path in this process' own temporary directory, made at the first call
 * and removed at the process' end. Named for the pid and a random part: pids
 * come round again, and a role killed by its test leaves its directory
 * behind; a Symfony kernel or Laravel application booted in such a leftover
 * would load another test's compiled container or cached configuration
 * (with debug off, neither is checked against the code).
 */
function e2e_tmp(string $name): string
{
    static $dir = null;
    if ($dir === null) {
        $made = sprintf('%s/redis_lock_e2e_%d_%s', sys_get_temp_dir(), getmypid(), bin2hex(random_bytes(4)));
        if (!mkdir($made, 0700)) {
            throw new RuntimeException("cannot create $made");
        }
        $pid = getmypid();
        // Not in a child forked by a role: the directory is the parent's.
        register_shutdown_function(static fn () => getmypid() === $pid && exec('rm -rf ' . escapeshellarg($made)));
        $dir = $made;
    }

    return "$dir/$name";
}

// ---------------------------------------------------------------- Redis

/**
 * A redis-server of the test's own on a free loopback port, killed when the
 * test ends; redis_lock.server and REDIS_LOCK_SERVER (inherited by the roles)
 * point at it.
 */
function e2e_redis(): RespClient
{
    $server = ThrowawayRedis::start();
    $GLOBALS['__e2e_redis'] = $server;
    $dsn = $server->dsn();
    putenv('REDIS_LOCK_SERVER=' . $dsn);
    ini_set('redis_lock.server', $dsn);

    return $server->client();
}

/** The keys in Redis (sorted), the lock keys' TTLs in ms by key. */
function ttls(RespClient $redis, string $pattern = '*'): array
{
    $ttls = [];
    foreach ($redis->keys($pattern) as $key) {
        $ttls[$key] = $redis->pttl($key);
    }

    return $ttls;
}

/**
 * The time the value of $key stops being $value (the key is gone, or holds
 * another owner: a waiter took it), polled in Redis every 5 ms: when a lock
 * ran out or changed hands, measured where it happens rather than by
 * processes that may be slow to start. Fails after $timeout seconds.
 */
function changed(RespClient $redis, string $key, ?string $value, float $timeout = 10.0): float
{
    $deadline = microtime(true) + $timeout;
    while ($redis->get($key) === $value) {
        if (microtime(true) > $deadline) {
            throw new E2EFailure("$key still holds " . json_encode($value) . " after $timeout s");
        }
        usleep(5000);
    }

    return microtime(true);
}

// ---------------------------------------------------------------- processes

/** The role this process plays (its first argument), or null for the test itself. */
function e2e_role(): ?string
{
    global $argv;

    return isset($argv[1]) && $argv[1] !== '' ? $argv[1] : null;
}

/**
 * When this process was started as one of $roles, runs it and exits.
 *
 * @param array<string, callable(string ...): void> $roles
 */
function roles(array $roles): void
{
    global $argv;
    $role = e2e_role();
    if ($role === null) {
        return;
    }
    if (!isset($roles[$role])) {
        fwrite(STDERR, "no role $role\n");
        exit(2);
    }
    $roles[$role](...array_slice($argv, 2));
    exit(0);
}

/** A line from a role to the test, with the time it was written. */
function out(string $line): void
{
    fwrite(STDOUT, sprintf("%s %.6f\n", $line, microtime(true)));
    fflush(STDOUT);
}

/** A line from the test to a role (blocks). */
function in(): string
{
    $line = fgets(STDIN);

    return $line === false ? '' : rtrim($line, "\n");
}

/** Starts this script again as $role with $args. */
function spawn(string $role, string ...$args): Proc
{
    return new Proc($role, $args);
}

/** Another process: this script playing a role, read line by line. */
final class Proc
{
    /** @var resource|null */
    private $process;
    /** @var array<int, resource> */
    private array $pipes;
    private string $buffer = '';
    private string $stderr = '';
    private ?int $exitCode = null;
    public readonly int $pid;

    public function __construct(public readonly string $role, array $args)
    {
        $command = [PHP_BINARY];
        if ($so = getenv('REDIS_LOCK_SO')) {
            $command[] = '-d';
            $command[] = 'extension=' . $so;
        }
        array_push($command, $_SERVER['SCRIPT_FILENAME'], $role, ...$args);
        $process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
        if (!is_resource($process)) {
            throw new RuntimeException("cannot start $role");
        }
        stream_set_blocking($pipes[1], false);
        stream_set_blocking($pipes[2], false);
        $this->process = $process;
        $this->pipes = $pipes;
        $this->pid = proc_get_status($process)['pid'];
    }

    /**
     * The next line the role wrote, split into its text and the time it was
     * written: [text, time]. Fails after $timeout seconds or at its end.
     *
     * @return array{0: string, 1: float}
     */
    public function read(float $timeout = 15.0): array
    {
        $line = $this->readRaw($timeout);
        $space = strrpos($line, ' ');

        return [substr($line, 0, $space), (float) substr($line, $space + 1)];
    }

    /** The next line as read() gives it, or null when none comes within $seconds. */
    public function poll(float $seconds): ?array
    {
        try {
            return $this->read($seconds);
        } catch (E2EFailure $e) {
            if ($this->process === null || feof($this->pipes[1])) {
                throw $e;
            }

            return null;
        }
    }

    /** Reads lines until one whose text is $text (or starts with "$text "); its time. */
    public function expect(string $text, float $timeout = 15.0): float
    {
        $deadline = microtime(true) + $timeout;
        do {
            [$line, $time] = $this->read(max(0.01, $deadline - microtime(true)));
            if ($line === $text || str_starts_with($line, $text . ' ')) {
                return $time;
            }
        } while (true);
    }

    /** Every line up to the role's end, and its exit code. @return array{0: list<string>, 1: int} */
    public function finish(float $timeout = 15.0): array
    {
        $code = $this->wait($timeout);
        $lines = [];
        foreach (explode("\n", rtrim($this->buffer, "\n")) as $line) {
            if ($line !== '') {
                $lines[] = substr($line, 0, (int) strrpos($line, ' '));
            }
        }
        $this->buffer = '';

        return [$lines, $code];
    }

    public function send(string $line): void
    {
        fwrite($this->pipes[0], $line . "\n");
        fflush($this->pipes[0]);
    }

    public function kill(int $signal = SIGKILL): void
    {
        if ($this->process !== null) {
            posix_kill($this->pid, $signal);
        }
    }

    /** Waits for the role to end; its exit code (128 + signal when killed). */
    public function wait(float $timeout = 15.0): int
    {
        $deadline = microtime(true) + $timeout;
        while ($this->process !== null) {
            $status = proc_get_status($this->process);
            $this->drain();
            if (!$status['running']) {
                $this->exitCode = $status['signaled'] ? 128 + $status['termsig'] : $status['exitcode'];
                // What it wrote and nobody read yet: for the next check's failure.
                $GLOBALS['__e2e_ended'][] = sprintf('%s (pid %d, exit %d): %s', $this->role, $this->pid, $this->exitCode, $this->describe());
                foreach ($this->pipes as $pipe) {
                    fclose($pipe);
                }
                proc_close($this->process);
                $this->process = null;
                break;
            }
            if (microtime(true) > $deadline) {
                $this->kill();
                throw new E2EFailure("{$this->role} did not end within {$timeout} s: " . $this->describe());
            }
            usleep(5000);
        }

        return $this->exitCode;
    }

    public function stderr(): string
    {
        return $this->stderr;
    }

    public function __destruct()
    {
        if ($this->process !== null) {
            $this->kill();
            try {
                $this->wait(5);
            } catch (Throwable) {
            }
        }
    }

    private function readRaw(float $timeout): string
    {
        $deadline = microtime(true) + $timeout;
        while (($newline = strpos($this->buffer, "\n")) === false) {
            $left = $deadline - microtime(true);
            if ($left <= 0) {
                throw new E2EFailure("no line from {$this->role} within {$timeout} s; " . $this->describe());
            }
            if ($this->process === null || feof($this->pipes[1])) {
                throw new E2EFailure("{$this->role} ended without the expected line; " . $this->describe());
            }
            $read = [$this->pipes[1], $this->pipes[2]];
            $write = $except = null;
            if (@stream_select($read, $write, $except, 0, (int) min(100000, $left * 1e6)) > 0) {
                $this->drain();
            }
        }
        $line = substr($this->buffer, 0, $newline);
        $this->buffer = substr($this->buffer, $newline + 1);

        return $line;
    }

    private function drain(): void
    {
        foreach ([1, 2] as $i) {
            while (is_resource($this->pipes[$i]) && ($chunk = fread($this->pipes[$i], 65536)) !== false && $chunk !== '') {
                if ($i === 1) {
                    $this->buffer .= $chunk;
                } else {
                    $this->stderr .= $chunk;
                }
            }
        }
    }

    private function describe(): string
    {
        $this->drain();

        return 'stdout ' . json_encode($this->buffer) . ', stderr ' . json_encode(substr($this->stderr, 0, 2000));
    }
}

// ---------------------------------------------------------------- Laravel

/** Skips the test unless laravel_app() can make an application (Laravel 11+). */
function need_laravel(): void
{
    need(load('Illuminate'), 'needs Laravel 11+ (php-laravel-framework), not installed');
    need(method_exists(Illuminate\Foundation\Application::class, 'configure'), 'needs Laravel 11+ (Application::configure()); installed: ' . Illuminate\Foundation\Application::VERSION);
}

/**
 * A Laravel application as bootstrap/app.php makes it (Laravel 11+:
 * Application::configure()), in a temporary base path whose config/*.php
 * files hold $config (file name => array), with the redis_lock cache driver's
 * service provider, $commands and $schedule, and whatever $build does with
 * the ApplicationBuilder (routes, middleware); console kernel bootstrapped.
 * Laravel's own config files (Illuminate/config) fill in the rest.
 *
 * @param array<string, array> $config
 */
function laravel_app(array $config, array $commands = [], ?Closure $schedule = null, ?Closure $build = null): Illuminate\Foundation\Application
{
    need_laravel();
    $base = e2e_tmp('laravel');
    foreach (['config', 'bootstrap/cache', 'storage/framework/cache/data', 'storage/logs', 'routes'] as $dir) {
        @mkdir("$base/$dir", 0700, true);
    }
    $config['app'] = ($config['app'] ?? []) + ['key' => 'base64:' . base64_encode(str_repeat('k', 32)), 'cipher' => 'AES-256-CBC', 'env' => 'testing', 'debug' => true];
    $config['logging'] = ($config['logging'] ?? []) + ['default' => 'stderr', 'channels' => ['stderr' => ['driver' => 'monolog', 'handler' => Monolog\Handler\StreamHandler::class, 'with' => ['stream' => 'php://stderr']]]];
    foreach ($config as $file => $values) {
        file_put_contents("$base/config/$file.php", "<?php\n\nreturn " . var_export($values, true) . ";\n");
    }
    $builder = Illuminate\Foundation\Application::configure(basePath: $base)
        ->withProviders([RedisLock\Laravel\RedisLockServiceProvider::class])
        ->withCommands($commands)
        ->withExceptions(static function (): void {
        });
    if ($schedule !== null) {
        $builder->withSchedule($schedule);
    }
    if ($build !== null) {
        $build($builder);
    }
    $app = $builder->create();
    // Debian installs Laravel's own config files in Illuminate/config, not
    // where LoadConfiguration looks for them (vendor/laravel/framework/config):
    // this application's config/ then has everything it needs by itself.
    if (!is_dir(dirname((new ReflectionClass(Illuminate\Foundation\Bootstrap\LoadConfiguration::class))->getFileName(), 4) . '/config')) {
        $app->dontMergeFrameworkConfiguration();
    }
    $app->make(Illuminate\Contracts\Console\Kernel::class)->bootstrap();
    e2e_handle_failures();

    return $app;
}

/**
 * config/cache.php of the Laravel tests: the default store is a redis_lock
 * store (as docs/frameworks.md configures it), so that every lock Laravel takes
 * through the default cache (queue middleware, unique jobs, the scheduler,
 * isolated commands) is ours; cache data goes to the array store.
 */
function laravel_cache_config(int $lease = 2): array
{
    return [
        'default' => 'locks',
        'stores' => [
            'locks' => ['driver' => 'redis_lock', 'cache' => 'array', 'server' => getenv('REDIS_LOCK_SERVER') ?: null, 'prefix' => 'app:', 'lease' => $lease],
            'array' => ['driver' => 'array', 'serialize' => false],
        ],
        'prefix' => 'app_cache_',
    ];
}

/**
 * For tests of the Cache facade alone: laravel_app() where Laravel 11+ is
 * installed; otherwise (Debian 12's php-illuminate-*, Laravel 8, no
 * Foundation) a container with the same config/cache.php, the cache manager
 * and the redis_lock service provider.
 */
function laravel_cache_app(int $lease = 2): void
{
    if (load('Illuminate') && method_exists(Illuminate\Foundation\Application::class, 'configure')) {
        laravel_app(['cache' => laravel_cache_config($lease), 'queue' => laravel_queue_config()]);

        return;
    }
    need(load('Illuminate/Cache', 'Illuminate/Container', 'Illuminate/Config', 'Illuminate/Support'),
        'Laravel is not installed (apt-get install php-laravel-framework, or php-illuminate-cache php-illuminate-container php-illuminate-config)');
    $app = new Illuminate\Container\Container();
    Illuminate\Container\Container::setInstance($app);
    $app->instance('config', new Illuminate\Config\Repository(['cache' => laravel_cache_config($lease)]));
    $app->singleton('cache', fn ($app) => new Illuminate\Cache\CacheManager($app));
    Illuminate\Support\Facades\Facade::setFacadeApplication($app);
    (new RedisLock\Laravel\RedisLockServiceProvider($app))->register();
    e2e_handle_failures();
}

/** config/queue.php of the Laravel tests: jobs run in the process that dispatches them (sync), or at its end (deferred). */
function laravel_queue_config(): array
{
    return [
        'default' => 'sync',
        'connections' => ['sync' => ['driver' => 'sync'], 'deferred' => ['driver' => 'deferred']],
        'failed' => ['driver' => 'null'],
    ];
}

/** Runs an artisan command line as the artisan script does; its exit code (output to this process' stdout). */
function artisan(Illuminate\Foundation\Application $app, string ...$args): int
{
    $input = new Symfony\Component\Console\Input\ArgvInput(['artisan', ...$args]);
    $kernel = $app->make(Illuminate\Contracts\Console\Kernel::class);
    $output = new Symfony\Component\Console\Output\StreamOutput(STDERR);
    $status = $kernel->handle($input, $output);
    $kernel->terminate($input, $status);

    return $status;
}

// ---------------------------------------------------------------- Symfony

/** Skips the test unless symfony_kernel() can boot (FrameworkBundle, Composer's InstalledVersions). */
function need_symfony_kernel(): void
{
    need(load('Symfony/Bundle/FrameworkBundle'), 'symfony/framework-bundle is not installed (apt-get install php-symfony-framework-bundle)');
    // The bundle registers its console commands only where the console is
    // there when the container is built (the tests load the other components).
    load('Symfony/Component/Console');
    // The DI container asks Composer's InstalledVersions which packages are
    // there (every Composer project has it; Debian ships it in composer).
    if (!class_exists(Composer\InstalledVersions::class)) {
        $file = stream_resolve_include_path('Composer/InstalledVersions.php') ?: '/usr/share/php/Composer/InstalledVersions.php';
        need(is_file($file), 'FrameworkBundle needs Composer\InstalledVersions (apt-get install composer)');
        require_once $file;
    }
}

/**
 * A minimal Symfony application: FrameworkBundle and the configuration a
 * user copies (adapters/config/symfony/redis_lock.php), plus $configure for
 * the test's own services and framework settings. Booted.
 *
 * @param Closure(Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator): void|null $configure
 */
function symfony_kernel(?Closure $configure = null): Symfony\Component\HttpKernel\KernelInterface
{
    need_symfony_kernel();
    if (!class_exists('RedisLockE2EKernel', false)) {
        /** The application: FrameworkBundle, the shipped configuration, the test's. */
        final class RedisLockE2EKernel extends Symfony\Component\HttpKernel\Kernel
        {
            use Symfony\Bundle\FrameworkBundle\Kernel\MicroKernelTrait;

            private string $dir;

            public function __construct(string $environment, bool $debug, private ?Closure $configure)
            {
                parent::__construct($environment, $debug);
                $this->dir = e2e_tmp('symfony');
            }

            public function registerBundles(): iterable
            {
                return [new Symfony\Bundle\FrameworkBundle\FrameworkBundle()];
            }

            public function getProjectDir(): string
            {
                return $this->dir;
            }

            protected function configureContainer(Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator $container): void
            {
                $container->extension('framework', ['secret' => 'e2e']);
                $container->import(dirname(__DIR__) . '/config/symfony/redis_lock.php');
                if ($this->configure !== null) {
                    ($this->configure)($container);
                }
            }
        }
    }
    $kernel = new RedisLockE2EKernel('test', false, $configure);
    $kernel->boot();
    e2e_handle_failures();

    return $kernel;
}

/** Runs a bin/console command line (FrameworkBundle's console application); its exit code (output to stderr). */
function symfony_console(Symfony\Component\HttpKernel\KernelInterface $kernel, string ...$args): int
{
    need(load('Symfony/Component/Console'), 'symfony/console is not installed (apt-get install php-symfony-console)');
    $application = new Symfony\Bundle\FrameworkBundle\Console\Application($kernel);
    $application->setAutoExit(false);

    return $application->run(new Symfony\Component\Console\Input\ArgvInput(['bin/console', ...$args]), new Symfony\Component\Console\Output\StreamOutput(STDERR));
}

/**
 * Ends the process the way $how says: a fatal error (exhausted `memory`, a
 * time limit: `timeout`), `exit`, a catchable `error`, or an uncaught
 * `exception` reported by PHP itself.
 */
function die_by(string $how): void
{
    switch ($how) {
        case 'memory':
            // A little room above what the process uses, then small
            // allocations until memory_limit is exhausted.
            ini_set('memory_limit', (string) (memory_get_usage(true) + 8 * 1024 * 1024));
            $chain = null;
            while (true) {
                $link = new stdClass();
                $link->next = $chain;
                $chain = $link;
            }
            // no break: never reached
        case 'timeout':
            set_time_limit(1);
            while (true) {
            }
            // no break: never reached
        case 'exit':
            exit(3);
        case 'error':
            undefined_function_of_the_test();
            // no break: never reached
        case 'exception':
            set_exception_handler(null); // PHP's own: "Uncaught ..."
            throw new RuntimeException('uncaught');
    }
    throw new LogicException("no death $how");
}
