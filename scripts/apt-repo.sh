#!/usr/bin/env bash
# apt-repo.sh DIST: the signed APT repository DIST/apt from the packages in
# DIST/deb: one suite per Debian release, named as Debian names it, from
# DIST/deb/<suite>/*.deb, each suite also carrying DIST/deb/*_all.deb:
#   pool/main/<suite>/*.deb, pool/main/all/*.deb
#   dists/<suite>/main/binary-amd64/Packages{,.gz}   (amd64 and all)
#   dists/<suite>/{Release,InRelease,Release.gpg}
#   redis-lock.gpg   the public key, for [signed-by=...]
# Signed with DIST_GPG_KEY (a key of the caller's GnuPG keyring, GNUPGHOME
# honoured: a release), else with a throwaway key made for this run (tests),
# whose fingerprint goes to DIST/apt/KEY-IS-THROWAWAY.
set -euo pipefail
dist=$(realpath "${1:?usage: apt-repo.sh DIST}")
repo=$dist/apt
arch=$(dpkg --print-architecture)
for tool in apt-ftparchive gpg; do
  command -v "$tool" >/dev/null || { echo "apt-repo: $tool was not found (Debian: apt-get install apt-utils gpg)" >&2; exit 1; }
done

rm -rf "$repo"; mkdir -p "$repo/pool/main/all"
cp "$dist"/deb/*_all.deb "$repo/pool/main/all/" 2>/dev/null || true
suites=()
for dir in "$dist"/deb/*/; do
  suite=$(basename "$dir")
  compgen -G "$dir*.deb" >/dev/null || continue
  suites+=("$suite")
  mkdir -p "$repo/pool/main/$suite"; cp "$dir"*.deb "$repo/pool/main/$suite/"
done
((${#suites[@]})) || { echo "apt-repo: no packages under $dist/deb/<suite>/" >&2; exit 1; }

if [[ -n ${DIST_GPG_KEY:-} ]]; then
  key=$DIST_GPG_KEY
else
  GNUPGHOME=$(mktemp -d); export GNUPGHOME
  trap 'gpgconf --kill all >/dev/null 2>&1; rm -rf "$GNUPGHOME"' EXIT
  gpg --batch --quiet --passphrase '' --quick-gen-key "redis_lock throwaway test key <redis-lock@localhost>" default sign 7d 2>/dev/null
  key=$(gpg --batch --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
  echo "$key" >"$repo/KEY-IS-THROWAWAY"
fi
gpg --batch --yes --export "$key" >"$repo/redis-lock.gpg"
[[ -s $repo/redis-lock.gpg ]] || { echo "apt-repo: no public key for '$key' in ${GNUPGHOME:-~/.gnupg}" >&2; exit 1; }

cd "$repo"
for suite in "${suites[@]}"; do
  bin=dists/$suite/main/binary-$arch
  mkdir -p "$bin"
  apt-ftparchive packages "pool/main/$suite" >"$bin/Packages"
  apt-ftparchive packages pool/main/all >>"$bin/Packages"
  gzip -9nk "$bin/Packages"
  apt-ftparchive \
    -o APT::FTPArchive::Release::Origin=redis_lock -o APT::FTPArchive::Release::Label=redis_lock \
    -o APT::FTPArchive::Release::Suite="$suite" -o APT::FTPArchive::Release::Codename="$suite" \
    -o APT::FTPArchive::Release::Architectures="$arch" -o APT::FTPArchive::Release::Components=main \
    -o APT::FTPArchive::Release::Description="redis_lock for Debian $suite" \
    release "dists/$suite" >"$repo/Release.tmp"
  mv "$repo/Release.tmp" "dists/$suite/Release"
  gpg --batch --yes --pinentry-mode loopback --passphrase "${DIST_GPG_PASSPHRASE:-}" --local-user "$key" \
    --digest-algo SHA512 --clearsign -o "dists/$suite/InRelease" "dists/$suite/Release"
  gpg --batch --yes --pinentry-mode loopback --passphrase "${DIST_GPG_PASSPHRASE:-}" --local-user "$key" \
    --digest-algo SHA512 --armor --detach-sign -o "dists/$suite/Release.gpg" "dists/$suite/Release"
done
echo "apt: $repo (suites: ${suites[*]}; key $key$([[ -z ${DIST_GPG_KEY:-} ]] && echo ", throwaway"))"
