<?php
// Seed-style polling mutex: SET NX PX + EVAL release, a new phpredis connection per request.
require __DIR__ . '/_phpredis.php';
bench_phpredis(false);
