//! The MCP tools as plain functions: arguments in (as JSON, coerced the way 1.0.169's
//! schemas coerce them), one result out. The server only forwards calls here.

pub mod args;
pub mod exec;
pub mod ledger;
pub mod meta;
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
    /// Bytes the call produced or read that did not enter the answer (the ledger's
    /// "kept out"). Zero unless a tool can say so for certain.
    pub withheld: u64,
}

impl ToolResponse {
    pub fn ok(text: impl Into<String>) -> ToolResponse {
        ToolResponse { text: text.into(), is_error: false, structured: None, withheld: 0 }
    }

    pub fn error(text: impl Into<String>) -> ToolResponse {
        ToolResponse { text: text.into(), is_error: true, structured: None, withheld: 0 }
    }

    pub fn with_structured(mut self, v: Value) -> ToolResponse {
        self.structured = Some(v);
        self
    }

    pub fn withholding(mut self, bytes: u64) -> ToolResponse {
        self.withheld = bytes;
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
    /// The Node running the server: JavaScript runs on it, hooks are checked with it.
    pub node_path: Option<String>,
    /// The installed package (hooks, `cli.mjs`), for doctor and upgrade.
    pub package_root: Option<String>,
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

/// The tools in the order they are listed.
pub const TOOL_NAMES: &[&str] =
    &["ctx_execute", "ctx_execute_file", "ctx_index", "ctx_search", "ctx_fetch_and_index", "ctx_batch_execute", "ctx_stats", "ctx_doctor", "ctx_upgrade", "ctx_purge", "ctx_insight"];

/// Runs one tool call and counts it in the ledger. Blocking work (SQLite) runs off the
/// async threads; a panic inside a tool becomes an error result, never a dead server.
pub async fn dispatch(name: &str, ctx: ToolContext, args: Value) -> ToolResponse {
    let owned = name.to_string();
    let context = ctx.clone();
    let task = tokio::spawn(async move {
        match owned.as_str() {
            "ctx_execute" => exec::ctx_execute(ctx, args).await,
            "ctx_execute_file" => exec::ctx_execute_file(ctx, args).await,
            "ctx_batch_execute" => exec::ctx_batch_execute(ctx, args).await,
            "ctx_fetch_and_index" => store::ctx_fetch_and_index(ctx, args).await,
            "ctx_doctor" => meta::ctx_doctor(ctx).await,
            _ => tokio::task::spawn_blocking(move || match owned.as_str() {
                "ctx_index" => store::ctx_index(&ctx, &args),
                "ctx_search" => store::ctx_search(&ctx, &args),
                "ctx_stats" => meta::ctx_stats(&ctx),
                "ctx_upgrade" => meta::ctx_upgrade(&ctx),
                "ctx_purge" => meta::ctx_purge(&ctx, &args),
                "ctx_insight" => meta::ctx_insight(&ctx),
                other => ToolResponse::error(format!("Unknown tool {other:?}. Available: {}.", TOOL_NAMES.join(", "))),
            })
            .await
            .unwrap_or_else(|e| ToolResponse::error(format!("Internal error: {e}"))),
        }
    });
    let response = task.await.unwrap_or_else(|e| ToolResponse::error(format!("Internal error in {name}: {e}")));
    if TOOL_NAMES.contains(&name) {
        ledger::record(name, response.text.len(), response.withheld);
        // The same counts go into the session log the hooks keep, when there is one,
        // so the statusline and later stats see one ledger.
        let (tool, returned, withheld) = (name.to_string(), response.text.len() as u64, response.withheld);
        let _ = tokio::task::spawn_blocking(move || crate::session::record_tool_call(&context.opts(), &context.project_dir, &tool, returned, withheld)).await;
    }
    response
}

/// A path as the agent wrote it, resolved against the project when relative.
pub fn resolve_path(project_dir: &str, path: &str) -> PathBuf {
    let p = std::path::Path::new(path);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::path::Path::new(project_dir).join(p)
    }
}

pub use crate::text::human_bytes;
