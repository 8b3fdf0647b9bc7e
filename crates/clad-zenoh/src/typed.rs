//! Typed publishers and subscribers.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clad_runtime::wire::{HasView, Wire, WireView};
use zenoh::bytes::ZBytes;
use zenoh::qos::CongestionControl;
use zenoh::sample::Sample;
use zenoh::{Session, Wait};

use crate::{key, Error, ReceiveError, TypeTag};

/// How a [`Publisher`] sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublisherOptions {
    /// What to do when the network cannot take a sample right now. The default,
    /// [`CongestionControl::Block`], waits (no loss); [`CongestionControl::Drop`] drops the
    /// sample (for data where only the latest matters, such as a camera stream).
    pub congestion_control: CongestionControl,
    /// Send each sample at once instead of batching it with others (lower latency, lower
    /// throughput). Default `false`.
    pub express: bool,
}

impl Default for PublisherOptions {
    fn default() -> Self {
        Self {
            congestion_control: CongestionControl::Block,
            express: false,
        }
    }
}

/// Publishes values of `T` (packed CLAD bytes, with `T`'s [`TypeTag`] attached) on one key
/// expression.
pub struct Publisher<T> {
    inner: zenoh::pubsub::Publisher<'static>,
    tag: ZBytes,
    _type: PhantomData<fn(&T)>,
}

impl<T> std::fmt::Debug for Publisher<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Publisher")
            .field("key", &self.inner.key_expr().as_str())
            .finish_non_exhaustive()
    }
}

impl<T: Wire> Publisher<T> {
    /// Declares a publisher on `key` (`None`: [`key::of::<T>()`](key::of)) with the default
    /// [`PublisherOptions`].
    pub fn declare(session: &Session, key: Option<&str>) -> Result<Self, Error> {
        Self::declare_with(session, key, PublisherOptions::default())
    }

    /// [`Publisher::declare`] with other options.
    pub fn declare_with(
        session: &Session,
        key: Option<&str>,
        options: PublisherOptions,
    ) -> Result<Self, Error> {
        let inner = session
            .declare_publisher(key::resolve::<T>(key))
            .congestion_control(options.congestion_control)
            .express(options.express)
            .wait()?;
        Ok(Self {
            inner,
            tag: ZBytes::from(TypeTag::of::<T>().encode()?),
            _type: PhantomData,
        })
    }

    /// Packs `value` and publishes it.
    pub fn put(&self, value: &T) -> Result<(), Error> {
        let bytes = value.pack()?;
        self.inner.put(bytes).attachment(self.tag.clone()).wait()?;
        Ok(())
    }

    /// The key expression it publishes on.
    pub fn key_expr(&self) -> &str {
        self.inner.key_expr().as_str()
    }

    /// Whether at least one subscriber matches the key expression now.
    pub fn has_subscribers(&self) -> Result<bool, Error> {
        Ok(self.inner.matching_status().wait()?.matching())
    }

    /// Waits until a subscriber matches (polling every millisecond), at most `timeout`;
    /// `Ok(false)` on timeout. Samples published before any subscriber is known are not
    /// stored anywhere, so a sender that must not lose its first messages waits here.
    pub fn wait_for_subscribers(&self, timeout: Duration) -> Result<bool, Error> {
        let start = Instant::now();
        loop {
            if self.has_subscribers()? {
                return Ok(true);
            }
            if start.elapsed() >= timeout {
                return Ok(false);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

/// A declared subscription; dropping it undeclares it (no more calls of its handler).
pub struct Subscriber {
    inner: zenoh::pubsub::Subscriber<()>,
}

impl std::fmt::Debug for Subscriber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscriber")
            .field("key", &self.inner.key_expr().as_str())
            .finish()
    }
}

impl Subscriber {
    /// The key expression it listens on.
    pub fn key_expr(&self) -> &str {
        self.inner.key_expr().as_str()
    }

    /// Declares a subscription calling `on_sample` with every raw Zenoh sample (for tools
    /// that handle several types, like `cladz echo`; typed code uses [`subscribe`]).
    pub fn raw<F>(session: &Session, key: &str, on_sample: F) -> Result<Self, Error>
    where
        F: FnMut(Sample) + Send + 'static,
    {
        let on_sample = Mutex::new(on_sample);
        let inner = session
            .declare_subscriber(key)
            .callback(move |sample| {
                let mut f = on_sample.lock().unwrap_or_else(|p| p.into_inner());
                f(sample)
            })
            .wait()?;
        Ok(Self { inner })
    }
}

/// Checks a sample's [`TypeTag`] against `T` and its length against the longest encoding of
/// `T` (`Wire::MAX_SIZE`), and returns its payload as one slice (borrowed when Zenoh delivered
/// it in one piece, which is the case unless it was fragmented). The refusal is logged at
/// `warn`.
pub fn check_sample<T: Wire>(sample: &Sample) -> Result<Cow<'_, [u8]>, ReceiveError> {
    check_parts::<T>(
        sample.key_expr().as_str(),
        sample.attachment(),
        sample.payload(),
        &TypeTag::of::<T>(),
    )
}

pub(crate) fn check_parts<'s, T: Wire>(
    key: &str,
    attachment: Option<&ZBytes>,
    payload: &'s ZBytes,
    expected: &TypeTag<'static>,
) -> Result<Cow<'s, [u8]>, ReceiveError> {
    let result = match attachment {
        None => Err(ReceiveError::MissingAttachment {
            key: key.to_owned(),
        }),
        Some(att) => {
            let att = att.to_bytes();
            match TypeTag::decode(&att) {
                Err(error) => Err(ReceiveError::BadAttachment {
                    key: key.to_owned(),
                    error,
                }),
                Ok(tag) => tag.check(expected, key),
            }
        }
    };
    let result = result.and_then(|()| match T::MAX_SIZE {
        Some(max) if payload.len() > max => Err(ReceiveError::TooLarge {
            key: key.to_owned(),
            type_name: T::TYPE_NAME,
            len: payload.len(),
            max,
        }),
        _ => Ok(()),
    });
    match result {
        Ok(()) => Ok(payload.to_bytes()),
        Err(e) => {
            tracing::warn!(target: "clad_zenoh", error = %e, "sample refused");
            Err(e)
        }
    }
}

pub(crate) fn decode_owned<T: Wire>(key: &str, bytes: &[u8]) -> Result<T, ReceiveError> {
    T::unpack(bytes).map_err(|error| undecodable(key, error))
}

pub(crate) fn undecodable(key: &str, error: clad_runtime::wire::UnpackError) -> ReceiveError {
    let e = ReceiveError::Undecodable {
        key: key.to_owned(),
        error,
    };
    tracing::warn!(target: "clad_zenoh", error = %e, "sample refused");
    e
}

/// Subscribes to `key` (`None`: [`key::of::<T>()`](key::of)) and calls `handler` with every
/// sample decoded as `T` (strictly, as [`Wire::unpack`]) or with the reason it was refused.
/// Calls come from Zenoh's threads, one at a time, in the order of each publisher; keep the
/// handler short (hand the value to a queue: see [`crate::intake`]).
pub fn subscribe<T, F>(
    session: &Session,
    key: Option<&str>,
    mut handler: F,
) -> Result<Subscriber, Error>
where
    T: Wire + 'static,
    F: FnMut(Result<T, ReceiveError>) + Send + 'static,
{
    Subscriber::raw(session, &key::resolve::<T>(key), move |sample| {
        let result = check_sample::<T>(&sample)
            .and_then(|bytes| decode_owned::<T>(sample.key_expr().as_str(), &bytes));
        handler(result)
    })
}

/// Like [`subscribe`], but decodes each sample as `T`'s borrowed view (`T::View<'_>`,
/// strings and byte arrays borrowed from the payload: no copy of them), with exactly the
/// checks of [`Wire::unpack`]. The view lives for the call.
pub fn subscribe_view<T, F>(
    session: &Session,
    key: Option<&str>,
    mut handler: F,
) -> Result<Subscriber, Error>
where
    T: HasView + 'static,
    F: for<'a> FnMut(Result<T::View<'a>, ReceiveError>) + Send + 'static,
{
    Subscriber::raw(
        session,
        &key::resolve::<T>(key),
        move |sample| match check_sample::<T>(&sample) {
            Err(e) => handler(Err(e)),
            Ok(bytes) => match T::View::unpack_view(&bytes) {
                Ok(view) => handler(Ok(view)),
                Err(error) => handler(Err(undecodable(sample.key_expr().as_str(), error))),
            },
        },
    )
}
