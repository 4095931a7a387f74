#!/usr/bin/env bash
# make demo: a throwaway Redis and examples/demo.php against it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/throwaway_redis.sh
redis_start demo
echo "throwaway redis-server on 127.0.0.1:$REDIS_PORT_demo"
php -d extension="$PWD/target/release/libredis_lock.so" \
    -d redis_lock.server="redis://127.0.0.1:$REDIS_PORT_demo" \
    examples/demo.php
