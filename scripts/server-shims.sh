#!/usr/bin/env bash
# scripts/server-shims.sh DIR SERVER: makes DIR hold redis-server, redis-cli
# and redis-sentinel that run SERVER's own programs, so that every test, the
# benchmark and the demo run unchanged against that server when DIR comes
# first in PATH. SERVER: redis (nothing to do: the programs are themselves)
# or valkey (valkey-server, valkey-cli, valkey-sentinel from Debian's valkey
# packages; Debian's valkey-redis-compat does the same with links, but
# conflicts with redis-server, and a matrix cell has both).
set -euo pipefail
dir=${1:?usage: server-shims.sh DIR redis|valkey}
server=${2:?usage: server-shims.sh DIR redis|valkey}

case $server in
  redis) exit 0 ;;
  valkey) ;;
  *) echo "server-shims.sh: unknown server '$server' (redis, valkey)" >&2; exit 2 ;;
esac

mkdir -p "$dir"
for tool in server cli sentinel benchmark; do
  real=$(command -v "valkey-$tool" || true)
  if [[ -z $real ]]; then
    [[ $tool == benchmark ]] && continue # only the benchmark uses it
    echo "server-shims.sh: valkey-$tool is not installed (apt-get install valkey-server valkey-tools valkey-sentinel)" >&2
    exit 1
  fi
  # exec -a keeps the name a sentinel is recognised by (valkey-sentinel is
  # valkey-server run under that name).
  printf '#!/bin/bash\nexec -a valkey-%s %s "$@"\n' "$tool" "$real" >"$dir/redis-$tool"
  chmod +x "$dir/redis-$tool"
done
