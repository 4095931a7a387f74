# redis_lock: `make demo` and `make test` work on a fresh Debian 12 machine (as root):
# they install what is missing, build the extension and run against throwaway Redis servers.

SHELL := /bin/bash
EXT := $(CURDIR)/target/release/libredis_lock.so

.PHONY: all deps build test test-rust test-php test-valgrind test-adapters test-frameworks test-matrix demo bench clean fuzz

all: build

deps:
	@bash scripts/deps.sh build

build: deps
	cargo build --release

test: build test-rust test-php test-valgrind test-adapters test-package

test-rust: build
	cargo test --release

test-php: build
	bash scripts/php-tests.sh

test-valgrind: build
	bash scripts/valgrind.sh

# The Laravel and Symfony adapters (adapters/) with PHPUnit, against Debian's
# symfony/lock and illuminate packages and a throwaway Redis.
test-adapters: build
	bash scripts/test-adapters.sh

# The frameworks' own lock features end to end on the adapters (Laravel's
# queue middleware, unique jobs, scheduler, isolated commands, Cache helpers;
# symfony's LockFactory, FrameworkBundle's lock.factory, Console, Messenger,
# Scheduler), each test against its own throwaway Redis; a feature the
# installed frameworks lack is skipped (scripts/test-frameworks.sh).
test-frameworks: build
	bash scripts/test-frameworks.sh

# The whole suite on every platform in the README's support table, each in a
# Debian chroot cached under /var/cache/redis-lock-matrix (scripts/matrix.sh);
# CELL="newest next" runs only those cells (oldest stable newest next).
test-matrix:
	CELLS='$(CELL)' bash scripts/matrix.sh

demo: build
	bash scripts/demo.sh

# SERVER=valkey: the same runs against Valkey (valkey-server first in PATH).
bench: build
	@bash scripts/deps.sh bench
	REDIS_LOCK_SO=$(EXT) BENCH_SERVER=$(or $(SERVER),redis) bash bench/run.sh

clean:
	cargo clean

# A long randomized argument/INI fuzz run against a throwaway redis-server
# (php-tests/fuzz/fuzz.php; a short run is part of test-php). Replay a failure
# with `make fuzz SEED=S`, or one call with the command fuzz.php prints.
FUZZ_CALLS ?= 100000
fuzz: build
	php php-tests/fuzz/fuzz.php --calls=$(FUZZ_CALLS) $(if $(SEED),--seed=$(SEED))

# Install the built extension into the PHP that php-config describes (Debian's
# layout: redis_lock.so in its extension dir, /etc/php/<ver>/mods-available/
# redis_lock.ini from packaging/redis_lock.ini, enabled with phpenmod for CLI
# and FPM), remove it again, or package it (target/deb/php<ver>-redis-lock_*.deb).
# DESTDIR=dir: write (or remove) the two files under dir only, without phpenmod.
.PHONY: install uninstall deb test-package
install: build
	@DESTDIR='$(DESTDIR)' EXT='$(EXT)' bash scripts/install.sh install

uninstall:
	@DESTDIR='$(DESTDIR)' bash scripts/install.sh uninstall

deb: build
	@EXT='$(EXT)' bash scripts/deb.sh

# The package and make install/uninstall round trips against the system PHP
# (scripts/test-package.sh). Under `make -j test` it still runs after the others.
test-package: build
	bash scripts/test-package.sh
ifneq ($(filter test,$(MAKECMDGOALS)),)
test-package: | test-rust test-php test-valgrind test-adapters
endif
