//! The SMTP sink: accepts mail, keeps every message, and answers chosen recipients with a permanent (5xx) or
//! transient (4xx) refusal.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// A running sink.
#[derive(Clone)]
pub struct SmtpSink {
    /// `smtp://127.0.0.1:<port>`.
    pub url: String,
    messages: Arc<Mutex<Vec<String>>>,
}

impl SmtpSink {
    /// Starts a sink; recipients containing `refuse_5xx` get 550, those containing `refuse_4xx` get 451.
    pub fn start(refuse_5xx: &'static str, refuse_4xx: &'static str) -> Self {
        Self::with_delay(refuse_5xx, refuse_4xx, std::time::Duration::ZERO)
    }

    /// A sink that takes `delay` to accept each message, like a relay under load.
    pub fn with_delay(refuse_5xx: &'static str, refuse_4xx: &'static str, delay: std::time::Duration) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("smtp://127.0.0.1:{}", listener.local_addr().unwrap().port());
        let messages = Arc::new(Mutex::new(Vec::new()));
        let kept = messages.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let kept = kept.clone();
                std::thread::spawn(move || serve(stream, &kept, refuse_5xx, refuse_4xx, delay));
            }
        });
        Self { url, messages }
    }

    /// How many messages were received so far.
    pub fn count(&self) -> usize {
        self.messages.lock().unwrap().len()
    }

    /// Every message received so far (headers and body as sent).
    pub fn messages(&self) -> Vec<String> {
        self.messages.lock().unwrap().clone()
    }
}

/// Acknowledges received data at once instead of after the delayed-ACK timer, so a client that writes a
/// message in several small segments (Nagle) is not held up by this sink; Linux resets it after each read.
fn quick_ack(stream: &TcpStream) {
    #[cfg(target_os = "linux")]
    let _ = socket2::SockRef::from(stream).set_tcp_quickack(true);
    #[cfg(not(target_os = "linux"))]
    let _ = stream;
}

fn serve(stream: TcpStream, kept: &Mutex<Vec<String>>, refuse_5xx: &str, refuse_4xx: &str, delay: std::time::Duration) {
    let _ = stream.set_nodelay(true);
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut reply = |text: &str| writer.write_all(format!("{text}\r\n").as_bytes());
    if reply("220 sink ready").is_err() {
        return;
    }
    let mut line = String::new();
    loop {
        line.clear();
        quick_ack(reader.get_ref());
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let command = line.trim_end().to_ascii_uppercase();
        let answer = if command.starts_with("EHLO") || command.starts_with("HELO") {
            "250 sink"
        } else if command.starts_with("RCPT") && !refuse_5xx.is_empty() && line.contains(refuse_5xx) {
            "550 5.1.1 no such user"
        } else if command.starts_with("RCPT") && !refuse_4xx.is_empty() && line.contains(refuse_4xx) {
            "451 4.3.0 try again later"
        } else if command == "DATA" {
            if reply("354 go ahead").is_err() {
                return;
            }
            let mut message = String::new();
            loop {
                let mut data = String::new();
                quick_ack(reader.get_ref());
                if reader.read_line(&mut data).unwrap_or(0) == 0 {
                    // The client went away in the middle of the message: like a real relay, keep nothing.
                    return;
                }
                if data == ".\r\n" {
                    break;
                }
                message.push_str(&data);
            }
            std::thread::sleep(delay);
            kept.lock().unwrap().push(message);
            "250 queued"
        } else if command == "QUIT" {
            let _ = reply("221 bye");
            return;
        } else {
            "250 ok"
        };
        if reply(answer).is_err() {
            return;
        }
    }
}
