//! Typed query/reply: a request type and a response type, both CLAD messages.

use std::sync::Mutex;
use std::time::Duration;

use clad_runtime::wire::Wire;
use zenoh::bytes::ZBytes;
use zenoh::{Session, Wait};

use crate::typed::{check_parts, decode_owned};
use crate::{key, Error, ReceiveError, TypeTag};

/// A declared queryable; dropping it undeclares it.
pub struct Queryable {
    inner: zenoh::query::Queryable<()>,
}

impl std::fmt::Debug for Queryable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queryable")
            .field("key", &self.inner.key_expr().as_str())
            .finish()
    }
}

/// Why one reply to a [`query`] is not a response.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// The reply was refused here (no tag, other type or hash, undecodable).
    #[error(transparent)]
    Refused(#[from] ReceiveError),
    /// The queryable answered with an error (its text): it refused the request (for
    /// instance a [`ReceiveError`] on its side) or its handler declined to answer.
    #[error("the queryable answered with an error: {0}")]
    Remote(String),
}

/// Serves queries on `key` (`None`: [`key::of::<Req>()`](key::of)): each request is checked
/// and decoded as `Req` and passed to `handler`; `Ok(response)` is sent back packed with
/// `Resp`'s tag, `Err(text)` as an error reply. A request that is refused (no tag, other
/// type or hash, undecodable) gets an error reply with the reason, and the handler is
/// called with the [`ReceiveError`] so it can report it (its return value is then ignored).
pub fn serve<Req, Resp, F>(
    session: &Session,
    key: Option<&str>,
    handler: F,
) -> Result<Queryable, Error>
where
    Req: Wire + 'static,
    Resp: Wire + 'static,
    F: FnMut(Result<Req, ReceiveError>) -> Result<Resp, String> + Send + 'static,
{
    let resp_tag = ZBytes::from(TypeTag::of::<Resp>().encode()?);
    let req_tag = TypeTag::of::<Req>();
    let handler = Mutex::new(handler);
    let inner = session
        .declare_queryable(key::resolve::<Req>(key))
        .callback(move |query| {
            let key = query.key_expr().as_str();
            let empty = ZBytes::new();
            let payload = query.payload().unwrap_or(&empty);
            let request = check_parts::<Req>(key, query.attachment(), payload, &req_tag)
                .and_then(|bytes| decode_owned::<Req>(key, &bytes));
            let refused = request.as_ref().err().map(ToString::to_string);
            let answer = {
                let mut h = handler.lock().unwrap_or_else(|p| p.into_inner());
                h(request)
            };
            let sent = match (refused, answer) {
                (Some(reason), _) => query.reply_err(reason).wait(),
                (None, Err(text)) => query.reply_err(text).wait(),
                (None, Ok(response)) => match response.pack() {
                    Ok(bytes) => query
                        .reply(query.key_expr().clone(), bytes)
                        .attachment(resp_tag.clone())
                        .wait(),
                    Err(e) => query
                        .reply_err(format!("the response does not pack: {e}"))
                        .wait(),
                },
            };
            if let Err(e) = sent {
                tracing::warn!(target: "clad_zenoh", error = %e, "reply not sent");
            }
        })
        .wait()?;
    Ok(Queryable { inner })
}

/// Sends `request` to `key` (`None`: [`key::of::<Req>()`](key::of)) and collects the replies
/// that arrive within `timeout` (every queryable that matches answers once), each decoded as
/// `Resp` or with the reason it is not one.
pub fn query<Req, Resp>(
    session: &Session,
    key: Option<&str>,
    request: &Req,
    timeout: Duration,
) -> Result<Vec<Result<Resp, QueryError>>, Error>
where
    Req: Wire,
    Resp: Wire,
{
    let resp_tag = TypeTag::of::<Resp>();
    let replies = session
        .get(key::resolve::<Req>(key))
        .payload(request.pack()?)
        .attachment(TypeTag::of::<Req>().encode()?)
        .timeout(timeout)
        .wait()?;
    let mut out = Vec::new();
    while let Ok(reply) = replies.recv() {
        out.push(match reply.result() {
            Ok(sample) => {
                let key = sample.key_expr().as_str();
                check_parts::<Resp>(key, sample.attachment(), sample.payload(), &resp_tag)
                    .and_then(|bytes| decode_owned::<Resp>(key, &bytes))
                    .map_err(QueryError::from)
            }
            Err(e) => Err(QueryError::Remote(
                String::from_utf8_lossy(&e.payload().to_bytes()).into_owned(),
            )),
        });
    }
    Ok(out)
}
