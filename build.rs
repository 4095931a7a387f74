//! Checks that the PHP development files and libclang are present (with one
//! clear message instead of a bindgen panic) and records the PHP version the
//! extension is built for, shown by `php --ri redis_lock`.

use std::env;
use std::path::Path;
use std::process::{exit, Command};

fn fail(what: &str) -> ! {
    eprintln!("\nredis_lock cannot be built: {what}\n");
    println!("cargo:warning=redis_lock cannot be built: {what}");
    exit(1);
}

fn php_config(arg: &str) -> String {
    let bin = env::var("PHP_CONFIG").unwrap_or_else(|_| "php-config".into());
    match Command::new(&bin).arg(arg).output() {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_owned(),
        _ => fail(&format!(
            "`{bin} {arg}` did not run. Install PHP's development files \
             (Debian: apt-get install php8.2-dev) or point PHP_CONFIG at php-config."
        )),
    }
}

fn has_libclang() -> bool {
    if let Ok(dir) = env::var("LIBCLANG_PATH") {
        return Path::new(&dir).exists();
    }
    let dirs = ["/usr/lib", "/usr/lib64", "/usr/local/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu"];
    let is_libclang = |name: &str| name.starts_with("libclang") && name.contains(".so");
    let found_in = |dir: &Path| {
        std::fs::read_dir(dir)
            .map(|entries| entries.flatten().any(|e| is_libclang(&e.file_name().to_string_lossy())))
            .unwrap_or(false)
    };
    let llvm_dirs = std::fs::read_dir("/usr/lib")
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with("llvm-"))
                .map(|e| e.path().join("lib"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    dirs.iter().map(Path::new).any(found_in) || llvm_dirs.iter().any(|d| found_in(d))
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=PHP_CONFIG");
    println!("cargo:rerun-if-env-changed=LIBCLANG_PATH");
    let version = php_config("--version");
    let api = php_config("--phpapi");
    if !has_libclang() {
        fail("libclang was not found. Install clang and libclang-dev (Debian: apt-get install clang libclang-dev) or set LIBCLANG_PATH.");
    }
    println!("cargo:rustc-env=REDIS_LOCK_PHP_VERSION={version}");
    println!("cargo:rustc-env=REDIS_LOCK_PHP_API={api}");
}
