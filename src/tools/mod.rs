//! The MCP tools as plain functions: arguments in (as JSON, coerced the way 1.0.169's
//! schemas coerce them), one result out. The server only forwards calls here.

pub mod args;
pub mod store;

use serde_json::{json, Value};
use std::path::PathBuf;

/// One tool result: the text the model reads, whether it is an error, and optional
/// structured content for clients that read results without parsing prose.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResponse {
    pub text: String,
    pub is_error: bool,
    pub structured: Option<Value>,
}

impl ToolResponse {
    pub fn ok(text: impl Into<String>) -> ToolResponse {
        ToolResponse { text: text.into(), is_error: false, structured: None }
    }

    pub fn error(text: impl Into<String>) -> ToolResponse {
        ToolResponse { text: text.into(), is_error: true, structured: None }
    }

    pub fn with_structured(mut self, v: Value) -> ToolResponse {
        self.structured = Some(v);
        self
    }

    /// The MCP `CallToolResult` shape.
    pub fn to_json(&self) -> Value {
        let mut v = json!({"content": [{"type": "text", "text": self.text}]});
        if self.is_error {
            v["isError"] = json!(true);
        }
        if let Some(s) = &self.structured {
            v["structuredContent"] = s.clone();
        }
        v
    }
}

/// Where a call runs: the project and the host whose storage it uses.
#[derive(Debug, Clone)]
pub struct ToolContext {
    pub project_dir: String,
    pub platform: String,
}

impl ToolContext {
    pub fn opts(&self) -> crate::platform::paths::PlatformOpts {
        crate::platform::paths::opts_for_platform(&self.platform)
    }

    /// The project's content database.
    pub fn content_db(&self) -> Result<PathBuf, crate::session::paths::StorageDirError> {
        crate::store::paths::content_db_path(&self.opts(), &self.project_dir)
    }

    /// The user's permission rules for this project.
    pub fn policies(&self) -> crate::exec::policy::Policies {
        use crate::platform::paths::{resolve_config_dir, CLAUDE};
        let mut global = vec![resolve_config_dir(&CLAUDE).join("settings.json")];
        if self.platform != "claude-code" {
            global.insert(0, resolve_config_dir(&self.opts()).join("settings.json"));
        }
        crate::exec::policy::Policies::load(&crate::exec::policy::Policies::files_for(Some(&self.project_dir), &global))
    }
}

/// Size as people read it: `812 B`, `4.2 KB`, `3.1 MB`.
pub fn human_bytes(n: usize) -> String {
    match n {
        0..=1023 => format!("{n} B"),
        1024..=1_048_575 => format!("{:.1} KB", n as f64 / 1024.0),
        _ => format!("{:.1} MB", n as f64 / 1_048_576.0),
    }
}
