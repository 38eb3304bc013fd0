//! The hops proxies recorded in a request's headers: `X-Forwarded-For` when a request carries one (what nginx,
//! cloud load balancers and CDNs append to), otherwise the `for=` of each `Forwarded` element (RFC 7239). Several
//! headers of one name read as one list, in the order they came.

use std::net::{IpAddr, SocketAddr};

use actix_web::http::header::{HeaderMap, HeaderName, FORWARDED};

/// One entry a proxy recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hop {
    /// The address of the client the proxy saw.
    Address(IpAddr),
    /// No address: `unknown`, an obfuscated name, a missing `for=`, or text that is not an address.
    Unreadable,
}

/// `X-Forwarded-For`, which `actix_web::http::header` does not name.
const X_FORWARDED_FOR: HeaderName = HeaderName::from_static("x-forwarded-for");

/// The recorded hops, nearest (rightmost) first; empty entries of a list are skipped, as HTTP lists allow them.
pub fn from_the_right(headers: &HeaderMap) -> impl Iterator<Item = Hop> {
    let hops: Vec<Hop> = if headers.contains_key(X_FORWARDED_FOR) {
        entries(headers, &X_FORWARDED_FOR).map(|entry| entry.map_or(Hop::Unreadable, forwarded_for_entry)).collect()
    } else {
        entries(headers, &FORWARDED).map(|entry| entry.map_or(Hop::Unreadable, forwarded_element)).collect()
    };
    hops.into_iter().rev()
}

/// The non-empty comma-separated entries of every header `name`, in order; `None` for a header that is not text.
fn entries<'a>(headers: &'a HeaderMap, name: &HeaderName) -> impl Iterator<Item = Option<&'a str>> {
    headers.get_all(name).flat_map(|value| match value.to_str() {
        Ok(text) => text.split(',').map(str::trim).filter(|entry| !entry.is_empty()).map(Some).collect(),
        Err(_) => vec![None],
    })
}

/// An `X-Forwarded-For` entry: `192.0.2.1`, `192.0.2.1:443`, `2001:db8::1` or `[2001:db8::1]:443`.
fn forwarded_for_entry(entry: &str) -> Hop {
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|socket| socket.ip()))
        .or_else(|| entry.strip_prefix('[').and_then(|rest| rest.strip_suffix(']')).and_then(|ip| ip.parse().ok()))
        .map_or(Hop::Unreadable, |address: IpAddr| Hop::Address(address.to_canonical()))
}

/// One `Forwarded` element, such as `for=192.0.2.60;proto=https` or `for="[2001:db8:cafe::17]:4711"`.
fn forwarded_element(element: &str) -> Hop {
    let parsed = rfc7239::parse(element).next().and_then(Result::ok);
    match parsed.and_then(|element| element.forwarded_for).as_ref().and_then(|node| node.ip().copied()) {
        Some(address) => Hop::Address(address.to_canonical()),
        None => Hop::Unreadable,
    }
}
