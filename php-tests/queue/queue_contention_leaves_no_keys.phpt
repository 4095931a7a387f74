--TEST--
Queue: 8 processes x 20 lock()/release() cycles with timeouts on one key: every lock() succeeds, never two holders at once, and no key at all is left afterwards (KEYS * is empty)
--SKIPIF--
<?php if (!function_exists('posix_kill')) die('skip posix needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/queue.inc';
$redis = RedisServer::start();
$book = RedisServer::start();

$workers = [];
for ($i = 0; $i < 8; $i++) {
    $workers[$i] = new RlWaiter($redis, $book, ['key' => 'busy', 'i' => $i, 'timeout' => 20, 'hold' => 0.001, 'loops' => 20]);
}
$ok = 0;
$bad = [];
foreach ($workers as $i => $w) {
    for ($n = 0; $n < 20; $n++) {
        $r = $w->result(60);
        if ($r['r'] === true && $r['rel'] === true) {
            $ok++;
        } else {
            $bad[] = "worker $i: " . json_encode($r);
        }
    }
}
foreach ($workers as $w) {
    $w->finish(5);
}
echo "successful lock/release cycles: $ok\n";
echo "failures: ", json_encode(array_slice($bad, 0, 3)), "\n";
echo "acquisitions logged: ", $book->cmd('LLEN', 'order'), "\n";
echo "two holders at once: ", json_encode(array_slice($book->cmd('LRANGE', 'violations', 0, -1), 0, 3)), "\n";
echo "keys: ", rl_keys_left($redis), "\n";
?>
--EXPECT--
successful lock/release cycles: 160
failures: []
acquisitions logged: 160
two holders at once: []
keys: []
