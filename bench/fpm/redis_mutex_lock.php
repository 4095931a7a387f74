<?php
// RedisMutexLock (this extension): lock() + release() on the connection the
// extension keeps open in this worker across requests (redis_lock.server is
// set in the pool's conf.d). One key per worker: uncontended.
$key = 'bench:fpm:redis_mutex_lock:' . getmypid();
if (!RedisMutexLock::lock($key, 0, 10) || !RedisMutexLock::release($key)) {
    http_response_code(500);
    exit("lock or release failed\n");
}
echo "ok\n";
