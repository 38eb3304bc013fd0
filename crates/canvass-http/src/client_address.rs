//! The address a request came from, for the per-address limits: the socket's peer, unless that peer is a trusted
//! proxy (`TRUSTED_PROXIES`); then the nearest address the proxies recorded that is not itself a trusted proxy.

mod hops;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;
use std::sync::Arc;

use actix_web::http::header::HeaderMap;
use ipnet::{IpNet, Ipv4Net, Ipv6Net};

use hops::Hop;

/// The proxies whose forwarding headers are believed: addresses and CIDR ranges. Empty: none (the default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Arc<[IpNet]>);

impl TrustedProxies {
    /// Loopback peers only (`127.0.0.0/8` and `::1`): what `TRUST_FORWARDED_FOR=true` stands for.
    pub fn loopback() -> Self {
        Self::from_iter([
            IpNet::V4(Ipv4Net::new_assert(Ipv4Addr::new(127, 0, 0, 0), 8)),
            IpNet::V6(Ipv6Net::new_assert(Ipv6Addr::LOCALHOST, 128)),
        ])
    }

    /// These proxies and those of `other`.
    #[must_use]
    pub fn and(&self, other: &Self) -> Self {
        Self::from_iter(self.0.iter().chain(other.0.iter()).copied())
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether `address` is one of the trusted proxies.
    pub fn contains(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.0.iter().any(|net| net.contains(&address))
    }

    /// The client address of a request from `peer` with these `headers`: see the module documentation. Reading
    /// from the right, the entries trusted proxies appended are stepped over; the first other address is the
    /// client's. An entry that is no address (`unknown`, an obfuscated name, garbage) ends the walk at the proxy
    /// that wrote it, for whatever lies left of it was written by someone no trusted proxy vouches for. When every
    /// entry is a trusted proxy, the farthest one is the client.
    pub fn client_address(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut nearest = peer.to_canonical();
        if !self.contains(nearest) {
            return nearest;
        }
        for hop in hops::from_the_right(headers) {
            match hop {
                Hop::Address(address) if self.contains(address) => nearest = address,
                Hop::Address(address) => return address,
                Hop::Unreadable => return nearest,
            }
        }
        nearest
    }
}

impl FromIterator<IpNet> for TrustedProxies {
    fn from_iter<T: IntoIterator<Item = IpNet>>(iter: T) -> Self {
        Self(iter.into_iter().collect())
    }
}

/// A `TRUSTED_PROXIES` entry that is neither an address nor a CIDR range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is neither an IP address nor a CIDR range (such as 10.0.0.0/8 or 2001:db8::/32)")]
pub struct NotAProxy(String);

impl FromStr for TrustedProxies {
    type Err = NotAProxy;

    /// Comma-separated addresses and CIDR ranges; blanks between commas are ignored.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(|address| IpNet::from(address.to_canonical())))
                    .map_err(|_| NotAProxy(entry.to_owned()))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
