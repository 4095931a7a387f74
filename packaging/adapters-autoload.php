<?php

// Autoloader of the php-redis-lock-adapters package: the classes under the
// RedisLock\ namespace from this directory, as composer's PSR-4 map loads
// them from adapters/src. /usr/share/php is on Debian's include_path:
//     require_once 'RedisLock/autoload.php';
// The frameworks' classes come from their own autoloaders (Debian's
// php-symfony-lock: Symfony/Component/Lock/autoload.php).
spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'RedisLock\\', 10) !== 0) {
        return;
    }
    $file = __DIR__ . '/' . strtr(substr($class, 10), '\\', '/') . '.php';
    if (is_file($file)) {
        require $file;
    }
});
