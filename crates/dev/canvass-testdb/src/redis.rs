//! A private `redis-server` for one test: a free port on loopback, nothing kept on disk (`--save ''`,
//! `--appendonly no`), never the machine's own Redis. It can be stopped and started again on the same port, as an
//! operator's Redis goes away and comes back; it is killed when the handle drops.

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running (or stopped) private Redis.
pub struct TestRedis {
    port: u16,
    child: Option<Child>,
}

impl TestRedis {
    /// Starts one on a free port; panics (failing the test) when `redis-server` is not installed or does not
    /// listen within ten seconds.
    pub fn start() -> Self {
        let port = free_port();
        let mut redis = Self { port, child: None };
        redis.resume();
        redis
    }

    /// `redis://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills it and waits until it is gone: what it held is lost, as a Redis without persistence loses it.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            drop(child.kill());
            drop(child.wait());
        }
    }

    /// Starts it again on its port (empty), and waits until it listens.
    #[expect(clippy::expect_used, reason = "test support: a Redis that will not start fails the test")]
    pub fn resume(&mut self) {
        self.stop();
        let child = Command::new("redis-server")
            .args(["--port", &self.port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server (Debian's redis-server package; .ci/run installs it)");
        self.child = Some(child);
        let deadline = Instant::now() + Duration::from_secs(10);
        while TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).is_err() {
            assert!(Instant::now() < deadline, "redis-server did not listen on {} within 10 s", self.port);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for TestRedis {
    fn drop(&mut self) {
        self.stop();
    }
}

#[expect(clippy::expect_used, reason = "test support: no free port fails the test")]
fn free_port() -> u16 {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("a free port");
    listener.local_addr().expect("its address").port()
}
