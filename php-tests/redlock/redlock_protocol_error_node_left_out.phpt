--TEST--
RedLock: a master whose reply to the SET makes no sense (garbage) gets the release behind it (the SET may have run) and nothing more from that call: its later attempts leave it out; the next call tries it again
--FILE--
<?php
require __DIR__ . '/../inc/fake_server.inc';
$s = rl_start_servers(2);
rl_warm_up($s);
foreach ($s as $r) {
    $r->cmd('SET', 'busy', 'foreign', 'PX', 60000);
    $r->cmd('CONFIG', 'RESETSTAT');
}
// The real masters answer after 100 ms (a round trip through the proxy), so
// the garbage comes first and is read in the round, as a protocol error.
$proxies = array_map(fn ($r) => new RlDelayProxy($r, 50), $s);
$fake = new RlFakeRedis('garbage', ['only' => ['SET']]);
$servers = [['127.0.0.1', $proxies[0]->port], ['127.0.0.1', $fake->port], ['127.0.0.1', $proxies[1]->port]];
$sent = function () use ($fake): string {
    $names = array_map(fn ($c) => strtoupper($c[1][0] ?? ''), $fake->commands());
    return implode(' ', array_filter($names, fn ($n) => $n !== 'INFO'));
};

// retryDelay 0: three attempts back to back, without a queue.
$rl = new RedLock($servers, 0, 3);
var_dump($rl->lock('busy', 10000));
echo "SET calls on the real masters: ", rl_eventually(fn () => implode(' ', array_map(fn ($r) => $r->calls('set'), $s)), '3 3'), "\n";
// The SET, then what may undo it (the queue's leave, the release) as script text.
echo "sent to the garbled master: ", rl_eventually($sent, 'SET EVAL EVAL'), "\n";

// The next call tries it again.
var_dump($rl->lock('busy', 10000));
echo "then: ", rl_eventually($sent, 'SET EVAL EVAL SET EVAL EVAL'), "\n";
echo "keys: ", rl_all_keys($s), "\n";
?>
--EXPECT--
bool(false)
SET calls on the real masters: 3 3
sent to the garbled master: SET EVAL EVAL
bool(false)
then: SET EVAL EVAL SET EVAL EVAL
keys: ["busy"] ["busy"]
