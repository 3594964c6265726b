//! The environment a sandboxed program gets: the server's, minus variables that let a
//! script hijack an interpreter (1.0.169's deny-list) and minus anything that looks like
//! a credential, unless the user lists it in `CONTEXT_MODE_PASS_ENV`.

use std::collections::HashSet;
use std::ffi::OsString;
use std::path::Path;

/// Variables that change how an interpreter or toolchain starts.
const HIJACKING: &[&str] = &[
    "BASH_ENV", "ENV", "PROMPT_COMMAND", "PS4", "SHELLOPTS", "BASHOPTS", "CDPATH", "INPUTRC", "BASH_XTRACEFD", "NODE_OPTIONS", "NODE_PATH",
    "PYTHONSTARTUP", "PYTHONHOME", "PYTHONWARNINGS", "PYTHONBREAKPOINT", "PYTHONINSPECT", "RUBYOPT", "RUBYLIB", "PERL5OPT", "PERL5LIB",
    "PERLLIB", "PERL5DB", "ERL_AFLAGS", "ERL_FLAGS", "ELIXIR_ERL_OPTIONS", "ERL_LIBS", "GOFLAGS", "CGO_CFLAGS", "CGO_LDFLAGS", "RUSTC",
    "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "CARGO_BUILD_RUSTC", "CARGO_BUILD_RUSTC_WRAPPER", "RUSTFLAGS", "PHPRC", "PHP_INI_SCAN_DIR",
    "R_PROFILE", "R_PROFILE_USER", "R_HOME", "DOTNET_STARTUP_HOOKS", "DOTNET_ADDITIONAL_DEPS", "DOTNET_SHARED_STORE", "DOTNET_ROOT",
    "DOTNET_ROOT(x86)", "DOTNET_HOST_PATH", "CORECLR_PROFILER", "CORECLR_PROFILER_PATH", "CORECLR_PROFILER_PATH_32",
    "CORECLR_PROFILER_PATH_64", "CORECLR_PROFILER_PATH_ARM32", "CORECLR_PROFILER_PATH_ARM64", "CORECLR_ENABLE_PROFILING",
    "DOTNET_PROFILER_PATH", "DOTNET_PROFILER_PATH_32", "DOTNET_PROFILER_PATH_64", "DOTNET_PROFILER_PATH_ARM32", "DOTNET_PROFILER_PATH_ARM64",
    "DOTNET_DiagnosticPorts", "DOTNET_BUNDLE_EXTRACT_BASE_DIR", "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "OPENSSL_CONF", "OPENSSL_ENGINES",
    "CC", "CXX", "AR", "GIT_TEMPLATE_DIR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND",
    "GIT_ASKPASS",
];

/// Name parts that mark a credential (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`).
const SECRET_PARTS: &[&str] = &["TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASSPHRASE", "APIKEY", "CREDENTIAL", "CREDENTIALS", "COOKIE"];
/// Name pieces that mark a credential wherever they appear.
const SECRET_PIECES: &[&str] = &["API_KEY", "ACCESS_KEY", "PRIVATE_KEY", "SECRET_KEY", "AUTH_TOKEN", "SESSION_KEY", "CLIENT_SECRET", "DATABASE_URL", "_DSN"];
/// Value prefixes of well-known tokens, withheld whatever their variable is called.
const SECRET_VALUE_PREFIXES: &[&str] = &["ghp_", "gho_", "ghs_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "sk-ant-", "sk-proj-", "AKIA", "ASIA", "npm_", "hf_"];

/// True for variables that look like they hold a credential.
pub fn looks_secret(name: &str, value: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    upper.split('_').any(|part| SECRET_PARTS.contains(&part))
        || SECRET_PIECES.iter().any(|p| upper.contains(p))
        || SECRET_VALUE_PREFIXES.iter().any(|p| value.starts_with(p) && value.len() >= 16)
}

fn is_hijacking(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    HIJACKING.contains(&name) || upper.starts_with("BASH_FUNC_") || upper.starts_with("COMPLUS_")
}

/// Names the user allows through even though they look like secrets.
fn passed_through() -> HashSet<String> {
    std::env::var("CONTEXT_MODE_PASS_ENV").unwrap_or_default().split([',', ' ']).map(|s| s.trim().to_ascii_uppercase()).filter(|s| !s.is_empty()).collect()
}

/// What was kept out, for `ctx_doctor` and for tests.
#[derive(Debug, Default, Clone)]
pub struct Scrubbed {
    pub env: Vec<(OsString, OsString)>,
    pub withheld: Vec<String>,
}

/// The child environment for a run whose scratch directory is `sandbox_dir`.
pub fn child_env(sandbox_dir: &Path) -> Scrubbed {
    let pass = passed_through();
    let mut out = Scrubbed::default();
    for (k, v) in std::env::vars_os() {
        let (Some(name), value) = (k.to_str(), v.to_string_lossy()) else { continue };
        if is_hijacking(name) {
            continue;
        }
        if looks_secret(name, &value) && !pass.contains(&name.to_ascii_uppercase()) {
            out.withheld.push(name.to_string());
            continue;
        }
        out.env.push((k, v));
    }
    let mut set = |k: &str, v: OsString| {
        out.env.retain(|(name, _)| name != k);
        out.env.push((k.into(), v));
    };
    set("TMPDIR", sandbox_dir.as_os_str().to_owned());
    set("PYTHONDONTWRITEBYTECODE", "1".into());
    set("PYTHONUNBUFFERED", "1".into());
    set("PYTHONUTF8", "1".into());
    set("NO_COLOR", "1".into());
    if std::env::var_os("LANG").is_none() {
        set("LANG", "en_US.UTF-8".into());
    }
    if std::env::var_os("PATH").is_none() {
        set("PATH", "/usr/local/bin:/usr/bin:/bin".into());
    }
    if std::env::var_os("SSL_CERT_FILE").is_none() {
        let bundles = ["/etc/ssl/cert.pem", "/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem"];
        if let Some(b) = bundles.iter().find(|b| Path::new(b).exists()) {
            set("SSL_CERT_FILE", (*b).into());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_recognised() {
        for (k, v) in [("GITHUB_TOKEN", "x"), ("AWS_SECRET_ACCESS_KEY", "x"), ("DB_PASSWORD", "x"), ("OPENAI_API_KEY", "x"), ("DATABASE_URL", "x"), ("MY_VAR", "ghp_abcdefghijklmnop")] {
            assert!(looks_secret(k, v), "{k}");
        }
        for (k, v) in [("PATH", "/usr/bin"), ("HOME", "/h"), ("SSH_AUTH_SOCK", "/tmp/s"), ("NODE_EXTRA_CA_CERTS", "/etc/ca.pem"), ("KEYBOARD", "us"), ("PWD", "/x")] {
            assert!(!looks_secret(k, v), "{k}");
        }
    }
}
