#!/usr/bin/env bash
# Benchmarks RedisMutexLock beside the peers PHP applications use today, on
# throwaway redis-servers of its own (free loopback ports, no persistence).
# Prints Markdown and writes it to bench/results/latest.md.
#
#   REDIS_LOCK_SO   the extension (default: target/release/libredis_lock.so)
#   BENCH_ROUNDS    interleaved rounds (default 20)
#   BENCH_SECONDS   seconds per implementation per round (default 0.25)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
command_line="bash bench/run.sh"
for v in BENCH_SECONDS BENCH_ROUNDS REDIS_LOCK_SO; do
    if [[ -n "${!v:-}" ]]; then command_line="$v=${!v} $command_line"; fi
done
export BENCH_COMMAND="$command_line"
export REDIS_LOCK_SO="${REDIS_LOCK_SO:-$here/../target/release/libredis_lock.so}"

missing=()
command -v php >/dev/null || missing+=("php8.2-cli (no php on PATH)")
command -v redis-server >/dev/null || missing+=("redis-server")
if command -v php >/dev/null; then
    php -r 'exit(extension_loaded("redis") ? 0 : 1);' || missing+=("php-redis (the redis extension is not loaded by php)")
    for f in Symfony/Component/Lock/autoload.php:php-symfony-lock \
             Illuminate/Cache/autoload.php:php-illuminate-cache \
             Illuminate/Redis/autoload.php:php-illuminate-redis; do
        php -r 'exit(stream_resolve_include_path($argv[1]) ? 0 : 1);' "${f%%:*}" || missing+=("${f##*:} (${f%%:*} not on the include path)")
    done
fi
if ((${#missing[@]})); then
    echo "bench: missing packages:" >&2
    printf '  - %s\n' "${missing[@]}" >&2
    echo "install with: apt-get install php8.2-cli php-redis php-symfony-lock php-illuminate-cache php-illuminate-redis redis-server" >&2
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

# Servers record their pids here; whatever is still running at exit gets stopped.
export BENCH_RUN_DIR="$(mktemp -d /tmp/redis_lock_bench.XXXXXX)"
scenario_pid=""
cleanup() {
    local f pid
    if [[ -n "$scenario_pid" ]]; then kill "$scenario_pid" 2>/dev/null || true; fi
    for f in "$BENCH_RUN_DIR"/*.pid; do
        [[ -f "$f" ]] || continue
        pid="$(cat "$f")"
        # Only a redis-server we started (the pid may have been reused).
        if [[ "$(cat /proc/"$pid"/comm 2>/dev/null)" == redis-server* ]]; then
            kill "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$BENCH_RUN_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Measure one fixed build even if target/ is rebuilt while the benchmark runs.
cp "$REDIS_LOCK_SO" "$BENCH_RUN_DIR/redis_lock.so"
export REDIS_LOCK_SO="$BENCH_RUN_DIR/redis_lock.so"

mkdir -p "$here/results"
out="$BENCH_RUN_DIR/out.md"
scenario() { # runs bench/scenario_$1.php, appending its Markdown to $out
    # In the background so that a signal reaches the trap at once.
    php -d extension="$REDIS_LOCK_SO" "$here/scenario_$1.php" >>"$out" &
    scenario_pid=$!
    wait "$scenario_pid"
    scenario_pid=""
}
scenario mutex
# Later scenarios (RedLock over 5 servers, with a delay proxy) go here.

cat "$out"
cp "$out" "$here/results/latest.md"
echo "(written to bench/results/latest.md)" >&2
