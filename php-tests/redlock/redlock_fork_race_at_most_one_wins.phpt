--TEST--
RedLock: forked clients racing for one resource on 5 nodes: exactly one wins each round, also with a node down; the losers leave no token anywhere
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis_server.inc';
$s = rl_start_servers(5);
rl_warm_up($s); // the parent has pooled connections before forking, as a worker would

$race = function (int $round) use ($s): string {
    $resource = "race-$round";
    $gates = [];
    for ($i = 0; $i < 5; $i++) {
        [$ours, $theirs] = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
        $pid = rl_fork(function () use ($s, $resource, $ours, $theirs) {
            fclose($ours);
            ini_set('redis_lock.release_on_shutdown', '0'); // the winner keeps it
            $rl = new RedLock(rl_redlock_list($s), 20, 10);
            fgets($theirs);                                 // all start together
            $lock = $rl->lock($resource, 30000);
            fwrite($theirs, json_encode($lock) . "\n");
            return 0;
        });
        fclose($theirs);
        $gates[$pid] = $ours;
    }
    foreach ($gates as $g) {
        fwrite($g, "go\n");
    }
    $winners = [];
    $losers = 0;
    foreach ($gates as $pid => $g) {
        $lock = json_decode((string) fgets($g), true);
        if (rl_wait($pid) !== 0) {
            return "a child failed";
        }
        is_array($lock) ? $winners[] = $lock['token'] : $losers++;
    }
    $labels = $winners ? [$winners[0] => 'winner'] : [];
    rl_sleep(0.05); // a loser's release may still be in flight on a minority
    $holders = rl_holders($s, $resource, $labels);
    $onNodes = substr_count($holders, 'winner');
    return sprintf('%d winner, %d losers; winner on a majority: %s; other values on the nodes: %s',
        count($winners), $losers, var_export($onNodes >= 3, true), var_export(str_contains($holders, '?'), true));
};
for ($round = 1; $round <= 5; $round++) {
    echo "round $round: ", $race($round), "\n";
}
$s[4]->kill();
for ($round = 6; $round <= 8; $round++) {
    echo "round $round, node 5 down: ", $race($round), "\n";
}
?>
--EXPECT--
round 1: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
round 2: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
round 3: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
round 4: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
round 5: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
round 6, node 5 down: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
round 7, node 5 down: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
round 8, node 5 down: 1 winner, 4 losers; winner on a majority: true; other values on the nodes: false
