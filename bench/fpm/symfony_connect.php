<?php
// symfony/lock 5.4 RedisStore, a new phpredis connection per request (connect()).
require __DIR__ . '/_symfony.php';
bench_symfony(false);
