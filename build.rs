//! Refuses a thread-safe (ZTS) PHP, then records the PHP version and API
//! number the extension is built for, shown by `php --ri redis_lock`. Missing build requirements are reported before
//! this by scripts/build-tool, which the build runs as php and php-config
//! (.cargo/config.toml).

use std::env;
use std::process::{exit, Command};

fn php_config(arg: &str) -> String {
    let bin = env::var("PHP_CONFIG").unwrap_or_else(|_| "php-config".into());
    match Command::new(&bin).arg(arg).output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        _ => {
            eprintln!(
                "redis_lock cannot be built: `{bin} {arg}` did not run. Install PHP's development files \
                 (Debian: apt-get install php<version>-dev, e.g. php8.4-dev) or point PHP_CONFIG at php-config."
            );
            exit(1);
        }
    }
}

/// The per-process statics (connections, held locks) assume one PHP thread
/// per process: stop here, with one sentence, rather than build an
/// extension that a ZTS PHP would run unsafely.
fn refuse_zts() {
    let bin = env::var("PHP").unwrap_or_else(|_| "php".into());
    let zts = match Command::new(&bin).args(["-n", "-r", "echo PHP_ZTS;"]).output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim() == "1",
        _ => {
            eprintln!("redis_lock cannot be built: `{bin} -r 'echo PHP_ZTS;'` did not run. Install PHP (Debian: apt-get install php<version>-cli) or point PHP at it.");
            exit(1);
        }
    };
    if zts {
        eprintln!(
            "redis_lock supports only non-thread-safe (NTS) PHP builds; this PHP ({bin}) is ZTS (thread-safe), which is not supported yet."
        );
        exit(1);
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PHP");
    println!("cargo:rerun-if-env-changed=PHP_CONFIG");
    refuse_zts();
    println!("cargo:rustc-env=REDIS_LOCK_PHP_VERSION={}", php_config("--version"));
    println!("cargo:rustc-env=REDIS_LOCK_PHP_API={}", php_config("--phpapi"));
}
