//! Kimi Code: the host acts on denies only, so nothing else is sent.

use super::View;
use serde_json::Value;

pub(super) fn format(v: &View) -> Option<Value> {
    match v.action? {
        "deny" => Some(super::claude::deny(v.reason.cloned())),
        _ => None,
    }
}
