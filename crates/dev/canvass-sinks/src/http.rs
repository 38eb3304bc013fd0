//! The SMS sink: an HTTP endpoint that keeps every JSON body posted to it and answers recipients containing
//! chosen text with 400 (refused for good) or 503 (try again later), or every request with one status.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// A running SMS sink.
#[derive(Clone)]
pub struct SmsSink {
    /// `http://127.0.0.1:<port>/sms`.
    pub url: String,
    bodies: Arc<Mutex<Vec<String>>>,
}

impl SmsSink {
    /// Starts a sink; bodies containing `refuse` get 400, those containing `busy` get 503.
    pub fn start(refuse: &'static str, busy: &'static str) -> Self {
        Self::serving(refuse, busy, None)
    }

    /// Starts a sink that answers every request with `status` (`401 Unauthorized`, say: a wrong token), keeping
    /// nothing.
    pub fn answering(status: &'static str) -> Self {
        Self::serving("", "", Some(status))
    }

    fn serving(refuse: &'static str, busy: &'static str, every: Option<&'static str>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://127.0.0.1:{}/sms", listener.local_addr().unwrap().port());
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let kept = bodies.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = kept.clone();
                std::thread::spawn(move || serve(stream, &kept, (refuse, busy), every));
            }
        });
        Self { url, bodies }
    }

    /// Every body accepted so far.
    pub fn bodies(&self) -> Vec<String> {
        self.bodies.lock().unwrap().clone()
    }
}

fn serve(stream: TcpStream, kept: &Mutex<Vec<String>>, (refuse, busy): (&str, &str), every: Option<&str>) {
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    loop {
        let mut length = 0usize;
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut body = vec![0u8; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let body = String::from_utf8_lossy(&body).into_owned();
        let status = if let Some(status) = every {
            status
        } else if !refuse.is_empty() && body.contains(refuse) {
            "400 Bad Request"
        } else if !busy.is_empty() && body.contains(busy) {
            "503 Service Unavailable"
        } else {
            kept.lock().unwrap().push(body);
            "200 OK"
        };
        let reply = format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\n\r\n");
        if writer.write_all(reply.as_bytes()).is_err() {
            return;
        }
    }
}
