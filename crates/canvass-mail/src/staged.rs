//! One message through an open SMTP session, command by command, so that a refusal names the stage it answered
//! (`MAIL FROM`, `RCPT TO` or `DATA`) and can be judged by whom it blames (`canvass_domain::delivery::blame_smtp`).
//! lettre's own `AsyncSmtpConnection::send` does the same steps but does not say which one failed.

use canvass_domain::delivery::SmtpStage;
use lettre::address::Envelope;
use lettre::transport::smtp::client::AsyncSmtpConnection;
use lettre::transport::smtp::commands::{Data, Mail, Rcpt};
use lettre::transport::smtp::extension::{Extension, MailBodyParameter, MailParameter};
use lettre::transport::smtp::response::Response;
use lettre::transport::smtp::Error;

/// Why a message was not taken.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// A fault of this side found before anything was sent: an address or a body this relay cannot take.
    Unsendable(&'static str),
    /// The relay's error at this stage (a reply, or the connection failing).
    At(SmtpStage, Error),
}

/// Sends `email` to the envelope's recipients as lettre's `send` does (SMTPUTF8 and 8BITMIME when needed and
/// offered), aborting the transaction on a refusal.
pub(crate) async fn send(
    connection: &mut AsyncSmtpConnection,
    envelope: &Envelope,
    email: &[u8],
) -> Result<Response, Refusal> {
    let mut options = Vec::new();
    let offers = |extension| connection.server_info().supports_feature(extension);
    let non_ascii = envelope
        .from()
        .into_iter()
        .chain(envelope.to())
        .any(|address: &lettre::Address| !AsRef::<str>::as_ref(address).is_ascii());
    if non_ascii {
        if !offers(Extension::SmtpUtfEight) {
            return Err(Refusal::Unsendable("the envelope has non-ASCII addresses and the relay offers no SMTPUTF8"));
        }
        options.push(MailParameter::SmtpUtfEight);
    }
    if !email.is_ascii() {
        if !offers(Extension::EightBitMime) {
            return Err(Refusal::Unsendable("the message is not ASCII and the relay offers no 8BITMIME"));
        }
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    step(connection, SmtpStage::MailFrom, Mail::new(envelope.from().cloned(), options)).await?;
    for recipient in envelope.to() {
        step(connection, SmtpStage::RcptTo, Rcpt::new(recipient.clone(), Vec::new())).await?;
    }
    step(connection, SmtpStage::Data, Data).await?;
    match connection.message(email).await {
        Ok(response) => Ok(response),
        Err(error) => Err(aborted(connection, SmtpStage::Data, error).await),
    }
}

async fn step<C: std::fmt::Display>(
    connection: &mut AsyncSmtpConnection,
    stage: SmtpStage,
    command: C,
) -> Result<Response, Refusal> {
    match connection.command(command).await {
        Ok(response) => Ok(response),
        Err(error) => Err(aborted(connection, stage, error).await),
    }
}

/// Ends the transaction after a refusal (lettre's `abort`: `RSET`, or the session closed when that fails).
async fn aborted(connection: &mut AsyncSmtpConnection, stage: SmtpStage, error: Error) -> Refusal {
    connection.abort().await;
    Refusal::At(stage, error)
}
