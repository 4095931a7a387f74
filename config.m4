dnl The classic extension build, as PIE and PECL run it:
dnl   phpize && ./configure [--with-php-config=PATH] && make && make install
dnl redis_lock is written in Rust: `make` runs cargo (Makefile.frag) for the PHP
dnl that this php-config describes, and PHP's own `make install` copies
dnl modules/redis_lock.so into its extension dir. The project's own targets
dnl (make test, ...) stay in GNUmakefile, which GNU make reads first.

PHP_ARG_ENABLE([redis-lock],
  [whether to enable redis_lock],
  [AS_HELP_STRING([--enable-redis-lock],
    [Build redis_lock, distributed locks on Redis (the default; needs cargo, and rustc as new as Cargo.toml's rust-version)])],
  [yes])

if test "$PHP_REDIS_LOCK" != "no"; then
  dnl build.rs refuses ZTS too, but only after cargo has fetched and compiled.
  if test "$PHP_THREAD_SAFETY" = "yes"; then
    AC_MSG_ERROR([redis_lock supports only non-thread-safe (NTS) PHP builds; this PHP ($PHP_EXECUTABLE) is ZTS (thread-safe), which is not supported yet.])
  fi

  dnl The oldest rustc that builds redis_lock: Cargo.toml's rust-version, the
  dnl one place that names it (scripts/deps.sh reads it there too). With an
  dnl older rustc cargo would stop only after fetching every crate.
  AC_MSG_CHECKING([for the oldest rustc redis_lock builds with (Cargo.toml's rust-version)])
  redis_lock_rust_floor=`sh "$abs_srcdir/scripts/package-field.sh" rust-version 2>/dev/null`
  AC_MSG_RESULT([${redis_lock_rust_floor:-not found}])
  if test -z "$redis_lock_rust_floor"; then
    AC_MSG_ERROR([redis_lock's source is incomplete: $abs_srcdir/Cargo.toml is missing or names no rust-version (the oldest rustc it builds with).])
  fi

  dnl rustup puts cargo in ~/.cargo/bin, which a non-login shell (PIE, sudo)
  dnl often lacks in PATH. CARGO=/path/to/cargo ./configure picks another.
  AC_PATH_PROG([CARGO], [cargo], [], [$PATH:${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin])
  if test -z "$CARGO"; then
    AC_MSG_ERROR([redis_lock is written in Rust and needs cargo with rustc $redis_lock_rust_floor or newer, but cargo was found neither in PATH nor in ~/.cargo/bin: install Rust with rustup (https://rustup.rs) or with your system's cargo and rustc packages where they are $redis_lock_rust_floor or newer, or set CARGO=/path/to/cargo.])
  fi
  if test ! -x "$CARGO"; then
    AC_MSG_ERROR([CARGO=$CARGO is not an executable file; point it at cargo (rustup installs it in ~/.cargo/bin/cargo).])
  fi

  dnl The rustc that cargo runs (Makefile.frag passes it as RUSTC): RUSTC,
  dnl else the one beside cargo (rustup's proxies, Debian's /usr/bin), else
  dnl PATH's. Versions compare as numbers: 1.100 is newer than 1.89.
  AC_PATH_PROG([RUSTC], [rustc], [], [`dirname "$CARGO"`:$PATH])
  AC_MSG_CHECKING([whether rustc is $redis_lock_rust_floor or newer])
  redis_lock_rustc=`"${RUSTC:-rustc}" --version 2>/dev/null | sed -n 1p`
  redis_lock_rustc_ok=`echo "$redis_lock_rustc" | $AWK -v floor="$redis_lock_rust_floor" '
    $1 != "rustc" { print "no"; exit }
    { split($2, v, "."); split(floor, f, ".")
      for (i = 1; i <= 3; i++) if (v[[i]] + 0 != f[[i]] + 0) { print (v[[i]] + 0 > f[[i]] + 0) ? "yes" : "no"; exit }
      print "yes"; exit }'`
  AC_MSG_RESULT([${redis_lock_rustc_ok:-no} (${redis_lock_rustc:-rustc did not run})])
  if test "$redis_lock_rustc_ok" != "yes"; then
    AC_MSG_ERROR([redis_lock needs rustc $redis_lock_rust_floor or newer (Cargo.toml's rust-version), but found ${redis_lock_rustc:-no rustc that runs}: run rustup update, or install Rust with rustup (https://rustup.rs), or set RUSTC=/path/to/rustc.])
  fi

  dnl ext-php-rs generates PHP's bindings with bindgen, which loads libclang
  dnl (libclang.so or libclang-N.so; libclang-cpp, which Mesa pulls in alone,
  dnl is not it).
  AC_MSG_CHECKING([for libclang])
  redis_lock_libclang=$LIBCLANG_PATH
  for redis_lock_dir in /usr/lib/llvm-*/lib /usr/lib/* /usr/lib /usr/local/lib; do
    for redis_lock_lib in "$redis_lock_dir"/libclang.so* "$redis_lock_dir"/libclang-[[0-9]]*.so*; do
      test -e "$redis_lock_lib" && redis_lock_libclang=$redis_lock_lib
    done
  done
  AC_MSG_RESULT([${redis_lock_libclang:-no}])
  if test -z "$redis_lock_libclang"; then
    AC_MSG_ERROR([libclang was not found, and ext-php-rs needs it to read PHP's headers: install clang and libclang-dev (Debian: apt-get install clang libclang-dev), or set LIBCLANG_PATH.])
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
