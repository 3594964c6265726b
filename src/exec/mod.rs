//! Running code for the agent, and the permission rules that bound what may run.

pub mod policy;
