<?php
// Laravel 8 RedisStore::lock(), a new phpredis connection per request ('persistent' => false, Laravel's default).
require __DIR__ . '/_laravel.php';
bench_laravel(false);
