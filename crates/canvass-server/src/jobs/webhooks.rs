//! Webhook delivery: the HTTP client that POSTs signed events (reqwest, with a timeout, no redirects, and a
//! resolver that refuses private, loopback and link-local addresses), and the worker thread that runs the
//! domain's webhook rounds beside the delivery worker, in `canvass serve` and in `canvass worker`.

use std::error::Error as _;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

use canvass_domain::clock::SystemClock;
use canvass_domain::use_cases::webhooks;
use canvass_domain::webhook::{address, check_url, AttemptResult, WebhookRequest, WebhookSender};
use canvass_domain::Chain;
use canvass_metrics::Metrics;
use canvass_postgres::PgStore;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// How long one attempt may take, connection included.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// Why a host was not connected to.
#[derive(Debug)]
struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "refused: {} resolves to a private, loopback or link-local address", self.0)
    }
}

impl std::error::Error for Refused {}

/// Resolves host names and refuses the lot when any address is forbidden ([`address::is_forbidden`]). The client
/// connects only to the addresses this returned, so a name cannot be checked on one address and reached on
/// another (DNS rebinding).
struct GuardedResolver;

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> = tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if found.iter().any(|found| address::is_forbidden(found.ip())) {
                return Err(Box::new(Refused(host)) as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(found.into_iter()) as Addrs)
        })
    }
}

/// POSTs webhook requests with reqwest on a runtime of its own (so call it from a plain thread, not from async
/// code): several at once, each cut off after [`TIMEOUT`], redirects not followed.
pub struct HttpWebhookSender {
    client: reqwest::Client,
    runtime: tokio::runtime::Runtime,
    allow_private: bool,
}

impl HttpWebhookSender {
    /// A sender; `allow_private` (`WEBHOOK_ALLOW_PRIVATE`) lets it reach private, loopback and link-local addresses.
    pub fn new(allow_private: bool) -> anyhow::Result<Self> {
        let mut builder = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .connect_timeout(TIMEOUT)
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("Canvass-Webhooks/", env!("CARGO_PKG_VERSION")));
        if !allow_private {
            builder = builder.dns_resolver(std::sync::Arc::new(GuardedResolver));
        }
        let client = builder.build()?;
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
        Ok(Self { client, runtime, allow_private })
    }

    async fn send(&self, request: &WebhookRequest) -> AttemptResult {
        // An address literal is never resolved: it is judged here, as when the webhook was created.
        if let Err(why) = check_url(&request.url, self.allow_private) {
            return AttemptResult::NotReached(format!("refused: the URL {why}"));
        }
        let sent = self
            .client
            .post(&request.url)
            .header("content-type", "application/json")
            .header("webhook-id", &request.message_id)
            .header("webhook-timestamp", request.timestamp.to_string())
            .header("webhook-signature", &request.signature)
            .body(request.body.clone())
            .send()
            .await;
        match sent {
            Ok(response) => AttemptResult::Answered(response.status().as_u16()),
            Err(error) => AttemptResult::NotReached(describe(error)),
        }
    }
}

/// What went wrong, without the URL (its query may carry the receiver's token): the refusal of a private
/// address when that is the cause, else the error and its causes.
fn describe(error: reqwest::Error) -> String {
    let error = error.without_url();
    let mut source = error.source();
    let mut causes = vec![error.to_string()];
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref::<Refused>() {
            return refused.to_string();
        }
        causes.push(cause.to_string());
        source = cause.source();
    }
    if error.is_timeout() {
        return format!("timed out after {} s", TIMEOUT.as_secs());
    }
    causes.join(": ")
}

impl WebhookSender for HttpWebhookSender {
    fn send_all(&self, requests: &[WebhookRequest]) -> Vec<AttemptResult> {
        self.runtime.block_on(futures_util::future::join_all(requests.iter().map(|request| self.send(request))))
    }
}

/// Runs webhook rounds until `stop` is set: back to back while they come back full, then again after `poll`.
/// `wake` cuts the pause short when its sender is dropped. Each recorded round's attempts are counted in `metrics`
/// when given.
pub(crate) fn run(
    store: &PgStore,
    sender: &HttpWebhookSender,
    poll: Duration,
    metrics: Option<&Metrics>,
    stop: &AtomicBool,
    wake: &Receiver<()>,
) {
    let stopping = || stop.load(Ordering::SeqCst);
    let count = |report: &webhooks::WebhookReport| {
        if let Some(metrics) = metrics {
            metrics.count_webhook_attempts(report);
        }
    };
    while !stopping() {
        match webhooks::deliver_all_due_observed(store, sender, &SystemClock, &stopping, &count) {
            Ok(report) if report.claimed > 0 => tracing::info!(
                webhooks.claimed = report.claimed,
                webhooks.delivered = report.delivered,
                webhooks.retried = report.retried,
                webhooks.failed = report.failed,
                "webhook rounds"
            ),
            Ok(_) => {}
            Err(error) => tracing::error!(error.message = %Chain(&error), "webhook round failed"),
        }
        if !matches!(wake.recv_timeout(poll), Err(RecvTimeoutError::Timeout)) {
            break;
        }
    }
    tracing::info!("webhook worker stopped");
}

/// Starts the webhook worker on a thread of its own, counting its attempts in `metrics` if given; stopping it lets
/// the round on the network finish and be recorded.
pub fn spawn(
    store: PgStore,
    allow_private: bool,
    poll: Duration,
    metrics: Option<Arc<Metrics>>,
) -> anyhow::Result<super::delivery::Worker> {
    Ok(super::delivery::Worker::start("webhooks", move |stop, wake| {
        // The sender owns a runtime: it is made and dropped on this thread, never inside async code.
        match HttpWebhookSender::new(allow_private) {
            Ok(sender) => run(&store, &sender, poll, metrics.as_deref(), stop, wake),
            Err(error) => tracing::error!(error.message = %error, "the webhook worker cannot start"),
        }
    })?)
}

#[cfg(test)]
mod tests {

    use super::*;

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
    }

    #[test]
    fn the_resolver_refuses_a_name_of_a_loopback_address() {
        let resolved = runtime().block_on(GuardedResolver.resolve("localhost".parse().unwrap()));
        let error = resolved.err().expect("refused");
        assert!(error.downcast_ref::<Refused>().is_some(), "{error}");
        assert!(error.to_string().contains("private, loopback or link-local"), "{error}");
    }

    #[test]
    fn address_literals_and_local_names_are_not_reached_without_the_setting() {
        let sender = HttpWebhookSender::new(false).unwrap();
        let request = |url: &str| WebhookRequest {
            url: url.into(),
            message_id: "msg_1".into(),
            timestamp: 0,
            signature: "v1,x".into(),
            body: "{}".into(),
        };
        let results = sender.send_all(&[
            request("http://127.0.0.1:9/hook"),
            request("http://[::1]:9/hook"),
            request("http://169.254.169.254/latest"),
            request("http://localhost.:9/hook"),
        ]);
        for result in results {
            assert!(matches!(&result, AttemptResult::NotReached(why) if why.starts_with("refused")), "{result:?}");
        }
    }
}
