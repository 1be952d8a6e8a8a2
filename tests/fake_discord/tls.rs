//! The fake's REST API over TLS, answering for `discord.com`, so that a test can keep
//! serenity's own rate limiter in the loop (serenity ignores a proxy base URL unless its
//! rate limiter is off). The server's certificate is a placeholder and the client made
//! here accepts any certificate: both exist only in tests.

use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::server::{ClientHello, ResolvesServerCert};
use rustls::sign::{CertifiedKey, Signer, SigningKey};
use rustls::{
    ClientConfig, DigitallySignedStruct, Error, ServerConfig, SignatureAlgorithm, SignatureScheme,
};
use std::sync::Arc;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;

const SCHEMES: [SignatureScheme; 3] = [
    SignatureScheme::ED25519,
    SignatureScheme::ECDSA_NISTP256_SHA256,
    SignatureScheme::RSA_PSS_SHA256,
];

fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Accepts any server certificate and handshake signature.
#[derive(Debug)]
struct AnyCertificate;

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _: &CertificateDer<'_>,
        _: &[CertificateDer<'_>],
        _: &ServerName<'_>,
        _: &[u8],
        _: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        _: &[u8],
        _: &CertificateDer<'_>,
        _: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        Ok(HandshakeSignatureValid::assertion())
    }

    fn verify_tls13_signature(
        &self,
        _: &[u8],
        _: &CertificateDer<'_>,
        _: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        Ok(HandshakeSignatureValid::assertion())
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        SCHEMES.to_vec()
    }
}

/// A key that "signs" with zeros: enough for a client that checks nothing.
#[derive(Debug)]
struct PlaceholderKey;

#[derive(Debug)]
struct PlaceholderSigner(SignatureScheme);

impl SigningKey for PlaceholderKey {
    fn choose_scheme(&self, offered: &[SignatureScheme]) -> Option<Box<dyn Signer>> {
        offered
            .iter()
            .find(|s| SCHEMES.contains(s))
            .map(|&s| Box::new(PlaceholderSigner(s)) as Box<dyn Signer>)
    }

    fn algorithm(&self) -> SignatureAlgorithm {
        SignatureAlgorithm::ED25519
    }
}

impl Signer for PlaceholderSigner {
    fn sign(&self, _: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(vec![0; 64])
    }

    fn scheme(&self) -> SignatureScheme {
        self.0
    }
}

#[derive(Debug)]
struct Placeholder(Arc<CertifiedKey>);

impl ResolvesServerCert for Placeholder {
    fn resolve(&self, _: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(self.0.clone())
    }
}

/// Serves `app` over TLS on a fresh 127.0.0.1 port; returns the port and the server task.
pub async fn serve(app: Router) -> (u16, JoinHandle<()>) {
    let key = CertifiedKey::new(
        vec![CertificateDer::from(b"placeholder certificate".to_vec())],
        Arc::new(PlaceholderKey),
    );
    let config = ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_cert_resolver(Arc::new(Placeholder(Arc::new(key))));
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("local addr").port();
    let server = tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                continue;
            };
            let (acceptor, app) = (acceptor.clone(), app.clone());
            tokio::spawn(async move {
                let Ok(tls) = acceptor.accept(tcp).await else {
                    return;
                };
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(tls), TowerToHyperService::new(app))
                    .await;
            });
        }
    });
    (port, server)
}

/// An HTTP client that reaches `https://discord.com` at 127.0.0.1:`port`, accepting the
/// placeholder certificate.
pub fn client(port: u16) -> reqwest::Client {
    let tls = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(AnyCertificate))
        .with_no_client_auth();
    reqwest::Client::builder()
        .use_preconfigured_tls(tls)
        .resolve("discord.com", ([127, 0, 0, 1], port).into())
        .no_proxy()
        .build()
        .expect("an HTTP client")
}
