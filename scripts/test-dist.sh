#!/usr/bin/env bash
# make test-dist [CELL="newest next"]: what make dist wrote, installed the ways
# users install it, each cell's PHP in a fresh chroot of its suite (a copy of
# a pristine `debootstrap --variant=minbase`, cached) with Debian's own PHP
# from the mirror and nothing of ours but dist/:
#   APT: the repository served over HTTP (php -S on the host), added with
#     signed-by= (never trusted=yes); apt-get install php8.X-redis-lock and
#     php-redis-lock-adapters: php -m and php-fpm -m list it, php --ri shows the
#     version, lock/release, RedLock and a Symfony lock through the adapters'
#     autoloader on a throwaway redis-server; an older version upgraded by
#     apt-get install keeps the module enabled and the admin's ini as it was;
#     apt-get purge leaves no file behind (the tree compared with the one before);
#     a copy of the repository whose InRelease was altered after signing is
#     refused by apt-get update.
#   PIE: the cell's zip unzipped into the extension dir: php -n -d
#     extension=redis_lock -m lists it and the smoke test passes; the source
#     tarball's phpize/configure (as PIE runs it) with no cargo stops with one
#     sentence. The build with cargo is the cells' make test-phpize.
# Runs as root, after make dist with the same cells.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/cells.sh
source scripts/cells.sh
cells_begin "make test-dist" "${CELL:-}"
DIST=$ROOT/dist
[[ -s $DIST/apt/redis-lock.gpg ]] || { echo "test-dist: no $DIST/apt: run make dist first" >&2; exit 1; }
version=$(sh scripts/package-field.sh version)

step=setup
TRY=
SERVER_PIDS=()
say() { echo "test-dist[$cell]: $*"; }
fail() { echo "test-dist[$cell]: FAILED ($step): $*" >&2; exit 1; }
finish() {
  local status=$?
  unmount_all
  ((${#SERVER_PIDS[@]})) && kill "${SERVER_PIDS[@]}" 2>/dev/null
  [[ -n $TRY && -d $TRY ]] && ! grep -q " $TRY[/ ]" /proc/mounts && rm -rf --one-file-system "$TRY"
  redis_stop_all 2>/dev/null
  exit "$status"
}
cell=all
# shellcheck source=scripts/throwaway_redis.sh
source scripts/throwaway_redis.sh
# After the source: its own EXIT trap would replace finish's, and a failed
# cell would leave its chroot mounted (finish calls redis_stop_all too).
trap finish EXIT
trap 'exit 130' INT TERM
redis_start dist
port=$REDIS_PORT_dist

# serve DIR VAR: an HTTP server on loopback for DIR, as a web host serves the
# repository; its port in VAR. (Not called as $(serve …): in that subshell
# the server's pid would never reach SERVER_PIDS, and finish would leave the
# server running.)
serve() {
  local p; p=$(free_port)
  php -n -S "127.0.0.1:$p" -t "$1" >/dev/null 2>&1 &
  SERVER_PIDS+=($!)
  for _ in $(seq 50); do php -n -r 'exit(@fsockopen("127.0.0.1", (int) $argv[1]) ? 0 : 1);' "$p" && break; sleep 0.1; done
  printf -v "$2" '%s' "$p"
}
serve "$DIST/apt" repo_port

# A pristine minbase chroot of SUITE, made once and never changed.
pristine() {
  local suite=$1 dir=$CACHE/clean-$1
  if [[ ! -f $dir/.redis-lock-clean ]]; then
    rm -rf --one-file-system "$dir"
    debootstrap --variant=minbase "$suite" "$dir" "$(mirror)" >"$CACHE/clean-$suite.log" 2>&1 \
      || { echo "test-dist: debootstrap $suite failed: see $CACHE/clean-$suite.log" >&2; return 1; }
    touch "$dir/.redis-lock-clean"
  fi
  echo "$dir"
}

# in CMD: a command in the chroot, as root with a plain environment.
inside() { chroot "$TRY" env -i HOME=/root PATH=/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
# apt_in ARGS: apt-get in the chroot, its output in the cell's log (shown when it fails).
apt_in() {
  inside apt-get -o Dpkg::Use-Pty=0 -qq "$@" >>"$LOG" 2>&1 || { tail -15 "$LOG" >&2; fail "apt-get $* failed (log: $LOG)"; }
}
# The chroot's files, but for apt's and dpkg's own records, logs and caches.
tree() { (cd "$TRY" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
           -o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache -o -path ./var/log \) -prune -o -print | LC_ALL=C sort); }

test_cell() {
  local suite php pkg deb debver dir ext_dir before after out
  suite=$(cell_suite "$cell") php=$(cell_php "$cell") pkg=php$(cell_php "$cell")-redis-lock
  LOG=$CACHE/test-dist-$cell.log
  : >"$LOG"
  deb=$(ls "$DIST/deb/$suite/${pkg}_"*.deb 2>/dev/null | tail -1)
  [[ -n $deb ]] || fail "make dist wrote no $pkg for $suite"
  debver=$(dpkg-deb --field "$deb" Version)

  step="fresh chroot"
  dir=$(pristine "$suite")
  TRY=$CACHE/try-$cell
  rm -rf --one-file-system "$TRY"
  cp -a "$dir" "$TRY"
  printf '#!/bin/sh\nexit 101\n' >"$TRY/usr/sbin/policy-rc.d"; chmod +x "$TRY/usr/sbin/policy-rc.d"
  echo 'Acquire::Check-Valid-Until "false";' >"$TRY/etc/apt/apt.conf.d/99mirror-is-old"
  { echo "deb $(mirror) $suite main"; [[ $cell == next ]] && echo "deb $(mirror) experimental main"; } >"$TRY/etc/apt/sources.list"
  cell_pins "$cell" >"$TRY/etc/apt/preferences.d/php-from-experimental"
  cp /etc/resolv.conf "$TRY/etc/resolv.conf"
  mount -t proc proc "$TRY/proc"; MOUNTS+=("$TRY/proc")
  mount --rbind /dev "$TRY/dev"; mount --make-rslave "$TRY/dev"; MOUNTS+=("$TRY/dev")
  apt_in update
  apt_in install -y --no-install-recommends "php$php-cli" "php$php-fpm" php-symfony-lock
  say "fresh $suite chroot with Debian's PHP $(inside php -r 'echo PHP_VERSION;'), no redis_lock, no cargo ($(inside sh -c 'command -v cargo || echo none'))"
  before=$(tree)

  step="apt repository"
  cp "$DIST/apt/redis-lock.gpg" "$TRY/usr/share/keyrings/redis-lock.gpg"
  echo "deb [signed-by=/usr/share/keyrings/redis-lock.gpg] http://127.0.0.1:$repo_port $suite main" >"$TRY/etc/apt/sources.list.d/redis-lock.list"
  ! grep -rq trusted "$TRY/etc/apt/sources.list" "$TRY/etc/apt/sources.list.d" || fail "a source says trusted"
  out=$(inside apt-get -qq update 2>&1) || fail "apt-get update: $out"
  ! grep -q 'GPG error\|not signed\|insecure' <<<"$out" || fail "apt-get update: $out"
  apt_in install -y "$pkg" php-redis-lock-adapters
  [[ $(inside dpkg-query -W -f='${Version}' "$pkg") == "$debver" ]] || fail "$pkg $debver is not what got installed"
  grep -qx redis_lock <<<"$(inside php -m)" || fail "php -m does not list redis_lock"
  grep -qx redis_lock <<<"$(inside "php-fpm$php" -m)" || fail "php-fpm$php -m does not list redis_lock"
  grep -qx "Version => $version" <<<"$(inside php --ri redis_lock)" || fail "php --ri does not show version $version"
  [[ $(inside redis-lock --version) == "redis-lock $version" ]] || fail "redis-lock --version does not say redis-lock $version"
  out=$(inside php /dev/stdin "$port" adapters <scripts/dist-smoke.php 2>&1) || fail "$out"
  say "apt-get install $pkg ($debver, signed-by) and php-redis-lock-adapters: php -m, php-fpm$php -m list it; php --ri: $version; redis-lock --version: $version; $out"

  step=upgrade
  apt_in purge -y "$pkg" php-redis-lock-adapters
  local old=$TRY/tmp/old
  rm -rf "$old"; dpkg-deb -R "$deb" "$old"
  sed -i "s/^Version: .*/Version: ${debver/+/\~prev+}/" "$old/DEBIAN/control"
  dpkg-deb --root-owner-group -Zxz -b "$old" "$TRY/tmp/old.deb"
  apt_in install -y /tmp/old.deb
  local ini=/etc/php/$php/mods-available/redis_lock.ini
  printf '; the admin'"'"'s own setting, kept on upgrades\nredis_lock.prefix = "admin:"\n' >>"$TRY$ini"
  local sum; sum=$(md5sum <"$TRY$ini")
  [[ $(inside php -r 'echo ini_get("redis_lock.prefix");') == admin: ]] || fail "the edited ini is not read"
  apt_in install -y "$pkg"
  [[ $(inside dpkg-query -W -f='${Version}' "$pkg") == "$debver" ]] || fail "apt-get install did not upgrade ${debver/+/\~prev+} to $debver"
  grep -qx redis_lock <<<"$(inside php -m)" || fail "php -m does not list redis_lock after the upgrade"
  grep -qx redis_lock <<<"$(inside "php-fpm$php" -m)" || fail "php-fpm -m does not list redis_lock after the upgrade"
  [[ $(md5sum <"$TRY$ini") == "$sum" ]] || fail "the upgrade changed $ini"
  [[ $(inside php -r 'echo ini_get("redis_lock.prefix");') == admin: ]] || fail "the admin's setting is lost"
  say "apt-get install over ${debver/+/\~prev+}: upgraded to $debver, still enabled (php -m, php-fpm -m), $ini as the admin left it"

  step=purge
  apt_in purge -y "$pkg"
  rm -f "$TRY/etc/apt/sources.list.d/redis-lock.list" "$TRY/usr/share/keyrings/redis-lock.gpg"
  after=$(tree)
  out=$(diff <(echo "$before") <(echo "$after") | grep '^[<>]' || true)
  [[ -z $out ]] || fail "apt-get purge left the tree changed:"$'\n'"$out"
  say "apt-get purge: every file as before the install (the tree compared, apt's and dpkg's records aside)"

  step="forged repository"
  local forged=$TRY/tmp/forged forged_port
  cp -a "$DIST/apt" "$forged"
  sed -i "s/^Description: .*/Description: redis_lock, altered after signing/" "$forged/dists/$suite/InRelease" "$forged/dists/$suite/Release"
  serve "$forged" forged_port
  cp "$DIST/apt/redis-lock.gpg" "$TRY/usr/share/keyrings/redis-lock.gpg"
  echo "deb [signed-by=/usr/share/keyrings/redis-lock.gpg] http://127.0.0.1:$forged_port $suite main" >"$TRY/etc/apt/sources.list.d/redis-lock.list"
  local rc=0; out=$(inside apt-get -qq update 2>&1) || rc=$?
  ((rc != 0)) || fail "apt-get update accepted the altered repository: $out"
  out=$(grep -m2 -E "BADSIG|not signed|invalid|signature" <<<"$out" | cut -c1-220)
  [[ -n $out ]] || fail "apt-get update failed, but not for the signature"
  ! inside apt-get -qq install -y -s "$pkg" >/dev/null 2>&1 || fail "apt would install $pkg from the altered repository"
  say "the altered repository: apt-get update exits $rc:"$'\n'"$(sed 's/^/    /' <<<"$out")"
  rm -f "$TRY/etc/apt/sources.list.d/redis-lock.list"; apt_in update

  step="PIE binary"
  local zip=$DIST/pie/php_redis_lock-${version}_php$php-x86_64-linux-glibc-nts.zip
  [[ -f $zip ]] || fail "make dist wrote no $zip"
  ext_dir=$(inside php -n -r 'echo ini_get("extension_dir");')
  unzip -q -o "$zip" -d "$TRY$ext_dir"
  grep -qx redis_lock <<<"$(inside php -n -d extension=redis_lock -m)" || fail "php -n -d extension=redis_lock -m does not list it"
  out=$(inside php -n -d extension=redis_lock /dev/stdin "$port" <scripts/dist-smoke.php 2>&1) || fail "$out"
  rm -f "$TRY$ext_dir/redis_lock.so"
  say "$(basename "$zip") unzipped into $ext_dir: php -n -d extension=redis_lock -m lists it; $out"

  step="PIE source without cargo"
  apt_in install -y --no-install-recommends "php$php-dev"
  tar -C "$TRY/tmp" -xzf "$DIST/redis_lock-$version.tar.gz"
  rc=0; out=$(inside sh -c "cd /tmp/redis_lock-$version && phpize$php >/dev/null && ./configure --with-php-config=/usr/bin/php-config$php" 2>&1) || rc=$?
  ((rc != 0)) || fail "./configure succeeded without cargo"
  out=$(grep -m1 'error:' <<<"$out")
  grep -q cargo <<<"$out" || fail "./configure failed, but did not name cargo: $out"
  say "phpize$php, ./configure --with-php-config=/usr/bin/php-config$php without cargo: exit $rc, $out"

  unmount_all
  rm -rf --one-file-system "$TRY"; TRY=
}

for cell in "${CELLS[@]}"; do
  start=$SECONDS
  test_cell
  say "passed in $((SECONDS - start)) s"
done
