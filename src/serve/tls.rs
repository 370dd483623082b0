//! TLS for the HTTP listener, from `--tls-cert` and `--tls-key` (PEM files), with rustls. Without
//! them the server speaks plain HTTP, for a fronting proxy that terminates TLS.

use crate::serve::settings::Tls;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::Arc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::ServerConfig;

/// The acceptor for `tls`, or what is wrong with its files.
pub(crate) fn acceptor(tls: &Tls) -> Result<TlsAcceptor, String> {
    let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(&tls.cert)
        .map_err(|e| {
            format!(
                "--tls-cert {} cannot be read: {e}. Give a PEM file with the server's certificate (and its chain).",
                tls.cert.display()
            )
        })?
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--tls-cert {} holds a broken PEM certificate: {e}", tls.cert.display()))?;
    if certs.is_empty() {
        return Err(format!(
            "--tls-cert {} holds no certificate: give a PEM file that begins with -----BEGIN CERTIFICATE-----",
            tls.cert.display()
        ));
    }
    let key = PrivateKeyDer::from_pem_file(&tls.key).map_err(|e| {
        format!(
            "--tls-key {} holds no usable private key ({e}): give the PEM private key of the certificate \
             (PKCS#8, PKCS#1 or SEC1), unencrypted.",
            tls.key.display()
        )
    })?;
    let mut config = ServerConfig::builder_with_provider(mattermost_client::tls::provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS for the listener: {e}"))?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| {
            format!(
                "--tls-cert {} and --tls-key {} do not make a TLS identity: {e}",
                tls.cert.display(),
                tls.key.display()
            )
        })?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(TlsAcceptor::from(Arc::new(config)))
}
