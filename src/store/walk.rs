//! Which files of a directory `ctx_index` reads: ripgrep's walker (`.gitignore`
//! honoured, hidden and heavy directories skipped, symlinks only on request), bounded
//! in depth and in file count, filtered by extension and include/exclude globs.

use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::WalkBuilder;
use std::path::{Path, PathBuf};

/// Directories never worth indexing.
const SKIPPED_DIRS: &[&str] = &["node_modules", ".git", "dist", "build", ".next", "coverage", ".venv", "__pycache__", "target", ".DS_Store"];

pub const DEFAULT_EXTENSIONS: &[&str] = &[".md", ".mdx", ".txt", ".json", ".yaml", ".yml", ".ts", ".tsx", ".js", ".jsx", ".py", ".rs", ".go", ".sh"];
pub const DEFAULT_MAX_DEPTH: usize = 5;
pub const DEFAULT_MAX_FILES: usize = 200;

#[derive(Debug, Clone)]
pub struct WalkOptions {
    pub max_depth: usize,
    pub max_files: usize,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    pub extensions: Vec<String>,
    pub respect_gitignore: bool,
    pub follow_symlinks: bool,
}

impl Default for WalkOptions {
    fn default() -> Self {
        WalkOptions {
            max_depth: DEFAULT_MAX_DEPTH,
            max_files: DEFAULT_MAX_FILES,
            include: Vec::new(),
            exclude: Vec::new(),
            extensions: DEFAULT_EXTENSIONS.iter().map(|e| e.to_string()).collect(),
            respect_gitignore: true,
            follow_symlinks: false,
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct Walked {
    pub files: Vec<PathBuf>,
    /// The file cap was reached before the walk ended.
    pub capped: bool,
}

#[derive(Debug, thiserror::Error)]
#[error("invalid glob {glob:?}: {reason}")]
pub struct GlobError {
    pub glob: String,
    pub reason: String,
}

/// A pattern set where a bare name (no `/`, no wildcard) matches that name anywhere
/// in the path, and anything else is a glob on the path relative to the root.
fn pattern_set(patterns: &[String]) -> Result<Option<GlobSet>, GlobError> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let mut b = GlobSetBuilder::new();
    for p in patterns {
        let p = p.trim().trim_start_matches("./");
        let bare = !p.contains('/') && !p.contains(['*', '?', '[', '{']);
        let globs = if bare { vec![format!("**/{p}"), format!("**/{p}/**")] } else { vec![p.to_string(), format!("**/{p}")] };
        for g in globs {
            b.add(Glob::new(&g).map_err(|e| GlobError { glob: p.to_string(), reason: e.kind().to_string() })?);
        }
    }
    b.build().map(Some).map_err(|e| GlobError { glob: patterns.join(", "), reason: e.to_string() })
}

/// Lists the files to index under `root`, in a stable (sorted) order.
pub fn walk(root: &Path, opts: &WalkOptions) -> Result<Walked, GlobError> {
    let include = pattern_set(&opts.include)?;
    let exclude = pattern_set(&opts.exclude)?;
    let extensions: Vec<String> = opts.extensions.iter().map(|e| format!(".{}", e.trim_start_matches('.').to_ascii_lowercase())).collect();
    let mut builder = WalkBuilder::new(root);
    builder
        .max_depth(Some(opts.max_depth + 1))
        .follow_links(opts.follow_symlinks)
        .hidden(false)
        .git_ignore(opts.respect_gitignore)
        .git_global(false)
        .git_exclude(false)
        .ignore(opts.respect_gitignore)
        .parents(opts.respect_gitignore)
        .require_git(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(|e| !e.file_name().to_str().is_some_and(|n| SKIPPED_DIRS.contains(&n)));
    let mut out = Walked::default();
    for entry in builder.build().flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let rel = path.strip_prefix(root).unwrap_or(path);
        let lower = path.to_string_lossy().to_ascii_lowercase();
        if !extensions.is_empty() && !extensions.iter().any(|e| lower.ends_with(e.as_str())) {
            continue;
        }
        if exclude.as_ref().is_some_and(|x| x.is_match(rel)) {
            continue;
        }
        if include.as_ref().is_some_and(|i| !i.is_match(rel)) {
            continue;
        }
        if out.files.len() >= opts.max_files {
            out.capped = true;
            break;
        }
        out.files.push(path.to_path_buf());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> PathBuf {
        let root = std::env::temp_dir().join(format!("cm-walk-{}-{}", std::process::id(), crate::clock::now_ms()));
        for (p, c) in [
            ("a.md", "a"),
            ("src/b.ts", "b"),
            ("src/deep/c.rs", "c"),
            ("node_modules/x/d.md", "d"),
            ("ignored.md", "i"),
            ("notes/e.txt", "e"),
            ("img.png", "p"),
            (".gitignore", "ignored.md\n"),
        ] {
            let f = root.join(p);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, c).unwrap();
        }
        root
    }

    fn names(root: &Path, w: &Walked) -> Vec<String> {
        w.files.iter().map(|f| f.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/")).collect()
    }

    #[test]
    fn defaults_respect_gitignore_and_skip_heavy_dirs() {
        let root = tree();
        let w = walk(&root, &WalkOptions::default()).unwrap();
        assert_eq!(names(&root, &w), ["a.md", "notes/e.txt", "src/b.ts", "src/deep/c.rs"]);
        let all = walk(&root, &WalkOptions { respect_gitignore: false, ..Default::default() }).unwrap();
        assert!(names(&root, &all).contains(&"ignored.md".to_string()));
        std::fs::remove_dir_all(root).unwrap();
    }

    #[test]
    fn globs_depth_and_cap() {
        let root = tree();
        let inc = walk(&root, &WalkOptions { include: vec!["src/**/*.rs".into()], ..Default::default() }).unwrap();
        assert_eq!(names(&root, &inc), ["src/deep/c.rs"]);
        let exc = walk(&root, &WalkOptions { exclude: vec!["src".into()], ..Default::default() }).unwrap();
        assert_eq!(names(&root, &exc), ["a.md", "notes/e.txt"]);
        let shallow = walk(&root, &WalkOptions { max_depth: 1, ..Default::default() }).unwrap();
        assert_eq!(names(&root, &shallow), ["a.md", "notes/e.txt", "src/b.ts"]);
        let capped = walk(&root, &WalkOptions { max_files: 2, ..Default::default() }).unwrap();
        assert!(capped.capped && capped.files.len() == 2);
        assert!(walk(&root, &WalkOptions { include: vec!["[".into()], ..Default::default() }).is_err());
        std::fs::remove_dir_all(root).unwrap();
    }
}
