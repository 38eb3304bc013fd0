//! A test certificate authority made at run time, and the server side of TLS for the sinks.

use std::sync::Arc;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa, KeyPair,
    KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::ServerConfig;

/// A certificate authority with a fresh key: two `TestCa::new()` are different CAs, so a client that trusts one
/// rejects the certificates of the other.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
}

impl TestCa {
    /// Makes a new CA with a new key.
    pub fn new() -> Self {
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, "Canvass test CA");
        params.key_usages =
            vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
        let issuer = CertifiedIssuer::self_signed(params, KeyPair::generate().unwrap()).unwrap();
        Self { issuer }
    }

    /// The CA certificate in PEM, for a client to load as its trusted root.
    pub fn cert_pem(&self) -> String {
        self.issuer.pem()
    }

    /// Issues a server certificate for `127.0.0.1` and `localhost` (subject alt names IP 127.0.0.1 and DNS
    /// localhost), with a new key: returns the certificate and its PKCS#8 private key, both in PEM.
    pub fn issue_localhost_pem(&self) -> (String, String) {
        let (cert, key) = self.issue_localhost();
        (cert.pem(), key.serialize_pem())
    }

    fn issue_localhost(&self) -> (rcgen::Certificate, KeyPair) {
        let mut params = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
        params.distinguished_name.push(DnType::CommonName, "localhost");
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &self.issuer).unwrap();
        (cert, key)
    }

    /// A rustls server configuration (ring provider) that presents a fresh certificate issued by this CA.
    pub(crate) fn server_config(&self) -> Arc<ServerConfig> {
        let (cert, key) = self.issue_localhost();
        let chain: Vec<CertificateDer<'static>> = vec![cert.der().clone()];
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
        let config = ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        Arc::new(config)
    }
}

impl Default for TestCa {
    fn default() -> Self {
        Self::new()
    }
}
