//! What a user can change about routing, from environment variables the host passes
//! to its hooks (Claude Code's `settings.json` `env` block, a shell profile, …).
//!
//! | variable | effect |
//! |---|---|
//! | `CONTEXT_MODE_ROUTING_OFF` | comma list of rules to switch off: `bash`, `curl`, `inline-http`, `build`, `read`, `grep`, `webfetch`, `agent`, `external-mcp` |
//! | `CONTEXT_MODE_WEBFETCH_ALLOW` | comma list of domains WebFetch may reach directly (subdomains included) |
//! | `CONTEXT_MODE_CURL_ALLOW` | comma list of substrings; a curl/wget call containing one runs untouched |
//! | `CONTEXT_MODE_READ_NUDGE_BYTES` | size above which a Read is flagged as large (default 50000) |
//! | `CONTEXT_MODE_SUBAGENT_ROUTING` | `0` stops adding the routing block to subagent prompts |

use crate::platform::paths::env_nonempty;

pub const DEFAULT_READ_NUDGE_BYTES: u64 = 50_000;

#[derive(Debug, Clone)]
pub struct RoutingConfig {
    off: Vec<String>,
    pub webfetch_allow: Vec<String>,
    pub curl_allow: Vec<String>,
    pub read_nudge_bytes: u64,
    pub subagent_routing: bool,
}

fn list(var: &str) -> Vec<String> {
    env_nonempty(var)
        .map(|v| v.split(',').map(|s| s.trim().to_ascii_lowercase()).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default()
}

impl RoutingConfig {
    pub fn from_env() -> RoutingConfig {
        let read_nudge_bytes = env_nonempty("CONTEXT_MODE_READ_NUDGE_BYTES")
            .and_then(|v| crate::hook::throttle::parse_int(&v))
            .filter(|n| *n >= 0)
            .map(|n| n as u64)
            .unwrap_or(DEFAULT_READ_NUDGE_BYTES);
        RoutingConfig {
            off: list("CONTEXT_MODE_ROUTING_OFF"),
            webfetch_allow: list("CONTEXT_MODE_WEBFETCH_ALLOW"),
            curl_allow: env_nonempty("CONTEXT_MODE_CURL_ALLOW")
                .map(|v| v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
                .unwrap_or_default(),
            read_nudge_bytes,
            subagent_routing: env_nonempty("CONTEXT_MODE_SUBAGENT_ROUTING").is_none_or(|v| !matches!(v.as_str(), "0" | "false" | "off")),
        }
    }

    /// True unless the user switched `rule` off.
    pub fn enabled(&self, rule: &str) -> bool {
        !self.off.iter().any(|r| r == rule)
    }

    /// True when `url`'s host is an allowed domain or below one.
    pub fn webfetch_allowed(&self, url: &str) -> bool {
        let Some(host) = url_host(url) else { return false };
        self.webfetch_allow.iter().any(|d| {
            let d = d.trim_start_matches("*.");
            host == d || host.ends_with(&format!(".{d}"))
        })
    }
}

/// The lower-cased host of an absolute URL, without credentials or port.
pub fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port.split_once(']').map(|(h, _)| &h[1..])?
    } else {
        host_port.split(':').next()?
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        assert_eq!(url_host("https://User:pw@Claude.AI:443/code/x?q").as_deref(), Some("claude.ai"));
        assert_eq!(url_host("http://[::1]:8080/").as_deref(), Some("::1"));
        assert_eq!(url_host("nonsense"), None);
    }

    #[test]
    fn allow_list_covers_subdomains() {
        let c = RoutingConfig { off: vec![], webfetch_allow: vec!["claude.ai".into()], curl_allow: vec![], read_nudge_bytes: 1, subagent_routing: true };
        assert!(c.webfetch_allowed("https://claude.ai/code/artifact/1"));
        assert!(c.webfetch_allowed("https://docs.claude.ai/"));
        assert!(!c.webfetch_allowed("https://notclaude.ai/"));
    }
}
