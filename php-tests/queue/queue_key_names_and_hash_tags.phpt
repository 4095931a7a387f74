--TEST--
Queue: the queue keys of lock key K (redis_lock.prefix . $key) are "{K}:q" (list), "{K}:t" (zset), "{K}:w:<token>", "{K}:n" (lists), or K:q… when K has a {hash tag} of its own; for a K with a "}" but no valid tag (where "{K}" would hash to another slot), they still hash to K's Cluster slot; every script names them in KEYS; waiting works for each
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();
ini_set('redis_lock.server', $redis->dsn());

foreach (['plain:report', 'user:{42}:report', 'odd}key', 'x{}y', '{}z'] as $key) {
    $K = "lock:$key";
    echo "-- ", json_encode($key), ": ", rl_has_hash_tag($K) ? 'has a hash tag' : 'no hash tag', "\n";
    $book->cmd('FLUSHALL');
    var_dump(RedisMutexLock::lock($key, 0, 20));
    $mon = new RlMonitor($redis);
    $literal = rl_queue_keys($K);
    $exact = !str_contains($K, '}') || rl_has_hash_tag($K);   // the literal rule keeps K's slot
    // Find the queue list: the literal name, else the one list next to K that holds tokens.
    $waiters = [];
    $waiters[0] = new RlWaiter($redis, $book, ['key' => $key, 'i' => 0, 'timeout' => 30, 'hold' => 0.02]);
    $qname = null;
    $deadline = rl_now() + 5;
    while ($qname === null && rl_now() < $deadline) {
        foreach ($redis->keys() as $k) {
            if ($k !== $K && str_ends_with($k, ':q') && $redis->cmd('TYPE', $k) === 'list' && $redis->cmd('LLEN', $k) === 1) {
                $qname = $k;
            }
        }
        rl_sleep(0.005);
    }
    if ($qname === null) {
        throw new RuntimeException("no queue list for $K: " . json_encode($redis->keys()));
    }
    $base = substr($qname, 0, -2);
    $waiters[1] = new RlWaiter($redis, $book, ['key' => $key, 'i' => 1, 'timeout' => 30, 'hold' => 0.02]);
    $deadline = rl_now() + 5;
    while ($redis->cmd('LLEN', $qname) !== 2 && rl_now() < $deadline) {
        rl_sleep(0.005);
    }
    $tokens = $redis->cmd('LRANGE', $qname, 0, -1);
    $types = [];
    foreach ($redis->keys() as $k) {
        if (!str_contains($k, $K)) {
            continue;                       // (left over by an earlier case: shown by its own "keys:" line)
        }
        $types[$k === $K ? 'K' : ($k === $qname ? 'q' : ($k === "$base:t" ? 't' : $k))] = $redis->cmd('TYPE', $k);
    }
    ksort($types);
    echo "while two wait: ", json_encode($types), "\n";
    if ($exact) {
        echo "names as the rule says: ", var_export($qname === $literal['q'], true), "\n";
    } else {
        echo "the literal \"{K}:q\" would hash elsewhere: ", var_export(rl_key_slot($literal['q']) !== rl_key_slot($K), true),
            "; names end in :q/:t and contain K: ", var_export(str_contains($base, $K), true), "\n";
    }
    echo "queue list and zset in K's slot: ", var_export(rl_key_slot($qname) === rl_key_slot($K) && rl_key_slot("$base:t") === rl_key_slot($K), true), "\n";
    RedisMutexLock::release($key);
    foreach ($waiters as $i => $w) {
        $r = $w->result(10);
        echo "waiter $i: ", var_export($r['r'], true), "\n";
        $w->finish(5);
    }
    echo "order: ", implode(' ', $book->cmd('LRANGE', 'order', 0, -1)), "\n";
    // Every key any command touched (script KEYS and plain commands alike).
    $touched = [];
    $undeclared = [];
    foreach ($mon->collect(0.1) as [$client, $args]) {
        $verb = strtoupper($args[0]);
        if ($client === 'lua' || $client === 'unix:' . $redis->socket) {
            continue;
        }
        if ($verb === 'EVAL' || $verb === 'EVALSHA') {
            // numkeys: the first all-digit argument after the script. Valkey
            // 8.1's MONITOR leaves a '"' inside an argument unescaped, so a
            // body holding one reads as several arguments.
            for ($at = 2; isset($args[$at]) && !ctype_digit($args[$at]); $at++);
            $n = (int) ($args[$at] ?? 0);
            foreach (array_slice($args, $at + 1, $n) as $k) {
                $touched[$k] = true;
            }
            // Anything K-like among the script's arguments is a key it did not declare.
            foreach (array_slice($args, $at + 1 + $n) as $a) {
                if (str_contains($a, $K)) {
                    $undeclared[] = $a;
                }
            }
        } elseif (in_array($verb, ['BLMOVE', 'BLPOP', 'BRPOP', 'BRPOPLPUSH', 'BLMPOP', 'SET', 'GET', 'DEL', 'RPUSH', 'LPUSH', 'ZADD', 'PEXPIRE'], true)) {
            foreach (array_slice($args, 1) as $a) {
                if (str_contains($a, $K)) {
                    $touched[$a] = true;
                }
            }
        }
    }
    $mon->close();
    $kinds = [];
    $wrongSlot = [];
    foreach (array_keys($touched) as $k) {
        $k = (string) $k;
        if (rl_key_slot($k) !== rl_key_slot($K)) {
            $wrongSlot[] = $k;
        }
        if ($k === $K) {
            $kinds['K'] = true;
        } elseif ($k === "$base:q") {
            $kinds['q'] = true;
        } elseif ($k === "$base:t") {
            $kinds['t'] = true;
        } elseif ($k === "$base:n") {
            $kinds['n'] = true;
        } elseif (str_starts_with($k, "$base:w:") && in_array(substr($k, strlen("$base:w:")), $tokens, true)) {
            $kinds['w:<token>'] = true;
        } else {
            $kinds['other: ' . $k] = true;
        }
    }
    ksort($kinds);
    echo "keys in commands: ", json_encode(array_keys($kinds)), ", all in K's slot: ", $wrongSlot === [] ? 'true' : 'false ' . json_encode($wrongSlot),
        ", undeclared in scripts: ", json_encode($undeclared), "\n";
    echo "keys: ", rl_keys_left($redis, $tokens, $K), "\n";
}
echo "keys at the end: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
-- "plain:report": no hash tag
bool(true)
while two wait: {"K":"string","q":"list","t":"zset"}
names as the rule says: true
queue list and zset in K's slot: true
waiter 0: true
waiter 1: true
order: 0 1
keys in commands: ["K","n","q","t","w:<token>"], all in K's slot: true, undeclared in scripts: []
keys: []
-- "user:{42}:report": has a hash tag
bool(true)
while two wait: {"K":"string","q":"list","t":"zset"}
names as the rule says: true
queue list and zset in K's slot: true
waiter 0: true
waiter 1: true
order: 0 1
keys in commands: ["K","n","q","t","w:<token>"], all in K's slot: true, undeclared in scripts: []
keys: []
-- "odd}key": no hash tag
bool(true)
while two wait: {"K":"string","q":"list","t":"zset"}
the literal "{K}:q" would hash elsewhere: true; names end in :q/:t and contain K: true
queue list and zset in K's slot: true
waiter 0: true
waiter 1: true
order: 0 1
keys in commands: ["K","n","q","t","w:<token>"], all in K's slot: true, undeclared in scripts: []
keys: []
-- "x{}y": no hash tag
bool(true)
while two wait: {"K":"string","q":"list","t":"zset"}
the literal "{K}:q" would hash elsewhere: true; names end in :q/:t and contain K: true
queue list and zset in K's slot: true
waiter 0: true
waiter 1: true
order: 0 1
keys in commands: ["K","n","q","t","w:<token>"], all in K's slot: true, undeclared in scripts: []
keys: []
-- "{}z": no hash tag
bool(true)
while two wait: {"K":"string","q":"list","t":"zset"}
the literal "{K}:q" would hash elsewhere: true; names end in :q/:t and contain K: true
queue list and zset in K's slot: true
waiter 0: true
waiter 1: true
order: 0 1
keys in commands: ["K","n","q","t","w:<token>"], all in K's slot: true, undeclared in scripts: []
keys: []
keys at the end: []
