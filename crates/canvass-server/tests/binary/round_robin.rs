//! A round-robin TCP proxy in front of several servers, as nginx's default upstream balancing would be: each new
//! connection goes to the next server in turn. A client that opens a connection per request (no keep-alive pool)
//! meets the servers in turn, one request each.

use std::net::SocketAddr;

use tokio::io::copy_bidirectional;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

/// The proxy; stopped when dropped.
pub struct RoundRobin {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    accepting: JoinHandle<()>,
}

impl RoundRobin {
    /// Listens on a free loopback port and hands each connection to the next of `servers`.
    pub async fn start(servers: Vec<SocketAddr>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let accepting = tokio::spawn(async move {
            for server in servers.iter().cycle() {
                let Ok((mut inbound, _)) = listener.accept().await else { return };
                let server = *server;
                tokio::spawn(async move {
                    if let Ok(mut outbound) = TcpStream::connect(server).await {
                        drop(copy_bidirectional(&mut inbound, &mut outbound).await);
                    }
                });
            }
        });
        Self { url, accepting }
    }
}

impl Drop for RoundRobin {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}
