//! Fetching a page for `ctx_fetch_and_index`, safely and in bounded time.
//!
//! The host is resolved once, every address is classified, and the connection goes to
//! an address that passed (pinned in the client, so a second DNS answer cannot send it
//! elsewhere). Redirects are followed by hand, at most five, each hop vetted the same
//! way. Proxy variables are ignored, bodies are capped, and the whole call has a
//! deadline. HTML becomes markdown; JSON is pretty-printed; anything else stays text.

use futures_util::StreamExt;
use reqwest::Url;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::{Duration, Instant};

pub const MAX_BODY_BYTES: usize = 50 << 20;
pub const MAX_REDIRECTS: usize = 5;
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Debug, Clone)]
pub struct FetchLimits {
    pub timeout: Duration,
    pub max_bytes: usize,
    /// Refuse private and loopback addresses too (`CTX_FETCH_STRICT=1`).
    pub strict: bool,
}

impl FetchLimits {
    pub fn from_env() -> FetchLimits {
        let timeout = std::env::var("CONTEXT_MODE_FETCH_TIMEOUT_MS")
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|ms| *ms > 0)
            .map(Duration::from_millis)
            .unwrap_or(DEFAULT_TIMEOUT);
        let max_bytes = std::env::var("CONTEXT_MODE_FETCH_MAX_BYTES").ok().and_then(|v| v.trim().parse().ok()).filter(|n| *n > 0).unwrap_or(MAX_BODY_BYTES);
        FetchLimits { timeout, max_bytes, strict: std::env::var("CTX_FETCH_STRICT").is_ok_and(|v| v == "1") }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("invalid URL {0:?}")]
    InvalidUrl(String),
    #[error("URL scheme \"{0}\" is not allowed (only http and https)")]
    Scheme(String),
    #[error("{host} resolves to {ip}, a {class} address: blocked")]
    Blocked { host: String, ip: IpAddr, class: &'static str },
    #[error("DNS lookup failed for {host}: {message}")]
    Dns { host: String, message: String },
    #[error("HTTP {0}")]
    Status(u16),
    #[error("the response is larger than {0} bytes")]
    TooLarge(usize),
    #[error("no response within {0} ms")]
    Timeout(u128),
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
    #[error("redirect without a usable Location header")]
    BadRedirect,
    #[error("{0}")]
    Network(String),
}

/// What a URL turned into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    Markdown,
    Json,
    Text,
}

#[derive(Debug, Clone)]
pub struct Fetched {
    pub final_url: String,
    pub kind: BodyKind,
    pub body: String,
}

/// Address classes we refuse, and those refused only in strict mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddressClass {
    Public,
    Private,
    Blocked(&'static str),
}

pub fn classify(ip: IpAddr) -> AddressClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return classify_v4(v4);
            }
            let s = v6.segments();
            if v6.is_unspecified() {
                AddressClass::Blocked("unspecified")
            } else if v6.is_loopback() {
                AddressClass::Private
            } else if s[0] & 0xffc0 == 0xfe80 {
                AddressClass::Blocked("link-local")
            } else if s[0] & 0xff00 == 0xff00 {
                AddressClass::Blocked("multicast")
            } else if v6 == Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x254) {
                AddressClass::Blocked("cloud metadata")
            } else if s[0] == 0x64 && s[1] == 0xff9b {
                // NAT64: judge the IPv4 address inside.
                let o = v6.octets();
                classify_v4(Ipv4Addr::new(o[12], o[13], o[14], o[15]))
            } else if s[0] & 0xfe00 == 0xfc00 {
                AddressClass::Private
            } else {
                AddressClass::Public
            }
        }
    }
}

fn classify_v4(ip: Ipv4Addr) -> AddressClass {
    let o = ip.octets();
    if o[0] == 0 {
        AddressClass::Blocked("reserved")
    } else if o[0] == 169 && o[1] == 254 {
        AddressClass::Blocked("link-local (cloud metadata)")
    } else if o[0] >= 224 {
        AddressClass::Blocked("multicast or reserved")
    } else if ip == Ipv4Addr::new(100, 100, 100, 200) {
        AddressClass::Blocked("cloud metadata")
    } else if ip.is_loopback() || ip.is_private() || (o[0] == 100 && (64..128).contains(&o[1])) {
        AddressClass::Private
    } else {
        AddressClass::Public
    }
}

/// Resolves a URL's host and returns the first address that may be contacted.
async fn vetted_address(url: &Url, strict: bool) -> Result<SocketAddr, FetchError> {
    let host = url.host_str().ok_or_else(|| FetchError::InvalidUrl(url.to_string()))?.trim_matches(['[', ']']).to_string();
    let port = url.port_or_known_default().unwrap_or(80);
    let addrs: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::net::lookup_host((host.as_str(), port))
            .await
            .map_err(|e| FetchError::Dns { host: host.clone(), message: e.to_string() })?
            .collect(),
    };
    let mut refusal = None;
    for addr in &addrs {
        match classify(addr.ip()) {
            AddressClass::Public => return Ok(*addr),
            AddressClass::Private if !strict => return Ok(*addr),
            AddressClass::Private => refusal = Some(FetchError::Blocked { host: host.clone(), ip: addr.ip(), class: "private (CTX_FETCH_STRICT=1)" }),
            AddressClass::Blocked(class) => refusal = Some(FetchError::Blocked { host: host.clone(), ip: addr.ip(), class }),
        }
    }
    Err(refusal.unwrap_or(FetchError::Dns { host, message: "no addresses".into() }))
}

fn ensure_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Fetches `url` within `limits`.
pub async fn fetch(url: &str, limits: &FetchLimits) -> Result<Fetched, FetchError> {
    ensure_crypto_provider();
    let deadline = Instant::now() + limits.timeout;
    let mut current = Url::parse(url.trim()).map_err(|_| FetchError::InvalidUrl(url.to_string()))?;
    for _hop in 0..=MAX_REDIRECTS {
        if !matches!(current.scheme(), "http" | "https") {
            return Err(FetchError::Scheme(current.scheme().to_string()));
        }
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(FetchError::Timeout(limits.timeout.as_millis()));
        }
        let addr = tokio::time::timeout(remaining, vetted_address(&current, limits.strict))
            .await
            .map_err(|_| FetchError::Timeout(limits.timeout.as_millis()))??;
        let host = current.host_str().unwrap_or_default().trim_matches(['[', ']']).to_string();
        let client = reqwest::Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .resolve(&host, addr)
            .timeout(remaining)
            .user_agent(concat!("context-mode-native/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| FetchError::Network(e.to_string()))?;
        let response = client.get(current.clone()).send().await.map_err(|e| network_error(e, limits))?;
        let status = response.status();
        if status.is_redirection() {
            let location = response.headers().get(reqwest::header::LOCATION).and_then(|l| l.to_str().ok()).ok_or(FetchError::BadRedirect)?;
            current = current.join(location).map_err(|_| FetchError::BadRedirect)?;
            continue;
        }
        if !status.is_success() {
            return Err(FetchError::Status(status.as_u16()));
        }
        let content_type = response.headers().get(reqwest::header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_ascii_lowercase();
        if response.content_length().is_some_and(|n| n as usize > limits.max_bytes) {
            return Err(FetchError::TooLarge(limits.max_bytes));
        }
        let final_url = response.url().to_string();
        let mut body: Vec<u8> = Vec::new();
        let mut stream = response.bytes_stream();
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            let next = tokio::time::timeout(remaining, stream.next()).await.map_err(|_| FetchError::Timeout(limits.timeout.as_millis()))?;
            let Some(piece) = next else { break };
            let piece = piece.map_err(|e| network_error(e, limits))?;
            if body.len() + piece.len() > limits.max_bytes {
                return Err(FetchError::TooLarge(limits.max_bytes));
            }
            body.extend_from_slice(&piece);
        }
        let text = decode(&body, &content_type);
        return Ok(convert(final_url, &content_type, text));
    }
    Err(FetchError::TooManyRedirects)
}

fn network_error(e: reqwest::Error, limits: &FetchLimits) -> FetchError {
    if e.is_timeout() {
        FetchError::Timeout(limits.timeout.as_millis())
    } else {
        let mut msg = e.to_string();
        let mut src = std::error::Error::source(&e);
        while let Some(s) = src {
            msg = format!("{msg}: {s}");
            src = s.source();
        }
        FetchError::Network(msg)
    }
}

/// Bytes to text using the charset the server named (UTF-8 otherwise).
fn decode(body: &[u8], content_type: &str) -> String {
    let label = content_type.split(';').find_map(|p| p.trim().strip_prefix("charset=")).map(|c| c.trim_matches('"'));
    let encoding = label.and_then(|l| encoding_rs::Encoding::for_label(l.as_bytes())).unwrap_or(encoding_rs::UTF_8);
    encoding.decode(body).0.into_owned()
}

fn convert(final_url: String, content_type: &str, text: String) -> Fetched {
    if content_type.contains("application/json") || content_type.contains("+json") {
        return match serde_json::from_str::<serde_json::Value>(&text) {
            Ok(v) => Fetched { final_url, kind: BodyKind::Json, body: serde_json::to_string_pretty(&v).unwrap_or(text) },
            Err(_) => Fetched { final_url, kind: BodyKind::Text, body: text },
        };
    }
    let looks_html = content_type.contains("text/html") || content_type.contains("application/xhtml") || (content_type.is_empty() && text.trim_start().starts_with('<'));
    if looks_html {
        return Fetched { final_url, kind: BodyKind::Markdown, body: html_to_markdown(&text) };
    }
    Fetched { final_url, kind: BodyKind::Text, body: text }
}

/// Markdown of an HTML page, without scripts, styles and page chrome.
pub fn html_to_markdown(html: &str) -> String {
    let title = html
        .find("<title")
        .and_then(|i| html[i..].find('>').map(|j| i + j + 1))
        .and_then(|start| html[start..].find("</title>").map(|end| html[start..start + end].trim().to_string()))
        .filter(|t| !t.is_empty());
    let converter = htmd::HtmlToMarkdown::builder().skip_tags(vec!["script", "style", "nav", "header", "footer", "noscript", "head", "svg", "iframe"]).build();
    let body = converter.convert(html).unwrap_or_else(|_| html.to_string());
    let body = body.trim();
    match title {
        Some(t) if !body.starts_with(&format!("# {t}")) => format!("# {t}\n\n{body}"),
        _ => body.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_classes() {
        let c = |s: &str| classify(s.parse().unwrap());
        assert_eq!(c("93.184.216.34"), AddressClass::Public);
        assert_eq!(c("127.0.0.1"), AddressClass::Private);
        assert_eq!(c("10.1.2.3"), AddressClass::Private);
        assert!(matches!(c("169.254.169.254"), AddressClass::Blocked(_)));
        assert!(matches!(c("0.0.0.0"), AddressClass::Blocked(_)));
        assert!(matches!(c("224.0.0.1"), AddressClass::Blocked(_)));
        assert!(matches!(c("::ffff:169.254.169.254"), AddressClass::Blocked(_)));
        assert!(matches!(c("fe80::1"), AddressClass::Blocked(_)));
        assert!(matches!(c("fd00:ec2::254"), AddressClass::Blocked(_)));
        assert_eq!(c("::1"), AddressClass::Private);
        assert_eq!(c("2606:4700::1111"), AddressClass::Public);
    }

    #[test]
    fn html_becomes_markdown_without_chrome() {
        let md = html_to_markdown("<html><head><title>Docs</title><script>x()</script></head><body><nav>menu</nav><h2>Install</h2><p>Run <code>harbor up</code>.</p></body></html>");
        assert!(md.starts_with("# Docs"), "{md}");
        assert!(md.contains("## Install"));
        assert!(md.contains("`harbor up`"));
        assert!(!md.contains("menu") && !md.contains("x()"));
    }
}
