//! The delivery worker: picks the transports and runs rounds of the domain's delivery use case on a thread of
//! its own, inside `canvass serve` or alone as `canvass worker`, with a small pool of its own so it never takes a
//! connection that HTTP requests wait for. Asked to stop, it finishes the round it is sending and records it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use anyhow::Context;
use canvass_domain::clock::SystemClock;
use canvass_domain::delivery::{LinkBase, Mailer, PaceLimits, RetryPolicy, SmsSender, Transports};
use canvass_domain::use_cases::delivery::{self, Round};
use canvass_domain::Chain;
use canvass_mail::{FileMailer, SmtpMailer};
use canvass_metrics::Metrics;
use canvass_postgres::{OutboxListener, PgStore};
use canvass_sms::{FileSmsSender, HttpSmsSender};
use secrecy::{ExposeSecret, SecretString};

/// Messages one round claims at most: enough for every SMTP session to have many, while the previous round is
/// recorded and the next claimed beside it; few enough that a killed worker repeats little (two rounds at most).
pub const ROUND: i64 = 200;
/// Connections of the worker's own pool: a round uses one at a time.
pub const POOL_SIZE: u32 = 2;

/// How the worker sends.
#[derive(Debug, Clone)]
pub struct DeliverySettings {
    /// The relay's `SMTP_URL` (it may hold credentials); without it emails are written to `outbox_dir`.
    pub smtp_url: Option<SecretString>,
    /// PEM certificates trusted for the relay besides the system's roots.
    pub smtp_ca_file: Option<PathBuf>,
    /// The envelope sender of every email (where bounces go); without it, each sendout's sender.
    pub bounce_address: Option<String>,
    /// The sender of alert emails; without it the round's default (`alerts@` the host of the public URL).
    pub alert_sender: Option<String>,
    /// SMTP sessions kept open and sent through at once.
    pub concurrency: usize,
    /// The SMS provider's HTTP endpoint (it may carry the provider's token); without it text messages are written
    /// to `outbox_dir`.
    pub sms_url: Option<SecretString>,
    /// Where the development transport writes `.eml` files.
    pub outbox_dir: PathBuf,
    /// Pause between rounds that found nothing more to do.
    pub poll: Duration,
    /// How long a claimed message is reserved for this worker.
    pub lease: Duration,
    /// `DELIVERY_RATE`: messages per second over all workers; `None` for no limit.
    pub rate: Option<f64>,
    /// `DELIVERY_DAILY_LIMIT`: messages per UTC day over all workers; `None` for no limit.
    pub daily_limit: Option<u64>,
    /// `DELIVERY_MAX_AGE`: how long a transiently failing message is retried.
    pub max_age: Duration,
    /// `DELIVERY_MAX_BACKOFF`: the longest wait between its tries.
    pub max_backoff: Duration,
}

impl DeliverySettings {
    /// The shape of this worker's rounds.
    pub fn round(&self, public_url: &str) -> Round {
        let lease = time::Duration::try_from(self.lease).unwrap_or(delivery::LEASE);
        let mut round = Round::new(ROUND, lease, LinkBase::new(public_url));
        let defaults = RetryPolicy::default();
        round.retry = RetryPolicy {
            max_age: time::Duration::try_from(self.max_age).unwrap_or(defaults.max_age),
            max_backoff: time::Duration::try_from(self.max_backoff).unwrap_or(defaults.max_backoff),
        };
        round.pace = PaceLimits {
            rate: self.rate,
            burst: i64::try_from(self.concurrency).unwrap_or(ROUND).clamp(1, ROUND),
            daily: self.daily_limit.map(|limit| i64::try_from(limit).unwrap_or(i64::MAX)),
        };
        if let Some(sender) = &self.alert_sender {
            round.alert_sender = sender.clone();
        }
        round
    }
}

/// The worker's transports, one per channel.
#[derive(Clone)]
pub struct Channels {
    email: Arc<dyn Mailer>,
    sms: Arc<dyn SmsSender>,
}

impl Channels {
    fn transports(&self) -> Transports<'_> {
        Transports { email: self.email.as_ref(), sms: self.sms.as_ref() }
    }
}

/// The transports the settings name: SMTP and the SMS endpoint when given, else files in `outbox_dir`. A relay
/// URL that would send credentials unencrypted, or an unreadable CA file, stops the start.
pub fn channels(settings: &DeliverySettings) -> anyhow::Result<Channels> {
    let email: Arc<dyn Mailer> = match &settings.smtp_url {
        Some(url) => {
            let ca = match &settings.smtp_ca_file {
                Some(path) => {
                    Some(std::fs::read(path).with_context(|| format!("cannot read SMTP_CA_FILE {}", path.display()))?)
                }
                None => None,
            };
            let mut mailer = SmtpMailer::new(url.expose_secret(), ca.as_deref(), settings.concurrency)
                .map_err(anyhow::Error::msg)?;
            if let Some(address) = &settings.bounce_address {
                mailer = mailer.with_bounce_address(address).map_err(anyhow::Error::msg)?;
            }
            tracing::info!(delivery.relay = ?mailer, delivery.concurrency = settings.concurrency, "sending email over SMTP");
            Arc::new(mailer)
        }
        None => {
            tracing::info!(delivery.outbox_dir = %settings.outbox_dir.display(), "no SMTP_URL: writing emails to files");
            Arc::new(FileMailer::new(&settings.outbox_dir)?)
        }
    };
    let sms: Arc<dyn SmsSender> = match &settings.sms_url {
        Some(url) => {
            let sender = HttpSmsSender::new(url.expose_secret());
            tracing::info!(delivery.sms_endpoint = %sender.endpoint(), "sending text messages over HTTP");
            Arc::new(sender)
        }
        None => Arc::new(FileSmsSender::new(&settings.outbox_dir)?),
    };
    Ok(Channels { email, sms })
}

/// Rounds back to back until one is not full, or until `stop` answers true: due reminders enqueued, due messages
/// sent, and each round's outcomes counted in `metrics` as soon as it is sent.
fn rounds(
    store: &PgStore,
    channels: &Channels,
    shape: &Round,
    stop: &dyn Fn() -> bool,
    metrics: Option<&Metrics>,
) -> Result<(), String> {
    let count = |sent: &delivery::DeliveryReport| {
        if let Some(metrics) = metrics {
            metrics.count_delivery(sent);
        }
    };
    let report = delivery::deliver_all_due_observed(store, channels.transports(), &SystemClock, shape, stop, &count)
        .map_err(|e| Chain(&e).to_string())?;
    if report.claimed > 0 || report.reminders_enqueued > 0 {
        tracing::info!(
            delivery.claimed = report.claimed,
            delivery.sent = report.sent,
            delivery.bounced = report.bounced,
            delivery.retried = report.retried,
            delivery.failed = report.failed,
            delivery.cancelled = report.cancelled,
            delivery.reminders_enqueued = report.reminders_enqueued,
            "delivery rounds"
        );
    }
    Ok(())
}

/// Runs rounds until `stop` is set: back to back while they come back full, then again after `poll`, or as soon
/// as the listener hears an activation. `wake` cuts the pause short when its sender is dropped. The round in flight
/// when `stop` is set is sent and recorded first.
fn run(worker: WorkerParts, stop: &AtomicBool, wake: &Receiver<()>) {
    let WorkerParts { store, mut listener, channels, public_url, settings, metrics } = worker;
    let shape = settings.round(&public_url);
    let stopping = || stop.load(Ordering::SeqCst);
    while !stopping() {
        if let Err(error) = rounds(&store, &channels, &shape, &stopping, metrics.as_deref()) {
            tracing::error!(error.message = %error, "delivery round failed");
        }
        if super::pause::pause(settings.poll, wake, &mut listener) == super::pause::Resume::Stop {
            break;
        }
    }
    tracing::info!("delivery worker stopped");
}

/// The worker, running on a thread of its own. Stopping it, or dropping it, lets the round on the network finish
/// and be recorded, and claims nothing more.
pub struct Worker {
    stop: Arc<AtomicBool>,
    /// Dropped to wake the worker from its pause between rounds.
    wake: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Worker {
    /// Runs `body` on a thread of its own named `name`, with the stop flag and the wake-up receiver it loops on.
    pub(crate) fn start(
        name: &str,
        body: impl FnOnce(&AtomicBool, &Receiver<()>) + Send + 'static,
    ) -> std::io::Result<Self> {
        let stop = Arc::new(AtomicBool::new(false));
        let (wake, woken) = mpsc::channel();
        let stopped = Arc::clone(&stop);
        let thread = std::thread::Builder::new().name(name.into()).spawn(move || body(&stopped, &woken))?;
        Ok(Self { stop, wake: Some(wake), thread: Some(thread) })
    }

    /// Asks the worker to stop and waits until it has: its round in flight sent and recorded.
    pub fn stop(mut self) {
        self.ask_to_stop();
        if let Some(thread) = self.thread.take() {
            if thread.join().is_err() {
                tracing::error!("the delivery worker panicked");
            }
        }
    }

    fn ask_to_stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        self.wake.take();
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.ask_to_stop();
    }
}

/// What a worker runs with.
pub struct WorkerParts {
    /// The worker's own store.
    pub store: PgStore,
    /// Its ear for activations, on a connection of its own.
    pub listener: OutboxListener,
    /// Its transports.
    pub channels: Channels,
    /// Base of respondents' links.
    pub public_url: String,
    /// How it sends.
    pub settings: DeliverySettings,
    /// Where the outcomes of its rounds are counted (the server's `/metrics`); `None` counts them nowhere.
    pub metrics: Option<Arc<Metrics>>,
}

/// Starts the worker on a thread of its own.
pub fn spawn(parts: WorkerParts) -> std::io::Result<Worker> {
    Worker::start("delivery", move |stop, wake| run(parts, stop, wake))
}
