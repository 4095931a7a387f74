# Added by config.m4 to the Makefile that ./configure writes. cargo builds the
# extension for the PHP configure was given: PHP_CONFIG and PHP name it to
# ext-php-rs and build.rs (else they would ask whatever php comes first in
# PATH). The copy in modules/ is what PHP's `make install` installs.
REDIS_LOCK_SOURCES = $(srcdir)/Cargo.toml $(srcdir)/Cargo.lock $(srcdir)/build.rs $(shell find $(srcdir)/src $(srcdir)/.cargo -type f)

# Rebuilt only when a source or the configuration changed: `make install`,
# often run as root without the user's cargo, then only copies. --locked:
# the crates are exactly Cargo.lock's (the versions tested, and the ones
# Cargo.toml's rust-version was chosen for); cargo stops rather than resolve
# newer ones. cargo metadata names the target dir (CARGO_TARGET_DIR or a
# cargo config may move it); with --no-deps it resolves nothing, so Cargo.lock
# is not read there. Copied under a temporary name and renamed, so that a PHP
# which has the old file loaded keeps it intact.
$(phplibdir)/redis_lock.so: $(REDIS_LOCK_SOURCES) Makefile
	cd $(srcdir) && PHP_CONFIG=$(REDIS_LOCK_PHP_CONFIG) PHP=$(PHP_EXECUTABLE) RUSTC=$(RUSTC) $(CARGO) build --release --locked
	cd $(srcdir) && target=`$(CARGO) metadata --format-version 1 --no-deps --offline | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p'` \
	  && cp "$$target/release/libredis_lock.so" $@.tmp
	mv -f $@.tmp $@
