dnl The classic extension build, as PIE and PECL run it:
dnl   phpize && ./configure [--with-php-config=PATH] && make && make install
dnl redis_lock is written in Rust: `make` runs cargo (Makefile.frag) for the PHP
dnl that this php-config describes, and PHP's own `make install` copies
dnl modules/redis_lock.so into its extension dir. The project's own targets
dnl (make test, ...) stay in GNUmakefile, which GNU make reads first.

PHP_ARG_ENABLE([redis-lock],
  [whether to enable redis_lock],
  [AS_HELP_STRING([--enable-redis-lock],
    [Build redis_lock, distributed locks on Redis (needs cargo, rustc 1.89+)])],
  [yes])

if test "$PHP_REDIS_LOCK" != "no"; then
  dnl build.rs refuses ZTS too, but only after cargo has fetched and compiled.
  if test "$PHP_THREAD_SAFETY" = "yes"; then
    AC_MSG_ERROR([redis_lock supports only non-thread-safe (NTS) PHP builds; this PHP ($PHP_EXECUTABLE) is ZTS (thread-safe), which is not supported yet.])
  fi

  dnl rustup puts cargo in ~/.cargo/bin, which a non-login shell (PIE, sudo)
  dnl often lacks in PATH. CARGO=/path/to/cargo ./configure picks another.
  AC_PATH_PROG([CARGO], [cargo], [], [$PATH:${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin])
  if test -z "$CARGO"; then
    AC_MSG_ERROR([cargo was not found. redis_lock is written in Rust and needs cargo with rustc 1.89 or newer: install it with rustup (https://rustup.rs), or with your system's cargo package where that is new enough (Debian: apt-get install cargo); or set CARGO=/path/to/cargo.])
  fi

  dnl The rustc that cargo runs: RUSTC, else the one beside cargo (rustup's
  dnl proxies, Debian's /usr/bin), else PATH's. 1.89: the oldest that every
  dnl crate in Cargo.lock accepts (uuid 1.29's rust-version); with an older
  dnl one cargo would stop after fetching.
  AC_PATH_PROG([RUSTC], [rustc], [], [`dirname "$CARGO"`:$PATH])
  AC_MSG_CHECKING([whether rustc is 1.89 or newer])
  redis_lock_rustc=`"${RUSTC:-rustc}" --version 2>/dev/null | sed -n 1p`
  redis_lock_rustc_ok=`echo "$redis_lock_rustc" | $AWK '{ split($2, v, "."); print (v[[1]] > 1 || (v[[1]] == 1 && v[[2]] >= 89)) ? "yes" : "no" }'`
  AC_MSG_RESULT([${redis_lock_rustc_ok:-no} (${redis_lock_rustc:-rustc did not run})])
  if test "$redis_lock_rustc_ok" != "yes"; then
    AC_MSG_ERROR([redis_lock needs rustc 1.89 or newer; found: ${redis_lock_rustc:-none}. Update it with rustup update, or install rustup (https://rustup.rs); RUSTC=/path/to/rustc picks another.])
  fi

  dnl ext-php-rs generates PHP's bindings with bindgen, which loads libclang.
  AC_MSG_CHECKING([for libclang])
  redis_lock_libclang=$LIBCLANG_PATH
  for redis_lock_lib in /usr/lib/llvm-*/lib/libclang*.so* /usr/lib/*/libclang*.so* /usr/lib/libclang*.so* /usr/local/lib/libclang*.so*; do
    test -e "$redis_lock_lib" && redis_lock_libclang=$redis_lock_lib
  done
  AC_MSG_RESULT([${redis_lock_libclang:-no}])
  if test -z "$redis_lock_libclang"; then
    AC_MSG_ERROR([libclang was not found; ext-php-rs needs it. Install clang and libclang-dev (Debian: apt-get install clang libclang-dev), or set LIBCLANG_PATH.])
  fi

  dnl Absolute, so that make (or make install, from another shell) builds for
  dnl this PHP whatever php-config comes first in PATH then.
  REDIS_LOCK_PHP_CONFIG=`command -v "$PHP_CONFIG"`
  case $REDIS_LOCK_PHP_CONFIG in
    /*) ;;
    *) REDIS_LOCK_PHP_CONFIG=`pwd`/$REDIS_LOCK_PHP_CONFIG ;;
  esac

  dnl No C sources: the module is the library cargo builds (Makefile.frag).
  PHP_MODULES='$(phplibdir)/redis_lock.so'
  PHP_ADD_BUILD_DIR([$abs_builddir/modules])
  PHP_SUBST(CARGO)
  PHP_SUBST(RUSTC)
  PHP_SUBST(REDIS_LOCK_PHP_CONFIG)
  PHP_ADD_MAKEFILE_FRAGMENT([$abs_srcdir/Makefile.frag], [$abs_srcdir], [$abs_builddir])
fi
