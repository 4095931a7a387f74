# redis_lock: `make demo` and `make test` work on a fresh Debian 12 machine (as root):
# they install what is missing, build the extension and run against throwaway Redis servers.

SHELL := /bin/bash
EXT := $(CURDIR)/target/release/libredis_lock.so

.PHONY: all deps build test test-rust test-php test-valgrind demo bench clean fuzz

all: build

deps:
	@bash scripts/deps.sh build

build: deps
	cargo build --release

test: build test-rust test-php test-valgrind

test-rust: build
	cargo test --release

test-php: build
	bash scripts/php-tests.sh

test-valgrind: build
	bash scripts/valgrind.sh

demo: build
	bash scripts/demo.sh

bench: build
	@bash scripts/deps.sh bench
	REDIS_LOCK_SO=$(EXT) bash bench/run.sh

clean:
	cargo clean

# A long randomized argument/INI fuzz run against a throwaway redis-server
# (php-tests/fuzz/fuzz.php; a short run is part of test-php). Replay a failure
# with `make fuzz SEED=S`, or one call with the command fuzz.php prints.
FUZZ_CALLS ?= 100000
fuzz: build
	php php-tests/fuzz/fuzz.php --calls=$(FUZZ_CALLS) $(if $(SEED),--seed=$(SEED))
