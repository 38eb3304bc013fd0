//! One visitor of an open link, as a browser without JavaScript makes the visit: the start page, the start, the
//! first page, the two page posts and the thank-you page, each request timed on its own (redirects are not
//! followed). Every form is read from the page that shows it (its action, its hidden fields, its questions), never
//! guessed. Each visitor holds a keep-alive connection of its own and no cookies, and comes from an address of its
//! own in `X-Forwarded-For` (the server trusts its loopback peer as a proxy), as a crowd of people would come.

use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// The steps of a visit, in order.
pub const STEPS: [&str; 6] =
    ["GET start page", "POST start (303)", "GET first page", "POST page 1", "POST page 2 (last)", "GET thank-you"];

/// The longest a request may take before the visit counts as failed.
const TIMEOUT: Duration = Duration::from_secs(60);

/// What the survey says once it is done (`survey_body`'s `thankYouMessage`).
pub const THANKS: &str = "Thank you for your time.";

/// A finished visit: how long each step took, and the visitor's own page (`/r/<token>`).
pub struct Visit {
    pub times: [Duration; 6],
    pub own_page: String,
}

/// A visit that went wrong: at which step, and what was seen.
pub struct Failed {
    pub step: usize,
    pub what: String,
}

/// A form as a page shows it: where it posts, and its fields.
#[derive(Debug, Default)]
struct Form {
    action: String,
    fields: Vec<Field>,
}

#[derive(Debug)]
enum Field {
    Hidden { name: String, value: String },
    Choice { name: String, value: String },
    Check { name: String, value: String },
    Number { name: String },
    Text { name: String },
}

/// The value of the attribute `name` of the tag whose text (after its name) is `tag`, unescaped.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let value = &tag[at..at + tag[at..].find('"')?];
    Some(value.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"))
}

/// The page's one form, or `None` when it shows none (a thank-you page).
fn form(html: &str) -> Option<Form> {
    let start = html.find("<form ")?;
    let end = start + html[start..].find("</form>")?;
    let body = &html[start..end];
    let head = &body[..body.find('>')?];
    let mut form = Form { action: attribute(head, "action")?, fields: Vec::new() };
    let mut rest = body;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        let (kind, attributes) = tag.split_once(' ').unwrap_or((tag, ""));
        let attributes = format!(" {attributes}");
        let Some(name) = attribute(&attributes, "name") else { continue };
        let value = || attribute(&attributes, "value").unwrap_or_default();
        let field = match (kind, attribute(&attributes, "type").as_deref()) {
            ("textarea", _) => Field::Text { name },
            ("input", Some("hidden")) => Field::Hidden { name, value: value() },
            ("input", Some("radio")) => Field::Choice { name, value: value() },
            ("input", Some("checkbox")) => Field::Check { name, value: value() },
            ("input", Some("number")) => Field::Number { name },
            ("input", _) => Field::Text { name },
            _ => continue,
        };
        form.fields.push(field);
    }
    Some(form)
}

/// What visitor `n` fills in: every hidden field as it is, one choice of each group of radio buttons and the first
/// of each group of check boxes (which ones turn with `n`), a number and a sentence.
fn answers(form: &Form, n: usize) -> Vec<(String, String)> {
    let mut filled: Vec<(String, String)> = Vec::new();
    let mut groups: Vec<(&str, Vec<&str>, bool)> = Vec::new();
    for field in &form.fields {
        match field {
            Field::Hidden { name, value } => filled.push((name.clone(), value.clone())),
            Field::Number { name } => filled.push((name.clone(), (n % 90).to_string())),
            Field::Text { name } => filled.push((name.clone(), format!("Visitor {n}: quick, friendly, on time."))),
            Field::Choice { name, value } | Field::Check { name, value } => {
                let check = matches!(field, Field::Check { .. });
                match groups.iter_mut().find(|(group, _, _)| group == name) {
                    Some((_, values, _)) => values.push(value),
                    None => groups.push((name, vec![value], check)),
                }
            }
        }
    }
    for (name, values, check) in groups {
        let chosen = if check { values[0] } else { values[n % values.len()] };
        filled.push((name.to_owned(), chosen.to_owned()));
    }
    filled
}

/// What came back: the status, the `Location` and the body.
struct Response {
    status: u16,
    location: Option<String>,
    body: String,
}

/// Visitor `n`'s connection to the server: one keep-alive HTTP/1.1 connection, as a browser holds one, from an
/// address of its own as its proxy would forward it, without cookies. Written out by hand rather than with reqwest,
/// whose client reads the system's root certificates each time one is made (`rustls-tls-native-roots`, which
/// canvass-server turns on): a client per visitor cost more CPU than the server spent on the visit.
struct Connection {
    stream: BufReader<TcpStream>,
    /// `Host`, `X-Forwarded-For` and the other headers of every request.
    headers: String,
    /// The origin a post's `Origin` names: the server's.
    origin: String,
}

impl Connection {
    async fn open(base: &str, n: usize) -> std::io::Result<Self> {
        let host = base.strip_prefix("http://").unwrap_or(base);
        let stream = TcpStream::connect(host).await?;
        stream.set_nodelay(true)?;
        let address = format!("10.{}.{}.{}", (n >> 16) & 255, (n >> 8) & 255, n & 255);
        let headers =
            format!("Host: {host}\r\nX-Forwarded-For: {address}\r\nUser-Agent: canvass-bench\r\nAccept: text/html\r\n");
        Ok(Self { stream: BufReader::new(stream), headers, origin: base.to_owned() })
    }

    /// `GET path`.
    async fn get(&mut self, path: &str) -> std::io::Result<Response> {
        let request = format!("GET {path} HTTP/1.1\r\n{}\r\n", self.headers);
        self.exchange(request).await
    }

    /// `POST path` of a form with `fields`, from the server's own origin.
    async fn post(&mut self, path: &str, fields: &[(String, String)]) -> std::io::Result<Response> {
        let body: String = fields
            .iter()
            .map(|(name, value)| format!("{}={}", encode(name), encode(value)))
            .collect::<Vec<_>>()
            .join("&");
        let request = format!(
            "POST {path} HTTP/1.1\r\n{}Origin: {}\r\nContent-Type: application/x-www-form-urlencoded\r\n\
             Content-Length: {}\r\n\r\n{body}",
            self.headers,
            self.origin,
            body.len()
        );
        self.exchange(request).await
    }

    /// Sends `request` and reads the whole response: its body by `Content-Length` or in chunks.
    async fn exchange(&mut self, request: String) -> std::io::Result<Response> {
        let invalid = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_owned());
        self.stream.get_mut().write_all(request.as_bytes()).await?;
        let mut line = String::new();
        self.stream.read_line(&mut line).await?;
        let status = line.split_whitespace().nth(1).and_then(|s| s.parse().ok()).ok_or_else(|| invalid(&line))?;
        let (mut length, mut chunked, mut location) = (None, false, None);
        loop {
            line.clear();
            if self.stream.read_line(&mut line).await? == 0 {
                return Err(invalid("the connection closed in the headers"));
            }
            let Some((name, value)) = line.trim_end().split_once(':') else { break };
            let value = value.trim();
            match name.to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse::<usize>().ok(),
                "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
                "location" => location = Some(value.to_owned()),
                _ => {}
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                self.stream.read_line(&mut line).await?;
                let size = usize::from_str_radix(line.trim(), 16).map_err(|_| invalid(&line))?;
                let mut chunk = vec![0; size + 2];
                self.stream.read_exact(&mut chunk).await?;
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        } else {
            body.resize(length.ok_or_else(|| invalid("no Content-Length"))?, 0);
            self.stream.read_exact(&mut body).await?;
        }
        Ok(Response { status, location, body: String::from_utf8_lossy(&body).into_owned() })
    }
}

/// `text` as a form encodes it (`application/x-www-form-urlencoded`).
fn encode(text: &str) -> String {
    let mut encoded = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'*' => encoded.push(byte as char),
            b' ' => encoded.push('+'),
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

/// Visitor `n` of the open link `link` (a path) on the server at `base` (`http://host:port`).
pub async fn visit(base: &str, link: &str, n: usize) -> Result<Visit, Failed> {
    let fail = |step: usize, what: String| Failed { step, what };
    // The connection is the first step's: a new visitor's browser opens it for the start page.
    let connecting = Instant::now();
    let mut connection = Connection::open(base, n).await.map_err(|e| fail(0, format!("connect: {e}")))?;
    let connect = connecting.elapsed();
    let mut times = [Duration::ZERO; 6];
    // One step: the request, timed until its whole body has arrived, that must answer `wanted`.
    let mut step = async |step: usize, wanted: u16, request: Request<'_>| {
        let started = Instant::now();
        let response = match request {
            Request::Get(path) => tokio::time::timeout(TIMEOUT, connection.get(path)).await,
            Request::Post(path, fields) => tokio::time::timeout(TIMEOUT, connection.post(path, &fields)).await,
        };
        let response = response.map_err(|_| fail(step, "no answer within 60 s".into()))?;
        let response = response.map_err(|e| fail(step, e.to_string()))?;
        times[step] = started.elapsed();
        if response.status != wanted {
            let body: String = response.body.chars().take(300).collect();
            return Err(fail(step, format!("{} (not {wanted}): {body}", response.status)));
        }
        Ok(response)
    };
    let body = |response: &Response| response.body.chars().take(300).collect::<String>();

    let start = step(0, 200, Request::Get(link)).await?;
    let start = form(&start.body).ok_or_else(|| fail(0, "no start form".into()))?;

    let started = step(1, 303, Request::Post(&start.action, answers(&start, n))).await?;
    let own_page =
        started.location.filter(|l| l.starts_with("/r/")).ok_or_else(|| fail(1, "no Location /r/...".into()))?;

    let first_page = step(2, 200, Request::Get(&own_page)).await?;
    let first = form(&first_page.body).ok_or_else(|| fail(2, "no form on the first page".into()))?;

    let second_page = step(3, 200, Request::Post(&first.action, answers(&first, n))).await?;
    let second = form(&second_page.body).ok_or_else(|| fail(3, "no form on the second page".into()))?;
    let page = |form: &Form| {
        form.fields.iter().find_map(|f| match f {
            Field::Hidden { name, value } if name == "page" => Some(value.clone()),
            _ => None,
        })
    };
    if page(&second).is_none() || page(&second) == page(&first) {
        return Err(fail(3, format!("page 1 shown again: {}", body(&second_page))));
    }

    let done = step(4, 200, Request::Post(&second.action, answers(&second, n))).await?;
    if !done.body.contains(THANKS) || form(&done.body).is_some() {
        return Err(fail(4, format!("not the thank-you page: {}", body(&done))));
    }

    let again = step(5, 200, Request::Get(&own_page)).await?;
    if !again.body.contains(THANKS) || form(&again.body).is_some() {
        return Err(fail(5, format!("not the thank-you page: {}", body(&again))));
    }
    times[0] += connect;
    Ok(Visit { times, own_page })
}

/// One request of a visit.
enum Request<'a> {
    Get(&'a str),
    Post(&'a str, Vec<(String, String)>),
}
