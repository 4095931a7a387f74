#!/usr/bin/env bash
# scripts/cell-servers.sh CELL SERVER COMMAND...: runs COMMAND on this machine
# with redis-server, redis-cli and redis-sentinel (and redis-benchmark) taken
# from a matrix cell's chroot (scripts/matrix.sh; made when missing): SERVER
# redis or valkey of that cell, e.g. newest's Redis 8.0 or Valkey 9.1. PHP and
# everything else stay this machine's, so a benchmark run this way differs
# from one against this machine's own Redis in the server alone.
#   make bench SERVER=valkey SERVER_CELL=newest
# The programs run chrooted, sharing this machine's network and /tmp (where
# the tests and the benchmark keep their servers' files). Runs as root;
# unmounts what it mounted.
set -euo pipefail
cd "$(dirname "$0")/.."
cell=${1:?usage: cell-servers.sh CELL redis|valkey COMMAND...}
server=${2:?usage: cell-servers.sh CELL redis|valkey COMMAND...}
shift 2
(($#)) || { echo "usage: cell-servers.sh CELL redis|valkey COMMAND..." >&2; exit 2; }
case $server in redis|valkey) ;; *) echo "cell-servers.sh: unknown server '$server' (redis, valkey)" >&2; exit 2 ;; esac
cache=${MATRIX_CACHE:-/var/cache/redis-lock-matrix}
root=$cache/$cell

if [[ ! -f $root/.redis-lock-pkgs ]]; then
  MATRIX_SETUP_ONLY=1 CELLS=$cell bash scripts/matrix.sh
fi
if grep -q " $root[/ ]" /proc/mounts; then
  echo "cell-servers.sh: $root is in use (mounted): is a matrix run going on?" >&2
  exit 1
fi

mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -R "${mounts[$i]}" 2>/dev/null || umount -lR "${mounts[$i]}" || true; done
  rm -rf "$shims"
}
shims=$(mktemp -d /tmp/redis_lock-cell-servers.XXXXXX)
trap cleanup EXIT
trap 'exit 130' INT TERM
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
mount --rbind /dev "$root/dev"; mount --make-rslave "$root/dev"; mounts+=("$root/dev")
mount --bind /tmp "$root/tmp"; mounts+=("$root/tmp")

for tool in server cli sentinel benchmark; do
  real=$server-$tool
  [[ -x $root/usr/bin/$real ]] || { [[ $tool == benchmark ]] && continue; echo "cell-servers.sh: $cell has no $real" >&2; exit 1; }
  # Run from / inside the chroot: a relative path argument would not mean the same.
  printf '#!/bin/bash\nexec chroot %q /bin/bash -c '\''cd %q 2>/dev/null || cd /; exec -a %q /usr/bin/%q "$@"'\'' %q "$@"\n' \
    "$root" "$PWD" "$real" "$real" "$real" >"$shims/redis-$tool"
  chmod +x "$shims/redis-$tool"
done
echo "cell-servers.sh: $("$shims/redis-server" --version | cut -d' ' -f1-3) from the $cell cell"
PATH=$shims:$PATH "$@"
