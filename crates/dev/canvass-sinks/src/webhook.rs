//! The webhook sink: an HTTP endpoint that keeps every request posted to it (headers and body) and answers each
//! with the next status queued by the test, else 200.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One request the sink received, and the status it answered.
#[derive(Debug, Clone)]
pub struct WebhookRequest {
    /// Header names (lower case) and values, in order.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
    /// The status it was answered with.
    pub status: u16,
}

impl WebhookRequest {
    /// The value of the header `name` (any case), or `""`.
    pub fn header(&self, name: &str) -> &str {
        let name = name.to_ascii_lowercase();
        self.headers.iter().find(|(n, _)| *n == name).map_or("", |(_, value)| value.as_str())
    }
}

/// A running webhook receiver.
#[derive(Clone)]
pub struct WebhookSink {
    /// `http://127.0.0.1:<port>/hook`.
    pub url: String,
    received: Arc<Mutex<Vec<WebhookRequest>>>,
    statuses: Arc<Mutex<VecDeque<u16>>>,
}

impl WebhookSink {
    /// Starts a receiver that answers 200 until told otherwise.
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://127.0.0.1:{}/hook", listener.local_addr().unwrap().port());
        let sink = Self { url, received: Arc::default(), statuses: Arc::default() };
        let shared = sink.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let shared = shared.clone();
                std::thread::spawn(move || shared.serve(stream));
            }
        });
        sink
    }

    /// Answers the next requests with these statuses, in order (then 200 again).
    pub fn answer_next(&self, statuses: &[u16]) {
        self.statuses.lock().unwrap().extend(statuses);
    }

    /// Every request received so far, in order.
    pub fn received(&self) -> Vec<WebhookRequest> {
        self.received.lock().unwrap().clone()
    }

    fn serve(&self, stream: TcpStream) {
        let mut writer = stream.try_clone().unwrap();
        let mut reader = BufReader::new(stream);
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let mut headers = Vec::new();
            let mut length = 0usize;
            loop {
                let mut header = String::new();
                if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
                    break;
                }
                if let Some((name, value)) = header.split_once(':') {
                    let (name, value) = (name.trim().to_ascii_lowercase(), value.trim().to_owned());
                    if name == "content-length" {
                        length = value.parse().unwrap_or(0);
                    }
                    headers.push((name, value));
                }
            }
            let mut body = vec![0u8; length];
            if reader.read_exact(&mut body).is_err() {
                return;
            }
            let status = self.statuses.lock().unwrap().pop_front().unwrap_or(200);
            let body = String::from_utf8_lossy(&body).into_owned();
            self.received.lock().unwrap().push(WebhookRequest { headers, body, status });
            let reply = format!("HTTP/1.1 {status} Status\r\ncontent-length: 0\r\n\r\n");
            if writer.write_all(reply.as_bytes()).is_err() {
                return;
            }
        }
    }
}
