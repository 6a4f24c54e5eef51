//! A lab switch's HTTP API over HTTPS, for a switch whose OS serves one
//! ([`crate::targets::LabSwitch::api_prefix`]): its own port beside the SSH one, a
//! self-signed certificate kept in its state folder, HTTP basic authentication with the
//! logins SSH accepts, and each request handed to the switch ([`Device::api`]).
//!
//! The files of a switch `leaf01` in a state directory `STATE`:
//!
//! | File | What |
//! |---|---|
//! | `STATE/leaf01/https.crt` | the certificate (PEM): the switch's name, `localhost`, `127.0.0.1`, `::1` and the listening address; made on first start |
//! | `STATE/leaf01/https.key` | its private key (PEM, mode 0600) |

use std::convert::Infallible;
use std::net::IpAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine as _;
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use rustls::pki_types::pem::PemObject as _;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::device::Device;
use super::server::Logins;
use crate::targets::ApiRequest;

/// The certificate's file in a switch's folder.
pub const CERT: &str = "https.crt";
/// Its key's file.
pub const KEY: &str = "https.key";

/// The largest request body read; a bigger one is refused (413).
const MAX_BODY: usize = 4 << 20;

/// The pause before a refused login is answered, as the SSH server's.
const REJECTION_PAUSE: Duration = Duration::from_millis(200);

/// The certificate and key of the switch named `name`: read from its folder `dir`, or made
/// (self-signed) and written there on first start.
pub fn certificate(
    dir: Option<&Path>,
    name: &str,
    listen: IpAddr,
) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), String> {
    if let Some(dir) = dir
        && dir.join(CERT).exists()
        && dir.join(KEY).exists()
    {
        let read = |e: rustls::pki_types::pem::Error| {
            format!("cannot read `{}`: {e}", dir.join(CERT).display())
        };
        let certs = CertificateDer::pem_file_iter(dir.join(CERT))
            .map_err(read)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(read)?;
        let key = PrivateKeyDer::from_pem_file(dir.join(KEY))
            .map_err(|e| format!("cannot read `{}`: {e}", dir.join(KEY).display()))?;
        return Ok((certs, key));
    }
    let mut names = vec![
        name.to_ascii_lowercase(),
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    if !listen.is_unspecified() && !names.contains(&listen.to_string()) {
        names.push(listen.to_string());
    }
    let made = rcgen::generate_simple_self_signed(names)
        .map_err(|e| format!("{name}: cannot make a certificate: {e}"))?;
    let (cert_pem, key_pem) = (made.cert.pem(), made.signing_key.serialize_pem());
    if let Some(dir) = dir {
        write_key(&dir.join(KEY), key_pem.as_bytes())?;
        super::device::write_atomic(&dir.join(CERT), cert_pem.as_bytes())?;
    }
    let key =
        PrivateKeyDer::from_pem_slice(key_pem.as_bytes()).map_err(|e| format!("{name}: {e}"))?;
    Ok((vec![made.cert.der().clone()], key))
}

/// Writes a private key readable by its owner only.
fn write_key(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let _ = std::fs::remove_file(path);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

/// The TLS side of a switch's API: its certificate, TLS 1.2 and 1.3 with the ring provider,
/// HTTP/1.1.
pub fn tls_config(
    certs: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> Result<Arc<rustls::ServerConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_no_client_auth().with_single_cert(certs, key))
        .map_err(|e| format!("TLS: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// Serves `device`'s API on `listener` until the runtime stops.
pub async fn serve(
    listener: tokio::net::TcpListener,
    tls: Arc<rustls::ServerConfig>,
    device: Arc<Device>,
    logins: Arc<Logins>,
) {
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    loop {
        let Ok((tcp, _peer)) = listener.accept().await else {
            // Out of descriptors, say: try again shortly rather than spin.
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        let _ = tcp.set_nodelay(true);
        let (acceptor, device, logins) = (acceptor.clone(), device.clone(), logins.clone());
        tokio::spawn(async move {
            // A client that fails its handshake (or never finishes it) is dropped.
            let Ok(Ok(stream)) =
                tokio::time::timeout(Duration::from_secs(30), acceptor.accept(tcp)).await
            else {
                return;
            };
            let id = device.login();
            let service = hyper::service::service_fn(move |req| {
                answer(req, id, device.clone(), logins.clone())
            });
            // A client that never finishes its request's head is dropped.
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(Duration::from_secs(30))
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

/// The user of a request whose basic credentials the lab accepts.
fn authorized(req: &Request<Incoming>, logins: &Logins) -> Option<String> {
    let header = req
        .headers()
        .get(hyper::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, encoded) = header.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .ok()?;
    let text = String::from_utf8(decoded).ok()?;
    let (user, password) = text.split_once(':')?;
    logins.password_ok(user, password).then(|| user.to_string())
}

fn reply(status: u16, body: String) -> Response<Full<Bytes>> {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    r
}

/// An error's body, in the shape the switch's API gives its errors.
fn problem(status: u16, title: &str) -> Response<Full<Bytes>> {
    let body = serde_json::json!({
        "detail": title,
        "status": status,
        "title": title,
        "type": "about:blank",
    });
    let mut r = reply(status, body.to_string());
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/problem+json"),
    );
    r
}

/// One request: authenticated, its body read (bounded), handed to the switch.
async fn answer(
    req: Request<Incoming>,
    id: u64,
    device: Arc<Device>,
    logins: Arc<Logins>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let Some(user) = authorized(&req, &logins) else {
        tokio::time::sleep(REJECTION_PAUSE).await;
        let mut r = problem(401, "Unauthorized");
        r.headers_mut().insert(
            hyper::header::WWW_AUTHENTICATE,
            hyper::header::HeaderValue::from_static("Basic realm=\"fabric lab\""),
        );
        return Ok(r);
    };
    let method = req.method().as_str().to_string();
    let path = req.uri().path().to_string();
    let query = req.uri().query().unwrap_or_default().to_string();
    let Some(prefix) = device.api_prefix() else {
        return Ok(problem(404, "Not Found"));
    };
    if path != prefix && !path.starts_with(&format!("{prefix}/")) {
        return Ok(problem(404, "Not Found"));
    }
    let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
        Ok(b) => b.to_bytes(),
        Err(_) => return Ok(problem(413, "Request Entity Too Large")),
    };
    let request = ApiRequest {
        method: &method,
        path: &path,
        query: &query,
        body: &body,
        user: &user,
    };
    let answered = device.api(id, &request);
    let mut r = reply(answered.status, answered.body.clone());
    if !answered.body.is_empty() {
        r.headers_mut().insert(
            hyper::header::CONTENT_TYPE,
            hyper::header::HeaderValue::from_static("application/json"),
        );
    }
    Ok(r)
}
