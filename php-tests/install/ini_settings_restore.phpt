--TEST--
redis_lock.* settings: ini_set() returns the old value, ini_get() shows the new one, ini_restore() brings back the default
--FILE--
<?php
$settings = [
    'redis_lock.server' => 'redis://127.0.0.1:1',
    'redis_lock.prefix' => 'p:',
    'redis_lock.connect_timeout' => '2.5',
    'redis_lock.read_timeout' => '0.25',
    'redis_lock.release_on_shutdown' => '0',
    'redis_lock.tls_ca_file' => '/nonexistent/ca.pem',
];
foreach ($settings as $name => $value) {
    $default = ini_get($name);
    $old = ini_set($name, $value);
    $now = ini_get($name);
    ini_restore($name);
    printf("%s: default %s, ini_set returned the old value: %s, set: %s, restored: %s\n", $name,
        json_encode($default), var_export($old === $default, true), var_export($now === $value, true),
        var_export(ini_get($name) === $default, true));
}
?>
--EXPECT--
redis_lock.server: default "redis:\/\/127.0.0.1:6379", ini_set returned the old value: true, set: true, restored: true
redis_lock.prefix: default "lock:", ini_set returned the old value: true, set: true, restored: true
redis_lock.connect_timeout: default "1", ini_set returned the old value: true, set: true, restored: true
redis_lock.read_timeout: default "1", ini_set returned the old value: true, set: true, restored: true
redis_lock.release_on_shutdown: default "1", ini_set returned the old value: true, set: true, restored: true
redis_lock.tls_ca_file: default "", ini_set returned the old value: true, set: true, restored: true
