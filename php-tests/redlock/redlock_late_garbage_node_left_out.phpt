--TEST--
RedLock: a master whose garbled answer to the SET comes late (after the round was decided without it, while its connection waits in the pool) counts as failed when that connection is next taken: the waiting call sends it nothing more (no new connection, no more looks, no leave); the next call tries it again
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$s = rl_start_servers(2);
rl_warm_up($s);
foreach ($s as $r) {
    $r->cmd('SET', 'busy', 'foreign', 'PX', 60000);
}
// Garbage 50 ms after each SET, every answer behind it after it: the real
// masters decide the first attempt (both say no), the queue's first look
// goes on the fake's connection before the garbage, the next look (100 ms
// later) finds it there.
$fake = new RlFakeRedis('garbage', ['only' => ['SET'], 'late' => 0.05]);
$servers = [['127.0.0.1', $s[0]->port], ['127.0.0.1', $fake->port], ['127.0.0.1', $s[1]->port]];
$sent = function () use ($fake): string {
    $names = array_map(fn ($c) => strtoupper($c[1][0] ?? ''), $fake->commands());
    return implode(' ', array_filter($names, fn ($n) => $n !== 'INFO' && $n !== 'PING'));
};

// retryDelay 200, retryCount 3: 600 ms of patience, waiting in the queue.
$rl = new RedLock($servers, 200, 3);
[$r, $took] = rl_timed(fn () => $rl->lock('busy', 10000));
var_dump($r);
echo "waited its patience: ", var_export($took > 0.5 && $took < 2.0, true), "\n";
// The SET, what may undo it (the leave and the release, as script text),
// the first look; nothing after the garbage was read.
$first = $sent();
echo "sent to the garbled master: ", preg_match('/^SET EVAL EVAL( EVALSHA){0,2}$/', $first) ? 'SET EVAL EVAL and at most the looks before the garbage' : $first, "\n";
echo "connections: ", $fake->connections(), "\n";

// The next call dials it again.
var_dump($rl->lock('busy', 10000));
$then = $sent();
echo "then: ", str_starts_with($then, $first . ' SET') ? 'a new SET' : $then, ", connections: ", $fake->connections(), "\n";
echo "keys: ", rl_all_keys($s), "\n";
?>
--EXPECT--
bool(false)
waited its patience: true
sent to the garbled master: SET EVAL EVAL and at most the looks before the garbage
connections: 1
bool(false)
then: a new SET, connections: 2
keys: ["busy"] ["busy"]
