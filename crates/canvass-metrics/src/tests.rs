//! The registry: every family exported with its type, the fixed series present from the start, counts landing on
//! their labels.

use std::time::Duration;

use canvass_domain::ports::Connections;
use canvass_domain::use_cases::delivery::{ChannelCounts, DeliveryReport};
use canvass_domain::use_cases::monitoring::Backlog;
use canvass_domain::use_cases::webhooks::WebhookReport;

use super::{scrape_authorized, Metrics, Scrape};

fn scrape() -> Scrape {
    Scrape {
        backlog: Some(Backlog { pending: 3, held: 2, oldest_due_age: time::Duration::seconds(42) }),
        connections: Some(Connections { idle: 2, in_use: 1 }),
    }
}

#[test]
fn every_family_is_exported_with_its_type() {
    let metrics = Metrics::new();
    metrics.observe_request("GET", "/health/live", "200", Duration::from_millis(3));
    let text = metrics.render(scrape()).unwrap();
    for (family, kind) in [
        ("canvass_http_requests_total", "counter"),
        ("canvass_http_request_duration_seconds", "histogram"),
        ("canvass_outbox_pending", "gauge"),
        ("canvass_outbox_oldest_due_age_seconds", "gauge"),
        ("canvass_delivery_messages_total", "counter"),
        ("canvass_retention_respondents_removed_total", "counter"),
        ("canvass_retention_runs_total", "counter"),
        ("canvass_db_pool_connections", "gauge"),
        ("canvass_outbox_held", "gauge"),
        ("canvass_relay_up", "gauge"),
        ("canvass_limits_backend_up", "gauge"),
        ("canvass_delivery_pace_per_second", "gauge"),
        ("canvass_webhook_deliveries_total", "counter"),
        ("canvass_streamed_chunks_total", "counter"),
        ("canvass_streamed_idle_closed_total", "counter"),
        ("canvass_export_temp_bytes", "gauge"),
    ] {
        assert!(text.contains(&format!("# TYPE {family} {kind}\n")), "{family} {kind}:\n{text}");
    }
    assert!(text.contains("canvass_outbox_pending 3\n"), "{text}");
    assert!(text.contains("canvass_outbox_oldest_due_age_seconds 42\n"), "{text}");
    assert!(text.contains("canvass_outbox_held 2\n"), "{text}");
    assert!(text.contains("canvass_relay_up 1\n"), "no session has failed yet: {text}");
    assert!(text.contains("canvass_limits_backend_up 1\n"), "{text}");
    metrics.set_limits_backend_up(false);
    assert!(metrics.render(scrape()).unwrap().contains("canvass_limits_backend_up 0\n"));
    assert!(text.contains("canvass_delivery_pace_per_second inf\n"), "nothing limits the pace: {text}");
    assert!(text.contains("canvass_db_pool_connections{state=\"in_use\"} 1\n"), "{text}");
    assert!(text.contains("canvass_db_pool_connections{state=\"idle\"} 2\n"), "{text}");
    assert!(text.contains("canvass_delivery_messages_total{channel=\"sms\",outcome=\"bounced\"} 0\n"), "{text}");
    assert!(text.contains("canvass_retention_runs_total{outcome=\"failed\"} 0\n"), "{text}");
    assert!(text.contains("canvass_webhook_deliveries_total{outcome=\"retried\"} 0\n"), "{text}");
}

#[test]
fn webhook_attempts_count_per_outcome() {
    let metrics = Metrics::new();
    metrics.count_webhook_attempts(&WebhookReport { claimed: 4, delivered: 2, retried: 1, failed: 1 });
    metrics.count_webhook_attempts(&WebhookReport { claimed: 1, delivered: 0, retried: 1, failed: 0 });
    let text = metrics.render(scrape()).unwrap();
    for (outcome, count) in [("delivered", 2), ("retried", 2), ("failed", 1)] {
        let series = format!("canvass_webhook_deliveries_total{{outcome=\"{outcome}\"}} {count}\n");
        assert!(text.contains(&series), "{series}{text}");
    }
}

#[test]
fn requests_are_counted_by_method_route_and_status() {
    let metrics = Metrics::new();
    for _ in 0..2 {
        metrics.observe_request("GET", "/api/v1/surveys/{surveyId}", "404", Duration::from_millis(2));
    }
    let text = metrics.render(scrape()).unwrap();
    let series = "canvass_http_requests_total{method=\"GET\",route=\"/api/v1/surveys/{surveyId}\",status=\"404\"} 2";
    assert!(text.contains(series), "{text}");
    assert!(text.contains("canvass_http_request_duration_seconds_count{route=\"/api/v1/surveys/{surveyId}\"} 2"));
}

#[test]
fn deliveries_count_per_channel_and_outcome() {
    let metrics = Metrics::new();
    let report = DeliveryReport {
        email: ChannelCounts { sent: 3, bounced: 1, ..ChannelCounts::default() },
        sms: ChannelCounts { retried: 2, cancelled: 1, ..ChannelCounts::default() },
        ..DeliveryReport::default()
    };
    metrics.count_delivery(&report);
    metrics.count_delivery(&report);
    let text = metrics.render(scrape()).unwrap();
    for (channel, outcome, count) in [
        ("email", "sent", 6),
        ("email", "bounced", 2),
        ("email", "retried", 0),
        ("sms", "retried", 4),
        ("sms", "cancelled", 2),
    ] {
        let series =
            format!("canvass_delivery_messages_total{{channel=\"{channel}\",outcome=\"{outcome}\"}} {count}\n");
        assert!(text.contains(&series), "{series}in\n{text}");
    }
}

#[test]
fn retention_runs_count_their_outcome_and_what_they_removed() {
    let metrics = Metrics::new();
    metrics.count_retention_run(Ok(5));
    metrics.count_retention_run(Err(2));
    metrics.count_retention_run(Ok(0));
    let text = metrics.render(scrape()).unwrap();
    assert!(text.contains("canvass_retention_respondents_removed_total 7\n"), "{text}");
    assert!(text.contains("canvass_retention_runs_total{outcome=\"ok\"} 2\n"), "{text}");
    assert!(text.contains("canvass_retention_runs_total{outcome=\"failed\"} 1\n"), "{text}");
}

#[test]
fn without_a_backlog_the_outbox_gauges_are_left_out_rather_than_stale() {
    let metrics = Metrics::new();
    assert!(metrics.render(scrape()).unwrap().contains("canvass_outbox_pending 3"));
    let text = metrics.render(Scrape { backlog: None, connections: None }).unwrap();
    assert!(!text.contains("canvass_outbox_"), "{text}");
    assert!(text.contains("canvass_db_pool_connections{state=\"idle\"} 0\n"), "a store without a pool shows none");
}

#[test]
fn two_registries_count_apart() {
    let (one, other) = (Metrics::new(), Metrics::new());
    one.count_retention_run(Ok(1));
    assert!(other.render(scrape()).unwrap().contains("canvass_retention_respondents_removed_total 0\n"));
}

#[test]
fn the_relay_state_and_the_pace_follow_the_last_round_that_saw_them() {
    let metrics = Metrics::new();
    metrics.count_delivery(&DeliveryReport { relay_up: Some(false), pace_per_second: Some(7.0), ..Default::default() });
    metrics.count_delivery(&DeliveryReport::default());
    let text = metrics.render(scrape()).unwrap();
    assert!(text.contains("canvass_relay_up 0\n"), "{text}");
    assert!(text.contains("canvass_delivery_pace_per_second 7\n"), "{text}");
    metrics.count_delivery(&DeliveryReport { relay_up: Some(true), ..Default::default() });
    assert!(metrics.render(scrape()).unwrap().contains("canvass_relay_up 1\n"));
}

#[test]
fn without_a_token_anyone_may_scrape() {
    assert!(scrape_authorized(None, None));
    assert!(scrape_authorized(Some("Bearer whatever"), None));
}

#[test]
fn with_a_token_only_its_bearer_may_scrape() {
    let token = Some("s3cret-token");
    assert!(scrape_authorized(Some("Bearer s3cret-token"), token));
    assert!(scrape_authorized(Some("bearer  s3cret-token "), token), "the scheme in any case");
    assert!(!scrape_authorized(None, token), "none");
    assert!(!scrape_authorized(Some("Bearer s3cret"), token), "a prefix");
    assert!(!scrape_authorized(Some("Bearer s3cret-token2"), token), "a longer one");
    assert!(!scrape_authorized(Some("Basic s3cret-token"), token), "another scheme");
    assert!(!scrape_authorized(Some("s3cret-token"), token), "no scheme");
    assert!(!scrape_authorized(Some("Bearer "), token), "empty");
}
