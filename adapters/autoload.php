<?php

/*
 * Autoloader for projects without Composer: require this file, then the
 * framework's own autoloader (on Debian: /usr/share/php/Symfony/Component/Lock/autoload.php
 * or /usr/share/php/Illuminate/Cache/autoload.php). PSR-4: RedisLock\ => src/.
 */

spl_autoload_register(static function (string $class): void {
    if (strncmp($class, 'RedisLock\\', 10) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, 10)) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
