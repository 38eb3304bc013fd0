//! The `canvass` binary's library: configuration, logging, the CLI and the running application, so black-box
//! tests can start the real server in-process on a port of their own.

pub mod cli;
pub mod demo;
pub mod jobs;
pub mod settings;
pub mod startup;
pub mod telemetry;

pub use canvass_http::{FailureWindow, Protection};
pub use settings::Settings;
pub use startup::Application;
