//! The hook side: everything a host's hook process does between reading its payload
//! on stdin and writing its answer on stdout.

pub mod events;
pub mod format;
pub mod markers;
pub mod payload;
pub mod pre;
pub mod ready;
pub mod route;
pub mod run;
pub mod stdin;
pub mod texts;
pub mod throttle;
