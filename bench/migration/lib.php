<?php
/**
 * Shared by run.php and worker.php of the mixed-fleet benchmark: the lock
 * interface every implementation in locks/ fulfils, and the list of
 * implementations. The test suite's RespClient (so that neither the harness
 * nor the hand-rolled lock needs phpredis) and RedisServer come from
 * php-tests/inc/redis_server.inc.
 */

declare(strict_types=1);

namespace Bench\Migration;

require_once __DIR__ . '/../../php-tests/inc/redis_server.inc';

/** One lock implementation, as one worker process uses it. */
interface MixLock
{
    /**
     * What the table calls it. Runs in the worker (so an old build can name its
     * own version).
     */
    public static function label(Options $o): string;

    /** Why it cannot run in this process (a package or extension missing), or null. */
    public static function unavailable(Options $o): ?string;

    /**
     * Takes the lock that lives in Redis key $key, blocking for at most
     * $o->timeout seconds where the implementation has a deadline. true:
     * held; false: gave up (timeout). Throws on any other failure.
     */
    public function acquire(string $key): bool;

    /** Releases what acquire() took; false when the implementation says it was no longer ours. */
    public function release(): bool;
}

/** The run's settings, the same for every worker of a run (run.php passes them as JSON). */
final class Options
{
    public function __construct(
        public string $host = '127.0.0.1',
        public int $port = 0,
        public string $key = 'lock:mix',          // the one Redis key every implementation locks
        public string $counterKey = 'bench:migration:counter',
        public float $timeout = 5.0,              // seconds a blocking acquire may wait
        public int $ttl = 20,                     // seconds every implementation takes the lock for
        public int $sleep = 100_000,              // µs between the hand-rolled lock's attempts
        public int $sectionUs = 500,              // inside the lock, between GET and SET
        public int $outsideUs = 3000,             // after release, before the next acquire
        public string $adapters = '',             // adapters/ (ours-laravel, ours-symfony)
    ) {
    }

    public static function fromJson(string $json): self
    {
        return new self(...json_decode($json, true, 4, JSON_THROW_ON_ERROR));
    }

    public function toJson(): string
    {
        return json_encode(get_object_vars($this), JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES);
    }

    public function dsn(): string
    {
        return "redis://{$this->host}:{$this->port}";
    }
}

/**
 * name => class (in locks/<Class>.php). "old" is "ours" run by another build
 * of the extension (run.php starts that worker with php -n -d extension=<.so>).
 */
const IMPLEMENTATIONS = [
    'handrolled' => HandRolledLock::class,
    'ours' => OursLock::class,
    'old' => OursLock::class,
    'ours-laravel' => OursLaravelLock::class,
    'ours-symfony' => OursSymfonyLock::class,
    'laravel' => LaravelLock::class,
    'symfony' => SymfonyLock::class,
    'none' => NoLock::class,
];

function load_implementation(string $name): string
{
    $class = IMPLEMENTATIONS[$name] ?? throw new \InvalidArgumentException("unknown implementation '$name'");
    require_once __DIR__ . '/locks/' . substr($class, strrpos($class, '\\') + 1) . '.php';
    return $class;
}

/** "symfony/lock 7.4.22": a Debian package's upstream version, under the name given; '' when not installed. */
function package_version(string $package, string $name): string
{
    $v = trim((string) shell_exec('dpkg-query -W -f=\'${Version}\' ' . escapeshellarg($package) . ' 2>/dev/null'));
    return $v === '' ? '' : "$name " . preg_replace('/^\d+:|[+~-].*$/', '', $v);
}

/** Requires a Debian autoloader (/usr/share/php is on the include path); false when it is not installed. */
function require_debian(string $file): bool
{
    $path = stream_resolve_include_path($file) ?: (is_file("/usr/share/php/$file") ? "/usr/share/php/$file" : false);
    if ($path === false) {
        return false;
    }
    require_once $path;
    return true;
}

/**
 * The redis_lock name for a Redis key: the extension prepends
 * redis_lock.prefix ("lock:" by default) to every name, so "lock:mix" is
 * RedisMutexLock::lock("mix"). An old build without that setting prepends
 * nothing.
 */
function extension_name(string $key): string
{
    $prefix = (string) ini_get('redis_lock.prefix');
    if (!str_starts_with($key, $prefix)) {
        throw new \InvalidArgumentException("--key=$key does not start with redis_lock.prefix '$prefix' of this build: the extension could not lock that key");
    }
    return substr($key, strlen($prefix));
}

/** "redis_lock 0.2.0": the version of the build this process loaded. */
function build(): string
{
    return 'redis_lock ' . (phpversion('redis_lock') ?: '?');
}

