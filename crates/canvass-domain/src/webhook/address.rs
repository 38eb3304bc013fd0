//! Which addresses a webhook may reach: none in a private, loopback, link-local or otherwise non-public range
//! (unless an operator allows them), so that a webhook URL cannot make the service call into its own network.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Whether `address` is one a webhook must not reach: unspecified (`0.0.0.0`, `::`), loopback, private
/// (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16, fe80::/10), shared (100.64/10), "this network"
/// (0/8), benchmarking (198.18/15), documentation, multicast, broadcast and reserved (240/4) ranges; an IPv6 address
/// that carries an IPv4 one (mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) is judged by that;
/// the tunnels and translations that reach IPv4 without saying where plainly (IPv4-translated `::ffff:0:0:0/96` of
/// SIIT, Teredo `2001::/32`, local-use NAT64 `64:ff9b:1::/48`) are refused whole.
pub fn is_forbidden(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_forbidden_v4(v4),
        IpAddr::V6(v6) => is_forbidden_v6(v6),
    }
}

fn is_forbidden_v4(address: Ipv4Addr) -> bool {
    let [a, b, c, _] = address.octets();
    address.is_unspecified()
        || address.is_loopback()
        || address.is_private()
        || address.is_link_local()
        || address.is_broadcast()
        || address.is_multicast()
        || address.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240
}

fn is_forbidden_v6(address: Ipv6Addr) -> bool {
    if let Some(v4) = address.to_ipv4_mapped() {
        return is_forbidden_v4(v4);
    }
    let segments = address.segments();
    let embedded = |high: u16, low: u16| Ipv4Addr::new((high >> 8) as u8, high as u8, (low >> 8) as u8, low as u8);
    // NAT64 (64:ff9b::/96) carries the IPv4 address in its last 32 bits, 6to4 (2002::/16) in bits 16 to 48.
    if segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return is_forbidden_v4(embedded(segments[6], segments[7]));
    }
    if segments[0] == 0x2002 {
        return is_forbidden_v4(embedded(segments[1], segments[2]));
    }
    // IPv4-compatible (::a.b.c.d, deprecated) addresses are never public.
    address.is_unspecified()
        || address.is_loopback()
        || address.is_multicast()
        || segments[..6] == [0, 0, 0, 0, 0, 0]
        || (segments[0] & 0xfe00) == 0xfc00
        || (segments[0] & 0xffc0) == 0xfe80
        || (segments[0] & 0xffc0) == 0xfec0
        || (segments[0] == 0x2001 && segments[1] == 0x0db8)
        || (segments[0] == 0x0100 && segments[1..4] == [0, 0, 0])
        || segments[..6] == [0, 0, 0, 0, 0xffff, 0]
        || (segments[0] == 0x2001 && segments[1] == 0)
        || segments[..3] == [0x64, 0xff9b, 1]
}

/// Whether a host name names the machine itself (`localhost` and names under `.localhost`, RFC 6761).
pub fn is_local_name(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn forbidden(text: &str) -> bool {
        is_forbidden(text.parse().unwrap())
    }

    #[test]
    fn private_loopback_and_link_local_v4_are_forbidden() {
        for address in [
            "0.0.0.0",
            "0.1.2.3",
            "127.0.0.1",
            "127.255.255.254",
            "10.0.0.1",
            "10.255.255.255",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "100.127.255.255",
            "192.0.0.8",
            "198.18.0.1",
            "198.19.255.255",
            "192.0.2.1",
            "198.51.100.1",
            "203.0.113.1",
            "224.0.0.1",
            "240.0.0.1",
            "255.255.255.255",
        ] {
            assert!(forbidden(address), "{address} is forbidden");
        }
    }

    #[test]
    fn public_v4_is_allowed_right_beside_the_ranges() {
        for address in [
            "8.8.8.8",
            "1.1.1.1",
            "172.15.255.255",
            "172.32.0.1",
            "100.63.255.255",
            "100.128.0.1",
            "169.253.0.1",
            "198.17.255.255",
            "198.20.0.1",
            "11.0.0.1",
            "192.169.0.1",
            "93.184.216.34",
        ] {
            assert!(!forbidden(address), "{address} is public");
        }
    }

    #[test]
    fn private_loopback_and_link_local_v6_are_forbidden() {
        for address in [
            "::",
            "::1",
            "fc00::1",
            "fd12:3456:789a::1",
            "fdff:ffff::1",
            "fe80::1",
            "febf::1",
            "fec0::1",
            "ff02::1",
            "2001:db8::1",
            "100::1",
            "::ffff:127.0.0.1",
            "::ffff:10.1.2.3",
            "::ffff:169.254.169.254",
            "::ffff:192.168.0.1",
            "::ffff:0.0.0.0",
            "::127.0.0.1",
            "64:ff9b::10.0.0.1",
            "64:ff9b::7f00:1",
            "2002:7f00:1::1",
            "2002:a9fe:a9fe::1",
            "::ffff:0:7f00:1",
            "::ffff:0:808:808",
            "2001::1",
            "2001:0:4136:e378:8000:63bf:3fff:fdd2",
            "64:ff9b:1::a00:1",
        ] {
            assert!(forbidden(address), "{address} is forbidden");
        }
    }

    #[test]
    fn public_v6_is_allowed() {
        for address in [
            "2606:4700:4700::1111",
            "2001:4860:4860::8888",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "fbff::1",
            "fe7f::1",
            "2001:1::1",
            "2001:4860::1",
            "64:ff9b:2::1",
        ] {
            assert!(!forbidden(address), "{address} is public");
        }
    }

    #[test]
    fn localhost_names_are_local() {
        for name in ["localhost", "LOCALHOST", "localhost.", "api.localhost", "a.b.localhost"] {
            assert!(is_local_name(name), "{name}");
        }
        for name in ["localhost.example.com", "example.com", "mylocalhost"] {
            assert!(!is_local_name(name), "{name}");
        }
    }
}
