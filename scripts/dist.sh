#!/usr/bin/env bash
# make dist [CELL="oldest stable newest next"]: the release artifacts in dist/,
# the extension built once per platform cell (the Debian chroots of make
# test-matrix, scripts/cells.sh; a cell tested before builds nothing again):
#   dist/deb/<suite>/php8.X-redis-lock_<version>+<suite tag>_amd64.deb
#   dist/deb/php-redis-lock-adapters_<version>_all.deb
#   dist/apt/            the signed APT repository (scripts/apt-repo.sh)
#   dist/pie/php_redis_lock-<version>_php8.X-x86_64-linux-glibc-nts.zip
#   dist/redis_lock-<version>.tar.gz   the source, as git archive writes HEAD
#   dist/SHA256SUMS
# A cell's files replace that cell's earlier ones; the repository, the
# tarball and the sums are made again from everything in dist/.
# Runs as root. DIST_GPG_KEY: the signing key of a release (apt-repo.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/cells.sh
source scripts/cells.sh
cells_begin "make dist" "${CELL:-}"
DIST=$ROOT/dist
trap unmount_all EXIT
trap 'exit 130' INT TERM
for tool in apt-ftparchive:apt-utils gpg:gpg zip:zip; do
  command -v "${tool%%:*}" >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${tool#*:}" >/dev/null
done
prepare_cells

version=$(sh scripts/package-field.sh version)
# The Debian version names the suite it was built on: a host moved from
# bookworm to trixie upgrades to trixie's build.
suite_age() { case $1 in bookworm) echo 1 ;; trixie) echo 2 ;; *) echo 3 ;; esac; }
suite_tag() { case $1 in bookworm) echo +deb12 ;; trixie) echo +deb13 ;; *) echo "+$1" ;; esac; }

mkdir -p "$DIST/deb" "$DIST/pie"
for cell in "${CELLS[@]}"; do
  dir=$CACHE/$cell suite=$(cell_suite "$cell") php=$(cell_php "$cell")
  start=$SECONDS
  ensure_cell "$cell" || exit 1
  copy_tree "$dir"
  echo "[$cell] building for PHP $php ($suite; log: $CACHE/$cell.dist.log)"
  if ! chroot "$dir" env -i HOME=/root PATH=/root/.cargo/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
         LANG=C.UTF-8 PHP_VERSION="$php" DEB_VERSION_SUFFIX="$(suite_tag "$suite")" CARGO_TARGET_DIR=/build/target \
         bash /src/scripts/dist-cell.sh >"$CACHE/$cell.dist.log" 2>&1; then
    tail -20 "$CACHE/$cell.dist.log" >&2
    echo "[$cell] FAILED: see $CACHE/$cell.dist.log" >&2
    exit 1
  fi
  unmount_all
  mkdir -p "$DIST/deb/$suite"
  rm -f "$DIST/deb/$suite/php$php-redis-lock_"*.deb
  cp "$dir"/build/dist/*.deb "$DIST/deb/$suite/"
  read -r php_full machine <"$dir/build/dist/php-version.txt"
  [[ $machine == x86_64 ]] || { echo "[$cell] PIE names x86_64 builds only; this one is $machine" >&2; exit 1; }
  # One PIE binary per PHP version: the build of the oldest suite, which
  # needs the oldest glibc (trixie's PHP 8.4 loads on sid, not the other
  # way round). Each zip says in its comment where it was built.
  zip=$DIST/pie/php_redis_lock-${version}_php$php-x86_64-linux-glibc-nts.zip
  glibc=$(cat "$dir/build/dist/glibc.txt")
  made_on=$(unzip -z "$zip" 2>/dev/null | sed -n 's/.*built on Debian \([a-z]*\).*/\1/p' || true)
  if [[ -z $made_on || $made_on == "$suite" || $(suite_age "$suite") -lt $(suite_age "$made_on") ]]; then
    rm -f "$zip"
    (cd "$dir/build/dist" && zip -q -X "$zip" redis_lock.so)
    echo "redis_lock $version for PHP $php_full (NTS, x86_64, Linux), built on Debian $suite; needs glibc $glibc or newer" | zip -q -z "$zip"
  fi
  echo "[$cell] $(basename "$dir"/build/dist/*.deb) (PHP $php_full, glibc $glibc) in $((SECONDS - start)) s"
done

rm -f "$DIST"/deb/php-redis-lock-adapters_*_all.deb
bash scripts/deb-adapters.sh "$DIST/deb" | sed 's/^/adapters: /'
bash scripts/apt-repo.sh "$DIST"

# The source as committed (HEAD); a tree with changes says so.
rm -f "$DIST"/redis_lock-*.tar.gz
tarball=$DIST/redis_lock-$version.tar.gz
if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
  git -C "$ROOT" diff --quiet HEAD -- || echo "dist: the tree has uncommitted changes; the tarball holds HEAD ($(git -C "$ROOT" rev-parse --short HEAD))" >&2
  git -C "$ROOT" archive --format=tar.gz --prefix="redis_lock-$version/" -o "$tarball" HEAD
else
  tar -C "$ROOT/.." --exclude=target --exclude=dist --exclude=.git \
    --transform "s,^$(basename "$ROOT"),redis_lock-$version," -czf "$tarball" "$(basename "$ROOT")"
fi

(cd "$DIST" && find deb pie apt/redis-lock.gpg "$(basename "$tarball")" -type f \( -name '*.deb' -o -name '*.zip' -o -name '*.gpg' -o -name '*.tar.gz' \) \
   | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
echo "dist: $DIST"
(cd "$DIST" && sed 's/^[0-9a-f]* *//' SHA256SUMS | sed 's/^/  /')
