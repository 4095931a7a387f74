#!/usr/bin/env bash
# Sourced inside a cell (scripts/matrix-cell.sh, scripts/dist-cell.sh): the
# cell's PHP ($PHP_VERSION) is the one `php`, `php-config`, `phpize` and
# `php-fpm` name, also when a framework package pulled in another PHP version.
# The same choice in both, so that make dist reuses the tests' build.
for tool in php php-config phpize php-fpm; do
  if [[ -x /usr/bin/$tool$PHP_VERSION ]]; then
    update-alternatives --set "$tool" "/usr/bin/$tool$PHP_VERSION" >/dev/null 2>&1 || true
  elif [[ -x /usr/sbin/$tool$PHP_VERSION ]]; then
    ln -sfn "/usr/sbin/$tool$PHP_VERSION" "/usr/local/bin/$tool"
  fi
done
