//! Which program runs each language. Detection only looks at `PATH` (no process is
//! started), once per process and lazily, so it never slows start-up.

use once_cell::sync::Lazy;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The languages `ctx_execute` accepts, in the schema's order.
pub const LANGUAGES: &[&str] = &["javascript", "typescript", "python", "shell", "ruby", "go", "rust", "php", "perl", "r", "elixir", "csharp"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    JavaScript,
    TypeScript,
    Python,
    Shell,
    Ruby,
    Go,
    Rust,
    Php,
    Perl,
    R,
    Elixir,
    CSharp,
}

impl Language {
    pub fn parse(name: &str) -> Option<Language> {
        Some(match name {
            "javascript" => Language::JavaScript,
            "typescript" => Language::TypeScript,
            "python" => Language::Python,
            "shell" => Language::Shell,
            "ruby" => Language::Ruby,
            "go" => Language::Go,
            "rust" => Language::Rust,
            "php" => Language::Php,
            "perl" => Language::Perl,
            "r" => Language::R,
            "elixir" => Language::Elixir,
            "csharp" => Language::CSharp,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        LANGUAGES[self as usize]
    }

    /// File extension of a script in this language.
    pub fn extension(self) -> &'static str {
        match self {
            Language::JavaScript => "js",
            Language::TypeScript => "ts",
            Language::Python => "py",
            Language::Shell => "sh",
            Language::Ruby => "rb",
            Language::Go => "go",
            Language::Rust => "rs",
            Language::Php => "php",
            Language::Perl => "pl",
            Language::R => "R",
            Language::Elixir => "exs",
            Language::CSharp => "csx",
        }
    }

    /// Programs that can run the language, in order of preference.
    fn candidates(self) -> &'static [&'static str] {
        match self {
            Language::JavaScript => &["node", "bun"],
            Language::TypeScript => &["bun", "tsx", "ts-node"],
            Language::Python => &["python3", "python", "py"],
            Language::Shell => &["bash", "sh"],
            Language::Ruby => &["ruby"],
            Language::Go => &["go"],
            Language::Rust => &["rustc"],
            Language::Php => &["php"],
            Language::Perl => &["perl"],
            Language::R => &["Rscript", "r"],
            Language::Elixir => &["elixir"],
            Language::CSharp => &["dotnet-script"],
        }
    }

    /// What to install when no runtime is found.
    pub fn install_hint(self) -> &'static str {
        match self {
            Language::TypeScript => "install bun, tsx or ts-node",
            Language::Python => "install python3",
            Language::Go => "install go",
            Language::Rust => "install rustc (rustup.rs)",
            Language::R => "install R (Rscript)",
            Language::CSharp => "install dotnet-script",
            Language::Ruby => "install ruby",
            Language::Php => "install php",
            Language::Perl => "install perl",
            Language::Elixir => "install elixir",
            Language::JavaScript => "install node",
            Language::Shell => "install bash",
        }
    }
}

/// Finds an executable on `PATH` (with Windows extensions), like `command -v`.
pub fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let exts: Vec<String> = if cfg!(windows) {
        std::env::var("PATHEXT").unwrap_or_else(|_| ".EXE;.CMD;.BAT;.COM".into()).split(';').map(|e| e.to_ascii_lowercase()).collect()
    } else {
        vec![String::new()]
    };
    for dir in std::env::split_paths(&path) {
        for ext in &exts {
            let candidate = dir.join(format!("{program}{ext}"));
            if is_executable(&candidate) {
                return Some(candidate);
            }
        }
    }
    None
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else { return false };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

static FOUND: Lazy<Mutex<HashMap<Language, Option<PathBuf>>>> = Lazy::new(|| Mutex::new(HashMap::new()));

/// The program for a language, looked up once. JavaScript prefers the Node running
/// the server (`node_path`), so scripts see the same Node the user installed us with.
pub fn runtime(lang: Language, node_path: Option<&Path>) -> Option<PathBuf> {
    if lang == Language::JavaScript {
        if let Some(p) = node_path.filter(|p| p.exists()) {
            return Some(p.to_path_buf());
        }
    }
    if lang == Language::Shell {
        if let Some(shell) = std::env::var_os("SHELL").map(PathBuf::from) {
            let name = shell.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if ["bash", "sh", "zsh", "dash"].contains(&name.as_str()) && shell.exists() {
                return Some(shell);
            }
        }
    }
    let mut found = FOUND.lock().unwrap_or_else(|e| e.into_inner());
    found.entry(lang).or_insert_with(|| lang.candidates().iter().find_map(|c| which(c))).clone()
}

/// Languages that can run here.
pub fn available(node_path: Option<&Path>) -> Vec<&'static str> {
    LANGUAGES.iter().filter(|l| Language::parse(l).and_then(|lang| runtime(lang, node_path)).is_some()).copied().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in LANGUAGES {
            assert_eq!(Language::parse(name).unwrap().name(), *name);
        }
        assert!(Language::parse("cobol").is_none());
    }

    #[test]
    fn shell_is_found() {
        assert!(runtime(Language::Shell, None).is_some());
        assert!(which("definitely-not-a-program-xyz").is_none());
    }
}
