#!/usr/bin/env bash
# make deb: a Debian package of the built extension with plain dpkg-deb (no
# debhelper, no network): target/deb/php<ver>-redis-lock_<version>_<arch>.deb with
#   <extension dir>/redis_lock.so
#   /etc/php/<ver>/mods-available/redis_lock.ini   (a conffile, from packaging/redis_lock.ini)
#   /usr/lib/<package>/redis-lock                   (the operator's command line; its
#                                                   postinst makes it /usr/bin/redis-lock,
#                                                   an alternative: one per PHP version)
#   /usr/share/doc/<package>/{README.md.gz,docs/*.md.gz,copyright}
# and the maintainer scripts of packaging/deb/, which enable and disable the module
# with php-common's helpers the way Debian's php-redis package does.
# Environment: PHP_CONFIG, EXT (the .so), CLI (the redis-lock binary),
# DEB_MAINTAINER, DEB_STRIP=0 (keep the .so's and the binary's debug line tables; by default they are stripped, symbols are kept),
# DEB_OUT (the directory it is written to), DEB_VERSION_SUFFIX (make dist:
# +deb12, +deb13, +sid, so that each suite's build has a version of its own).
set -euo pipefail
cd "$(dirname "$0")/.."

module=redis_lock
php_config=${PHP_CONFIG:-php-config}
ext=${EXT:-$PWD/target/release/libredis_lock.so}
cli=${CLI:-$PWD/target/release/redis-lock}
maintainer=${DEB_MAINTAINER:-redis_lock developers <redis-lock@localhost>}

for tool in dpkg-deb "$php_config"; do
  command -v "$tool" >/dev/null 2>&1 || { echo "deb: $tool was not found" >&2; exit 1; }
done
[[ -f $ext ]] || { echo "deb: $ext is missing: run make build first" >&2; exit 1; }
[[ -x $cli ]] || { echo "deb: $cli is missing: run make build first" >&2; exit 1; }

php_full=$("$php_config" --version)
php_ver=${php_full%.*}
phpapi=$("$php_config" --phpapi)
ext_dir=$("$php_config" --extension-dir)
package=php$php_ver-redis-lock
# The [package] version of Cargo.toml; a Cargo pre-release (1.0.0-rc.1) sorts
# before its release in Debian only as 1.0.0~rc.1.
version=$(sh scripts/package-field.sh version)
[[ -n $version ]] || { echo "deb: no version in Cargo.toml's [package]" >&2; exit 1; }
version=${version//-/\~}${DEB_VERSION_SUFFIX:-}
arch=$(dpkg --print-architecture)

out=${DEB_OUT:-$PWD/target/deb}
mkdir -p "$out"
work=$(mktemp -d "$out/.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
umask 022

# The files, staged exactly as make install would write them.
DESTDIR=$root EXT=$ext CLI=$cli BINDIR=/usr/lib/$package PHP_CONFIG=$php_config \
  INI_ORIGIN="Installed by the $package package (a conffile: your changes are kept on upgrades)." \
  bash scripts/install.sh install >/dev/null
if [[ ${DEB_STRIP:-1} != 0 ]] && command -v objcopy >/dev/null 2>&1; then
  objcopy --strip-debug "$root$ext_dir/$module.so"
  objcopy --strip-debug "$root/usr/lib/$package/redis-lock"
fi

doc=$root/usr/share/doc/$package
mkdir -p "$doc"
gzip -9n <README.md >"$doc/README.md.gz"
# The reference the README links to (docs/*.md), without the charts.
mkdir -p "$doc/docs"
for page in docs/*.md; do gzip -9n <"$page" >"$doc/docs/$(basename "$page").gz"; done

# copyright: the project's LICENSE file when there is one, else Cargo.toml's
# license field; then the licenses of the Rust crates linked into the .so.
license=$(sh scripts/package-field.sh license || true)
license_file=
for f in LICENSE LICENSE.md LICENSE.txt COPYING; do
  [[ -f $f ]] && { license_file=$f; break; }
done
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: redis_lock"
  echo
  echo "Files: *"
  echo "Copyright: the redis_lock developers"
  if [[ -n $license_file ]]; then
    echo "License: ${license:-see below}"
    sed 's/^$/./; s/^/ /' "$license_file"
  elif [[ -n $license ]]; then
    echo "License: $license"
    echo " The license field of redis_lock's Cargo.toml; see README.md.gz."
  else
    echo "License: see README.md.gz"
  fi
  # Crates statically linked into the .so (no build-time or proc-macro crates).
  if crates=$(cargo tree --locked --offline -e normal,no-proc-macro --prefix none \
                -f '{p} | {l}' 2>/dev/null | sed 's/ (\*)$//; s/ ([^)]*)//' | sort -u | grep -v "^$module "); then
    echo "Comment: redis_lock.so also contains these Rust crates, under their own licenses:"
    sed 's/^/ /' <<<"$crates"
  fi
} >"$doc/copyright"

# Dependencies on shared libraries, as dpkg-shlibdeps computes them (it wants a
# debian/control to exist); without dpkg-dev, the packages of ldd's libraries.
shlibs=
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
  mkdir -p "$work/src/debian"
  printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$package" "$package" >"$work/src/debian/control"
  shlibs=$(cd "$work/src" && dpkg-shlibdeps -O "$root$ext_dir/$module.so" "$root/usr/lib/$package/redis-lock" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
fi
if [[ -z $shlibs ]]; then
  shlibs=$(ldd "$root$ext_dir/$module.so" "$root/usr/lib/$package/redis-lock" | awk '$3 ~ /^\// { print $3 }' |
             while read -r lib; do dpkg-query -S "$(readlink -f "$lib")" 2>/dev/null || dpkg-query -S "$lib" 2>/dev/null; done |
             cut -d: -f1 | sort -u | paste -sd, | sed 's/,/, /g')
fi

mkdir -p "$root/DEBIAN"
subst() {
  sed -e "s|@PACKAGE@|$package|g" -e "s|@VERSION@|$version|g" -e "s|@ARCH@|$arch|g" \
      -e "s|@MAINTAINER@|$maintainer|g" -e "s|@INSTALLED_SIZE@|$installed_size|g" \
      -e "s|@PHP_VERSION@|$php_ver|g" -e "s|@PHP_FULL_VERSION@|$php_full|g" \
      -e "s|@PHPAPI@|$phpapi|g" -e "s|@PHP_VERSION_NUMBER@|${php_ver//./}|g" -e "s|@SHLIBS@|$shlibs|g" -e "s|@MODULE@|$module|g" "$1"
}
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
subst packaging/deb/control.in | sed 's/, $//' >"$root/DEBIAN/control"
for script in preinst postinst prerm postrm; do
  subst "packaging/deb/$script" >"$root/DEBIAN/$script"
  chmod 755 "$root/DEBIAN/$script"
done
echo "/etc/php/$php_ver/mods-available/$module.ini" >"$root/DEBIAN/conffiles"
# md5sums of every file but the conffiles (dpkg records those itself).
(cd "$root" && find . -path ./DEBIAN -prune -o -type f ! -path "./etc/*" -printf '%P\0' | LC_ALL=C sort -z |
   xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/"{control,conffiles,md5sums}

deb=$out/${package}_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "deb: $deb"
dpkg-deb --field "$deb" Package Version Architecture Depends | sed 's/^/  /'
dpkg-deb --contents "$deb" | awk '$NF !~ /\/$/ { print "  " $NF }'
