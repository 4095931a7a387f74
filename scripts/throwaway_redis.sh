# Sourced by the demo and benchmark scripts: starts redis-server processes on
# free loopback ports in a temporary directory and stops them on exit. Never
# touches a Redis it did not start.
#   redis_start NAME [extra redis-server args...]  -> sets REDIS_PORT_<NAME>
#   redis_stop_all

REDIS_TMP=$(mktemp -d /tmp/redis_lock.XXXXXX)
REDIS_PIDS=()

free_port() {
  php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0", $e, $m) or exit(1);
             echo substr(strrchr(stream_socket_get_name($s, false), ":"), 1);'
}

redis_start() {
  local name=$1; shift
  local try port pid
  for try in 1 2 3 4 5; do
    port=$(free_port)
    mkdir -p "$REDIS_TMP/$name"
    redis-server --bind 127.0.0.1 --port "$port" --dir "$REDIS_TMP/$name" --save '' --appendonly no \
      --daemonize no --logfile "$REDIS_TMP/$name/redis.log" "$@" &
    pid=$!
    for _ in $(seq 50); do
      # Ours answers: not another server that took the port between the probe and the start.
      if [[ $(redis-cli -p "$port" info server 2>/dev/null | tr -d '\r' | sed -n 's/^process_id://p') == "$pid" ]]; then
        REDIS_PIDS+=("$pid")
        printf -v "REDIS_PORT_$name" '%s' "$port"
        return 0
      fi
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill "$pid" 2>/dev/null || true
  done
  echo "could not start redis-server (see $REDIS_TMP/$name/redis.log)" >&2
  return 1
}

redis_stop_all() {
  local pid
  for pid in "${REDIS_PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${REDIS_PIDS[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$REDIS_TMP"
}
trap redis_stop_all EXIT
