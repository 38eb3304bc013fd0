//! One delivery round through the sinks' SMTP relay and SMS provider, as `canvass worker` runs it (the kit's
//! `TestApp::deliver_round`). For [`crate::system`] tests only: an `api/` or `security/` test that needs messages
//! sent starts the server with its own worker (`Settings::delivery`) instead.

use canvass_domain::delivery::Transports;
use canvass_domain::use_cases::delivery::DeliveryReport;
use canvass_mail::SmtpMailer;
use canvass_sms::HttpSmsSender;
use time::OffsetDateTime;

use super::{TestApp, PUBLIC};

/// One delivery round at `now` through the SMTP relay at `smtp_url` and the SMS provider at `sms_url`, links under
/// [`PUBLIC`].
pub fn deliver_on(app: &TestApp, smtp_url: &str, sms_url: &str, now: OffsetDateTime) -> DeliveryReport {
    let mailer = SmtpMailer::from_url(smtp_url).unwrap();
    let sms = HttpSmsSender::new(sms_url);
    app.deliver_round(Transports { email: &mailer, sms: &sms }, now, PUBLIC, 100)
}
