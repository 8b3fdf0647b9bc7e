//! A ROS 2 node on a Zenoh session, shaped as rmw_zenoh shapes one: a node token, an
//! `Intent` subscription feeding a bounded intake queue, an `Intent` publisher.

use std::borrow::Cow;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use zenoh::liveliness::LivelinessToken;
use zenoh::qos::CongestionControl;
use zenoh::sample::{Locality, Sample};
use zenoh::{Session, Wait};

use super::attachment::{Attachment, AttachmentError, Gid};
use super::cdr::CdrError;
use super::intent::{IntentView, DDS_TYPE, TYPE_HASH};
use super::names::{
    data_key, resolve_topic_name, validate_namespace, validate_node_name, EntityKind, NameError,
    NodeIdentity, Profile, Qos, Remap,
};
use crate::intake::{self, Intake, IntakeReceiver, OverflowPolicy};

/// A failure to declare or to publish.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// Zenoh refused (closed session, invalid key expression, ...).
    #[error("zenoh: {0}")]
    Zenoh(#[source] zenoh::Error),
    /// A node name, namespace, topic name or remapping rule ROS would refuse.
    #[error(transparent)]
    Name(#[from] NameError),
    /// The message cannot be encoded (a string with a NUL inside).
    #[error("cannot encode the message: {0}")]
    Encode(#[from] CdrError),
    /// `ROS_DOMAIN_ID` is not a domain id.
    #[error("ROS_DOMAIN_ID={value:?}: expected a number from 0 to 232")]
    DomainId {
        /// The variable's value.
        value: String,
    },
}

impl From<zenoh::Error> for Error {
    fn from(e: zenoh::Error) -> Self {
        Error::Zenoh(e)
    }
}

/// The highest domain id ROS 2 allows.
pub const MAX_DOMAIN_ID: u32 = 232;

/// The domain from `ROS_DOMAIN_ID` (0 when unset or empty, as ROS reads it).
pub fn domain_from_env() -> Result<u32, Error> {
    match std::env::var("ROS_DOMAIN_ID") {
        Err(_) => Ok(0),
        Ok(v) if v.trim().is_empty() => Ok(0),
        Ok(v) => v
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|d| *d <= MAX_DOMAIN_ID)
            .ok_or(Error::DomainId { value: v }),
    }
}

/// Who the node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeOptions {
    /// The ROS domain (see [`domain_from_env`]).
    pub domain: u32,
    /// The node name.
    pub name: String,
    /// The namespace (`/`).
    pub namespace: String,
    /// The security enclave (`/`).
    pub enclave: String,
    /// Which releases' type hashes to use.
    pub profile: Profile,
    /// Remapping rules for topic names.
    pub remaps: Vec<Remap>,
}

impl Default for NodeOptions {
    /// Node `robot` in the root namespace of domain 0, Jazzy-and-later hashes, no remapping.
    fn default() -> Self {
        NodeOptions {
            domain: 0,
            name: "robot".into(),
            namespace: "/".into(),
            enclave: "/".into(),
            profile: Profile::Jazzy,
            remaps: Vec::new(),
        }
    }
}

/// A node: present in the graph (its liveliness token) for as long as it lives. Its
/// subscriptions and publishers hold their own tokens; drop them before the node.
pub struct Node {
    session: Session,
    identity: NodeIdentity,
    options: NodeOptions,
    /// Entity ids: the node is 0, its entities count from 1.
    next_entity: AtomicU32,
    token: String,
    _token: LivelinessToken,
}

impl std::fmt::Debug for Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Node")
            .field("name", &self.identity.full_name())
            .field("domain", &self.identity.domain)
            .field("zid", &self.identity.zid)
            .finish_non_exhaustive()
    }
}

impl Node {
    /// Declares the node on `session` (its token appears in every graph the session reaches).
    pub fn declare(session: &Session, options: NodeOptions) -> Result<Node, Error> {
        validate_node_name(&options.name)?;
        validate_namespace(&options.namespace)?;
        validate_namespace(&options.enclave)?;
        let identity = NodeIdentity {
            domain: options.domain,
            zid: session.zid().to_string(),
            node_id: 0,
            enclave: options.enclave.clone(),
            namespace: options.namespace.clone(),
            name: options.name.clone(),
        };
        let token = identity.node_token();
        let declared = session.liveliness().declare_token(&token).wait()?;
        Ok(Node {
            session: session.clone(),
            identity,
            options,
            next_entity: AtomicU32::new(1),
            token,
            _token: declared,
        })
    }

    /// Its identity (domain, session id, names).
    pub fn identity(&self) -> &NodeIdentity {
        &self.identity
    }

    /// Its liveliness token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The profile it uses.
    pub fn profile(&self) -> Profile {
        self.options.profile
    }

    /// The fully qualified name `topic` resolves to for this node (namespace, `~`,
    /// substitutions, remapping).
    pub fn resolve_topic(&self, topic: &str) -> Result<String, NameError> {
        resolve_topic_name(
            topic,
            &self.options.name,
            &self.options.namespace,
            &self.options.remaps,
        )
    }

    /// The data key of `Intent` on the fully qualified `full_topic` with `profile`'s hash.
    pub fn intent_key(&self, full_topic: &str, profile: Profile) -> String {
        data_key(
            self.identity.domain,
            full_topic,
            DDS_TYPE,
            profile.type_hash(TYPE_HASH),
        )
    }

    fn entity_token(&self, kind: EntityKind, full_topic: &str, qos: &Qos) -> String {
        let id = self.next_entity.fetch_add(1, Ordering::Relaxed);
        self.identity.entity_token(
            kind,
            id,
            full_topic,
            DDS_TYPE,
            self.options.profile.type_hash(TYPE_HASH),
            qos,
        )
    }

    /// Subscribes to `Intent`s on `topic` (resolved as [`Node::resolve_topic`] says) and
    /// declares the subscription's token. Every sample published on the topic by another
    /// session goes to the returned queue ([`Received`]): `Intent` samples of this node's
    /// profile (and of the other one with [`SubscriptionOptions::accept_other_profile`])
    /// still undecoded, for the consumer to decode on its own thread; samples of another type
    /// or hash on the same topic, and oversized ones, as a [`SampleError`]. The robot's own
    /// publications are not delivered (like rclcpp's `ignore_local_publications`).
    pub fn subscribe_intents(
        &self,
        topic: &str,
        options: SubscriptionOptions,
    ) -> Result<(IntentSubscription, IntakeReceiver<Received>), Error> {
        self.subscribe_intents_ranked(topic, options, None)
    }

    /// [`subscribe_intents`](Self::subscribe_intents) whose queue, with
    /// [`OverflowPolicy::Shed`], sheds by `rank` (the consumer's rule of what matters: a stop
    /// ranks [`intake::RANK_ALWAYS`]); `None`: every sample ranks the same, the oldest goes.
    pub fn subscribe_intents_ranked(
        &self,
        topic: &str,
        options: SubscriptionOptions,
        rank: Option<intake::Rank<Received>>,
    ) -> Result<(IntentSubscription, IntakeReceiver<Received>), Error> {
        let full_topic = self.resolve_topic(topic)?;
        let key = self.intent_key(&full_topic, self.options.profile);
        let other_key = self.intent_key(&full_topic, self.options.profile.other());
        // One chunk for the type and one for the hash: every type on exactly this topic.
        let topic_prefix = data_key(self.identity.domain, &full_topic, "*", "*");
        let (tx, rx) = match rank {
            Some(rank) if options.policy == OverflowPolicy::Shed => {
                intake::bounded_ranked(options.capacity, move |i| rank(i))
            }
            _ => intake::bounded(options.capacity, options.policy),
        };
        let profile = self.options.profile;
        let expected_hash = profile.type_hash(TYPE_HASH);
        let classify = move |sample: Sample| -> Received {
            let k = sample.key_expr().as_str();
            let accepted = if k == key {
                Some(profile)
            } else if options.accept_other_profile && k == other_key {
                Some(profile.other())
            } else {
                None
            };
            let Some(profile) = accepted else {
                let mut chunks = k.rsplitn(3, '/');
                let hash = chunks.next().unwrap_or_default().to_owned();
                let type_name = chunks.next().unwrap_or_default().to_owned();
                return Err(SampleError::ForeignType {
                    key: k.to_owned(),
                    type_name,
                    type_hash: hash,
                    expected_hash,
                });
            };
            let len = sample.payload().len();
            if len > options.max_payload {
                return Err(SampleError::TooLarge {
                    key: k.to_owned(),
                    len,
                    max: options.max_payload,
                });
            }
            let attachment =
                Attachment::decode(sample.attachment().map(|a| a.to_bytes()).as_deref());
            Ok(IntentSample {
                sample,
                attachment,
                profile,
            })
        };
        let subscriber = self
            .session
            .declare_subscriber(topic_prefix)
            .allowed_origin(Locality::Remote)
            .callback(move |sample| {
                let item = classify(sample);
                if let Err(e) = &item {
                    tracing::warn!(target: "clad_zenoh::ros2", error = %e, "sample refused");
                }
                tx.push(Intake::Message(item));
            })
            .wait()?;
        let token = self.entity_token(EntityKind::Subscription, &full_topic, &options.qos);
        let declared = self.session.liveliness().declare_token(&token).wait()?;
        Ok((
            IntentSubscription {
                key: self.intent_key(&full_topic, self.options.profile),
                topic: full_topic,
                token,
                _subscriber: subscriber,
                _token: declared,
            },
            rx,
        ))
    }

    /// Declares a publisher of `Intent`s on `topic` (resolved as [`Node::resolve_topic`]
    /// says) and its token. Its GID is derived from the token as rmw_zenoh derives it.
    pub fn intent_publisher(&self, topic: &str, qos: Qos) -> Result<IntentPublisher, Error> {
        let full_topic = self.resolve_topic(topic)?;
        let key = self.intent_key(&full_topic, self.options.profile);
        // rmw_zenoh: reliable (Zenoh's default), congestion control DROP for KEEP_LAST.
        let publisher = self
            .session
            .declare_publisher(key.clone())
            .congestion_control(CongestionControl::Drop)
            .wait()?;
        let token = self.entity_token(EntityKind::Publisher, &full_topic, &qos);
        let declared = self.session.liveliness().declare_token(&token).wait()?;
        Ok(IntentPublisher {
            gid: Gid::of_token(&token),
            key,
            topic: full_topic,
            token,
            publisher,
            sequence: AtomicI64::new(0),
            buf: Mutex::new(Vec::new()),
            _token: declared,
        })
    }
}

/// How an `Intent` subscription takes samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubscriptionOptions {
    /// Capacity of the queue (samples between two drains).
    pub capacity: usize,
    /// What a full queue does (the gap is reported either way).
    pub policy: OverflowPolicy,
    /// Also take `Intent`s published with the other profile's hash (Humble's
    /// `TypeHashNotSupported` for a Jazzy node). The tokens still name one hash.
    pub accept_other_profile: bool,
    /// Larger payloads are refused unread ([`SampleError::TooLarge`]).
    pub max_payload: usize,
    /// The QoS the token announces.
    pub qos: Qos,
}

impl Default for SubscriptionOptions {
    /// 256 samples, shedding the least important and oldest when full (keep-last, as
    /// rmw_zenoh; a consumer's rank decides what is important), this profile only, 64 KiB,
    /// rclcpp's default QoS.
    fn default() -> Self {
        SubscriptionOptions {
            capacity: 256,
            policy: OverflowPolicy::Shed,
            accept_other_profile: false,
            max_payload: 64 * 1024,
            qos: Qos::default(),
        }
    }
}

/// A declared `Intent` subscription: dropping it undeclares the subscriber and its token.
pub struct IntentSubscription {
    topic: String,
    key: String,
    token: String,
    _subscriber: zenoh::pubsub::Subscriber<()>,
    _token: LivelinessToken,
}

impl std::fmt::Debug for IntentSubscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntentSubscription")
            .field("topic", &self.topic)
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

impl IntentSubscription {
    /// The fully qualified topic.
    pub fn topic(&self) -> &str {
        &self.topic
    }

    /// The data key of this node's profile.
    pub fn key_expr(&self) -> &str {
        &self.key
    }

    /// Its liveliness token.
    pub fn token(&self) -> &str {
        &self.token
    }
}

/// What an `Intent` subscription queues: a sample to decode, or why one was refused unread.
pub type Received = Result<IntentSample, SampleError>;

/// A sample on the topic that is not an `Intent` this node takes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SampleError {
    /// Another type, or `Intent` with another type hash, on the same topic: nothing was
    /// decoded (a Humble publisher on a Jazzy graph, another release of the package, another
    /// message type).
    #[error("sample on `{key}`: type `{type_name}` with hash `{type_hash}` is not hri_actions_msgs/msg/Intent with `{expected_hash}`")]
    ForeignType {
        /// The sample's key expression.
        key: String,
        /// The type chunk of the key.
        type_name: String,
        /// The hash chunk of the key.
        type_hash: String,
        /// The hash this node takes.
        expected_hash: &'static str,
    },
    /// The payload exceeds [`SubscriptionOptions::max_payload`].
    #[error("sample on `{key}`: {len}-byte payload exceeds the limit of {max} bytes")]
    TooLarge {
        /// The sample's key expression.
        key: String,
        /// Its length.
        len: usize,
        /// The limit.
        max: usize,
    },
}

impl SampleError {
    /// A short stable name of the kind, for logs and counters.
    pub fn kind(&self) -> &'static str {
        match self {
            SampleError::ForeignType { .. } => "foreign_type",
            SampleError::TooLarge { .. } => "too_large",
        }
    }
}

/// One `Intent` sample, still undecoded (holds Zenoh's sample: no copy).
pub struct IntentSample {
    sample: Sample,
    attachment: Result<Attachment, AttachmentError>,
    profile: Profile,
}

impl std::fmt::Debug for IntentSample {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntentSample")
            .field("key", &self.key())
            .field("len", &self.sample.payload().len())
            .field("attachment", &self.attachment)
            .finish()
    }
}

impl IntentSample {
    /// The key expression it was published on.
    pub fn key(&self) -> &str {
        self.sample.key_expr().as_str()
    }

    /// The payload as one slice (borrowed unless Zenoh fragmented the sample).
    pub fn payload(&self) -> Cow<'_, [u8]> {
        self.sample.payload().to_bytes()
    }

    /// The publisher's metadata, or why the attachment is not rmw_zenoh's. The attachment
    /// is metadata only: a sample with a bad one is still a message.
    pub fn attachment(&self) -> Result<&Attachment, &AttachmentError> {
        self.attachment.as_ref()
    }

    /// The profile whose key it came on.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Decodes it and calls `f` with the view (the strings borrow the payload).
    pub fn with_view<R>(&self, f: impl for<'v> FnOnce(Result<IntentView<'v>, CdrError>) -> R) -> R {
        let bytes = self.payload();
        f(IntentView::decode(&bytes))
    }
}

/// Publishes `Intent`s as an rmw_zenoh publisher does: CDR payload, 33-byte attachment
/// (sequence numbers from 1, wall-clock source time, the GID of its token).
pub struct IntentPublisher {
    publisher: zenoh::pubsub::Publisher<'static>,
    gid: Gid,
    key: String,
    topic: String,
    token: String,
    sequence: AtomicI64,
    buf: Mutex<Vec<u8>>,
    _token: LivelinessToken,
}

impl std::fmt::Debug for IntentPublisher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IntentPublisher")
            .field("topic", &self.topic)
            .field("gid", &self.gid.to_string())
            .finish_non_exhaustive()
    }
}

impl IntentPublisher {
    /// Publishes `intent`; returns the attachment sent with it. A message that cannot be
    /// encoded is refused before it takes a sequence number.
    pub fn publish(&self, intent: &IntentView<'_>) -> Result<Attachment, Error> {
        let mut buf = self.buf.lock().unwrap_or_else(|p| p.into_inner());
        buf.clear();
        intent.encode_into(&mut buf)?;
        let attachment = Attachment {
            sequence: self.sequence.fetch_add(1, Ordering::Relaxed) + 1,
            source_time_ns: now_ns(),
            gid: self.gid,
        };
        self.publisher
            .put(buf.as_slice())
            .attachment(attachment.encode().to_vec())
            .wait()?;
        Ok(attachment)
    }

    /// The publisher's GID (in every attachment).
    pub fn gid(&self) -> Gid {
        self.gid
    }

    /// The data key it publishes on.
    pub fn key_expr(&self) -> &str {
        &self.key
    }

    /// The fully qualified topic.
    pub fn topic(&self) -> &str {
        &self.topic
    }

    /// Its liveliness token.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Messages published so far (the last sequence number).
    pub fn published(&self) -> i64 {
        self.sequence.load(Ordering::Relaxed)
    }

    /// Whether a subscription on another session matches the key now.
    pub fn has_subscribers(&self) -> Result<bool, Error> {
        Ok(self.publisher.matching_status().wait()?.matching())
    }
}

fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX))
}
