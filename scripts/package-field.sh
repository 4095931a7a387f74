#!/bin/sh
# package-field.sh FIELD: a field of Cargo.toml's [package] (version,
# rust-version, license), the one place the project's version and Rust floor
# are written. Prints nothing (exit 1) when the field is missing.
awk -F'"' -v field="$1" '/^\[/ { in_pkg = ($0 == "[package]") }
  in_pkg && $1 ~ "^" field " *= *$" { print $2; found = 1; exit }
  END { exit !found }' "$(dirname "$0")/../Cargo.toml"
