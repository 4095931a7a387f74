#!/usr/bin/env bash
# make install / make uninstall: the built extension into (out of) the PHP that
# php-config describes, in Debian's layout:
#   <php-config --extension-dir>/redis_lock.so
#   /etc/php/<major.minor>/mods-available/redis_lock.ini  (from packaging/redis_lock.ini)
#   enabled for the CLI and FPM SAPIs with phpenmod (conf.d symlinks)
#   <BINDIR>/redis-lock, the operator's command line (docs/operating-cli.md)
# Both are idempotent. With DESTDIR=dir only the three files are written under dir
# (or removed from it): no phpenmod (the Debian package uses this).
# Usage: scripts/install.sh install|uninstall
# Environment: PHP_CONFIG (php-config), EXT (the .so to install), DESTDIR,
#   SAPIS (the SAPIs to enable, "cli fpm"; one whose conf.d is missing is skipped),
#   INI_ORIGIN (the ini's second comment line), CLI (the redis-lock binary to
#   install), BINDIR (where; default $PREFIX/bin, PREFIX default /usr/local).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
case "$mode" in
  install|uninstall) ;;
  *) echo "usage: $0 install|uninstall" >&2; exit 2 ;;
esac

module=redis_lock
php_config=${PHP_CONFIG:-php-config}
ext=${EXT:-$PWD/target/release/libredis_lock.so}
destdir=${DESTDIR:-}
cli=${CLI:-$PWD/target/release/redis-lock}
bindir=${BINDIR:-${PREFIX:-/usr/local}/bin}
cli_path=$bindir/redis-lock
sapis=${SAPIS:-cli fpm}

command -v "$php_config" >/dev/null 2>&1 || {
  echo "$php_config was not found: install PHP's development files (Debian: apt-get install php8.2-dev), or set PHP_CONFIG" >&2
  exit 1
}
php_full=$("$php_config" --version)      # 8.2.36
php_ver=${php_full%.*}                   # 8.2
ext_dir=$("$php_config" --extension-dir) # /usr/lib/php/20220829
php_bin=$("$php_config" --php-binary)
so_path=$ext_dir/$module.so
ini_dir=/etc/php/$php_ver/mods-available
ini_path=$ini_dir/$module.ini

say() { echo "$mode: $*"; }

# Refuse to touch files that a Debian package (php8.2-redis-lock from make deb) owns.
owned_by_package() {
  local f owner
  for f in "$so_path" "$ini_path" "$cli_path"; do
    if owner=$(dpkg-query -S "$f" 2>/dev/null); then
      echo "${owner%%:*}"
      return 0
    fi
  done
  return 1
}

if [[ -z $destdir ]] && command -v dpkg-query >/dev/null 2>&1 && pkg=$(owned_by_package); then
  if dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null | grep -q '^.i'; then
    echo "$mode: redis_lock is installed by the Debian package $pkg; use: apt-get remove $pkg (or dpkg -r $pkg)" >&2
  else
    echo "$mode: $ini_path belongs to the removed package $pkg (its conffile); use: dpkg -P $pkg" >&2
  fi
  exit 1
fi

if [[ -z $destdir ]]; then
  if [[ ! -d $ini_dir ]] || ! command -v phpenmod >/dev/null 2>&1; then
    echo "$mode: $ini_dir or phpenmod is missing: this installs into Debian's PHP layout (php-common)." >&2
    echo "  Elsewhere: copy $ext to $so_path and add extension=$module.so to php.ini" >&2
    exit 1
  fi
  if [[ $(id -u) -ne 0 ]]; then
    echo "$mode: must run as root (writes $ext_dir and /etc/php)" >&2
    exit 1
  fi
fi

# SAPIs with a conf.d directory: the ones asked for (install), every one (uninstall).
sapi_dirs() {
  local s
  if [[ $mode == install ]]; then
    for s in $sapis; do
      if [[ -d /etc/php/$php_ver/$s/conf.d ]]; then
        echo "$s"
      elif [[ $s == cli ]]; then
        echo "install: warning: /etc/php/$php_ver/cli/conf.d is missing, not enabled for the CLI" >&2
      fi
    done
  else
    for s in /etc/php/"$php_ver"/*/conf.d; do
      [[ -d $s ]] && basename "$(dirname "$s")"
    done
  fi
  return 0
}

if [[ $mode == install ]]; then
  [[ -f $ext ]] || { echo "install: $ext is missing: run make build first" >&2; exit 1; }
  [[ -x $cli ]] || { echo "install: $cli is missing: run make build first" >&2; exit 1; }
  if ! "$php_bin" -n -d extension="$ext" -r 'exit(extension_loaded("redis_lock") ? 0 : 1);' >/dev/null 2>&1; then
    echo "install: $php_bin cannot load $ext (built for another PHP?):" >&2
    "$php_bin" -n -d extension="$ext" -r '' >&2 || true
    exit 1
  fi
  origin=${INI_ORIGIN:-Written by make install (packaging/redis_lock.ini of redis_lock); remove with make uninstall.}

  # The .so: a new file renamed over the old one, never rewritten in place
  # (a running php-fpm has the old one mapped).
  mkdir -p "$destdir$ext_dir"
  tmp=$(mktemp "$destdir$ext_dir/.$module.so.XXXXXX")
  install -m 644 "$ext" "$tmp"
  mv -f "$tmp" "$destdir$so_path"
  say "$destdir$so_path"

  # The command line, the same way (an operator may be running it).
  mkdir -p "$destdir$bindir"
  tmp=$(mktemp "$destdir$bindir/.redis-lock.XXXXXX")
  install -m 755 "$cli" "$tmp"
  mv -f "$tmp" "$destdir$cli_path"
  say "$destdir$cli_path"

  mkdir -p "$destdir$ini_dir"
  ini_text=$(<packaging/redis_lock.ini)
  ini_text=${ini_text//@ORIGIN@/$origin}
  if [[ -e $destdir$ini_path ]] && [[ $(cat "$destdir$ini_path") != "$ini_text" ]] && [[ -z $destdir ]]; then
    say "$ini_path exists and differs from packaging/redis_lock.ini: kept as it is (delete it and run again for the new one)"
  else
    printf '%s\n' "$ini_text" >"$destdir$ini_path"
    chmod 644 "$destdir$ini_path"
    say "$destdir$ini_path"
  fi

  if [[ -z $destdir ]]; then
    for s in $(sapi_dirs); do
      phpenmod -v "$php_ver" -s "$s" "$module"
      # phpenmod exits 0 even when it did not enable a module: check.
      if ! phpquery -q -v "$php_ver" -s "$s" -m "$module"; then
        echo "install: phpenmod -v $php_ver -s $s $module did not enable it (see phpquery -v $php_ver -s $s -m $module)" >&2
        exit 1
      fi
      say "enabled for $s: $(ls /etc/php/"$php_ver"/"$s"/conf.d/*-"$module".ini)"
      [[ $s == fpm ]] && say "restart php-fpm to load it: service php$php_ver-fpm restart (or systemctl restart php$php_ver-fpm)"
    done
    say "done: php --ri $module"
  fi
else
  removed=0
  if [[ -z $destdir ]]; then
    for s in $(sapi_dirs); do
      links=$(find /etc/php/"$php_ver"/"$s"/conf.d -maxdepth 1 -lname "*/$module.ini")
      # phpdismod needs the ini to find the link's priority, so it runs first;
      # -p also forgets the module's enabled/disabled state under /var/lib/php/modules.
      if [[ -e $ini_path ]]; then
        phpdismod -p -v "$php_ver" -s "$s" "$module"
      fi
      # Any other link to the ini (another priority, or the ini already gone).
      for link in /etc/php/"$php_ver"/"$s"/conf.d/*; do
        if [[ -L $link && $(basename "$(readlink -m "$link")") == "$module.ini" ]]; then
          rm -f "$link"
        fi
      done
      for link in $links; do
        say "disabled for $s: removed $link"
        removed=1
      done
      # phpenmod/phpdismod leave their state directories behind, empty.
      for d in /var/lib/php/modules/"$php_ver"/"$s"/{enabled,disabled}_by_admin; do
        [[ -d $d ]] && rmdir --ignore-fail-on-non-empty "$d"
      done
    done
  fi
  for f in "$destdir$ini_path" "$destdir$so_path" "$destdir$cli_path"; do
    if [[ -e $f ]]; then
      rm -f "$f"
      say "removed $f"
      removed=1
    fi
  done
  if ((removed == 0)); then
    say "redis_lock was not installed: nothing to remove"
  elif [[ -z $destdir && -d /etc/php/$php_ver/fpm ]]; then
    say "done (restart php-fpm if it runs: service php$php_ver-fpm restart)"
  else
    say "done"
  fi
fi
