//! Turning an agent's code into a runnable program: the script file for its language,
//! the small wrappers some languages need (an async function around JavaScript so
//! top-level `await` works, `main` around bare Go and Rust), and the preamble that
//! hands `ctx_execute_file` code its file as `FILE_CONTENT`.

use super::runtime::{self, Language};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A program ready to start: what to run and with which arguments.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Rust is compiled first; this is the compiler call, run before `program`.
    pub compile: Option<(PathBuf, Vec<OsString>)>,
}

#[derive(Debug, thiserror::Error)]
pub enum PrepareError {
    #[error("no {lang} runtime found on PATH ({hint})")]
    NoRuntime { lang: &'static str, hint: &'static str },
    #[error("cannot write the script: {0}")]
    Io(#[from] std::io::Error),
}

fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

fn single_quoted(s: &str, escape_backslash: bool) -> String {
    let body = if escape_backslash { s.replace('\\', "\\\\").replace('\'', "\\'") } else { s.replace('\'', "'\\''") };
    format!("'{body}'")
}

/// Go packages a bare snippet may use, imported when their name appears.
const GO_PACKAGES: &[(&str, &str)] = &[
    ("fmt.", "fmt"),
    ("os.", "os"),
    ("strings.", "strings"),
    ("strconv.", "strconv"),
    ("time.", "time"),
    ("math.", "math"),
    ("sort.", "sort"),
    ("bufio.", "bufio"),
    ("json.", "encoding/json"),
    ("regexp.", "regexp"),
    ("filepath.", "path/filepath"),
];

/// The source as written to the script file, with the language's wrapper and, for
/// `ctx_execute_file`, the preamble that reads `file`.
pub fn source(lang: Language, code: &str, file: Option<&Path>) -> String {
    let path = file.map(|f| f.to_string_lossy().into_owned());
    match lang {
        Language::JavaScript | Language::TypeScript => {
            let pre = path
                .map(|p| format!("const FILE_CONTENT_PATH = {0}; const file_path = FILE_CONTENT_PATH; const FILE_CONTENT = require('fs').readFileSync(FILE_CONTENT_PATH, 'utf8');\n", json_str(&p)))
                .unwrap_or_default();
            // One line of wrapper, so the user's line N stays line N + (preamble ? 1 : 0).
            format!("{pre}(async () => {{ {code}\n}})().catch((e) => {{ console.error(e); process.exitCode = 1; }});\n")
        }
        Language::Python => {
            let pre = path
                .map(|p| format!("FILE_CONTENT_PATH = {0}\nfile_path = FILE_CONTENT_PATH\nwith open(FILE_CONTENT_PATH, encoding=\"utf-8\") as _cm_f:\n    FILE_CONTENT = _cm_f.read()\n", json_str(&p)))
                .unwrap_or_default();
            format!("{pre}{code}\n")
        }
        Language::Shell => {
            let pre = path
                .map(|p| format!("FILE_CONTENT_PATH={0}\nfile_path=\"$FILE_CONTENT_PATH\"\nFILE_CONTENT=$(cat \"$FILE_CONTENT_PATH\")\n", single_quoted(&p, false)))
                .unwrap_or_default();
            format!("{pre}{code}\n")
        }
        Language::Ruby => {
            let pre = path.map(|p| format!("FILE_CONTENT_PATH = {0}\nfile_path = FILE_CONTENT_PATH\nFILE_CONTENT = File.read(FILE_CONTENT_PATH)\n", json_str(&p))).unwrap_or_default();
            format!("{pre}{code}\n")
        }
        Language::Go => {
            let pre = path
                .map(|p| format!("FILE_CONTENT_PATH := {0}\n_cmBytes, _ := os.ReadFile(FILE_CONTENT_PATH)\nFILE_CONTENT := string(_cmBytes)\nfile_path := FILE_CONTENT_PATH\n_, _ = FILE_CONTENT, file_path\n", json_str(&p)))
                .unwrap_or_default();
            if code.contains("package ") {
                return format!("{code}\n");
            }
            let body = format!("{pre}{code}");
            let mut imports: Vec<&str> = GO_PACKAGES.iter().filter(|(use_, _)| body.contains(use_)).map(|(_, pkg)| *pkg).collect();
            imports.dedup();
            let imports = if imports.is_empty() { String::new() } else { format!("import (\n{}\n)\n", imports.iter().map(|i| format!("\t\"{i}\"")).collect::<Vec<_>>().join("\n")) };
            format!("package main\n{imports}func main() {{\n{body}\n}}\n")
        }
        Language::Rust => {
            let pre = path
                .map(|p| format!("let file_content_path = {0};\nlet file_content = std::fs::read_to_string(file_content_path).unwrap_or_default();\nlet file_path = file_content_path;\nlet _ = (&file_content, file_path);\n", json_str(&p)))
                .unwrap_or_default();
            if code.contains("fn main") {
                format!("{code}\n")
            } else {
                format!("fn main() {{\n{pre}{code}\n}}\n")
            }
        }
        Language::Php => {
            let pre = path.map(|p| format!("$FILE_CONTENT_PATH = {0};\n$file_path = $FILE_CONTENT_PATH;\n$FILE_CONTENT = file_get_contents($FILE_CONTENT_PATH);\n", json_str(&p))).unwrap_or_default();
            let body = code.trim_start().strip_prefix("<?php").unwrap_or(code);
            format!("<?php\n{pre}{body}\n")
        }
        Language::Perl => {
            let pre = path
                .map(|p| format!("my $FILE_CONTENT_PATH = {0};\nmy $file_path = $FILE_CONTENT_PATH;\nmy $FILE_CONTENT = do {{ local $/; open(my $cm_fh, '<:encoding(UTF-8)', $FILE_CONTENT_PATH) or die \"$!\"; <$cm_fh> }};\n", single_quoted(&p, true)))
                .unwrap_or_default();
            format!("{pre}{code}\n")
        }
        Language::R => {
            let pre = path
                .map(|p| format!("FILE_CONTENT_PATH <- {0}\nfile_path <- FILE_CONTENT_PATH\nFILE_CONTENT <- paste(readLines(FILE_CONTENT_PATH, warn = FALSE), collapse = \"\\n\")\n", json_str(&p)))
                .unwrap_or_default();
            format!("{pre}{code}\n")
        }
        Language::Elixir => {
            let pre = path.map(|p| format!("file_content_path = {0}\nfile_path = file_content_path\nfile_content = File.read!(file_content_path)\n", json_str(&p))).unwrap_or_default();
            format!("{pre}{code}\n")
        }
        Language::CSharp => {
            let pre = path.map(|p| format!("var FILE_CONTENT_PATH = {0};\nvar file_path = FILE_CONTENT_PATH;\nvar FILE_CONTENT = System.IO.File.ReadAllText(FILE_CONTENT_PATH);\n", json_str(&p))).unwrap_or_default();
            format!("{pre}{code}\n")
        }
    }
}

/// Writes the script into `dir` and works out how to run it.
pub fn prepare(lang: Language, code: &str, file: Option<&Path>, dir: &Path, node_path: Option<&Path>) -> Result<Prepared, PrepareError> {
    let runtime = runtime::runtime(lang, node_path).ok_or(PrepareError::NoRuntime { lang: lang.name(), hint: lang.install_hint() })?;
    let script = dir.join(format!("script.{}", lang.extension()));
    std::fs::write(&script, source(lang, code, file))?;
    let script_arg: OsString = script.clone().into_os_string();
    let name = runtime.file_stem().map(|n| n.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    Ok(match lang {
        Language::TypeScript | Language::JavaScript if name == "bun" => Prepared { program: runtime, args: vec!["run".into(), script_arg], compile: None },
        Language::Go => Prepared { program: runtime, args: vec!["run".into(), script_arg], compile: None },
        Language::Rust => {
            let binary = dir.join(if cfg!(windows) { "script.exe" } else { "script" });
            Prepared { program: binary.clone(), args: Vec::new(), compile: Some((runtime, vec![script_arg, "-o".into(), binary.into_os_string()])) }
        }
        _ => Prepared { program: runtime, args: vec![script_arg], compile: None },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrappers() {
        assert!(source(Language::JavaScript, "await 1", None).starts_with("(async () => { await 1"));
        let go = source(Language::Go, "fmt.Println(strings.ToUpper(\"x\"))", None);
        assert!(go.contains("\"fmt\"") && go.contains("\"strings\"") && !go.contains("\"os\""), "{go}");
        assert!(source(Language::Rust, "println!(\"hi\");", None).starts_with("fn main() {"));
        assert!(source(Language::Php, "echo 1;", None).starts_with("<?php\n"));
        let sh = source(Language::Shell, "echo \"$FILE_CONTENT\"", Some(Path::new("/tmp/it's.txt")));
        assert!(sh.starts_with("FILE_CONTENT_PATH='/tmp/it'\\''s.txt'"), "{sh}");
    }
}
