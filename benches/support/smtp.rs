//! Postfix's test programs, as the delivery benchmarks run them: found on the machine, `smtp-sink` started on a free
//! port.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread::sleep;
use std::time::{Duration, Instant};

use super::{running_as_root, Killed};

/// One of Postfix's programs, found on PATH or in the sbin directories; exits with advice when missing.
pub fn postfix_tool(name: &str) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::env::split_paths(&path).chain(["/usr/sbin", "/usr/local/sbin"].map(PathBuf::from));
    for dir in dirs {
        let candidate = dir.join(name);
        if candidate.is_file() {
            return candidate;
        }
    }
    eprintln!(
        "the delivery benchmark needs Postfix's `{name}` (looked on PATH and in /usr/sbin): install it with \
         `apt-get install postfix` (as root: `DEBIAN_FRONTEND=noninteractive apt-get install -y postfix`); \
         only its smtp-sink and smtp-source programs are used, the mail service need not run"
    );
    std::process::exit(1);
}

/// Starts `smtp-sink` on a free 127.0.0.1 port and waits until it accepts connections.
pub fn start_sink(smtp_sink: &Path) -> (Killed, u16) {
    for _ in 0..5 {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut command = Command::new(smtp_sink);
        if running_as_root() {
            command.args(["-u", "postfix"]);
        }
        command.arg(format!("127.0.0.1:{port}")).arg("1024").stdout(Stdio::null());
        let mut sink = Killed(command.spawn().unwrap());
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(5) {
            if sink.0.try_wait().unwrap().is_some() {
                break; // Most likely someone took the port meanwhile: try another.
            }
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return (sink, port);
            }
            sleep(Duration::from_millis(10));
        }
        let _ = sink.0.kill();
    }
    panic!("smtp-sink did not start; try `{} 127.0.0.1:2525 1024` by hand", smtp_sink.display());
}
