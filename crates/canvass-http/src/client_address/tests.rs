//! The hard cases of reading a client address behind proxies.

use super::*;
use actix_web::http::header::{HeaderName, HeaderValue};

const CLIENT: &str = "203.0.113.7";
const PROXY: &str = "10.0.0.5";

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.append(HeaderName::from_static(name), HeaderValue::from_static(value));
    }
    map
}

fn behind(trusted: &str, peer: &str, pairs: &[(&'static str, &'static str)]) -> IpAddr {
    let trusted: TrustedProxies = trusted.parse().unwrap();
    trusted.client_address(ip(peer), &headers(pairs))
}

#[test]
fn the_setting_takes_addresses_and_ranges_and_names_what_it_cannot_read() {
    let trusted: TrustedProxies = " 10.0.0.0/8, 192.0.2.1 ,, 2001:db8::/32,::1".parse().unwrap();
    for inside in ["10.200.1.1", "192.0.2.1", "2001:db8::5", "::1", "::ffff:10.1.2.3"] {
        assert!(trusted.contains(ip(inside)), "{inside}");
    }
    for outside in ["11.0.0.1", "192.0.2.2", "2001:db9::1", "127.0.0.1"] {
        assert!(!trusted.contains(ip(outside)), "{outside}");
    }
    assert_eq!("10.0.0.0/8, proxy.example".parse::<TrustedProxies>(), Err(NotAProxy("proxy.example".into())));
    assert_eq!("10.0.0.0/33".parse::<TrustedProxies>(), Err(NotAProxy("10.0.0.0/33".into())));
    assert!("".parse::<TrustedProxies>().is_ok_and(|none| none.is_empty()));
    let loopback = TrustedProxies::loopback();
    assert!(loopback.contains(ip("127.0.0.1")) && loopback.contains(ip("127.8.9.10")) && loopback.contains(ip("::1")));
    assert!(!loopback.contains(ip("10.0.0.1")));
}

#[test]
fn an_untrusted_peer_is_the_client_whatever_its_headers_say() {
    let forged = [("x-forwarded-for", "198.51.100.1"), ("forwarded", "for=198.51.100.2")];
    assert_eq!(behind("", CLIENT, &forged), ip(CLIENT), "no proxy is trusted");
    assert_eq!(behind(PROXY, CLIENT, &forged), ip(CLIENT), "the peer is not the trusted proxy");
}

#[test]
fn entries_a_client_wrote_before_the_proxy_appended_are_never_believed() {
    // nginx's `$proxy_add_x_forwarded_for`: what the client sent, then the address nginx saw.
    let walked = [("x-forwarded-for", "198.51.100.99, 203.0.113.7")];
    assert_eq!(behind(PROXY, PROXY, &walked), ip(CLIENT));
    let garbage_first = [("x-forwarded-for", "not an address, , 203.0.113.7")];
    assert_eq!(behind(PROXY, PROXY, &garbage_first), ip(CLIENT), "garbage left of the client's entry is not read");
}

#[test]
fn several_headers_read_as_one_list_in_their_order() {
    let split = [("x-forwarded-for", "198.51.100.99"), ("x-forwarded-for", "203.0.113.7, 10.0.0.9")];
    assert_eq!(behind("10.0.0.0/8", PROXY, &split), ip(CLIENT));
    let forwarded = [("forwarded", "for=198.51.100.99"), ("forwarded", "for=203.0.113.7;proto=https, for=10.0.0.9")];
    assert_eq!(behind("10.0.0.0/8", PROXY, &forwarded), ip(CLIENT));
}

#[test]
fn forwarded_reads_quoted_ipv6_with_ports_and_any_case() {
    let v6 = [("forwarded", r#"For="[2001:db8:cafe::17]:4711";proto=https"#)];
    assert_eq!(behind(PROXY, PROXY, &v6), ip("2001:db8:cafe::17"));
    let v4_port = [("forwarded", r#"for="203.0.113.7:8080";by=10.0.0.5"#)];
    assert_eq!(behind(PROXY, PROXY, &v4_port), ip(CLIENT));
    let xff_forms = [("x-forwarded-for", "[2001:db8::9]:443")];
    assert_eq!(behind(PROXY, PROXY, &xff_forms), ip("2001:db8::9"));
    let mapped = [("x-forwarded-for", "::ffff:203.0.113.7")];
    assert_eq!(behind(PROXY, PROXY, &mapped), ip(CLIENT), "an IPv4-mapped address is its IPv4 address");
}

#[test]
fn an_unreadable_entry_stops_the_walk_at_the_proxy_that_wrote_it() {
    let unknown = [("forwarded", "for=198.51.100.99, for=unknown")];
    assert_eq!(behind(PROXY, PROXY, &unknown), ip(PROXY), "what lies left of `unknown` is no one's word");
    let obfuscated = [("forwarded", "for=198.51.100.99, for=_hidden, for=10.0.0.9")];
    assert_eq!(behind("10.0.0.0/8", PROXY, &obfuscated), ip("10.0.0.9"));
    let garbage = [("x-forwarded-for", "198.51.100.99, garbage")];
    assert_eq!(behind(PROXY, PROXY, &garbage), ip(PROXY));
    let no_for = [("forwarded", "for=198.51.100.99, proto=https")];
    assert_eq!(behind(PROXY, PROXY, &no_for), ip(PROXY));
}

#[test]
fn an_all_trusted_chain_names_its_farthest_hop_and_no_header_names_the_peer() {
    let internal = [("x-forwarded-for", "10.1.1.1, 10.2.2.2")];
    assert_eq!(behind("10.0.0.0/8", PROXY, &internal), ip("10.1.1.1"));
    assert_eq!(behind(PROXY, PROXY, &[]), ip(PROXY), "a trusted peer that forwarded nothing");
}

#[test]
fn x_forwarded_for_wins_over_a_forwarded_header_a_client_wrote_itself() {
    // Behind nginx, which appends to X-Forwarded-For and passes a client's own Forwarded header through.
    let both = [("forwarded", "for=198.51.100.99"), ("x-forwarded-for", "203.0.113.7")];
    assert_eq!(behind(PROXY, PROXY, &both), ip(CLIENT));
}
