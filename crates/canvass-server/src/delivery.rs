//! The delivery worker: picks the mail transport and runs rounds of the domain's delivery use case on a thread
//! of its own, inside `canvass serve` or alone as `canvass worker`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use canvass_domain::delivery::{Mailer, SmsSender, Transports};
use canvass_domain::use_cases::delivery;
use canvass_mail::{FileMailer, SmtpMailer};
use canvass_postgres::{PgPool, PgUnitOfWork};
use canvass_sms::{FileSmsSender, HttpSmsSender};
use time::OffsetDateTime;

/// Messages one round claims at most.
const ROUND: i64 = 100;

/// How the worker sends.
#[derive(Debug, Clone)]
pub struct DeliverySettings {
    /// `smtp://host:port` of the relay; without it emails are written to `outbox_dir`.
    pub smtp_url: Option<String>,
    /// The SMS provider's HTTP endpoint; without it text messages are written to `outbox_dir`.
    pub sms_url: Option<String>,
    /// Where the development transport writes `.eml` files.
    pub outbox_dir: PathBuf,
    /// Pause between rounds that found nothing more to do.
    pub poll: Duration,
    /// How long a claimed message is reserved for this worker.
    pub lease: Duration,
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

/// The transports the settings name: SMTP and the SMS endpoint when given, else files in `outbox_dir`.
pub fn channels(settings: &DeliverySettings) -> anyhow::Result<Channels> {
    let email: Arc<dyn Mailer> = match &settings.smtp_url {
        Some(url) => Arc::new(SmtpMailer::from_url(url).map_err(anyhow::Error::msg)?),
        None => {
            tracing::info!(delivery.outbox_dir = %settings.outbox_dir.display(), "no SMTP_URL: writing emails to files");
            Arc::new(FileMailer::new(&settings.outbox_dir)?)
        }
    };
    let sms: Arc<dyn SmsSender> = match &settings.sms_url {
        Some(url) => Arc::new(HttpSmsSender::new(url)),
        None => Arc::new(FileSmsSender::new(&settings.outbox_dir)?),
    };
    Ok(Channels { email, sms })
}

/// One round: due reminders enqueued, due messages sent; returns how many were claimed.
fn round(pool: &PgPool, channels: &Channels, public_url: &str, lease: Duration) -> Result<usize, String> {
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let lease = time::Duration::try_from(lease).map_err(|e| e.to_string())?;
    let now = OffsetDateTime::now_utc();
    let report =
        delivery::deliver_due(&mut PgUnitOfWork::new(&mut conn), channels.transports(), now, public_url, ROUND, lease)
            .map_err(|e| e.to_string())?;
    if report.claimed > 0 || report.reminders_enqueued > 0 {
        tracing::info!(
            delivery.claimed = report.claimed,
            delivery.sent = report.sent,
            delivery.bounced = report.bounced,
            delivery.retried = report.retried,
            delivery.failed = report.failed,
            delivery.cancelled = report.cancelled,
            delivery.reminders_enqueued = report.reminders_enqueued,
            "delivery round"
        );
    }
    Ok(report.claimed)
}

/// Runs rounds forever: at once again while rounds come back full, else after `poll`.
pub fn run_forever(pool: PgPool, channels: Channels, public_url: String, settings: DeliverySettings) {
    loop {
        match round(&pool, &channels, &public_url, settings.lease) {
            Ok(claimed) if claimed as i64 >= ROUND => continue,
            Ok(_) => {}
            Err(error) => tracing::error!(error.message = %error, "delivery round failed"),
        }
        std::thread::sleep(settings.poll);
    }
}

/// Starts the worker on a thread of its own.
pub fn spawn(pool: PgPool, channels: Channels, public_url: String, settings: DeliverySettings) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("delivery".into())
        .spawn(move || run_forever(pool, channels, public_url, settings))
        .map(|_| ())
}
