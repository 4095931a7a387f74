<?php
// The same two commands over a persistent phpredis connection (pconnect): the floor.
require __DIR__ . '/_phpredis.php';
bench_phpredis(true);
