#!/usr/bin/env bash
# The platform cells, sourced by scripts/matrix.sh (make test-matrix) and
# scripts/dist.sh (make dist): each cell a Debian chroot made with debootstrap
# from the mirror in this machine's apt sources, cached under $CACHE
# (MATRIX_CACHE) and created when missing. Sourced from the checkout's root
# (ROOT); the caller calls unmount_all on exit (trap unmount_all EXIT).
ALL_CELLS=(oldest stable newest next)
ROOT=$PWD
CACHE=${MATRIX_CACHE:-/var/cache/redis-lock-matrix}

# cells_begin WHAT CELLS: as root only; the cells asked for (default: all).
cells_begin() {
  [[ $(id -u) -eq 0 ]] || { echo "$1 runs as root (debootstrap, chroot, mounts)" >&2; exit 2; }
  pick_cells "$2"
}

# What every cell installs: the build, the servers' tools, FPM, the tests' needs.
common_pkgs=(clang libclang-dev libssl-dev pkg-config libfcgi-bin valgrind openssl iproute2 iptables
             strace procps ca-certificates dpkg-dev fakeroot autoconf make)

# cell -> suite, PHP version, servers (names scripts/server-shims.sh knows),
# packages, whether valgrind runs there, experimental pins.
cell_suite() { case $1 in oldest) echo bookworm ;; stable) echo trixie ;; newest|next) echo sid ;; esac; }
cell_php() { case $1 in oldest) echo 8.2 ;; stable|newest) echo 8.4 ;; next) echo 8.5 ;; esac; }
# next has sid's Valkey 9.1, as newest does: run once, in newest.
cell_servers() { case $1 in oldest|next) echo redis ;; *) echo "redis valkey" ;; esac; }
cell_valgrind() { [[ $1 == newest || $1 == oldest ]]; }
cell_pkgs() {
  local php; php=$(cell_php "$1")
  local p=("${common_pkgs[@]}" "php$php-cli" "php$php-dev" "php$php-fpm" "php$php-mbstring" "php$php-xml"
           redis-server redis-tools redis-sentinel phpunit php-symfony-lock php-predis)
  case $1 in
    oldest) p+=(php-symfony-semaphore php-illuminate-cache php-illuminate-container php-illuminate-config php-illuminate-redis) ;;
    stable) p+=(valkey-server valkey-tools valkey-sentinel php-symfony-semaphore php-illuminate-cache php-illuminate-container php-illuminate-config php-illuminate-redis) ;;
    # composer: FrameworkBundle's container needs Composer\InstalledVersions.
    newest|next) p+=(valkey-server valkey-tools valkey-sentinel php-laravel-framework php-symfony-console php-symfony-messenger
                     php-symfony-scheduler php-symfony-semaphore php-symfony-framework-bundle composer
                     php-symfony-runtime php-symfony-redis-messenger) ;;
  esac
  # The profiler panel's e2e and browser test (symfony_profiler_panel).
  [[ $1 == newest ]] && p+=(php-symfony-web-profiler-bundle php-symfony-twig-bundle php-twig)
  # phpredis for symfony's Redis transport (the workers' e2e test); sid has
  # no build of it for experimental's PHP 8.5.
  [[ $1 == newest ]] && p+=("php$php-redis")
  echo "${p[@]}"
}
# experimental: PHP 8.5, Redis 8.6, symfony 8.1, pinned by package name
# (-t experimental drags php-common along and breaks).
cell_pins() {
  [[ $1 == next ]] || return 0
  printf 'Package: php8.5-* php-symfony-* redis redis-server redis-tools redis-sentinel\nPin: release a=experimental\nPin-Priority: 990\n'
}

mirror() {
  if [[ -n ${MATRIX_MIRROR:-} ]]; then echo "$MATRIX_MIRROR"; return; fi
  local m
  m=$(grep -rhoE '^(URIs:|deb)[[:space:]]+[^ ]*https?://[^ ]+/debian/?' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
      | grep -oE 'https?://[^ ]+' | grep -v security | sed -n 1p)
  echo "${m:-http://deb.debian.org/debian}"
}

MOUNTS=()
unmount_all() {
  local i
  for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
    umount -R "${MOUNTS[$i]}" 2>/dev/null || umount -lR "${MOUNTS[$i]}" 2>/dev/null || true
  done
  MOUNTS=()
}

mount_into() { # mount_into DIR: what a cell needs from the host
  local dir=$1
  # The cell's root a mount point of its own: `ip netns exec` (the partition
  # test) remounts / as a slave, which fails on a plain directory.
  mount --bind "$dir" "$dir"; MOUNTS+=("$dir")
  mount -t proc proc "$dir/proc"; MOUNTS+=("$dir/proc")
  mount -t sysfs sys "$dir/sys"; MOUNTS+=("$dir/sys")
  mount --rbind /dev "$dir/dev"; mount --make-rslave "$dir/dev"; MOUNTS+=("$dir/dev")
  # The host's toolchain and crate cache: crates.io is not reachable from
  # inside (no trust store), so the build there runs --offline.
  local d
  for d in "${CARGO_HOME:-$HOME/.cargo}" "${RUSTUP_HOME:-$HOME/.rustup}"; do
    mkdir -p "$dir/root/$(basename "$d")"
    mount --bind "$d" "$dir/root/$(basename "$d")"; MOUNTS+=("$dir/root/$(basename "$d")")
  done
}

# Creates the cell's chroot when missing, and installs what its package list
# gained since (a stamp holds the list it was made with).
ensure_cell() {
  local cell=$1 dir=$CACHE/$1 suite pkgs
  suite=$(cell_suite "$cell")
  pkgs=$(cell_pkgs "$cell")
  mkdir -p "$CACHE"
  # Whatever an interrupted run left mounted there goes first: an rm -rf
  # through a bound /dev would reach the host's.
  if grep -q " $dir[/ ]" /proc/mounts; then
    umount -R "$dir" 2>/dev/null || umount -lR "$dir"
    if grep -q " $dir[/ ]" /proc/mounts; then echo "[$cell] cannot unmount what is mounted under $dir" >&2; return 1; fi
  fi
  if [[ ! -f $dir/.redis-lock-base ]]; then
    rm -rf --one-file-system "$dir"
    echo "[$cell] debootstrap $suite"
    debootstrap --variant=minbase "$suite" "$dir" "$(mirror)" >"$CACHE/$cell.debootstrap.log" 2>&1 \
      || { echo "[$cell] debootstrap failed: see $CACHE/$cell.debootstrap.log" >&2; return 1; }
    # No daemon started by a package's postinst on the host's network.
    printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"; chmod +x "$dir/usr/sbin/policy-rc.d"
    # The mirror's Release files are past their Valid-Until.
    echo 'Acquire::Check-Valid-Until "false";' >"$dir/etc/apt/apt.conf.d/99redis-lock"
    echo "deb $(mirror) $suite main" >"$dir/etc/apt/sources.list"
    if [[ $cell == next ]]; then
      echo "deb $(mirror) experimental main" >>"$dir/etc/apt/sources.list"
    fi
    touch "$dir/.redis-lock-base"
  fi
  cell_pins "$cell" >"$dir/etc/apt/preferences.d/redis-lock"
  mount_into "$dir" # package scripts need /proc
  if [[ $(cat "$dir/.redis-lock-pkgs" 2>/dev/null) != "$pkgs" ]]; then
    echo "[$cell] apt-get install ($(wc -w <<<"$pkgs") packages)"
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    # shellcheck disable=SC2086
    chroot "$dir" env DEBIAN_FRONTEND=noninteractive bash -c \
      "apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs" >"$CACHE/$cell.apt.log" 2>&1 \
      || { echo "[$cell] apt-get install failed: see $CACHE/$cell.apt.log" >&2; tail -5 "$CACHE/$cell.apt.log" >&2; return 1; }
    echo "$pkgs" >"$dir/.redis-lock-pkgs"
  fi
}

# A copy of the working tree (not the checkout itself: run-tests.php writes
# next to the tests, and the host may be testing at the same time).
copy_tree() {
  local dir=$1
  rm -rf "$dir/src"; mkdir -p "$dir/src"
  tar -C "$ROOT" --exclude=./target --exclude=./dist --exclude=./.git --exclude='./php-tests/*.out' --exclude='./php-tests/*/*.out' -cf - . | tar -C "$dir/src" -xf -
}

# The cells named in $1 (default: all), checked; exits 2 on an unknown one.
pick_cells() {
  local cell
  read -r -a CELLS <<<"${1:-${ALL_CELLS[*]}}"
  for cell in "${CELLS[@]}"; do
    case " ${ALL_CELLS[*]} " in *" $cell "*) ;; *) echo "unknown cell '$cell' (cells: ${ALL_CELLS[*]})" >&2; exit 2 ;; esac
  done
}

# The host's crate cache feeds the cells' offline builds; debootstrap makes them.
prepare_cells() {
  if ! command -v debootstrap >/dev/null; then
    echo "installing: debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  fi
  (cd "$ROOT" && cargo fetch --locked -q)
}
