<?php
// symfony/lock 5.4 RedisStore over a persistent phpredis connection (pconnect()).
require __DIR__ . '/_symfony.php';
bench_symfony(true);
