//! Records the PHP version and API number the extension is built for, shown
//! by `php --ri redis_lock`. Missing build requirements are reported before
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
                 (Debian: apt-get install php8.2-dev) or point PHP_CONFIG at php-config."
            );
            exit(1);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PHP_CONFIG");
    println!("cargo:rustc-env=REDIS_LOCK_PHP_VERSION={}", php_config("--version"));
    println!("cargo:rustc-env=REDIS_LOCK_PHP_API={}", php_config("--phpapi"));
}
