#!/usr/bin/env bash
# make test-package: the Debian package (make deb) and make install/uninstall,
# each tested against the system PHP loading redis_lock from its own ini (no -n,
# no -d extension): php -m, php --ri, php-fpm -m, and a real lock/release on a
# throwaway redis-server, and the redis-lock command line it installs (--version,
# list against that server); then removed (dpkg -r, dpkg -P; make uninstall), run
# twice where it must be idempotent, and the PHP, dpkg and phpenmod state compared
# with the state before, file by file.
#
# By default (REDIS_LOCK_PKG_TEST=sandbox) all of that happens in a private mount
# namespace whose /etc/php, /usr/lib/php, /usr/share/doc, /var/lib/dpkg,
# /var/lib/php and /var/log are copy-on-write overlays of the real ones: dpkg,
# phpenmod and PHP behave exactly as on the system, but nothing outside this test
# ever sees the extension enabled (a concurrent `php -d extension=...` of another
# test run would otherwise load it twice), and nothing is left behind even when
# the test is killed. REDIS_LOCK_PKG_TEST=system runs it on the real system
# (restored by a trap on failure); without unshare or overlayfs the sandbox
# falls back to that.
#
# Skipped (exit 0, "skipped: ...") when redis_lock is already installed or
# enabled in the system PHP some other way: the test does not fight it.
# REDIS_LOCK_PKG_TEST_FAIL=<step> makes it fail at that step (to test the cleanup).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
module=redis_lock
php_config=${PHP_CONFIG:-php-config}
ext=${EXT:-$repo/target/release/libredis_lock.so}
mode=${REDIS_LOCK_PKG_TEST:-sandbox}

say() { echo "test-package: $*"; }
die() { echo "test-package: FAILED: $*" >&2; exit 1; }
skip() { echo "test-package: skipped: $*"; exit 0; }
# Whether `$1 -m` lists redis_lock: 0 yes, 1 no, 2 it failed. (Not `php -m |
# grep -q`: grep's early exit is a SIGPIPE for php, a failure under pipefail.)
lists_module() {
  local out
  out=$("$1" -m 2>&1) || { echo "$out" >&2; return 2; }
  grep -qx "$module" <<<"$out"
}

php_full=$("$php_config" --version)
php_ver=${php_full%.*}
ext_dir=$("$php_config" --extension-dir)
php=$("$php_config" --php-binary)
fpm=php-fpm$php_ver
package=php$php_ver-redis-lock
ini=/etc/php/$php_ver/mods-available/$module.ini
so=$ext_dir/$module.so
# The command line: where the package puts it, and where make install does.
deb_cli=/usr/bin/redis-lock
make_cli=/usr/local/bin/redis-lock
version=$(sh scripts/package-field.sh version)

# ---------------------------------------------------------------- outside
if [[ -z ${REDIS_LOCK_PKG_TEST_INNER:-} ]]; then
  started=$SECONDS
  [[ $(id -u) -eq 0 ]] || skip "needs root (dpkg -i, phpenmod)"
  for tool in dpkg dpkg-deb phpenmod phpdismod phpquery redis-server redis-cli; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed"
  done
  [[ -f $ext ]] || die "$ext is missing: run make build first"
  if lists_module "$php" 2>/dev/null; then
    skip "redis_lock is already enabled in the system PHP ($("$php" --ini | grep -o "[^ ,]*$module[^ ,]*" | sed -n 1p)); make uninstall or dpkg -P $package first to run this test"
  fi
  case $(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null) in
    ?n*|"") ;;
    ?i*) skip "the package $package is installed; dpkg -P $package first to run this test" ;;
    *) skip "the package $package was removed but not purged; dpkg -P $package first to run this test" ;;
  esac
  for f in "$so" "$ini" "$deb_cli" "$make_cli"; do
    [[ -e $f ]] && skip "$f exists (installed some other way); make uninstall first to run this test"
  done

  # The INI template documents every setting, each with its real default.
  "$php" -n -d extension="$ext" -r '
    $doc = [];
    foreach (file($argv[1]) as $line) {
      if (preg_match("/^;(redis_lock\.\w+ = .*)$/", rtrim($line), $m)) $doc[] = $m[1];
    }
    $doc = parse_ini_string(implode("\n", $doc));
    $real = array_map(fn($e) => $e["global_value"], ini_get_all("redis_lock"));
    ksort($doc); ksort($real);
    if ($doc !== $real) {
      fwrite(STDERR, "packaging/redis_lock.ini: " . json_encode($doc) . "\nthe extension:            " . json_encode($real) . "\n");
      exit(1);
    }' packaging/redis_lock.ini || die "packaging/redis_lock.ini does not list every redis_lock.* setting with its default"
  say "packaging/redis_lock.ini lists every setting with its default"

  make --no-print-directory -o build deb
  deb=$repo/target/deb/${package}_${version//-/\~}_$(dpkg --print-architecture).deb
  [[ -f $deb ]] || die "make deb did not write $deb"

  # The test proper runs in a child; Ctrl-C or a TERM is passed on to it as a
  # TERM, and its cleanup is waited for.
  run_inner() {
    local child
    "$@" &
    child=$!
    trap 'kill -TERM "$child" 2>/dev/null' INT TERM
    while :; do
      status=0
      wait "$child" || status=$?
      kill -0 "$child" 2>/dev/null || break
    done
    trap - INT TERM
    say "$( ((status == 0)) && echo passed || echo FAILED) in $((SECONDS - started)) s ($REDIS_LOCK_PKG_TEST_INNER)"
  }
  export REDIS_LOCK_PKG_TEST_DEB=$deb
  if [[ $mode == sandbox ]]; then
    if unshare --mount true 2>/dev/null && grep -qw overlay /proc/filesystems; then
      tmp=$(mktemp -d /tmp/redis_lock.pkgtest.XXXXXX)
      trap 'rm -rf "$tmp"' EXIT
      say "sandbox: a private mount namespace with overlays on the PHP and dpkg directories (REDIS_LOCK_PKG_TEST=system: on the real system)"
      REDIS_LOCK_PKG_TEST_INNER=sandbox REDIS_LOCK_PKG_TEST_TMP=$tmp run_inner unshare --mount --propagation private bash "$0"
      exit "$status"
    fi
    say "no mount namespace or overlayfs here: testing on the real system"
  fi
  REDIS_LOCK_PKG_TEST_INNER=system run_inner bash "$0"
  exit "$status"
fi

# ---------------------------------------------------------------- inside
deb=$REDIS_LOCK_PKG_TEST_DEB

if [[ $REDIS_LOCK_PKG_TEST_INNER == sandbox ]]; then
  tmp=$REDIS_LOCK_PKG_TEST_TMP
  n=0
  for dir in /etc/php /usr/lib/php /usr/share/doc /var/lib/dpkg /var/lib/php /var/log /usr/bin /usr/local/bin /etc/alternatives; do
    [[ -d $dir ]] || continue
    n=$((n + 1))
    mkdir -p "$tmp/ov$n/upper" "$tmp/ov$n/work"
    mount -t overlay overlay -o "lowerdir=$dir,upperdir=$tmp/ov$n/upper,workdir=$tmp/ov$n/work" "$dir"
  done
  # A service restart triggered from here (php-fpm's conf.d trigger) would start
  # the real php-fpm inside this namespace.
  if [[ -e /usr/sbin/invoke-rc.d ]]; then
    printf '#!/bin/sh\necho "(sandbox: not run: invoke-rc.d $*)"\n' >"$tmp/invoke-rc.d"
    chmod 755 "$tmp/invoke-rc.d"
    mount --bind "$tmp/invoke-rc.d" /usr/sbin/invoke-rc.d
  fi
fi

source scripts/throwaway_redis.sh   # its EXIT trap is replaced by cleanup below
redis_start pkg
port=$REDIS_PORT_pkg

# dpkg and make install/uninstall are never cut short by a signal sent to the
# whole process group (Ctrl-C, a TERM to make): the test stops after them.
atomic() { (trap '' INT TERM HUP; exec "$@"); }

fail_point() { [[ ${REDIS_LOCK_PKG_TEST_FAIL:-} != "$1" ]] || die "injected failure at $1 (REDIS_LOCK_PKG_TEST_FAIL)"; }

# Everything this test may change: packages, /etc/php (links and file contents),
# the extension dir, phpenmod's state, the package's docs, what PHP loads.
snapshot() {
  echo "package: $(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$package" 2>/dev/null || echo none)"
  find /etc/php "$ext_dir" /var/lib/php/modules -printf '%y %m %p -> %l\n' 2>/dev/null | LC_ALL=C sort
  find /etc/php -type f -exec md5sum {} + | LC_ALL=C sort -k2
  find /usr/share/doc -maxdepth 1 -name "$package*"
  ls -l "$deb_cli" "$make_cli" /etc/alternatives/redis-lock /var/lib/dpkg/alternatives/redis-lock 2>/dev/null || true
  ls /var/lib/dpkg/info/ | grep -F "$package" || true
  echo "php -m: $("$php" -m 2>&1 | tr '\n' ' ')"
  if command -v "$fpm" >/dev/null; then echo "$fpm -m: $("$fpm" -m 2>&1 | tr '\n' ' ')"; fi
}
before=$(snapshot)

# After a failure: phpenmod's state directories (…/disabled_by_maint, …) that
# were not there before go too, once empty.
state_dirs_before=$(find /var/lib/php/modules -type d 2>/dev/null | LC_ALL=C sort)
remove_new_empty_state_dirs() {
  local d
  while read -r d; do
    if ! grep -qxF "$d" <<<"$state_dirs_before"; then rmdir "$d" 2>/dev/null || true; fi
  done < <(find /var/lib/php/modules -depth -type d -empty 2>/dev/null)
}

# After a failure: whatever this test installed goes away again. Only in this
# shell: a signal can also reach a subshell ($(...), a pipeline) of it that
# still has these traps.
main_shell=$BASHPID
exec {stdout}>&1 {stderr}>&2
cleanup() {
  local status=$?
  [[ $BASHPID == "$main_shell" ]] || exit "$status"
  set +e
  exec 1>&"$stdout" 2>&"$stderr"   # a signal may come during `cmd >/dev/null`
  if ((status != 0)); then
    if dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^.[^n]'; then
      echo "test-package: cleanup: dpkg -P $package"
      atomic dpkg --force-remove-reinstreq -P "$package" >/dev/null 2>&1
    fi
    if [[ -e $so || -e $ini || -e $make_cli ]]; then
      echo "test-package: cleanup: make uninstall"
      atomic bash scripts/install.sh uninstall >/dev/null 2>&1
    fi
    remove_new_empty_state_dirs
    if [[ $(snapshot) != "$before" ]]; then
      echo "test-package: cleanup: the system still differs from before the test:" >&2
      diff <(echo "$before") <(snapshot) >&2
    fi
  fi
  redis_stop_all
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

expect_same_as_before() {
  local after
  after=$(snapshot)
  if [[ $after != "$before" ]]; then
    diff <(echo "$before") <(echo "$after") >&2 || true
    die "$1: the system differs from before the test (above: < before, > after)"
  fi
  say "$1: the system is as before (packages, /etc/php, $ext_dir, /var/lib/php/modules, php -m)"
}

# The extension is loaded by the system PHP from its ini, works against Redis,
# and is enabled for every SAPI that is installed.
expect_enabled() {
  local what=$1 ri s links
  lists_module "$php" || die "$what: php -m does not list $module"
  ri=$("$php" --ri "$module") || die "$what: php --ri $module failed"
  grep -qx "Version => $version" <<<"$ri" || die "$what: php --ri: no 'Version => $version' line:"$'\n'"$ri"
  grep -qx "redis_lock support => enabled" <<<"$ri" || die "$what: php --ri: not enabled:"$'\n'"$ri"
  for s in server prefix connect_timeout read_timeout release_on_shutdown reentrant auto_renew max_hold tls_ca_file; do
    grep -q "^redis_lock\.$s => " <<<"$ri" || die "$what: php --ri does not show redis_lock.$s"
  done
  grep -qx 'redis_lock.server => redis://127.0.0.1:6379 => redis://127.0.0.1:6379' <<<"$ri" ||
    die "$what: php --ri: redis_lock.server is not its default"
  for s in /etc/php/"$php_ver"/*/conf.d; do
    s=$(basename "$(dirname "$s")")
    [[ $what == "make install"* && $s != cli && $s != fpm ]] && continue
    links=$(find /etc/php/"$php_ver"/"$s"/conf.d -lname "$ini")
    [[ -n $links ]] || die "$what: no link to $ini in /etc/php/$php_ver/$s/conf.d"
  done
  "$php" -r '
    ini_set("redis_lock.server", "redis://127.0.0.1:" . $argv[1]);
    $exists = fn($k) => trim((string) shell_exec("redis-cli -p " . (int) $argv[1] . " exists " . escapeshellarg($k)));
    $key = "pkgtest:" . getmypid();
    if (!RedisMutexLock::lock($key, 1, 10)) exit(11);
    if ($exists("lock:$key") !== "1") exit(12);
    if (!RedisMutexLock::release($key)) exit(13);
    if ($exists("lock:$key") !== "0") exit(14);
    if (RedisMutexLock::release($key)) exit(15);
    $rl = new RedLock([["127.0.0.1", (int) $argv[1]]]);
    $l = $rl->lock("pkgtest-redlock:" . getmypid(), 5000);
    if ($l === false || $exists($l["resource"]) !== "1" || !$rl->unlock($l)) exit(16);
    if ($exists($l["resource"]) !== "0") exit(17);' "$port" ||
    die "$what: lock/release against redis-server on 127.0.0.1:$port failed (exit $?)"
  if command -v "$fpm" >/dev/null; then
    lists_module "$fpm" || die "$what: $fpm -m does not list $module"
    say "$what: $fpm -m lists $module"
  fi
  [[ -x $cli ]] || die "$what: $cli is not installed"
  [[ $("$cli" --version) == "redis-lock $version" ]] || die "$what: $cli --version says '$("$cli" --version 2>&1)', not 'redis-lock $version'"
  "$cli" --server "redis://127.0.0.1:$port" list >/dev/null || die "$what: $cli list against 127.0.0.1:$port failed (exit $?)"
  say "$what: php -m lists $module; php --ri shows version $version and its 9 settings; lock/release works; $cli --version and list work"
}

expect_disabled() {
  local what=$1 rc=0
  lists_module "$php" || rc=$?
  ((rc == 1)) || die "$what: php -m still lists $module (or failed)"
  [[ -z $(find /etc/php -lname "*/$module.ini") ]] || die "$what: conf.d links to $module.ini are left: $(find /etc/php -lname "*/$module.ini")"
  if command -v "$fpm" >/dev/null; then
    rc=0
    lists_module "$fpm" || rc=$?
    ((rc == 1)) || die "$what: $fpm -m still lists $module (or failed)"
  fi
}

if ! command -v "$fpm" >/dev/null; then
  say "($fpm is not installed: FPM not tested)"
fi

# ---- the package
t=$SECONDS
cli=$deb_cli
say "dpkg -i $(basename "$deb")"
atomic dpkg -i "$deb" >/dev/null
dpkg-query -W -f='${db:Status-Abbrev}' "$package" | grep -q '^ii' || die "dpkg -i: $package is not installed"
[[ -f $so && -f $ini ]] || die "dpkg -i: $so or $ini is missing"
expect_enabled "dpkg -i"
fail_point deb-installed
atomic dpkg -i "$deb" >/dev/null   # reinstall (the upgrade path of the maintainer scripts)
expect_enabled "dpkg -i again"

atomic dpkg -r "$package" >/dev/null
expect_disabled "dpkg -r"
[[ ! -e $so ]] || die "dpkg -r: $so is left"
[[ ! -e $cli ]] || die "dpkg -r: $cli is left"
[[ -f $ini ]] || die "dpkg -r: the conffile $ini should stay until purge"
say "dpkg -r: disabled everywhere, $so removed, the conffile kept"
atomic dpkg -P "$package" >/dev/null
[[ ! -e $ini ]] || die "dpkg -P: $ini is left"
expect_same_as_before "dpkg -P"
say "package: $((SECONDS - t)) s"

# ---- make install / make uninstall
t=$SECONDS
cli=$make_cli
for i in 1 2; do
  atomic make --no-print-directory -o build install >/dev/null || die "make install (run $i) failed"
  expect_enabled "make install #$i"
done
fail_point make-installed
for i in 1 2; do
  atomic make --no-print-directory uninstall >/dev/null || die "make uninstall (run $i) failed"
  expect_disabled "make uninstall #$i"
  [[ ! -e $so && ! -e $ini && ! -e $cli ]] || die "make uninstall #$i: $so, $ini or $cli is left"
  say "make uninstall #$i: disabled everywhere, $so, $ini and $cli removed"
done
expect_same_as_before "make uninstall"
say "make install/uninstall: $((SECONDS - t)) s"
