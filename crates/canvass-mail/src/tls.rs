//! TLS to the relay with rustls: certificates are checked against the system's roots plus the PEM file
//! `SMTP_CA_FILE` (a relay with a private CA). STARTTLS goes through lettre's parameters; a connection that is TLS
//! from the first byte (`smtps://`) is made here, so that its socket can be set up like any other.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use lettre::transport::smtp::client::{AsyncTokioStream, Certificate, TlsParameters};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, RootCertStore};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::client::TlsStream;
use tokio_rustls::TlsConnector;

/// The parameters of a STARTTLS upgrade: the relay's name and the roots its certificate must chain to.
pub(crate) fn starttls_parameters(host: &str, ca_pem: Option<&[u8]>) -> Result<TlsParameters, String> {
    let mut builder = TlsParameters::builder(host.to_owned());
    if let Some(pem) = ca_pem {
        let certificate = Certificate::from_pem(pem).map_err(|e| format!("SMTP_CA_FILE: {e}"))?;
        builder = builder.add_root_certificate(certificate);
    }
    builder.build_rustls().map_err(|e| format!("cannot set up TLS to the relay: {e}"))
}

/// Opens TLS connections to a relay from the first byte.
#[derive(Clone)]
pub(crate) struct ImplicitTls {
    connector: TlsConnector,
    name: ServerName<'static>,
}

impl ImplicitTls {
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

    /// Runs the TLS handshake over `tcp`; a certificate that fails the check is an error.
    pub(crate) async fn connect(&self, tcp: TcpStream) -> io::Result<TlsRelayStream> {
        Ok(TlsRelayStream(self.connector.connect(self.name.clone(), tcp).await?))
    }
}

/// A TLS connection to the relay, in the form lettre's SMTP client takes.
#[derive(Debug)]
pub(crate) struct TlsRelayStream(TlsStream<TcpStream>);

impl AsyncRead for TlsRelayStream {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for TlsRelayStream {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.0).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.0).poll_shutdown(cx)
    }
}

impl AsyncTokioStream for TlsRelayStream {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.0.get_ref().0.peer_addr()
    }
}
