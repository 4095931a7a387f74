--TEST--
RedLock's queue under contention (4 processes, 5 nodes, an independent book on a 6th server) through faults of one node: killed (refuses at once), restarted empty (its queue and lock key gone), stopped with SIGSTOP (accepts, then silence), resumed: never two holders, no lost update, every process keeps getting the lock in every phase (waiting resumes), and no lock() waits as long as a node timeout (1 s) in any phase: a look that the stopped node could decide does not wait for it while the grants it got hold up everybody
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_queue.inc';
$s = rl_start_servers(5);
$book = RedisServer::start();
$dir = rl_tmpdir();
// A node timeout of 1 s: a look that waited for the stopped node would take that long.
$pids = rlq_workers(rl_redlock_list($s, 1.0), $book, $dir, 4);
$phases = [
    'all 5 nodes up' => fn () => null,
    'node 2 killed' => fn () => $s[1]->kill(),
    'node 2 restarted empty' => fn () => $s[1]->restart(false),
    'node 4 stopped (SIGSTOP)' => fn () => $s[3]->pause(),
    'node 4 resumed' => fn () => $s[3]->resume(),
];
rlq_run($phases, $dir, $pids);
rlq_report($book, array_keys($phases), 4, 0.8);
?>
--EXPECT--
workers: 0 0 0 0
all 5 nodes up: every process locked: true, errors 0, gave up 0, every lock() under 0.8 s: true
node 2 killed: every process locked: true, errors 0, gave up 0, every lock() under 0.8 s: true
node 2 restarted empty: every process locked: true, errors 0, gave up 0, every lock() under 0.8 s: true
node 4 stopped (SIGSTOP): every process locked: true, errors 0, gave up 0, every lock() under 0.8 s: true
node 4 resumed: every process locked: true, errors 0, gave up 0, every lock() under 0.8 s: true
overlaps: 0
lost updates: 0
