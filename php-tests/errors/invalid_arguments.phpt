--TEST--
Invalid arguments throw ValueError/TypeError/ArgumentCountError worded as PHP's own, before any contact with Redis
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$connections = fn () => (int) preg_replace('/.*total_connections_received:(\d+).*/s', '$1', $redis->cmd('INFO', 'stats'));
$before = $connections();

$calls = [
    'lock empty key' => fn () => RedisMutexLock::lock(''),
    'release empty key' => fn () => RedisMutexLock::release(''),
    'timeout -1' => fn () => RedisMutexLock::lock('k', -1),
    'timeout -0.001' => fn () => RedisMutexLock::lock('k', -0.001),
    'timeout NAN' => fn () => RedisMutexLock::lock('k', NAN),
    'timeout INF' => fn () => RedisMutexLock::lock('k', INF),
    'timeout -INF' => fn () => RedisMutexLock::lock('k', -INF),
    'lockSecond 0' => fn () => RedisMutexLock::lock('k', 0, 0),
    'lockSecond -1' => fn () => RedisMutexLock::lock('k', 0, -1),
    'lockSecond 4611686018427388' => fn () => RedisMutexLock::lock('k', 0, 4611686018427388),
    'lockSecond PHP_INT_MAX' => fn () => RedisMutexLock::lock('k', 0, PHP_INT_MAX),
    'lockSecond PHP_INT_MIN' => fn () => RedisMutexLock::lock('k', 0, PHP_INT_MIN),
    'sleep -1' => fn () => RedisMutexLock::lock('k', 0, 20, -1),
    'sleep PHP_INT_MIN' => fn () => RedisMutexLock::lock('k', 0, 20, PHP_INT_MIN),
    'key array' => fn () => RedisMutexLock::lock([]),
    'key object' => fn () => RedisMutexLock::lock(new stdClass()),
    'timeout string' => fn () => RedisMutexLock::lock('k', 'soon'),
    'timeout array' => fn () => RedisMutexLock::lock('k', []),
    'lockSecond string' => fn () => RedisMutexLock::lock('k', 0, '5 s'),
    'lockSecond 1e30' => fn () => RedisMutexLock::lock('k', 0, 1e30),
    'lockSecond NAN' => fn () => RedisMutexLock::lock('k', 0, NAN),
    'sleep string' => fn () => RedisMutexLock::lock('k', 0, 20, 'x'),
    'release key array' => fn () => RedisMutexLock::release([]),
    'lock no args' => fn () => RedisMutexLock::lock(),
    'lock 5 args' => fn () => RedisMutexLock::lock('k', 0, 20, 100, 5),
    'release no args' => fn () => RedisMutexLock::release(),
    'release 2 args' => fn () => RedisMutexLock::release('k', 'x'),
];
foreach ($calls as $name => $call) {
    echo "$name: ", rl_show(rl_timed($call)[0]), "\n";
}

// Malformed servers; a password in them is never repeated.
foreach ([
    'localhost:6379', 'http://127.0.0.1', 'redis:/127.0.0.1', '', 'redis://', 'redis://:1',
    'redis://127.0.0.1:0', 'redis://127.0.0.1:65536', 'redis://127.0.0.1:-1', 'redis://127.0.0.1:x',
    'redis://127.0.0.1/x', 'redis://127.0.0.1/-1', 'redis://127.0.0.1?timeout=1', 'redis://[::1',
    'unix://relative.sock', 'unix:///tmp/x.sock?db=z',
    'redis://hunter2@127.0.0.1', 'redis://user:hunter2@127.0.0.1:0', 'rediss://:hunter2@127.0.0.1:99999',
    'redis://:hunter2%zz@127.0.0.1',
] as $dsn) {
    ini_set('redis_lock.server', $dsn);
    $lock = rl_show(rl_timed(fn () => RedisMutexLock::lock('k'))[0]);
    $release = rl_show(rl_timed(fn () => RedisMutexLock::release('k'))[0]);
    echo json_encode($dsn), ": $lock", str_contains($lock . $release, 'hunter2') ? ' (LEAKS THE PASSWORD)' : '',
        $release === str_replace('::lock()', '::release()', $lock) ? '' : "; release: $release", "\n";
}
ini_set('redis_lock.server', $redis->dsn());

// Timeouts that are not a positive number of seconds.
foreach (['redis_lock.connect_timeout', 'redis_lock.read_timeout'] as $setting) {
    $good = ini_get($setting);
    foreach (['0', '-1', '-0.5', 'x', '', 'nan', 'inf', '1e400', '1s'] as $value) {
        ini_set($setting, $value);
        echo rl_show(rl_timed(fn () => RedisMutexLock::lock('k'))[0]), "\n";
    }
    ini_set($setting, $good);
}

echo "keys: ", json_encode($redis->keys()), ", connections made: ", $connections() - $before, "\n";
// Still usable, with the extreme valid values.
var_dump(RedisMutexLock::lock('k', 0, 4611686018427387, 0));
echo "ttl of the longest lock: ", var_export($redis->cmd('PTTL', 'lock:k') > 4611686018427386000, true), "\n";
var_dump(RedisMutexLock::release('k'));
?>
--EXPECTF--
lock empty key: ValueError: RedisMutexLock::lock(): Argument #1 ($key) must not be empty
release empty key: ValueError: RedisMutexLock::release(): Argument #1 ($key) must not be empty
timeout -1: ValueError: RedisMutexLock::lock(): Argument #2 ($timeout) must be greater than or equal to 0
timeout -0.001: ValueError: RedisMutexLock::lock(): Argument #2 ($timeout) must be greater than or equal to 0
timeout NAN: ValueError: RedisMutexLock::lock(): Argument #2 ($timeout) must be a finite number
timeout INF: ValueError: RedisMutexLock::lock(): Argument #2 ($timeout) must be a finite number
timeout -INF: ValueError: RedisMutexLock::lock(): Argument #2 ($timeout) must be a finite number
lockSecond 0: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
lockSecond -1: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
lockSecond 4611686018427388: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
lockSecond PHP_INT_MAX: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
lockSecond PHP_INT_MIN: ValueError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be between 1 and 4611686018427387
sleep -1: ValueError: RedisMutexLock::lock(): Argument #4 ($sleep) must be greater than or equal to 0
sleep PHP_INT_MIN: ValueError: RedisMutexLock::lock(): Argument #4 ($sleep) must be greater than or equal to 0
key array: TypeError: RedisMutexLock::lock(): Argument #1 ($key) must be of type string, array given
key object: TypeError: RedisMutexLock::lock(): Argument #1 ($key) must be of type string, stdClass given
timeout string: TypeError: RedisMutexLock::lock(): Argument #2 ($timeout) must be of type float, string given
timeout array: TypeError: RedisMutexLock::lock(): Argument #2 ($timeout) must be of type float, array given
lockSecond string: TypeError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be of type int, string given
lockSecond 1e30: TypeError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be of type int, float given
lockSecond NAN: TypeError: RedisMutexLock::lock(): Argument #3 ($lockSecond) must be of type int, float given
sleep string: TypeError: RedisMutexLock::lock(): Argument #4 ($sleep) must be of type int, string given
release key array: TypeError: RedisMutexLock::release(): Argument #1 ($key) must be of type string, array given
lock no args: ArgumentCountError: RedisMutexLock::lock() expects at least 1 argument, 0 given
lock 5 args: ArgumentCountError: RedisMutexLock::lock() expects at most 4 arguments, 5 given
release no args: ArgumentCountError: RedisMutexLock::release() expects exactly 1 argument, 0 given
release 2 args: ArgumentCountError: RedisMutexLock::release() expects exactly 1 argument, 2 given
"localhost:6379": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel://
"http:\/\/127.0.0.1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel://
"redis:\/127.0.0.1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel://
"": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel://
"redis:\/\/": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: the host is missing
"redis:\/\/:1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: the host is missing
"redis:\/\/127.0.0.1:0": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid port (expected 1 to 65535)
"redis:\/\/127.0.0.1:65536": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid port (expected 1 to 65535)
"redis:\/\/127.0.0.1:-1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid port (expected 1 to 65535)
"redis:\/\/127.0.0.1:x": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid port (expected 1 to 65535)
"redis:\/\/127.0.0.1\/x": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid database index (expected 0 to 4294967295)
"redis:\/\/127.0.0.1\/-1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid database index (expected 0 to 4294967295)
"redis:\/\/127.0.0.1?timeout=1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: unknown query parameter (known: db, user, password, wait_replicas)
"redis:\/\/[::1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: unclosed [ in the host
"unix:\/\/relative.sock": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: a unix socket path must be absolute (unix:///path/to.sock)
"unix:\/\/\/tmp\/x.sock?db=z": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid database index (expected 0 to 4294967295)
"redis:\/\/hunter2@127.0.0.1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: the user information must be user:password or :password
"redis:\/\/user:hunter2@127.0.0.1:0": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid port (expected 1 to 65535)
"rediss:\/\/:hunter2@127.0.0.1:99999": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: invalid port (expected 1 to 65535)
"redis:\/\/:hunter2%zz@127.0.0.1": ValueError: RedisMutexLock::lock(): redis_lock.server is not a valid server: password: invalid %-escape
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "0" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "-1" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "-0.5" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "x" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "nan" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "inf" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "1e400" given
ValueError: RedisMutexLock::lock(): redis_lock.connect_timeout must be a number of seconds of at least 0.001, "1s" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "0" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "-1" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "-0.5" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "x" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "nan" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "inf" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "1e400" given
ValueError: RedisMutexLock::lock(): redis_lock.read_timeout must be a number of seconds of at least 0.001, "1s" given
keys: [], connections made: 0
bool(true)
ttl of the longest lock: true
bool(true)
