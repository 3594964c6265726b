//! Running code for the agent, and the permission rules that bound what may run.

pub mod embedded;
pub mod env;
pub mod policy;
pub mod program;
pub mod runtime;
pub mod sandbox;
