--TEST--
RedLock's queue under contention (4 processes, 5 nodes, an independent book on a 6th server) through faults of one node: killed (refuses at once), restarted empty (its queue and lock key gone), stopped with SIGSTOP (accepts, then silence), resumed: never two holders, no lost update, and every process keeps getting the lock in every phase (waiting resumes)
--SKIPIF--
<?php if (!function_exists('pcntl_fork')) die('skip pcntl needed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redlock_queue.inc';
$s = rl_start_servers(5);
$book = RedisServer::start();
$dir = rl_tmpdir();
$pids = rlq_workers(rl_redlock_list($s, 0.2), $book, $dir, 4);
$phases = [
    'all 5 nodes up' => fn () => null,
    'node 2 killed' => fn () => $s[1]->kill(),
    'node 2 restarted empty' => fn () => $s[1]->restart(false),
    'node 4 stopped (SIGSTOP)' => fn () => $s[3]->pause(),
    'node 4 resumed' => fn () => $s[3]->resume(),
];
rlq_run($phases, $dir, $pids);
rlq_report($book, array_keys($phases), 4);
?>
--EXPECT--
workers: 0 0 0 0
all 5 nodes up: every process locked: true, errors 0, gave up 0
node 2 killed: every process locked: true, errors 0, gave up 0
node 2 restarted empty: every process locked: true, errors 0, gave up 0
node 4 stopped (SIGSTOP): every process locked: true, errors 0, gave up 0
node 4 resumed: every process locked: true, errors 0, gave up 0
overlaps: 0
lost updates: 0
