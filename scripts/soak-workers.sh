#!/usr/bin/env bash
# make soak-workers: the worker-loop test (php-tests/scope/worker_loop_memory_and_fds_flat.phpt)
# with RL_CYCLES units (default 1,000,000: about 3,000,000 locks of every class, several
# minutes), printing memory and open file descriptors after 10 % and at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
export RL_CYCLES=${RL_CYCLES:-1000000}
sed -n '/^--FILE--$/,/^--EXPECTF--$/p' php-tests/scope/worker_loop_memory_and_fds_flat.phpt | sed '1d;$d' \
  | sed "s#__DIR__ . '/../inc/#'$PWD/php-tests/inc/#" > "${TMPDIR:-/tmp}/redis_lock_soak_workers.php"
time php -n -d extension="$PWD/target/release/libredis_lock.so" "${TMPDIR:-/tmp}/redis_lock_soak_workers.php"
