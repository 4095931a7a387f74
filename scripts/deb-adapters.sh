#!/usr/bin/env bash
# deb-adapters.sh OUTDIR: the Laravel and Symfony adapters (adapters/src) as a
# Debian package of their own, laid out as Debian's PHP libraries are
# (php-symfony-lock: /usr/share/php/Symfony/Component/Lock/ with autoload.php):
#   /usr/share/php/RedisLock/{Internal,Laravel,Symfony}/*.php (and the profiler
#       panel's template, Symfony/Resources/views/)
#   /usr/share/php/RedisLock/autoload.php    (packaging/adapters-autoload.php)
#   /usr/share/php/RedisLock/config/symfony/redis_lock.php
#   /usr/share/doc/php-redis-lock-adapters/{copyright,frameworks.md.gz}
# Architecture all; it recommends the extension (php-redis-lock, provided by
# every php8.X-redis-lock) and suggests the frameworks it plugs into.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: deb-adapters.sh OUTDIR}
package=php-redis-lock-adapters
version=$(sh scripts/package-field.sh version)
version=${version//-/\~}
maintainer=${DEB_MAINTAINER:-redis_lock developers <redis-lock@localhost>}
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
umask 022

lib=$root/usr/share/php/RedisLock
mkdir -p "$lib/config" "$root/usr/share/doc/$package"
cp -R adapters/src/. "$lib/"
cp -R adapters/config/symfony "$lib/config/"
cp packaging/adapters-autoload.php "$lib/autoload.php"
find "$root" -type f -exec chmod 644 {} +
gzip -9n <docs/frameworks.md >"$root/usr/share/doc/$package/frameworks.md.gz"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: redis_lock"
  echo
  echo "Files: *"
  echo "Copyright: the redis_lock developers"
  echo "License: $(sh scripts/package-field.sh license)"
  sed 's/^$/./; s/^/ /' LICENSE
} >"$root/usr/share/doc/$package/copyright"

mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: $package
Version: $version
Architecture: all
Maintainer: $maintainer
Installed-Size: $(du -sk --apparent-size "$root" | cut -f1)
Depends: php-common
Recommends: php-redis-lock
Suggests: php-symfony-lock, php-symfony-semaphore, php-illuminate-cache
Section: php
Priority: optional
Description: Laravel and Symfony adapters for the redis_lock PHP extension
 Symfony Lock (shared locks included) and Semaphore stores, Laravel cache
 locks and funnels, backed by the redis_lock extension: FIFO hand-off,
 owner-checked release, watchdog renewal.
 .
 Load them with: require_once 'RedisLock/autoload.php';
CONTROL
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
deb=$out/${package}_${version}_all.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "deb: $deb"
