//! The vendored lettre is the published lettre 0.11.23 and the lines marked `Despatch patch`,
//! nothing else (issue 33 point 5): every file of `vendor/lettre`, with its marked blocks taken
//! out, has the sha256 that `vendor/lettre.published` records for the crates.io release, and
//! no file is missing or added. The TCP_NODELAY the patch is for is tested by smtp_nodelay.rs.

use std::collections::BTreeMap;
use std::path::Path;

use sha2::{Digest, Sha256};

const MARK: &str = "// Despatch patch";

/// A file with each marked block taken out: the `// Despatch patch` comment line, the comment
/// lines that go on from it, and the one line of code they explain. Also how many blocks.
fn unpatched(text: &str) -> (String, usize) {
    let mut out = String::new();
    let mut blocks = 0;
    let mut in_block = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with(MARK) {
            blocks += 1;
            in_block = true;
            continue;
        }
        if in_block {
            // The comment goes on, or this is the patched line itself: either way not the
            // release's.
            in_block = t.starts_with("//");
            continue;
        }
        out.push_str(line);
    }
    (out, blocks)
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The manifest's `sha256  path` lines (comments skipped).
fn published(manifest: &str) -> BTreeMap<String, String> {
    manifest
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once("  "))
        .map(|(h, p)| (p.to_string(), h.to_string()))
        .collect()
}

/// What differs between the files (path → bytes) and the release: each finding a line.
fn differences(
    files: &BTreeMap<String, Vec<u8>>,
    release: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in files {
        let Some(want) = release.get(path) else {
            out.push(format!("{path}: not in the release"));
            continue;
        };
        let text = String::from_utf8_lossy(bytes);
        let (text, _) = unpatched(&text);
        if sha256_hex(text.as_bytes()) != *want {
            out.push(format!(
                "{path}: differs from the release beyond its marked lines"
            ));
        }
    }
    for path in release.keys().filter(|p| !files.contains_key(*p)) {
        out.push(format!("{path}: in the release, missing here"));
    }
    out
}

fn read_tree(dir: &Path, root: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            read_tree(&p, root, out);
        } else {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().to_string();
            out.insert(rel, std::fs::read(&p).unwrap());
        }
    }
}

#[test]
fn vendored_lettre_is_the_release_and_its_marked_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("vendor");
    let manifest = std::fs::read_to_string(root.join("lettre.published")).unwrap();
    let release = published(&manifest);
    let mut files = BTreeMap::new();
    read_tree(&root.join("lettre"), &root.join("lettre"), &mut files);
    assert!(
        release.len() > 50,
        "the manifest lists {} files",
        release.len()
    );
    assert_eq!(differences(&files, &release), Vec::<String>::new());
    // The patch is there (else the folder has no reason to be: see vendor/README.md).
    let blocks: usize = files
        .values()
        .map(|b| unpatched(&String::from_utf8_lossy(b)).1)
        .sum();
    assert_eq!(blocks, 1, "one marked block (TCP_NODELAY) is expected");
}

#[test]
fn an_unmarked_change_a_missing_or_an_added_file_is_found() {
    let original = "fn connect() {\n    let s = open();\n    Ok(s)\n}\n";
    let patched = "fn connect() {\n    let s = open();\n    // Despatch patch (why): a\n    // second line of why.\n    s.set_nodelay(true)?;\n    Ok(s)\n}\n";
    let release: BTreeMap<String, String> =
        [("src/net.rs".to_string(), sha256_hex(original.as_bytes()))].into();
    let files = |text: &str| -> BTreeMap<String, Vec<u8>> {
        [("src/net.rs".to_string(), text.as_bytes().to_vec())].into()
    };
    // A marked block is taken out whole, comment and code, and nothing else.
    assert_eq!(unpatched(patched), (original.to_string(), 1));
    assert!(differences(&files(patched), &release).is_empty());
    // The same line without its mark, or a mark with a second line of code, is a change.
    let unmarked = original.replace("    Ok(s)", "    s.set_nodelay(true)?;\n    Ok(s)");
    assert_eq!(differences(&files(&unmarked), &release).len(), 1);
    let two_lines = patched.replace("?;\n", "?;\n    s.set_linger(None)?;\n");
    assert_eq!(differences(&files(&two_lines), &release).len(), 1);
    // A file the release does not have, and one it has that is gone.
    let mut more = files(original);
    more.insert("src/extra.rs".into(), b"fn x() {}\n".to_vec());
    assert_eq!(
        differences(&more, &release),
        ["src/extra.rs: not in the release"]
    );
    assert_eq!(
        differences(&BTreeMap::new(), &release),
        ["src/net.rs: in the release, missing here"]
    );
}
