//! The architecture as a test (docs/architecture.md): every import between
//! the files of `src/` points down the layers or sideways within one, the
//! files import each other without a cycle, the PHP class files never
//! import each other, the PHP faces reach the engine only through
//! `engine::policy`, and no file is over 400 lines.
//!
//! Imports are read from the source text: `use` items and inline
//! `crate::…`/`super::…` paths, up to a file's `#[cfg(test)]` block (tests
//! may look anywhere).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Layers, bottom to top.
const LAYERS: [&str; 9] = ["protocol", "error", "net", "round", "topology", "features", "policy", "php", "root"];

/// The PHP class files (one per class), which must not import each other:
/// what two classes share lives in the helpers beside them (bridge, shared, checks).
const CLASS_FILES: [&str; 5] = ["php/mutex", "php/redlock", "php/rwlock", "php/semaphore", "php/scope"];

const MAX_LINES: usize = 400;

struct File {
    /// Module path below `src/`: `engine/round/leg`, `engine/round` (mod.rs), `lib`.
    module: Vec<String>,
    text: String,
}

fn files() -> Vec<File> {
    let mut out = Vec::new();
    let mut dirs = vec![PathBuf::from("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix("src").expect("under src").with_extension("");
                let mut module: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if module.last().is_some_and(|m| m == "mod") {
                    module.pop();
                }
                let text = std::fs::read_to_string(&path).expect("readable");
                out.push(File { module, text });
            }
        }
    }
    out.sort_by(|a, b| a.module.cmp(&b.module));
    out
}

fn name(module: &[String]) -> String {
    module.join("/")
}

fn layer(module: &[String]) -> usize {
    let which = match module.first().map(String::as_str) {
        Some("php") => "php",
        Some("engine") => module.get(1).map_or("root", String::as_str),
        _ => "root",
    };
    LAYERS.iter().position(|l| *l == which).unwrap_or(LAYERS.len() - 1)
}

/// The code before the tests, without comments.
fn code(text: &str) -> String {
    let body = text.split("#[cfg(test)]").next().unwrap_or_default();
    body.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
}

/// Every path the code names, starting at `crate` or `super`, with each
/// item of a `{…}` group as a path of its own.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &code[i..];
        let starts = (rest.starts_with("crate::") || rest.starts_with("super::"))
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b':'));
        if !starts {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
        let prefix: Vec<String> = rest[..end].split("::").filter(|s| !s.is_empty()).map(str::to_owned).collect();
        if rest[end..].starts_with('{') {
            let close = rest[end..].find('}').map_or(rest.len(), |c| end + c);
            for item in rest[end + 1..close].split(',') {
                let first = item.trim().split("::").next().unwrap_or_default().trim();
                let first = first.split_whitespace().next().unwrap_or_default();
                if !first.is_empty() && first != "self" {
                    out.push([prefix.clone(), vec![first.to_owned()]].concat());
                }
            }
            out.push(prefix);
            i += close.max(end) + 1;
        } else {
            out.push(prefix);
            i += end.max(1);
        }
    }
    out
}

/// The file a path leads to from `from`: its longest prefix that is a file.
fn resolve(from: &[String], path: &[String], known: &BTreeMap<String, usize>) -> Option<String> {
    let mut at: Vec<String> = Vec::new();
    let mut segs = path.iter().peekable();
    match segs.peek().map(|s| s.as_str()) {
        Some("crate") => {
            segs.next();
        }
        Some("super") => {
            // A file's own module is `from`; `super` is its parent.
            at = from.to_vec();
            while segs.peek().map(|s| s.as_str()) == Some("super") {
                segs.next();
                at.pop();
            }
        }
        _ => return None,
    }
    let mut best = None;
    if !at.is_empty() && known.contains_key(&name(&at)) {
        best = Some(name(&at));
    }
    for seg in segs {
        at.push(seg.clone());
        if known.contains_key(&name(&at)) {
            best = Some(name(&at));
        }
    }
    best.or_else(|| Some("lib".to_owned()))
}

fn arrows(files: &[File]) -> BTreeMap<String, Vec<String>> {
    let known: BTreeMap<String, usize> = files.iter().enumerate().map(|(i, f)| (name(&f.module), i)).collect();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in files {
        let from = name(&file.module);
        let mut to: Vec<String> = paths(&code(&file.text))
            .iter()
            .filter_map(|p| resolve(&file.module, p, &known))
            .filter(|t| *t != from && !from.starts_with(&format!("{t}/")))
            .collect();
        to.sort();
        to.dedup();
        out.insert(from, to);
    }
    out
}

fn module_of(name: &str) -> Vec<String> {
    name.split('/').map(str::to_owned).collect()
}

#[test]
fn imports_point_down_the_layers() {
    let files = files();
    let mut upward = Vec::new();
    for (from, targets) in arrows(&files) {
        for to in targets {
            let (a, b) = (layer(&module_of(&from)), layer(&module_of(&to)));
            if b > a {
                upward.push(format!("{from} ({}) -> {to} ({})", LAYERS[a], LAYERS[b]));
            }
        }
    }
    assert!(upward.is_empty(), "imports pointing up the layers:\n{}", upward.join("\n"));
}

#[test]
fn files_import_each_other_without_a_cycle() {
    let graph = arrows(&files());
    // Depth-first search; a grey node met again closes a cycle.
    let mut state: BTreeMap<&str, u8> = BTreeMap::new();
    let mut cycles = Vec::new();
    fn visit<'g>(n: &'g str, g: &'g BTreeMap<String, Vec<String>>, state: &mut BTreeMap<&'g str, u8>, stack: &mut Vec<&'g str>, cycles: &mut Vec<String>) {
        state.insert(n, 1);
        stack.push(n);
        for m in g.get(n).into_iter().flatten() {
            match state.get(m.as_str()) {
                Some(1) => {
                    let at = stack.iter().position(|s| *s == m).unwrap_or(0);
                    cycles.push(format!("{} -> {m}", stack[at..].join(" -> ")));
                }
                Some(_) => {}
                None => visit(m, g, state, stack, cycles),
            }
        }
        stack.pop();
        state.insert(n, 2);
    }
    for n in graph.keys() {
        if !state.contains_key(n.as_str()) {
            visit(n, &graph, &mut state, &mut Vec::new(), &mut cycles);
        }
    }
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn php_class_files_never_import_each_other() {
    let graph = arrows(&files());
    for a in CLASS_FILES {
        for b in CLASS_FILES {
            let imports = graph.get(a).is_some_and(|t| t.iter().any(|t| t == b));
            assert!(a == b || !imports, "{a} imports {b}");
        }
    }
}

#[test]
fn php_faces_reach_the_engine_only_through_the_policy() {
    let graph = arrows(&files());
    let mut around = Vec::new();
    for (from, targets) in &graph {
        if !from.starts_with("php/") && from != "php" {
            continue;
        }
        for to in targets.iter().filter(|t| t.starts_with("engine/") && *t != "engine/policy") {
            around.push(format!("{from} -> {to}"));
        }
    }
    assert!(around.is_empty(), "PHP faces naming the engine past engine::policy (re-export it there):\n{}", around.join("\n"));
    for class in CLASS_FILES {
        assert!(graph.contains_key(class), "{class} (CLASS_FILES) is no file: keep the list true");
    }
}

#[test]
fn files_stay_small() {
    let long: Vec<String> = files()
        .iter()
        .filter(|f| f.text.lines().count() > MAX_LINES)
        .map(|f| format!("{} ({} lines)", name(&f.module), f.text.lines().count()))
        .collect();
    assert!(long.is_empty(), "files over {MAX_LINES} lines:\n{}", long.join("\n"));
}

#[test]
fn the_reader_sees_real_imports() {
    // The parser finds groups, nested prefixes and `super` chains.
    let found = paths("use super::{lease, owner::Op};\nuse crate::engine::net::{down, login};\nlet x = super::super::token::jitter(d);");
    let shown: Vec<String> = found.iter().map(|p| p.join("::")).collect();
    for want in ["super::lease", "super::owner", "crate::engine::net::down", "crate::engine::net::login", "super::super::token::jitter"] {
        assert!(shown.iter().any(|s| s == want), "{want} not in {shown:?}");
    }
    assert!(Path::new("src/engine/round/mod.rs").exists(), "run from the crate root");
}
