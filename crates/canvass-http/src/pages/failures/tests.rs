//! The failure windows: counting, budgets, clients by address and /64, and the weight bound.

use super::*;

fn failures() -> Failures {
    Failures::new(
        FailureWindow { allowed: 3, window: Duration::from_secs(60) },
        FailureWindow { allowed: 2, window: Duration::from_secs(600) },
    )
}

fn login(id: i64) -> Scope {
    Scope::Login(SendoutId::new(id))
}

#[test]
fn more_than_the_allowed_failures_block_until_the_window_passes() {
    let failures = failures();
    let address: IpAddr = [192, 0, 2, 1].into();
    let start = Instant::now();
    for second in 0..4 {
        assert_eq!(failures.blocked_for(address, Scope::Tokens, start + Duration::from_secs(second)), None);
        failures.record(address, Scope::Tokens, None, start + Duration::from_secs(second));
    }
    let later = start + Duration::from_secs(10);
    assert_eq!(failures.blocked_for(address, Scope::Tokens, later), Some(Duration::from_secs(50)));
    assert_eq!(failures.blocked_for(address, Scope::Tokens, start + Duration::from_secs(60)), None);
    assert_eq!(failures.blocked_for([192, 0, 2, 2].into(), Scope::Tokens, later), None, "another address");
    assert_eq!(failures.blocked_for(address, login(1), later), None, "another scope");
}

#[test]
fn logins_count_per_sendout() {
    let failures = failures();
    let address: IpAddr = [192, 0, 2, 1].into();
    let now = Instant::now();
    for _ in 0..3 {
        failures.record(address, login(7), None, now);
    }
    assert!(failures.blocked_for(address, login(7), now).is_some());
    assert!(failures.blocked_for(address, login(8), now).is_none());
    assert!(failures.blocked_for(address, Scope::UnknownSendouts, now).is_none());
}

#[test]
fn a_login_page_budget_is_the_one_its_page_last_gave() {
    let failures = failures();
    let address: IpAddr = [192, 0, 2, 1].into();
    let office = login(9);
    let now = Instant::now();
    for _ in 0..5 {
        failures.record(address, office, Some(5), now);
    }
    assert_eq!(failures.blocked_for(address, office, now), None, "five of a budget of five");
    failures.record(address, office, Some(5), now);
    assert!(failures.blocked_for(address, office, now).is_some(), "the sixth");
    failures.record(address, office, Some(8), now);
    assert_eq!(failures.blocked_for(address, office, now), None, "the sendout grew: seven of eight");
}

#[test]
fn the_addresses_of_one_ipv6_64_are_one_client() {
    let failures = failures();
    let now = Instant::now();
    for host in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:8000::9", "2001:db8:1:2:ffff:ffff:ffff:fffe"] {
        failures.record(host.parse().unwrap(), Scope::Tokens, None, now);
    }
    let neighbour: IpAddr = "2001:db8:1:2:ffff::1".parse().unwrap();
    assert!(failures.blocked_for(neighbour, Scope::Tokens, now).is_some(), "the /64 guessed four times");
    let elsewhere: IpAddr = "2001:db8:1:3::1".parse().unwrap();
    assert_eq!(failures.blocked_for(elsewhere, Scope::Tokens, now), None, "the next /64 is another client");
}

#[test]
fn an_ipv4_mapped_address_is_its_ipv4_client() {
    let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
    assert_eq!(Client::of(mapped), Client::of([192, 0, 2, 7].into()));
    assert_ne!(Client::of([192, 0, 2, 7].into()), Client::of([192, 0, 2, 8].into()), "IPv4 by address");
}

#[test]
fn the_logs_together_never_weigh_more_than_the_bound() {
    let bound = 64 * 1024;
    let failures = Failures::weighing(
        FailureWindow { allowed: 30, window: Duration::from_secs(60) },
        FailureWindow { allowed: 10, window: Duration::from_secs(600) },
        bound,
    );
    let now = Instant::now();
    for client in 0..5_000u32 {
        let address = IpAddr::from(client.to_be_bytes());
        failures.record(address, Scope::Tokens, None, now);
        failures.record(address, login(i64::from(client)), Some(10_000), now);
    }
    let (entries, bytes) = failures.kept();
    assert!(bytes <= bound, "{bytes} bytes kept");
    assert!(entries > 0 && entries < 5_000, "{entries} logs kept");
}

#[test]
fn a_log_weighs_what_its_budget_lets_it_grow_to() {
    let log = |allowed| Log { allowed: AtomicU32::new(allowed), at: Mutex::new(VecDeque::new()) };
    let instant = std::mem::size_of::<Instant>() as u32;
    assert_eq!(log(10).weight(), ENTRY_BYTES as u32 + 16 * instant);
    assert_eq!(log(10_010).weight(), ENTRY_BYTES as u32 + 16_384 * instant);
    assert_eq!(log(u32::MAX).weight(), u32::MAX, "saturates");
}
