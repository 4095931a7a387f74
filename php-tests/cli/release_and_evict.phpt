--TEST--
redis-lock release and evict against locks of PHP processes: --owner with a wrong token is refused (exit 1, the lock stays), with the holder's token releases it (handed to the queued waiter); --force releases whoever holds it; a shared lock's --owner releases that token's hold only, --force every hold; evict drops the place of a waiter that was SIGKILLed (the others keep theirs, in order), and a second evict finds nothing (exit 1)
--SKIPIF--
<?php if (!function_exists('proc_open') || !function_exists('posix_kill') || !is_executable(__DIR__ . '/../../target/release/redis-lock')) die('skip redis-lock not built, or no posix'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';

$redis = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());
$srv = ['--server', $redis->dsn()];
$a = new RlActor($redis);
$c = new RlActor($redis);
$pids = rl_actor_pids(['a' => $a, 'c' => $c]);
$short = fn (array $r) => preg_replace('#redis://127\.0\.0\.1:\d+#', 'SERVER_DSN', "exit {$r['status']}" . ($r['err'] !== '' ? ': ' . trim($r['err']) : '') . ($r['out'] !== '' ? ' / ' . trim($r['out']) : ''));

// A mutex held by a, with c queued behind it.
echo "a locks: ", json_encode($a->result('RedisMutexLock::lock', 'job', 0, 30)), "\n";
$c->send('RedisMutexLock::lock', 'job', 20, 30);
rl_eventually(fn () => RedisMutexLock::inspect('job')['waiters'], 1, 5);
$token = rl_cli_json([...$srv, 'show', 'job', '--json'])[0]['holders'][0]['token'];
echo "wrong owner: ", $short(rl_cli([...$srv, 'release', 'job', '--owner', 'not-the-token'])), "\n";
// (the value is the token, and a mark while others wait)
echo "  still held by a: ", json_encode(str_starts_with((string) $redis->cmd('GET', 'lock:job'), $token)), "\n";
echo "right owner: ", $short(rl_cli([...$srv, 'release', 'job', '--owner', $token])), "\n";
$got = $c->answer(5);
echo "  c got it: ", json_encode($got['r'] ?? $got['e']), ", a's token gone: ", json_encode(!str_starts_with((string) $redis->cmd('GET', 'lock:job'), $token)), "\n";
echo "force: ", $short(rl_cli([...$srv, 'release', 'job', '--force'])), "\n";
echo "  key gone: ", json_encode($redis->cmd('EXISTS', 'lock:job')), "\n";
echo "force again: ", $short(rl_cli([...$srv, 'release', 'job', '--force'])), "\n";

// A read/write lock with two readers.
$a->call('RedisReadWriteLock::lockRead', 'doc', 0, 30);
$c->call('RedisReadWriteLock::lockRead', 'doc', 0, 30);
$holders = rl_cli_json([...$srv, 'show', 'doc', '--json'])[0]['holders'];
$ofA = array_values(array_filter($holders, fn ($h) => $h['pid'] === array_search('a', $pids)))[0]['token'];
echo "reader a by owner: ", $short(rl_cli([...$srv, 'release', 'doc', '--owner', $ofA])), "\n";
echo "  holders left: ", implode(',', array_map(fn ($h) => $pids[$h['pid']], rl_cli_json([...$srv, 'show', 'doc', '--json'])[0]['holders'])), "\n";
echo "  same token again: ", $short(rl_cli([...$srv, 'release', 'doc', '--owner', $ofA])), "\n";
$a->call('RedisReadWriteLock::lockRead', 'doc', 0, 30);
echo "force both readers: ", $short(rl_cli([...$srv, 'release', 'doc', '--force'])), "\n";
echo "  doc listed: ", json_encode(rl_cli_json([...$srv, 'list', 'doc', '--json'])), "\n";

// A waiter killed while queued: its place stays until evicted.
echo "a locks q: ", json_encode($a->result('RedisMutexLock::lock', 'q', 0, 30)), "\n";
$dead = new RlActor($redis);
$deadPid = $dead->result('getmypid');
$dead->send('RedisMutexLock::lock', 'q', 20, 30);
rl_eventually(fn () => RedisMutexLock::inspect('q')['waiters'], 1, 5);
$c->send('RedisMutexLock::lock', 'q', 20, 30);
rl_eventually(fn () => RedisMutexLock::inspect('q')['waiters'], 2, 5);
posix_kill($deadPid, SIGKILL);
$dead->finish();
$w = rl_cli_json([...$srv, 'show', 'q', '--json'])[0]['waiters'];
echo "queue: ", implode(',', array_map(fn ($x) => $x['pid'] === $deadPid ? 'dead' : $pids[$x['pid']], $w)), "\n";
echo "evict the dead one: ", $short(rl_cli([...$srv, 'evict', 'q', $w[0]['token']])), "\n";
echo "  queue: ", implode(',', array_map(fn ($x) => $pids[$x['pid']] ?? 'dead', rl_cli_json([...$srv, 'show', 'q', '--json'])[0]['waiters'])), "\n";
echo "evict again: ", $short(rl_cli([...$srv, 'evict', 'q', $w[0]['token']])), "\n";
$t = rl_now();
$a->call('RedisMutexLock::release', 'q');
$got = $c->answer(5);
printf("c served at once after a's release: %s (%s)\n", json_encode($got['r'] ?? $got['e']), json_encode(rl_now() - $t < 1.0));
?>
--EXPECT--
a locks: true
wrong owner: exit 1: redis-lock: not released on SERVER_DSN: that token does not hold it
  still held by a: true
right owner: exit 0 / released job on SERVER_DSN
  c got it: true, a's token gone: true
force: exit 0 / released job on SERVER_DSN
  key gone: 0
force again: exit 1: redis-lock: no lock 'job' (Redis key 'lock:job')
reader a by owner: exit 0 / released doc on SERVER_DSN
  holders left: c
  same token again: exit 1: redis-lock: not released on SERVER_DSN: that token does not hold it
force both readers: exit 0 / released doc on SERVER_DSN
  doc listed: []
a locks q: true
queue: dead,c
evict the dead one: exit 0 / evicted the waiter from q on SERVER_DSN
  queue: c
evict again: exit 1: redis-lock: no waiter with that token in the queue of 'q'
c served at once after a's release: true (true)
