//! The layering rules of `ARCHITECTURE.md`, checked on the source: every path a file of
//! `src/` names (`use` trees and paths in code: `crate::`, `$crate::`, `super::`, `self::`,
//! `tessera::` from the binary, and child modules) is resolved to the file that defines the
//! item (following `pub use` re-exports), and
//!
//! - no file imports a layer its own layer may not import ([`FORBIDDEN`]);
//! - the file graph has no cycle. A module's root file (`mod.rs`, `lib.rs`, `main.rs`) may
//!   use its own submodules (it declares and re-exports them); every other edge counts.
//!
//! The checker is tested on small made-up sources first, so a violation really fails.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Which crate a file belongs to: the library, or the binary (`main.rs` and `cli/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Krate {
    Lib,
    Bin,
}

/// Layers a layer must not import, by layer: the top-level module (`wire` below the
/// engines, the `protocol` servers above them); `cli` is the binary.
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "game",
        &[
            "games",
            "formats",
            "search",
            "present",
            "engine",
            "env",
            "wire",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "games",
        &[
            "formats",
            "present",
            "engine",
            "env",
            "wire",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "formats",
        &[
            "search",
            "present",
            "engine",
            "env",
            "wire",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "search",
        &[
            "games",
            "formats",
            "present",
            "engine",
            "env",
            "wire",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "wire",
        &[
            "search",
            "formats",
            "present",
            "engine",
            "env",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "present",
        &[
            "engine",
            "env",
            "wire",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "engine",
        &[
            "env",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "protocol",
        &["env", "tuning", "tournament", "report", "web", "cli"],
    ),
    (
        "env",
        &[
            "formats",
            "wire",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    (
        "tournament",
        &["env", "protocol", "tuning", "report", "web", "cli"],
    ),
    (
        "play",
        &[
            "env",
            "protocol",
            "tuning",
            "tournament",
            "report",
            "web",
            "cli",
        ],
    ),
    ("tuning", &["report", "web", "cli"]),
    ("report", &["protocol", "tuning", "web", "cli"]),
    ("web", &["tuning", "cli"]),
];

/// One source file, comments and string contents blanked.
struct Source {
    file: String,
    krate: Krate,
    module: Vec<String>,
    /// Whether the file is a module root (`mod.rs`, `lib.rs`, `main.rs`).
    root: bool,
    tokens: Vec<String>,
}

/// Blanks comments, and the contents of string and char literals (keeping the quotes), so
/// that only code is scanned.
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (c.get(i + 1) == Some(&'"') || c.get(i + 1) == Some(&'#'))
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // Raw string r"..." / r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' {
            // A char literal ('x', '\n', '\u{..}') or a lifetime ('a).
            if c.get(i + 1) == Some(&'\\') {
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push_str("' '");
            } else if c.get(i + 2) == Some(&'\'') {
                i += 3;
                out.push_str("' '");
            } else {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// Identifiers (with a leading `$` kept: `$crate`), `::` and single punctuation characters.
fn tokenize(code: &str) -> Vec<String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let ch = c[i];
        if ch.is_alphabetic() || ch == '_' || (ch == '$' && c.get(i + 1) == Some(&'c')) {
            let s = i;
            i += 1;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            out.push(c[s..i].iter().collect());
        } else if ch.is_ascii_digit() {
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_' || c[i] == '.') {
                i += 1;
            }
        } else if ch == ':' && c.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else if ch.is_whitespace() {
            i += 1;
        } else {
            out.push(ch.to_string());
            i += 1;
        }
    }
    out
}

/// Where a file sits: its crate, module path and whether it is a module root.
fn place(file: &str) -> (Krate, Vec<String>, bool) {
    let rel = file.strip_suffix(".rs").unwrap_or(file);
    let mut segs: Vec<String> = rel.split('/').map(str::to_string).collect();
    let root = matches!(
        segs.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    );
    if root {
        segs.pop();
    }
    let krate = if rel == "main" || segs.first().is_some_and(|s| s == "cli") {
        Krate::Bin
    } else {
        Krate::Lib
    };
    (krate, segs, root)
}

/// A path named in a file: absolute (crate, segments), whether it is a `pub use`, and the
/// name it is re-exported under.
struct Named {
    krate: Krate,
    segs: Vec<String>,
    reexport: Option<String>,
}

/// The paths of one file, made absolute. `children` are the file's `mod x;` declarations.
fn paths_of(src: &Source) -> (Vec<Named>, BTreeSet<String>) {
    let t = &src.tokens;
    let children: BTreeSet<String> = t
        .windows(3)
        .filter(|w| w[0] == "mod" && w[2] == ";")
        .map(|w| w[1].clone())
        .collect();
    let mut out = Vec::new();
    // The module path at each point (inline `mod x { ... }` blocks nest it).
    let mut module = src.module.clone();
    let mut inline: Vec<usize> = Vec::new(); // brace depth at which each inline module opened
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "{" => depth += 1,
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last() == Some(&depth) {
                    inline.pop();
                    module.pop();
                }
            }
            "mod" if t.get(i + 2).is_some_and(|s| s == "{") => {
                module.push(t[i + 1].clone());
                inline.push(depth);
                depth += 1;
                i += 3;
                continue;
            }
            "use" => {
                let public = i > 0 && (t[i - 1] == "pub" || t[i - 1] == ")");
                let end = (i..t.len()).find(|&k| t[k] == ";").unwrap_or(t.len());
                let mut trees = Vec::new();
                expand(&t[i + 1..end], &mut Vec::new(), &mut trees);
                for (segs, alias) in trees {
                    if let Some((krate, abs)) = absolute(src.krate, &module, &children, &segs) {
                        out.push(Named {
                            krate,
                            segs: abs,
                            reexport: public.then_some(alias),
                        });
                    }
                }
                i = end + 1;
                continue;
            }
            _ => {
                let starts = matches!(
                    t[i].as_str(),
                    "crate" | "$crate" | "super" | "self" | "tessera"
                ) || children.contains(&t[i]);
                let after_sep = i > 0 && t[i - 1] == "::";
                if starts && !after_sep && t.get(i + 1).is_some_and(|s| s == "::") {
                    let mut segs = vec![t[i].clone()];
                    let mut k = i + 1;
                    while k + 1 < t.len() && t[k] == "::" && is_ident(&t[k + 1]) {
                        segs.push(t[k + 1].clone());
                        k += 2;
                    }
                    if let Some((krate, abs)) = absolute(src.krate, &module, &children, &segs) {
                        out.push(Named {
                            krate,
                            segs: abs,
                            reexport: None,
                        });
                    }
                    i = k;
                    continue;
                }
            }
        }
        i += 1;
    }
    (out, children)
}

fn is_ident(s: &str) -> bool {
    s.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
}

/// Expands a use tree (`a::{b, c::{self, d as e}}`) into paths with the name each binds.
fn expand(t: &[String], prefix: &mut Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let mut segs = prefix.clone();
    let mut i = 0;
    while i < t.len() {
        let s = t[i].as_str();
        if s == "{" {
            // Split the group at top-level commas.
            let mut d = 0;
            let mut start = i + 1;
            let mut k = i + 1;
            while k < t.len() {
                match t[k].as_str() {
                    "{" => d += 1,
                    "}" if d == 0 => {
                        expand(&t[start..k], &mut segs.clone(), out);
                        break;
                    }
                    "}" => d -= 1,
                    "," if d == 0 => {
                        expand(&t[start..k], &mut segs.clone(), out);
                        start = k + 1;
                    }
                    _ => {}
                }
                k += 1;
            }
            return;
        } else if s == "as" {
            if let Some(alias) = t.get(i + 1) {
                out.push((segs, alias.clone()));
            }
            return;
        } else if s == "*" {
            out.push((segs, "*".to_string()));
            return;
        } else if s == "self" && !segs.is_empty() {
            let name = segs.last().cloned().unwrap_or_default();
            out.push((segs, name));
            return;
        } else if s != "::" && is_ident(s) {
            segs.push(s.to_string());
        }
        i += 1;
    }
    if let Some(name) = segs.last().cloned()
        && segs.len() > prefix.len()
    {
        out.push((segs, name));
    }
    let _ = prefix;
}

/// A path as (crate, absolute segments), or `None` for std, outside crates and local names.
fn absolute(
    krate: Krate,
    module: &[String],
    children: &BTreeSet<String>,
    segs: &[String],
) -> Option<(Krate, Vec<String>)> {
    let first = segs.first()?.as_str();
    match first {
        "crate" | "$crate" => Some((krate, segs[1..].to_vec())),
        "tessera" if krate == Krate::Bin => Some((Krate::Lib, segs[1..].to_vec())),
        "self" => {
            let mut m = module.to_vec();
            m.extend_from_slice(&segs[1..]);
            Some((krate, m))
        }
        "super" => {
            let mut m = module.to_vec();
            let mut k = 0;
            while segs.get(k).is_some_and(|s| s == "super") {
                m.pop()?;
                k += 1;
            }
            m.extend_from_slice(&segs[k..]);
            Some((krate, m))
        }
        _ if children.contains(first) => {
            let mut m = module.to_vec();
            m.extend_from_slice(segs);
            Some((krate, m))
        }
        _ => None,
    }
}

/// The file graph: for each file, the files it uses (module roots' uses of their own
/// submodules left out), with one example path per edge.
type Graph = BTreeMap<usize, BTreeMap<usize, String>>;

fn graph(sources: &[Source]) -> Graph {
    let by_module: BTreeMap<(Krate, Vec<String>), usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| ((s.krate, s.module.clone()), i))
        .collect();
    let named: Vec<Vec<Named>> = sources.iter().map(|s| paths_of(s).0).collect();
    // Re-exports: (file, name) -> the path it re-exports.
    let mut reexports: BTreeMap<(usize, String), (Krate, Vec<String>)> = BTreeMap::new();
    for (f, list) in named.iter().enumerate() {
        for n in list {
            if let Some(alias) = &n.reexport {
                reexports.insert((f, alias.clone()), (n.krate, n.segs.clone()));
            }
        }
    }
    let resolve = |krate: Krate, segs: &[String]| -> Option<usize> {
        let (mut krate, mut segs) = (krate, segs.to_vec());
        for _ in 0..8 {
            let (len, file) = (0..=segs.len())
                .rev()
                .find_map(|l| by_module.get(&(krate, segs[..l].to_vec())).map(|&f| (l, f)))?;
            match segs
                .get(len)
                .and_then(|item| reexports.get(&(file, item.clone())))
            {
                Some((k, target)) if target != &segs => {
                    let mut next = target.clone();
                    next.extend_from_slice(&segs[len + 1..]);
                    krate = *k;
                    segs = next;
                }
                _ => return Some(file),
            }
        }
        None
    };
    let mut g = Graph::new();
    for (f, list) in named.iter().enumerate() {
        let edges = g.entry(f).or_default();
        for n in list {
            let Some(to) = resolve(n.krate, &n.segs) else {
                continue;
            };
            let (src, dst) = (&sources[f], &sources[to]);
            let own_submodule = src.root
                && src.krate == dst.krate
                && dst.module.len() > src.module.len()
                && dst.module.starts_with(&src.module);
            if to != f && !own_submodule {
                edges.entry(to).or_insert_with(|| n.segs.join("::"));
            }
        }
    }
    g
}

fn layer(s: &Source) -> &str {
    match s.krate {
        Krate::Bin => "cli",
        Krate::Lib => module_layer(&s.module),
    }
}

/// The layer of a library module path (see [`FORBIDDEN`]).
fn module_layer(module: &[String]) -> &str {
    match module.first().map(String::as_str) {
        None => "lib",
        Some(top) => top,
    }
}

/// The layers a file may not import.
fn banned(s: &Source) -> &'static [&'static str] {
    let from = layer(s);
    FORBIDDEN
        .iter()
        .find(|(l, _)| *l == from)
        .map_or(&[][..], |(_, b)| *b)
}

/// Every path that names a forbidden layer as written (`crate::tuning::Param` is
/// refused in `src/games/` even though `tuning` only re-exports it from `game`), as
/// `file names path: ...`.
fn forbidden_names(sources: &[Source]) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources {
        let (from, banned) = (layer(s), banned(s));
        let mut seen = BTreeSet::new();
        for n in paths_of(s).0 {
            if n.krate != Krate::Lib {
                continue;
            }
            let named = module_layer(&n.segs);
            if banned.contains(&named) && seen.insert(named.to_string()) {
                out.push(format!(
                    "{} names {}: layer {from} must not import {named}",
                    s.file,
                    n.segs.join("::")
                ));
            }
        }
    }
    out
}

/// Every import of a forbidden layer, as `file -> file (path)`.
fn forbidden_imports(sources: &[Source], g: &Graph) -> Vec<String> {
    let mut out = Vec::new();
    for (&f, edges) in g {
        let from = layer(&sources[f]);
        let banned = banned(&sources[f]);
        for (&to, path) in edges {
            if banned.contains(&layer(&sources[to])) {
                out.push(format!(
                    "{} -> {} ({path}): layer {from} must not import {}",
                    sources[f].file,
                    sources[to].file,
                    layer(&sources[to])
                ));
            }
        }
    }
    out
}

/// The cycles of the file graph, one per strongly connected component of two or more
/// files, listed by file name.
fn cycles(sources: &[Source], g: &Graph) -> Vec<String> {
    // Tarjan's strongly connected components.
    struct State<'a> {
        g: &'a Graph,
        index: BTreeMap<usize, usize>,
        low: BTreeMap<usize, usize>,
        stack: Vec<usize>,
        on: BTreeSet<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut State, v: usize) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        s.on.insert(v);
        let succ: Vec<usize> = s.g.get(&v).map_or(vec![], |e| e.keys().copied().collect());
        for w in succ {
            if !s.index.contains_key(&w) {
                visit(s, w);
                let lw = s.low[&w];
                let lv = s.low.get_mut(&v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(&w) {
                let iw = s.index[&w];
                let lv = s.low.get_mut(&v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[&v] == s.index[&v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(&w);
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                s.out.push(comp);
            }
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..sources.len() {
        if !s.index.contains_key(&v) {
            visit(&mut s, v);
        }
    }
    s.out
        .iter()
        .map(|comp| {
            let set: BTreeSet<usize> = comp.iter().copied().collect();
            let mut parts: Vec<String> = Vec::new();
            for &f in &set {
                for (to, path) in &g[&f] {
                    if set.contains(to) {
                        parts.push(format!(
                            "{} -> {} ({path})",
                            sources[f].file, sources[*to].file
                        ));
                    }
                }
            }
            format!("cycle: {}", parts.join("; "))
        })
        .collect()
}

fn sources_of(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(file, text)| {
            let (krate, module, root) = place(file);
            Source {
                file: (*file).to_string(),
                krate,
                module,
                root,
                tokens: tokenize(&strip(text)),
            }
        })
        .collect()
}

fn check(files: &[(&str, &str)]) -> Vec<String> {
    let sources = sources_of(files);
    let g = graph(&sources);
    let mut problems = forbidden_imports(&sources, &g);
    for p in forbidden_names(&sources) {
        // One report per offending file and layer: the resolved import says more.
        let (file, layer) = (p.split(' ').next(), p.rsplit(' ').next());
        if !problems
            .iter()
            .any(|q| q.split(' ').next() == file && q.rsplit(' ').next() == layer)
        {
            problems.push(p);
        }
    }
    problems.extend(cycles(&sources, &g));
    problems
}

fn read_tree(dir: &Path, base: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            read_tree(&p, base, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            let rel = p
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&p).unwrap()));
        }
    }
}

/// A small made-up crate shaped like tessera's, clean.
const CLEAN: &[(&str, &str)] = &[
    ("lib.rs", "pub mod game;\npub mod games;\npub mod engine;\n"),
    (
        "game/mod.rs",
        "mod seat;\npub use seat::Seat;\npub trait Game {}\n",
    ),
    (
        "game/seat.rs",
        "pub struct Seat; // use crate::engine::X;\n",
    ),
    ("games/mod.rs", "pub mod othello;\n"),
    (
        "games/othello.rs",
        "use crate::game::{Game, Seat};\nconst S: &str = \"crate::engine::Player\";\npub struct P;\n#[cfg(test)]\nmod tests {\n    use super::P;\n}\n",
    ),
    (
        "engine/mod.rs",
        "pub mod othello;\npub trait Player {}\npub use othello::make;\n",
    ),
    (
        "engine/othello.rs",
        "use super::Player;\nuse crate::games::othello::P;\npub fn make() {}\n",
    ),
    ("main.rs", "mod cli;\n"),
    ("cli/mod.rs", "mod a;\nmod b;\n"),
    (
        "cli/a.rs",
        "use tessera::engine::make;\nuse super::b::B;\npub struct A;\n",
    ),
    ("cli/b.rs", "pub struct B;\n"),
];

#[test]
fn checker_passes_a_clean_layout() {
    assert_eq!(check(CLEAN), Vec::<String>::new());
}

#[test]
fn checker_reports_a_rules_file_importing_the_engine() {
    let mut files = CLEAN.to_vec();
    files[4] = (
        "games/othello.rs",
        "use crate::game::Game;\npub struct P;\npub fn f() { crate::engine::make(); }\n",
    );
    let problems = check(&files);
    assert_eq!(problems.len(), 2, "{problems:#?}"); // the import, and the cycle it closes
    assert!(
        problems[0].starts_with("games/othello.rs -> engine/othello.rs (engine::make)")
            && problems[0].ends_with("layer games must not import engine"),
        "{problems:#?}"
    );
    assert!(problems[1].starts_with("cycle: "), "{problems:#?}");
}

#[test]
fn checker_reports_a_cycle_between_sibling_files_through_a_grouped_use() {
    let mut files = CLEAN.to_vec();
    files[10] = ("cli/b.rs", "use super::{a::A, b};\npub struct B;\n");
    let problems = check(&files);
    assert_eq!(
        problems,
        vec!["cycle: cli/a.rs -> cli/b.rs (cli::b::B); cli/b.rs -> cli/a.rs (cli::a::A)"]
    );
}

#[test]
fn checker_follows_reexports_to_the_defining_file() {
    // `cli/b.rs` names `A` through the re-export in `cli/mod.rs`: the edge goes to
    // `cli/a.rs`, which uses `cli/b.rs`, so the two files form a cycle.
    let mut files = CLEAN.to_vec();
    files[8] = ("cli/mod.rs", "mod a;\nmod b;\npub use a::A as Alpha;\n");
    files[10] = ("cli/b.rs", "pub struct B;\nfn f(_: super::Alpha) {}\n");
    let problems = check(&files);
    assert_eq!(
        problems,
        vec!["cycle: cli/a.rs -> cli/b.rs (cli::b::B); cli/b.rs -> cli/a.rs (cli::Alpha)"]
    );
}

#[test]
fn checker_reports_a_forbidden_layer_named_through_a_reexport() {
    // `tuning` re-exports `Param` from `game`: the resolved edge is allowed, the path as
    // written is not.
    let mut files = CLEAN.to_vec();
    files[0] = (
        "lib.rs",
        "pub mod game;\npub mod games;\npub mod engine;\npub mod tuning;\n",
    );
    files.push(("tuning/mod.rs", "pub use crate::game::Seat;\n"));
    files[4] = (
        "games/othello.rs",
        "use crate::game::Game;\nuse crate::tuning::Seat;\npub struct P;\n",
    );
    let problems = check(&files);
    assert_eq!(
        problems,
        vec!["games/othello.rs names tuning::Seat: layer games must not import tuning"]
    );
}

#[test]
fn checker_keeps_the_wire_below_the_engine_and_the_servers_above() {
    let mut files = CLEAN.to_vec();
    files[0] = (
        "lib.rs",
        "pub mod game;\npub mod games;\npub mod engine;\npub mod protocol;\npub mod wire;\n",
    );
    files.push(("protocol/mod.rs", "pub mod server;\n"));
    files.push((
        "protocol/server.rs",
        "use crate::engine::Player;\nuse crate::wire::gtp::Command;\npub fn serve() {}\n",
    ));
    files.push(("wire/mod.rs", "pub mod gtp;\n"));
    files.push((
        "wire/gtp.rs",
        "use crate::game::Game;\npub struct Command;\n",
    ));
    // The server may use the engine and the wire.
    assert_eq!(check(&files), Vec::<String>::new());
    // A wire file may not use the engine.
    files.last_mut().unwrap().1 =
        "use crate::game::Game;\nuse crate::engine::Player;\npub struct Command;\n";
    let problems = check(&files);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].starts_with("wire/gtp.rs -> engine/mod.rs (engine::Player)")
            && problems[0].ends_with("layer wire must not import engine"),
        "{problems:#?}"
    );
}

/// The real source tree obeys the layering and has no file cycle.
#[test]
fn src_layers_import_downward_and_files_form_no_cycle() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    read_tree(&base, &base, &mut files);
    assert!(files.len() > 50, "read {} files under src/", files.len());
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    let problems = check(&refs);
    assert!(
        problems.is_empty(),
        "ARCHITECTURE.md rules broken:\n{}",
        problems.join("\n")
    );
}

/// The traits a game implements to reach each layer, and the files ARCHITECTURE.md's "A new
/// game" list names for them (`<game>` is the game's folder under `src/games/`; `*` any
/// file of that folder).
const GAME_PLACES: &[(&str, &[&str])] = &[
    ("Players", &["engine/registry.rs"]),
    ("GtpGame", &["wire/<game>.rs", "wire/gtp.rs"]),
    ("Present", &["present/<game>.rs"]),
    ("Observe", &["env/observe.rs"]),
    ("LoadPosition", &["formats/position_source.rs"]),
    ("CliGame", &["cli/<game>.rs"]),
    ("Perft", &["games/<game>/perft.rs"]),
    ("TexelGame", &["tuning/<game>.rs"]),
];

/// `impl ... TRAIT for TYPE` lines of `text`: the trait's last path segment and the type.
fn trait_impls(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim_start) {
        let Some(rest) = line.strip_prefix("impl") else {
            continue;
        };
        // Skip the generics: `impl<const FOUR: bool> Present for Position<FOUR> {`.
        let rest = match rest.strip_prefix('<') {
            Some(r) => match r.find("> ") {
                Some(i) => &r[i + 2..],
                None => continue,
            },
            None => rest.trim_start(),
        };
        let Some((tr, ty)) = rest.split_once(" for ") else {
            continue;
        };
        let tr = tr.rsplit("::").next().unwrap_or(tr).trim();
        let ty = ty.split(['{', ' ']).next().unwrap_or("").to_string();
        out.push((tr.to_string(), ty));
    }
    out
}

/// ARCHITECTURE.md's list of the places a new game touches holds: each per-game trait is
/// implemented only in the files the list names, and every game has its engine wiring,
/// presentation and command-line files.
#[test]
fn a_game_is_wired_in_the_places_architecture_md_lists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let base = root.join("src");
    let mut files = Vec::new();
    read_tree(&base, &base, &mut files);
    let games: Vec<String> = std::fs::read_dir(base.join("games"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(games.len() >= 3, "{games:?}");
    let allowed = |file: &str, places: &[&str]| {
        places.iter().any(|p| {
            games
                .iter()
                .any(|g| p.replace("<game>", g) == file || p.replace("<game>", "*") == file)
        })
    };
    let mut seen = BTreeSet::new();
    let mut wrong = Vec::new();
    for (file, text) in &files {
        for (tr, ty) in trait_impls(text) {
            if let Some((_, places)) = GAME_PLACES.iter().find(|(t, _)| *t == tr) {
                seen.insert(tr.clone());
                if !allowed(file, places) {
                    wrong.push(format!("{file}: impl {tr} for {ty} (listed: {places:?})"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "not where ARCHITECTURE.md says:\n{}",
        wrong.join("\n")
    );
    let all: BTreeSet<String> = GAME_PLACES.iter().map(|(t, _)| t.to_string()).collect();
    assert_eq!(seen, all, "every listed trait has implementations");
    for g in &games {
        for f in ["engine", "present", "cli", "tuning"] {
            let path = base.join(f).join(format!("{g}.rs"));
            assert!(path.is_file(), "{} is missing", path.display());
        }
        let id = std::fs::read_to_string(base.join("games/id.rs")).unwrap();
        assert!(
            id.contains(&format!("{g}::")),
            "games/id.rs does not register {g}"
        );
    }
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    for (tr, places) in GAME_PLACES {
        assert!(
            doc.contains(&format!("impl {tr}")),
            "ARCHITECTURE.md names impl {tr}"
        );
        for p in *places {
            let p = p.replace("<game>", "foo");
            assert!(doc.contains(&p), "ARCHITECTURE.md names {p}");
        }
    }
}
