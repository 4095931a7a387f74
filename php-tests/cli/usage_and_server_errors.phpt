--TEST--
redis-lock's exit codes and messages: a usage error exits 2 with a message on stderr naming the bad argument (and never a password); a server that is down or stopped exits 3 with the server and the cause, within the --timeout; with two servers, the one that answers is still listed; --version and --help exit 0
--SKIPIF--
<?php if (!function_exists('proc_open') || !is_executable(__DIR__ . '/../../target/release/redis-lock')) die('skip redis-lock not built'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';

foreach ([
    [], ['frobnicate'], ['list', '--bogus'], ['list', '--server'], ['--server', 'redis://:s3cret@[::1', 'list'],
    ['--server', 'mysql://x', 'list'], ['--timeout', '0', 'list'], ['--timeout', 'soon', 'list'], ['list', '--limit', '0'], ['list', 'a', 'b'],
    ['show'], ['show', ''], ['release', 'k'], ['release', 'k', '--owner', 't', '--force'], ['evict', 'k'], ['show', 'k', '--interval', '1'],
    ['top', '--json'], ['list', '--json=maybe'], ['top'],
] as $args) {
    $r = rl_cli($args);
    printf("%-48s exit %d %s| out %s\n", json_encode($args), $r['status'], str_replace("\nTry 'redis-lock --help'.\n", ' ', $r['err']), json_encode($r['out']));
}
$v = rl_cli(['--version']);
echo "--version: exit {$v['status']} ", trim($v['out']), "\n";
$h = rl_cli(['--help']);
echo "--help: exit {$h['status']}, names every command: ", json_encode(preg_match_all('/^  redis-lock \[OPTIONS\] (list|show|top|release|evict)/m', $h['out']) === 5), "\n";

$port = rl_free_port();
foreach ([['list'], ['show', 'k'], ['release', 'k', '--force'], ['evict', 'k', 't'], ['list', '--json']] as $args) {
    $r = rl_cli(['--server', "redis://127.0.0.1:$port", ...$args]);
    echo json_encode($args), " against a server that is down: exit {$r['status']}: ", str_replace((string) $port, 'PORT', $r['err']);
}
$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
RedisMutexLock::lock('up', 0, 30);
$r = rl_cli(['--server', $redis->dsn(), '--server', "redis://127.0.0.1:$port", 'list', '--json']);
echo "one up, one down: exit {$r['status']}, listed: ", implode(',', array_map(fn ($l) => json_decode($l, true)['key'], array_filter(explode("\n", $r['out'])))), "; ", str_replace((string) $port, 'PORT', $r['err']);
$redis->pause();
$t = rl_now();
$r = rl_cli(['--server', $redis->dsn(), '--timeout', '0.3', 'list']);
$secs = rl_now() - $t;
$redis->resume();
printf("stopped server: exit %d in time %s: %s", $r['status'], json_encode($secs < 2), str_replace((string) $redis->port, 'PORT', $r['err']));
?>
--EXPECTF--
[]                                               exit 2 redis-lock: no command given (list, show, top, release, evict; --help) | out ""
["frobnicate"]                                   exit 2 redis-lock: unknown command 'frobnicate' (list, show, top, release, evict; --help) | out ""
["list","--bogus"]                               exit 2 redis-lock: unknown option '--bogus' | out ""
["list","--server"]                              exit 2 redis-lock: --server needs a DSN, e.g. redis://127.0.0.1:6379 | out ""
["--server","redis:\/\/:s3cret@[::1","list"]     exit 2 redis-lock: --server 'redis://***@[::1' is not a valid server: %s | out ""
["--server","mysql:\/\/x","list"]                exit 2 redis-lock: --server 'mysql://x' is not a valid server: expected redis://, rediss://, unix://, redis-cluster:// or redis-sentinel:// | out ""
["--timeout","0","list"]                         exit 2 redis-lock: --timeout must be a number of seconds from 0.001 to 86400, '0' given | out ""
["--timeout","soon","list"]                      exit 2 redis-lock: --timeout must be a number of seconds from 0.001 to 86400, 'soon' given | out ""
["list","--limit","0"]                           exit 2 redis-lock: --limit must be a whole number of at least 1, '0' given | out ""
["list","a","b"]                                 exit 2 redis-lock: list takes one PATTERN, unexpected 'b' | out ""
["show"]                                         exit 2 redis-lock: show needs KEY | out ""
["show",""]                                      exit 2 redis-lock: show: KEY must not be empty | out ""
["release","k"]                                  exit 2 redis-lock: release needs --owner TOKEN (owner-checked) or --force | out ""
["release","k","--owner","t","--force"]          exit 2 redis-lock: release takes --owner TOKEN or --force, not both | out ""
["evict","k"]                                    exit 2 redis-lock: evict needs TOKEN | out ""
["show","k","--interval","1"]                    exit 2 redis-lock: --interval does not apply to 'show' | out ""
["top","--json"]                                 exit 2 redis-lock: --json does not apply to 'top' | out ""
["list","--json=maybe"]                          exit 2 redis-lock: --json takes no value, 'maybe' given | out ""
["top"]                                          exit 2 redis-lock: top needs a terminal (stdin is not one); use list | out ""
--version: exit 0 redis-lock %d.%d.%d
--help: exit 0, names every command: true
["list"] against a server that is down: exit 3: redis-lock: server error: redis://127.0.0.1:PORT: Redis at 127.0.0.1:PORT: cannot connect: %s
["show","k"] against a server that is down: exit 3: redis-lock: server error: redis://127.0.0.1:PORT: Redis at 127.0.0.1:PORT: cannot connect: %s
["release","k","--force"] against a server that is down: exit 3: redis-lock: server error: redis://127.0.0.1:PORT: Redis at 127.0.0.1:PORT: cannot connect: %s
["evict","k","t"] against a server that is down: exit 3: redis-lock: server error: redis://127.0.0.1:PORT: Redis at 127.0.0.1:PORT: cannot connect: %s
["list","--json"] against a server that is down: exit 3: redis-lock: server error: redis://127.0.0.1:PORT: Redis at 127.0.0.1:PORT: cannot connect: %s
one up, one down: exit 3, listed: up; redis-lock: server error: redis://127.0.0.1:PORT: Redis at 127.0.0.1:PORT: cannot connect: %s
stopped server: exit 3 in time true: redis-lock: server error: redis://127.0.0.1:PORT: Redis at 127.0.0.1:PORT: no reply within 0.3 s
