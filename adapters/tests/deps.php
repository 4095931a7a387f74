<?php

// Autoloaders shared by the PHPUnit process and its child processes: Debian's
// autoloaders of symfony/lock and illuminate/* (and of symfony/semaphore where
// it is installed), the package's own, and the tests' (RedisLock\Tests\ => tests/).

declare(strict_types=1);

foreach ([
    'Symfony/Component/Lock/autoload.php',
    'Illuminate/Cache/autoload.php',
    'Illuminate/Container/autoload.php',
    'Illuminate/Config/autoload.php',
    'Illuminate/Support/autoload.php',
] as $file) {
    $path = stream_resolve_include_path($file) ?: '/usr/share/php/' . $file;
    if (!is_file($path)) {
        fwrite(STDERR, "missing $file: apt-get install php-symfony-lock php-illuminate-cache php-illuminate-container php-illuminate-config\n");
        exit(2);
    }
    require_once $path;
}

// Optional: symfony/semaphore (RedisSemaphoreStore's tests are skipped without
// it), and the event dispatchers and events of the worker scopes' tests
// (WorkerScopesTest, skipped without them).
foreach ([
    'Symfony/Component/Semaphore/autoload.php',
    'Symfony/Component/EventDispatcher/autoload.php',
    'Symfony/Component/HttpKernel/autoload.php',
    'Symfony/Component/HttpFoundation/autoload.php',
    'Symfony/Component/Messenger/autoload.php',
    'Psr/Log/autoload.php',
] as $file) {
    $path = stream_resolve_include_path($file) ?: '/usr/share/php/' . $file;
    if (is_file($path)) {
        require_once $path;
    }
}

require_once __DIR__ . '/../autoload.php';

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'RedisLock\\Tests\\', 16) === 0) {
        $file = __DIR__ . '/' . str_replace('\\', '/', substr($class, 16)) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});

if (!extension_loaded('redis_lock')) {
    fwrite(STDERR, "the redis_lock extension is not loaded: run scripts/test-adapters.sh, or php -d extension=target/release/libredis_lock.so\n");
    exit(2);
}
