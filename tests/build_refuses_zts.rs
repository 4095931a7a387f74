//! build.rs stops the build with one sentence on a thread-safe (ZTS) PHP.
//! build.rs is compiled on its own and run against fake `php` and
//! `php-config` scripts: no PHP rebuild needed.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn run_build_script(zts: &str) -> Output {
    let dir = std::env::temp_dir().join(format!("rl-zts-{}-{zts}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("build-script");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let built = Command::new(rustc)
        .args(["--edition", "2021", "-o"])
        .arg(&exe)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("build.rs"))
        .status()
        .unwrap();
    assert!(built.success());
    let php = script(&dir, "php", &format!("echo {zts}"));
    let php_config = script(&dir, "php-config", "echo 8.2.0");
    let out = Command::new(&exe).env("PHP", php).env("PHP_CONFIG", php_config).output().unwrap();
    fs::remove_dir_all(&dir).ok();
    out
}

#[test]
fn a_zts_php_stops_the_build_with_one_sentence() {
    let out = run_build_script("1");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("redis_lock supports only non-thread-safe (NTS) PHP builds; this PHP ("), "{err}");
    assert!(err.trim_end().ends_with("is ZTS (thread-safe), which is not supported yet."), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn an_nts_php_builds() {
    let out = run_build_script("0");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("REDIS_LOCK_PHP_VERSION=8.2.0"));
}
