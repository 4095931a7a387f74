#!/usr/bin/env bash
# Installs what the build, the tests, the demo or the benchmark need on Debian 12,
# skipping what is already there. Usage: scripts/deps.sh [build|bench]
set -euo pipefail

# The PHP that php-config names (PHP_CONFIG, as the build uses), else
# Debian 12's 8.2: never a second PHP beside the one being built for.
php_ver=8.2
if php_full=$("${PHP_CONFIG:-php-config}" --version 2>/dev/null); then php_ver=$(cut -d. -f1,2 <<<"$php_full"); fi
build_pkgs=("php$php_ver-dev" "php$php_ver-cli" "php$php_ver-fpm" libfcgi-bin clang libclang-dev libssl-dev pkg-config redis-server redis-tools redis-sentinel openssl valgrind iproute2 iptables strace
            phpunit php-symfony-lock php-symfony-semaphore php-illuminate-cache php-illuminate-container php-illuminate-config)
bench_pkgs=(php-redis php-predis php-symfony-lock php-symfony-semaphore php-illuminate-cache php-illuminate-redis apache2-utils nginx-light python3-matplotlib)

case "${1:-build}" in
  build) wanted=("${build_pkgs[@]}") ;;
  bench) wanted=("${build_pkgs[@]}" "${bench_pkgs[@]}") ;;
  *) echo "usage: $0 [build|bench]" >&2; exit 2 ;;
esac

missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done

if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "redis_lock needs these Debian packages: ${missing[*]}" >&2
    echo "install them as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "redis_lock needs a Rust toolchain (cargo, rustc 1.89 or newer): see https://rustup.rs" >&2
  exit 1
fi
