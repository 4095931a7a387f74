<?php
// Laravel 8 RedisStore::lock() over a persistent phpredis connection ('persistent' => true: pconnect).
require __DIR__ . '/_laravel.php';
bench_laravel(true);
