//! Property tests over random input for the text handling hooks do on every call:
//! shell command analysis, permission-rule matching and JS-compatible JSON. A small
//! deterministic generator keeps failures replayable from the printed seed.

use context_mode_native::exec::policy::{command_glob_matches, file_glob_matches, split_command};
use context_mode_native::hook::route::shell::{fetch_verdict, has_inline_http, is_structurally_bounded, runs_build_tool, strip_heredocs, strip_quoted};
use context_mode_native::jsjson::{js_trim, parse_payload, stringify};
use serde_json::Value;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const PIECES: &[&str] = &[
    "curl", "wget", " ", "\t", "-s", "-o", " f ", ">", ">>", "2>&1", "|", "||", "&&", "&", ";", "\n", "'", "\"", "`", "$(", ")", "<<", "EOF", "<<-'X'", "X",
    "git", "status", "log", "-5", "ls", "-R", "echo", "gradle", "mvn", "sbt", "fetch('http://x')", "requests.get(", "http.get(", "\\", "é", "😀", "\u{2028}",
    "\u{FEFF}", "\u{85}", "--version", "-V", "rm", "-rf", "*", "/", "**", "?", ":", "(", "{", "}", "[", "]", "0", "1e21",
];

fn random_text(rng: &mut Rng) -> String {
    let n = rng.below(24);
    (0..n).map(|_| rng.pick(PIECES)).collect()
}

fn random_bytes_text(rng: &mut Rng) -> String {
    let bytes: Vec<u8> = (0..rng.below(64)).map(|_| rng.next() as u8).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[test]
fn shell_analysis_never_panics_and_keeps_its_invariants() {
    let mut rng = Rng(0x5eed_1234_abcd_ef01);
    for i in 0..20_000 {
        let cmd = if i % 5 == 0 { random_bytes_text(&mut rng) } else { random_text(&mut rng) };
        let no_heredocs = strip_heredocs(&cmd);
        assert!(no_heredocs.len() <= cmd.len(), "seed iteration {i}: {cmd:?}");
        let stripped = strip_quoted(&no_heredocs);
        assert!(stripped.len() <= no_heredocs.len());
        assert_eq!(strip_quoted(&stripped), stripped, "quote stripping is idempotent for {cmd:?}");
        let _ = fetch_verdict(&stripped, &[]);
        let _ = has_inline_http(&no_heredocs);
        let _ = runs_build_tool(&stripped);
        if is_structurally_bounded(&cmd) {
            assert!(!js_trim(&cmd).contains(['|', ';', '>', '`', '\n', '\r']), "bounded but compound: {cmd:?}");
        }
        for part in split_command(&cmd) {
            assert_eq!(part.trim(), part);
            assert!(!part.is_empty());
        }
        let glob = random_text(&mut rng);
        let _ = command_glob_matches(&glob, &cmd);
        let _ = file_glob_matches(&glob, &cmd);
    }
}

fn random_value(rng: &mut Rng, depth: usize) -> Value {
    match rng.below(if depth > 3 { 4 } else { 6 }) {
        0 => Value::Null,
        1 => Value::Bool(rng.below(2) == 0),
        2 => serde_json::json!(rng.pick(&["1", "-0", "1.5", "1e21", "12345678901234567890", "5e-324"]).parse::<f64>().unwrap_or(0.0)),
        3 => Value::String(random_text(rng)),
        4 => Value::Array((0..rng.below(4)).map(|_| random_value(rng, depth + 1)).collect()),
        _ => Value::Object((0..rng.below(4)).map(|_| (rng.pick(&["a", "0", "10", "2", "__proto__", "é", ""]).to_string(), random_value(rng, depth + 1))).collect()),
    }
}

#[test]
fn js_json_round_trips() {
    let mut rng = Rng(0xdead_beef_0bad_f00d);
    for _ in 0..5_000 {
        let v = random_value(&mut rng, 0);
        let text = stringify(&v);
        let back = parse_payload(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(stringify(&back), text, "stringify is stable through a parse");
    }
}

#[test]
fn payload_parser_never_panics() {
    let mut rng = Rng(42);
    for _ in 0..20_000 {
        let raw = if rng.below(2) == 0 { random_bytes_text(&mut rng) } else { random_text(&mut rng) };
        let _ = parse_payload(&raw);
    }
}
