//! TLS to the relay with rustls: certificates are checked against the system's roots plus the PEM file
//! `SMTP_CA_FILE` (a relay with a private CA). The same connector secures a connection from the first byte
//! (`smtps://`) and one that a `STARTTLS` upgrades.

use std::io;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, RootCertStore};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// Opens TLS over a connection to the relay.
#[derive(Clone)]
pub(crate) struct RelayTls {
    connector: TlsConnector,
    name: ServerName<'static>,
}

impl RelayTls {
    /// TLS to `host`, trusting the system's roots and those of `ca_pem`.
    pub(crate) fn new(host: &str, ca_pem: Option<&[u8]>) -> Result<Self, String> {
        let mut roots = RootCertStore::empty();
        roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
        if let Some(pem) = ca_pem {
            for certificate in CertificateDer::pem_slice_iter(pem) {
                let certificate = certificate.map_err(|e| format!("SMTP_CA_FILE: {e}"))?;
                roots.add(certificate).map_err(|e| format!("SMTP_CA_FILE: {e}"))?;
            }
        }
        let config = ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .map_err(|e| format!("cannot set up TLS to the relay: {e}"))?
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = ServerName::try_from(host.to_owned()).map_err(|e| format!("SMTP_URL host: {e}"))?;
        Ok(Self { connector: TlsConnector::from(Arc::new(config)), name })
    }

    /// Runs the TLS handshake over `io`; a certificate that fails the check is an error.
    pub(crate) async fn connect<IO: AsyncRead + AsyncWrite + Unpin>(&self, io: IO) -> io::Result<TlsStream<IO>> {
        self.connector.connect(self.name.clone(), io).await
    }
}
