#!/usr/bin/env bash
# Benchmarks RedisMutexLock and RedLock beside the peers PHP applications use
# today, on throwaway redis-servers of its own (free loopback ports, no
# persistence) and, for redlock-proxied, userspace delay proxies in front of them.
# Prints Markdown and writes it to bench/results/latest.md, headed by a Targets block
# (bench/targets.php: the mutex and contention scenarios' measures against the
# targets, for the server benchmarked). A scenario that fails
# does not stop the others: its error goes to stderr, a line in the Markdown says
# so, and the exit status is 1.
#
#   BENCH_SCENARIOS        which scenarios, in order (default "mutex redlock redlock-proxied contention lease fpm cluster failover
#                          rwlock semaphore"):
#                            mutex            RedisMutexLock, one server
#                            redlock          RedLock over 5 servers, loopback
#                            redlock-proxied  the same, each server behind a proxy adding 2 ms each way
#                            contention       K processes blocking on one key (scenario_contention.php)
#                            lease            nested holds and renewals (scenario_lease.php)
#                            fpm              per-request cost under PHP-FPM: ab → nginx → php-fpm (scenario_fpm.php)
#                            cluster          a Redis Cluster of 3 masters: uncontended cycles, then K processes
#                                             blocking on one key (scenario_cluster.php)
#                            failover         Sentinel failovers under contention with and without replica
#                                             acknowledgement, and what acknowledgement costs (scenario_failover.php)
#                            rwlock           K processes taking read and write holds of one key: RedisReadWriteLock
#                                             beside symfony/lock's shared RedisStore and a token floor (scenario_shared.php)
#                            semaphore        K processes taking permits of one key: RedisSemaphore beside
#                                             symfony/semaphore, Laravel's funnel and a token floor (scenario_shared.php)
#                          rwlock and semaphore also write their part of the Markdown, headed by their own Targets
#                          block, to docs/bench/shared-<server>.md (e.g. shared-redis-7.0.md), except with BENCH_QUICK=1
#   BENCH_SERVER           redis (default) or valkey: whose server programs run every throwaway
#                          server (scripts/server-shims.sh puts Valkey's first in PATH)
#   REDIS_LOCK_SO          the extension (default: target/release/libredis_lock.so)
#   BENCH_ROUNDS           interleaved rounds, mutex and redlock (default 20)
#   BENCH_SECONDS          seconds per implementation per round, mutex and redlock (default 0.25)
#   BENCH_PROXIED_ROUNDS   interleaved rounds, redlock-proxied (default 10)
#   BENCH_PROXIED_SECONDS  seconds per implementation per round, redlock-proxied (default 0.5)
#   BENCH_PROXY_DELAY_MS   delay each way, redlock-proxied (default 2)
#   BENCH_CONTENTION_K           process counts, contention (default "4 16 64")
#   BENCH_CONTENTION_SECONDS     seconds per implementation per K per round, contention (default 5)
#   BENCH_CONTENTION_ROUNDS      interleaved rounds, contention (default 2)
#   BENCH_CONTENTION_IMPLS       implementations, contention (default "redis_mutex_lock redlock polling_mutex
#                                laravel symfony token_floor"; redlock: RedLock over 5 masters, the scenario's
#                                server and 4 it starts; token_floor, one token passed by BLPOP/RPUSH,
#                                is no lock to use but the floor of any Redis hand-off; redlock_floor (not in
#                                the default) the floor of one over RedLock's 5 masters; owner_floor and
#                                owner_confirm (not in the default) the least an owner-checked lock with a
#                                TTL costs handed over, without and with a confirmation round trip;
#                                "no_lock" checks the harness)
#   BENCH_CONTENTION_SECTION_US  critical section in µs, contention (default 500)
#   BENCH_CONTENTION_OUTSIDE_US  work outside the lock in µs, contention (default 3000)
#   BENCH_FPM_ROUNDS             interleaved rounds, fpm (default 12)
#   BENCH_FPM_SECONDS            whole seconds of ab per endpoint per round, fpm (default 1)
#   BENCH_FPM_CONCURRENCY        ab -c, fpm (default 8)
#   BENCH_FPM_CHILDREN           php-fpm workers (pm = static), fpm (default 4)
#   BENCH_CLUSTER_ROUNDS         interleaved rounds of uncontended cycles, cluster (default 10)
#   BENCH_CLUSTER_SECONDS        seconds per implementation per round, cluster (default 0.5)
#   BENCH_CLUSTER_K              process counts under contention, cluster (default "4 16"; the critical
#                                section and outside work are BENCH_CONTENTION_SECTION_US and _OUTSIDE_US)
#   BENCH_CLUSTER_CONTENTION_SECONDS  seconds per K under contention, cluster (default 5)
#   BENCH_FAILOVERS              failovers per mode, failover (default 4)
#   BENCH_FAILOVER_WORKERS       contending processes, failover (default 8)
#   BENCH_FAILOVER_SECTION_US    critical section in µs, failover (default 2000)
#   BENCH_QUICK                  1: a trial run of rwlock and semaphore (1 round of 2 s each, unless set below),
#                                and no docs/bench/shared-<server>.md
#   BENCH_SHARED_K               processes, rwlock and semaphore (default 16)
#   BENCH_SHARED_SECONDS         seconds per implementation per round, rwlock and semaphore (default 5)
#   BENCH_SHARED_ROUNDS          interleaved rounds, rwlock and semaphore (default 5)
#   BENCH_RWLOCK_IMPLS           implementations, rwlock (default "redis_rwlock symfony token_floor"; token_floor,
#                                N tokens passed by BLPOP/BLMPOP/RPUSH with a writer taking all, is no lock to use
#                                but the floor of a fair Redis hand-off; "no_lock" checks the harness)
#   BENCH_RWLOCK_WRITE_PERMILLE  writes per 1000 holds, rwlock (default 100: each hold is a write with probability 10 %)
#   BENCH_RWLOCK_SECTION_US      critical section in µs, rwlock (default 500)
#   BENCH_RWLOCK_OUTSIDE_US      work outside the lock in µs, rwlock (default 3000)
#   BENCH_SEMAPHORE_IMPLS        implementations, semaphore (default "redis_semaphore symfony laravel token_floor";
#                                symfony needs php-symfony-semaphore and is skipped, with a note, without it)
#   BENCH_SEMAPHORE_PERMITS      permits, semaphore (default 4)
#   BENCH_SEMAPHORE_SECTION_US   critical section in µs, semaphore (default 2000)
#   BENCH_SEMAPHORE_OUTSIDE_US   work outside the semaphore in µs, semaphore (default 2000)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
command_line="bash bench/run.sh"
for v in BENCH_SECONDS BENCH_ROUNDS BENCH_PROXIED_SECONDS BENCH_PROXIED_ROUNDS BENCH_PROXY_DELAY_MS \
         BENCH_CONTENTION_K BENCH_CONTENTION_SECONDS BENCH_CONTENTION_ROUNDS BENCH_CONTENTION_IMPLS \
         BENCH_CONTENTION_SECTION_US BENCH_CONTENTION_OUTSIDE_US BENCH_FPM_ROUNDS BENCH_FPM_SECONDS \
         BENCH_FPM_CONCURRENCY BENCH_FPM_CHILDREN BENCH_CLUSTER_ROUNDS BENCH_CLUSTER_SECONDS BENCH_CLUSTER_K \
         BENCH_CLUSTER_CONTENTION_SECONDS BENCH_FAILOVERS BENCH_FAILOVER_WORKERS BENCH_FAILOVER_SECTION_US \
         BENCH_QUICK BENCH_SHARED_K BENCH_SHARED_SECONDS BENCH_SHARED_ROUNDS BENCH_RWLOCK_IMPLS BENCH_RWLOCK_WRITE_PERMILLE \
         BENCH_RWLOCK_SECTION_US BENCH_RWLOCK_OUTSIDE_US BENCH_SEMAPHORE_IMPLS BENCH_SEMAPHORE_PERMITS \
         BENCH_SEMAPHORE_SECTION_US BENCH_SEMAPHORE_OUTSIDE_US \
         BENCH_SCENARIOS BENCH_SERVER REDIS_LOCK_SO; do
    if [[ -n "${!v:-}" ]]; then command_line="$v=$(printf '%q' "${!v}") $command_line"; fi
done
export BENCH_COMMAND="$command_line"
export REDIS_LOCK_SO="${REDIS_LOCK_SO:-$here/../target/release/libredis_lock.so}"
scenarios="${BENCH_SCENARIOS:-mutex redlock redlock-proxied contention lease fpm cluster failover rwlock semaphore}"
for s in $scenarios; do
    case "$s" in
        mutex|redlock|redlock-proxied|contention|lease|fpm|cluster|failover|rwlock|semaphore) ;;
        *) echo "bench: unknown scenario '$s' in BENCH_SCENARIOS (known: mutex redlock redlock-proxied contention lease fpm cluster failover rwlock semaphore)" >&2; exit 2 ;;
    esac
done

if [[ ${BENCH_SERVER:-redis} != redis ]]; then
    shims=$(mktemp -d /tmp/redis_lock-shims.XXXXXX)
    bash "$here/../scripts/server-shims.sh" "$shims" "$BENCH_SERVER" || exit 2
    export PATH="$shims:$PATH"
fi

missing=()
command -v php >/dev/null || missing+=("php-cli (no php on PATH)")
php_ver=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;' 2>/dev/null || echo 8.2)
command -v redis-server >/dev/null || missing+=("redis-server")
if command -v php >/dev/null; then
    php -r 'exit(extension_loaded("redis") ? 0 : 1);' || missing+=("php-redis (the redis extension is not loaded by php)")
    for f in Symfony/Component/Lock/autoload.php:php-symfony-lock \
             Illuminate/Cache/autoload.php:php-illuminate-cache \
             Illuminate/Redis/autoload.php:php-illuminate-redis; do
        php -r 'exit(stream_resolve_include_path($argv[1]) ? 0 : 1);' "${f%%:*}" || missing+=("${f##*:} (${f%%:*} not on the include path)")
    done
fi
if [[ " $scenarios " == *" fpm "* ]]; then
    [[ -x /usr/sbin/php-fpm$php_ver ]] || missing+=("php$php_ver-fpm (no /usr/sbin/php-fpm$php_ver)")
    command -v ab >/dev/null || missing+=("apache2-utils (no ab on PATH)")
    command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=("nginx-light (no nginx on PATH)")
fi
if [[ " $scenarios " == *" cluster "* || " $scenarios " == *" failover "* ]]; then
    command -v redis-cli >/dev/null || missing+=("redis-tools (no redis-cli on PATH; it creates the cluster)")
fi
/usr/bin/python3 -c 'import matplotlib' 2>/dev/null || missing+=("python3-matplotlib (bench/charts.py draws the charts)")
if [[ " $scenarios " == *" semaphore "* ]] && command -v php >/dev/null &&
   ! php -r 'exit(stream_resolve_include_path("Symfony/Component/Semaphore/autoload.php") ? 0 : 1);'; then
    echo "bench: php-symfony-semaphore is not installed: the semaphore scenario skips symfony/semaphore and says so (apt-get install php-symfony-semaphore)" >&2
fi
if ((${#missing[@]})); then
    echo "bench: missing packages:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    echo "install with: apt-get install php$php_ver-cli php-redis php-symfony-lock php-illuminate-cache php-illuminate-redis redis-server php$php_ver-fpm apache2-utils nginx-light python3-matplotlib" >&2
    exit 1
fi
if [[ ! -f "$REDIS_LOCK_SO" ]]; then
    echo "bench: extension not found at $REDIS_LOCK_SO (run: cargo build --release)" >&2
    exit 1
fi
if php -r 'exit(extension_loaded("redis_lock") ? 0 : 1);'; then
    echo "bench: redis_lock is already loaded by php's own ini files; remove it there so that REDIS_LOCK_SO is what gets measured" >&2
    exit 1
fi

# Servers, proxies, contention and shared workers (and the cluster scenario's scenario_contention.php) and the fpm
# scenario's php-fpm and nginx masters record their pids here; whatever is still running at exit gets stopped.
export BENCH_RUN_DIR="$(mktemp -d /tmp/redis_lock_bench.XXXXXX)"
scenario_pid=""
cleanup() {
    local f pid killed=()
    if [[ -n "$scenario_pid" ]]; then kill "$scenario_pid" 2>/dev/null || true; fi
    for f in "$BENCH_RUN_DIR"/*.pid; do
        [[ -f "$f" ]] || continue
        pid="$(cat "$f")"
        # Only a redis-server, delay proxy, contention or shared worker, contention scenario, php-fpm or nginx master we started
        # (the pid may have been reused).
        if [[ "$(cat /proc/"$pid"/comm 2>/dev/null)" == @(redis-server*|php-fpm*|nginx) ]] ||
           grep -qE "/(delay_proxy|contention_worker|scenario_contention|shared_worker)\.php" <<<"$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"; then
            kill "$pid" 2>/dev/null && killed+=("$pid") || true
        fi
    done
    # A redis-server logs its shutdown into $BENCH_RUN_DIR: let them go (≤ 5 s) before removing it.
    for pid in "${killed[@]}"; do
        for _ in {1..50}; do [[ -e "/proc/$pid" ]] || break; sleep 0.1; done
    done
    rm -rf "$BENCH_RUN_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Measure one fixed build even if target/ is rebuilt while the benchmark runs.
REDIS_LOCK_SO_ORIG="$REDIS_LOCK_SO"
cp "$REDIS_LOCK_SO" "$BENCH_RUN_DIR/redis_lock.so"
export REDIS_LOCK_SO="$BENCH_RUN_DIR/redis_lock.so"

mkdir -p "$here/results"
out="$BENCH_RUN_DIR/out.md"
failed=()
scenario() { # runs bench/scenario_$1.php [args], appending its Markdown to $out (and keeping it in part-<name>.md)
    local file="$1" status=0 part="$BENCH_RUN_DIR/part-$s.md" # $s: the scenario name, from the loop below
    shift
    # In the background so that a signal reaches the trap at once.
    php -d extension="$REDIS_LOCK_SO" "$here/scenario_$file.php" "$@" >"$part" &
    scenario_pid=$!
    wait "$scenario_pid" || status=$?
    scenario_pid=""
    if ((status != 0)); then
        failed+=("$s")
        printf '\n**Scenario %s FAILED (exit status %d)**: see the messages on stderr; its results above, if any, are incomplete.\n\n' "$s" "$status" >>"$part"
        echo "bench: scenario $s FAILED (exit status $status)" >&2
    fi
    cat "$part" >>"$out"
}
for s in $scenarios; do
    case "$s" in
        mutex) scenario mutex ;;
        redlock) scenario redlock loopback ;;
        redlock-proxied) scenario redlock proxied ;;
        contention) scenario contention ;;
        lease) scenario lease ;;
        fpm) scenario fpm ;;
        cluster) scenario cluster ;;
        failover) scenario failover ;;
        rwlock) scenario shared rwlock ;;
        semaphore) scenario shared semaphore ;;
    esac
done

# The Targets block (bench/targets.php, from what the mutex and contention scenarios saved) goes first.
if [[ -d "$BENCH_RUN_DIR/targets" ]]; then
    # shellcheck disable=SC2086 # one argument per scenario
    if php "$here/targets.php" "$BENCH_RUN_DIR/targets" $scenarios >"$BENCH_RUN_DIR/targets.md"; then
        cat "$BENCH_RUN_DIR/targets.md" "$out" >"$out.new" && mv "$out.new" "$out"
    else
        failed+=(targets)
        echo "bench: bench/targets.php FAILED" >&2
    fi
fi
cat "$out"
cp "$out" "$here/results/latest.md"
echo "(written to bench/results/latest.md)" >&2
# rwlock and semaphore: their part, headed by their own Targets block, also goes to docs/bench/shared-<server>.md.
shared=()
for s in $scenarios; do
    if [[ ($s == rwlock || $s == semaphore) && -f "$BENCH_RUN_DIR/part-$s.md" ]]; then shared+=("$s"); fi
done
if ((${#shared[@]})); then
    server=$(cat "$BENCH_RUN_DIR/shared-server" 2>/dev/null || echo unknown-server)
    doc="$BENCH_RUN_DIR/shared.md"
    rev=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?')
    if [[ -n $(git -C "$here/.." status --porcelain 2>/dev/null) ]]; then rev="$rev with uncommitted changes"; fi
    {
        printf 'Produced with `%s` at %s, %s: PHP %s and its peers from Debian packages, %s, the extension %s (.so sha256 %s).\n\n' \
            "$BENCH_COMMAND" "$rev" "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(php -r 'echo PHP_VERSION;')" \
            "$(cat "$BENCH_RUN_DIR/shared-server-name" 2>/dev/null || echo '?')" "$REDIS_LOCK_SO_ORIG" \
            "$(sha256sum "$REDIS_LOCK_SO" | cut -c1-12)"
        php "$here/targets.php" "$BENCH_RUN_DIR/targets" "${shared[@]}" || true
        for s in "${shared[@]}"; do cat "$BENCH_RUN_DIR/part-$s.md"; done
    } >"$doc"
    if [[ ${BENCH_QUICK:-0} == 1 ]]; then
        cp "$doc" "$here/results/shared-$server.md"
        echo "(BENCH_QUICK=1: the rwlock/semaphore part went to bench/results/shared-$server.md, not docs/bench/)" >&2
    else
        mkdir -p "$here/../docs/bench"
        cp "$doc" "$here/../docs/bench/shared-$server.md"
        echo "(the rwlock/semaphore part written to docs/bench/shared-$server.md)" >&2
    fi
fi
# Charts of what the scenarios saved (bench/charts.py, Debian's python3-matplotlib).
if [[ -d "$BENCH_RUN_DIR/charts" ]]; then
    if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
        /usr/bin/python3 "$here/charts.py" "$BENCH_RUN_DIR/charts" "$here/results" || failed+=(charts)
    else
        echo "bench: no charts: python3-matplotlib is not installed (apt-get install python3-matplotlib)" >&2
    fi
fi
if ((${#failed[@]})); then
    echo "bench: FAILED: ${failed[*]}" >&2
    exit 1
fi
