//! Import loops between the files of `src/` (issue 33 point 2): which file names which
//! sibling module, read off the code (`use super::x`, `super::super::x`, `crate::a::b`, a
//! `mod.rs` naming its child `x::…`), and the loops of that graph. A module's `mod.rs` is its
//! front door (its children use the ruleset's marker type and re-exports through it), so
//! naming one's own parent is no arrow. The loops found must be exactly the list below: a
//! new loop fails, and so does a loop cut without striking it off (the list only shrinks).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

// The same reading of src/ as the layers test: its helpers, not a second copy.
use crate::layers::{ident_at, module_path, sources, tree};

/// The loops still in the house, each as its modules joined by spaces (sorted). Genuine
/// recursions of a rulebook stay, with their reason; the rest are to be cut.
const KNOWN_LOOPS: &[&str] = &[
    // None (issue 33 point 2 cut the last eleven). A loop that is a genuine recursion of a
    // rulebook may be listed here, with the rule that makes it one.
];

/// The path segments that follow `at` in `line` (`a::b::{c, d}` → [[a, b, c], [a, b, d]]),
/// as far as they go; a group is read one level deep.
fn paths_after(rest: &str) -> Vec<Vec<String>> {
    let mut base = Vec::new();
    let mut r = rest;
    loop {
        if let Some(group) = r.strip_prefix('{') {
            let mut out = Vec::new();
            let (mut depth, mut head) = (1, true);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => head = true,
                    c if head && depth == 1 && (c.is_ascii_alphabetic() || c == '_') => {
                        let mut p = base.clone();
                        let g = &group[k..];
                        let mut g = g;
                        loop {
                            let id = ident_at(g);
                            p.push(id.to_string());
                            match g[id.len()..].strip_prefix("::") {
                                Some(more)
                                    if more.starts_with(|c: char| c.is_ascii_alphabetic()) =>
                                {
                                    g = more
                                }
                                _ => break,
                            }
                        }
                        out.push(p);
                        head = false;
                    }
                    _ => {}
                }
            }
            return out;
        }
        let id = ident_at(r);
        if id.is_empty() {
            break;
        }
        base.push(id.to_string());
        match r[id.len()..].strip_prefix("::") {
            Some(more) => r = more,
            None => break,
        }
    }
    vec![base]
}

/// Every module path one line names, made absolute from the file's module `me` (`is_mod`: the
/// file is a `mod.rs`, whose bare `child::` paths name its children).
fn named(line: &str, me: &[String], is_mod: bool, children: &BTreeSet<String>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let b = line.as_bytes();
    let mut i = 0;
    while i < line.len() {
        let rest = &line[i..];
        let start_ok =
            i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b':');
        if start_ok && rest.starts_with("crate::") {
            for p in paths_after(&rest["crate::".len()..]) {
                out.push(p);
            }
            i += "crate::".len();
            continue;
        }
        if start_ok && rest.starts_with("super::") {
            let mut r = rest;
            let mut ups = 0;
            while let Some(x) = r.strip_prefix("super::") {
                ups += 1;
                r = x;
            }
            // A file's `super` is its parent; a mod.rs is its own module, so the same.
            let up = me.len().saturating_sub(ups);
            for p in paths_after(r) {
                let mut abs = me[..up].to_vec();
                abs.extend(p);
                out.push(abs);
            }
            i += ups * "super::".len();
            continue;
        }
        if start_ok && is_mod {
            let id = ident_at(rest);
            if !id.is_empty() && children.contains(id) && rest[id.len()..].starts_with("::") {
                let mut abs = me.to_vec();
                abs.push(id.to_string());
                out.push(abs);
                i += id.len();
                continue;
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// The arrows between files: from each module to each other module it names (the longest
/// module that is a prefix of a named path), leaving out its own ancestors.
fn arrows(files: &[(String, String)]) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let modules: BTreeSet<Vec<String>> = files.iter().map(|(r, _)| module_path(r)).collect();
    let mut out: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (rel, text) in files {
        let me = module_path(rel);
        let is_mod = rel.ends_with("mod.rs") || rel == "lib.rs";
        let children: BTreeSet<String> = modules
            .iter()
            .filter(|m| m.len() == me.len() + 1 && m.starts_with(&me))
            .map(|m| m[me.len()].clone())
            .collect();
        let mut in_test = false;
        for line in text.lines() {
            let code = line.trim_start();
            // Unit tests at a file's foot may name anything: they are no arrow of the code.
            if code.starts_with("#[cfg(test)]") {
                in_test = true;
            }
            if in_test
                || code.starts_with("//")
                || code.starts_with("pub mod ")
                || code.starts_with("mod ")
            {
                continue;
            }
            let code = code.split(" // ").next().unwrap_or(code);
            for p in named(code, &me, is_mod, &children) {
                let to = (1..=p.len())
                    .rev()
                    .map(|n| p[..n].to_vec())
                    .find(|m| modules.contains(m));
                let Some(to) = to else { continue };
                if to != me && !me.starts_with(&to) {
                    out.entry(me.clone()).or_default().insert(to);
                }
            }
        }
    }
    out
}

/// The loops of the graph (strongly connected parts of two or more modules), each as its
/// modules joined by `::` and then by spaces.
fn loops(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    // Kosaraju: order by finishing time, then walk the reversed graph.
    let nodes: BTreeSet<&Vec<String>> = graph
        .iter()
        .flat_map(|(a, bs)| std::iter::once(a).chain(bs.iter()))
        .collect();
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for n in &nodes {
        if seen.contains(*n) {
            continue;
        }
        let mut stack = vec![(*n, false)];
        while let Some((v, done)) = stack.pop() {
            if done {
                order.push(v);
                continue;
            }
            if !seen.insert(v) {
                continue;
            }
            stack.push((v, true));
            for w in graph.get(v).into_iter().flatten() {
                if !seen.contains(w) {
                    stack.push((w, false));
                }
            }
        }
    }
    let mut back: BTreeMap<&Vec<String>, Vec<&Vec<String>>> = BTreeMap::new();
    for (a, bs) in graph {
        for b in bs {
            back.entry(b).or_default().push(a);
        }
    }
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for v in order.into_iter().rev() {
        if placed.contains(v) {
            continue;
        }
        let mut part = Vec::new();
        let mut stack = vec![v];
        placed.insert(v);
        while let Some(x) = stack.pop() {
            part.push(x.join("::"));
            for w in back.get(x).into_iter().flatten() {
                if placed.insert(*w) {
                    stack.push(*w);
                }
            }
        }
        if part.len() > 1 {
            part.sort();
            out.push(part.join(" "));
        }
    }
    out.sort();
    out
}

#[test]
fn src_has_only_the_import_loops_listed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &root, &mut files);
    let found = loops(&arrows(&files));
    let known: Vec<String> = KNOWN_LOOPS.iter().map(|s| s.to_string()).collect();
    let new: Vec<&String> = found.iter().filter(|l| !known.contains(l)).collect();
    let gone: Vec<&String> = known.iter().filter(|l| !found.contains(l)).collect();
    assert!(
        new.is_empty() && gone.is_empty(),
        "import loops not in the list (cut them): {new:#?}\nlisted loops no longer there \
         (strike them off): {gone:#?}"
    );
}

#[test]
fn a_loop_is_found_however_its_arrows_are_written() {
    // Controls: a two-file loop through `use super::x`, a three-file loop through
    // `crate::` paths and a group, and a mod.rs naming its child bare; none of them through
    // the parent front door.
    let two = tree(&[
        ("r/mod.rs", "pub mod a;\npub mod b;\nuse a::Thing;\n"),
        ("r/a.rs", "use super::b::f;\nuse super::R;\n"),
        ("r/b.rs", "fn g() { super::a::h(); }\n"),
    ]);
    assert_eq!(loops(&arrows(&two)), ["r::a r::b"]);
    let three = tree(&[
        ("x/mod.rs", ""),
        ("x/p.rs", "use crate::x::{q::A, s};\n"),
        ("x/q.rs", "use crate::x::s::B;\n"),
        (
            "x/s.rs",
            "use crate::x::{q as _q};\nfn f() { crate::x::p::go(); }\n",
        ),
    ]);
    assert_eq!(loops(&arrows(&three)), ["x::p x::q x::s"]);
    let nested = tree(&[
        ("y/mod.rs", "pub mod orders;\npub mod state;\n"),
        ("y/orders/mod.rs", "pub mod line;\n"),
        ("y/orders/line.rs", "use super::super::state::S;\n"),
        ("y/state.rs", "use super::orders::line::L;\n"),
    ]);
    assert_eq!(loops(&arrows(&nested)), ["y::orders::line y::state"]);
    // No loop: children naming their parent, comments, unit tests at a file's foot.
    let none = tree(&[
        ("z/mod.rs", "pub mod a;\npub mod b;\nuse a::X;\nuse b::Y;\n"),
        ("z/a.rs", "use super::Z;\n// super::b::f()\n"),
        (
            "z/b.rs",
            "use super::a::X;\n#[cfg(test)]\nmod tests { use super::super::z::Z; }\n",
        ),
    ]);
    assert!(
        loops(&arrows(&none)).is_empty(),
        "{:?}",
        loops(&arrows(&none))
    );
}
