#!/usr/bin/env bash
# Installs what the build, the tests, the demo, the benchmark or the packaging
# need on Debian 12, skipping what is already there, and checks the Rust
# toolchain. Usage: scripts/deps.sh [build|bench|browser]
# (browser: Debian's headless Chromium for the profiler panel's browser test,
# adapters/e2e/symfony_profiler_browser.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# The PHP that php-config names (PHP_CONFIG, as the build uses), else
# Debian 12's 8.2: never a second PHP beside the one being built for.
php_ver=8.2
if php_full=$("${PHP_CONFIG:-php-config}" --version 2>/dev/null); then php_ver=$(cut -d. -f1,2 <<<"$php_full"); fi
# The build and the tests, then the packaging (scripts/deb.sh, the APT
# repository and the PIE assets: apt-ftparchive, gpg, zip, dpkg-shlibdeps) and
# the matrix chroots (debootstrap).
build_pkgs=("php$php_ver-dev" "php$php_ver-cli" "php$php_ver-fpm" libfcgi-bin clang libclang-dev libssl-dev pkg-config redis-server redis-tools redis-sentinel openssl valgrind iproute2 iptables strace
            phpunit php-symfony-lock php-symfony-semaphore php-illuminate-cache php-illuminate-container php-illuminate-config
            php-illuminate-redis php-redis php-predis
            apt-utils gpg zip unzip dpkg-dev debootstrap tmux)
bench_pkgs=(apache2-utils nginx-light python3-matplotlib)
browser_pkgs=(chromium)

case "${1:-build}" in
  build) wanted=("${build_pkgs[@]}") ;;
  bench) wanted=("${build_pkgs[@]}" "${bench_pkgs[@]}") ;;
  browser) wanted=("${build_pkgs[@]}" "${browser_pkgs[@]}") ;;
  *) echo "usage: $0 [build|bench|browser]" >&2; exit 2 ;;
esac

is_root() { [[ $(id -u) -eq 0 ]]; }
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done

if ((${#missing[@]})); then
  if ! is_root; then
    echo "redis_lock needs these Debian packages: ${missing[*]}" >&2
    echo "install them as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  echo "installing: ${missing[*]}"
  apt_install "${missing[@]}"
fi

# ---- Rust: cargo, and a rustc no older than Cargo.toml's rust-version (the
# one place that names it; config.m4 reads it there too).
floor=$(sh "$root/scripts/package-field.sh" rust-version 2>/dev/null)
if [[ -z $floor ]]; then
  echo "redis_lock's source is incomplete: $root/Cargo.toml is missing or names no rust-version (the oldest rustc it builds with)." >&2
  exit 1
fi
rustup_hint="install Rust with rustup (https://rustup.rs), whose default stable toolchain is new enough, and run this again from a new shell"

if ! command -v cargo >/dev/null 2>&1; then
  # rustup's cargo, only missing from this shell's PATH: installing Debian's
  # beside it would build with two toolchains.
  for dir in "${CARGO_HOME:-$HOME/.cargo}/bin" "$HOME/.cargo/bin"; do
    if [[ -x $dir/cargo ]]; then
      echo "redis_lock builds with cargo, which is installed in $dir but not in PATH: run '. \"${CARGO_HOME:-\$HOME/.cargo}/env\"' (or add $dir to PATH) and run this again." >&2
      exit 1
    fi
  done
  # Debian's cargo and rustc, when its rustc is new enough (Debian 12's 1.63
  # and 13's 1.85 are not; sid's is).
  candidate() { apt-cache policy rustc 2>/dev/null | sed -n 's/^ *Candidate: *//p' | sed -n 1p; }
  cand=$(candidate)
  if [[ -z $cand || $cand == "(none)" ]] && is_root; then
    apt-get update -qq
    cand=$(candidate)
  fi
  if [[ $cand == "(none)" ]]; then cand=; fi
  if [[ -n $cand ]] && dpkg --compare-versions "${cand#*:}" ge "$floor"; then
    if ! is_root; then
      echo "redis_lock needs cargo and rustc $floor or newer, and Debian's rustc $cand is new enough: install them as root (apt-get install cargo rustc), or $rustup_hint." >&2
      exit 1
    fi
    echo "installing: cargo rustc (Debian's rustc $cand; redis_lock needs $floor or newer)"
    apt_install cargo rustc
  else
    if [[ -n $cand ]]; then have="Debian's rustc here is $cand, too old"; else have="no rustc package is available here"; fi
    echo "redis_lock needs cargo and rustc $floor or newer (Cargo.toml's rust-version), and $have: $rustup_hint." >&2
    exit 1
  fi
fi

# The rustc cargo runs: RUSTC, else the one beside cargo (rustup's proxies,
# Debian's /usr/bin), else PATH's; as config.m4 picks it.
cargo_bin=$(command -v cargo) || { echo "redis_lock needs cargo, which apt-get install cargo rustc did not put in PATH: $rustup_hint." >&2; exit 1; }
rustc_bin=${RUSTC:-$(dirname "$cargo_bin")/rustc}
[[ -x $rustc_bin ]] || rustc_bin=$(command -v rustc || echo rustc)
rustc_line=$("$rustc_bin" --version 2>/dev/null | sed -n 1p || true)
rustc_ver=$(awk '$1 == "rustc" { print $2 }' <<<"$rustc_line")
if [[ -z $rustc_ver ]] || ! dpkg --compare-versions "${rustc_ver%%-*}" ge "$floor"; then
  echo "redis_lock needs rustc $floor or newer (Cargo.toml's rust-version), but the rustc that $cargo_bin runs ($rustc_bin) is ${rustc_line:-not working}: run rustup update if rustup installed it, else $rustup_hint." >&2
  exit 1
fi
