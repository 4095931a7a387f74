#!/usr/bin/env bash
# PHPUnit tests of adapters/ (symfony/lock store with shared locks, symfony/
# semaphore store, Laravel cache locks and funnels) against a throwaway
# redis-server on a free loopback port, with the built extension; the
# frameworks' own store tests among them (testsuite "upstream").
#   REDIS_LOCK_SO      the extension (default: target/release/libredis_lock.so)
#   extra arguments go to phpunit (e.g. --filter testExpiry)
# Needs: phpunit php-symfony-lock php-illuminate-cache php-illuminate-container
#        php-illuminate-config redis-server redis-tools (Debian packages).
# Optional: php-symfony-semaphore (without it the RedisSemaphoreStore tests,
#        ours and symfony's, are skipped, saying so).
set -euo pipefail
cd "$(dirname "$0")/.."

REDIS_LOCK_SO=${REDIS_LOCK_SO:-target/release/libredis_lock.so}
REDIS_LOCK_SO=$(realpath "$REDIS_LOCK_SO")
if [[ ! -f $REDIS_LOCK_SO ]]; then
  echo "no extension at $REDIS_LOCK_SO: build it first (make build)" >&2
  exit 2
fi
missing=()
for pkg in phpunit php-symfony-lock php-illuminate-cache php-illuminate-container php-illuminate-config redis-server redis-tools; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if (( ${#missing[@]} )); then
  echo "missing Debian packages: ${missing[*]} (apt-get install ${missing[*]})" >&2
  exit 2
fi

if ! dpkg-query -W -f='${Status}' php-symfony-semaphore 2>/dev/null | grep -q 'install ok installed'; then
  echo "php-symfony-semaphore is not installed: the symfony/semaphore store tests are skipped" >&2
fi

# shellcheck source=throwaway_redis.sh
source scripts/throwaway_redis.sh
redis_start adapters

export REDIS_LOCK_SO
export REDIS_LOCK_TEST_PORT=$REDIS_PORT_adapters
# No result cache: the option's name changed in PHPUnit 13 (the old one is
# deprecated there), and phpunit.xml keeps to attributes every version accepts.
no_cache=--do-not-cache-result
if grep -q -- --do-not-record-test-run-history <<<"$(/usr/bin/phpunit --help 2>/dev/null)"; then
  no_cache=--do-not-record-test-run-history
fi
status=0
php -d "extension=$REDIS_LOCK_SO" /usr/bin/phpunit -c adapters/phpunit.xml "$no_cache" "$@" || status=$?
exit "$status"
