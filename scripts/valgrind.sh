#!/usr/bin/env bash
# make test-valgrind: thousands of lock/release cycles and every error path
# under valgrind, against a throwaway Redis. Fails on any memory error or on
# memory definitely lost.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/throwaway_redis.sh
redis_start leak
redis_start leak2
redis_start leak3
log="$REDIS_TMP/valgrind.log"
if USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1 valgrind --leak-check=full --errors-for-leak-kinds=definite \
     --error-exitcode=99 --log-file="$log" \
     php -n -d extension="$PWD/target/release/libredis_lock.so" \
         -d redis_lock.server="redis://127.0.0.1:$REDIS_PORT_leak" examples/leak_check.php \
         "$REDIS_PORT_leak" "$REDIS_PORT_leak2" "$REDIS_PORT_leak3"; then
  grep -E "ERROR SUMMARY|definitely lost|indirectly lost" "$log"
  echo "valgrind: clean"
else
  cat "$log"
  echo "valgrind: FAILED" >&2
  exit 1
fi
