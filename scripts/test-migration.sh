#!/usr/bin/env bash
# make test-migration: the mixes of a rolling migration (docs/migration.md)
# as a test: bench/migration/run.php --check, 3 s per mix on one key, with the
# frameworks this machine has (Debian 12: symfony/lock 5.4, Laravel 8; the
# newest matrix cell: symfony 7.4, Laravel 13). Mixes and seconds as
# make bench-migration takes them: MIGRATION_MIXES, MIGRATION_SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
mixes=${MIGRATION_MIXES:-"handrolled:2,ours:2 laravel:2,ours-laravel:2 symfony:2,ours-symfony:2 handrolled:1,laravel:1,symfony:1,ours:1,ours-laravel:1,ours-symfony:1"}
args=()
for m in $mixes; do args+=("--mix=$m"); done
php bench/migration/run.php --check --seconds="${MIGRATION_SECONDS:-3}" "${args[@]}"
