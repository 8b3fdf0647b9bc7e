//! The robot as a ROS 2 peer (`--zenoh --ros2`, cargo feature `zenoh`): it hears
//! `hri_actions_msgs/msg/Intent` on `/intents` from any ROS 2 graph running `rmw_zenoh`, shows
//! up in that graph (`ros2 node list` lists `/robot`, `ros2 topic info /intents` its
//! subscription), and with `--ros-publish` tells the graph what its own cloud pipeline heard.
//! No ROS installation and no bridge: [`clad_zenoh::ros2`] speaks rmw_zenoh's wire format on
//! the robot's Zenoh session.
//!
//! An intent from the graph enters through the robot's one intake ([`Robot::submit`], source
//! `Ros2`), as an `hri` scenario line does (validation, confidence policy, de-duplication, the
//! HRI map's lookup, feature gate, whitelist and route, pending slot or mission controller,
//! timeline).
//! On the way, the transport's **defaults rule** ([`DefaultsRule::Ros`], on unless
//! `--ros-literal`): a ROS publisher cannot leave priority and confidence unset and sends 0
//! and 0.0, so priority 0 reads as unstated (the documented default, 128) and a confidence of
//! exactly 0.0 as unstated (the confidence policy's rule for unstated confidences decides).
//! The input line keeps the values as sent; a `ROS defaults` line follows when the rule fired.
//! The message id the intake sees comes from the publisher's GID and sequence number
//! (a retransmitted message is a duplicate).
//!
//! Bad input from the graph never stops the robot and never costs another message; each is a
//! timeline line and a count in [`RosStats`]:
//!
//! | input | what happens |
//! |---|---|
//! | no attachment, a 77-byte pre-2025 one, a wrong length or GID length | `ignored: the attachment …`; the intent is still taken (the attachment is metadata) |
//! | truncated or garbage CDR, big-endian, a string without its NUL, a length past the end, bad UTF-8 | an input line with the bytes, then `could not translate … rejected` by the intake |
//! | NaN or out-of-range confidence, `data` that is not a JSON object, a missing role | rejected by the intake, naming the field |
//! | another type or type hash on the same topic (a Humble publisher, another package release) | `ignored: sample on … is not hri_actions_msgs/msg/Intent …`, nothing decoded |
//! | a payload over 64 KiB | `ignored: … exceeds the limit`, nothing decoded |
//! | a publisher faster than the tick | the queue (`--queue`) keeps order; when full it sheds the lowest priority and oldest first, never a stop (`STOP_ACTIVITY`, `CANCEL_ACTIVITY`) nor priority 255, and reports what it shed |

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::Duration;

use std::sync::Arc;

use clad_zenoh::intake::{Intake, IntakeReceiver};
use clad_zenoh::ros2::{
    self, DefaultsRule, IntentPublisher, IntentSample, IntentSubscription, IntentView, Node,
    NodeOptions, Qos, Received, SubscriptionOptions,
};
use clad_zenoh::zenoh::Session;
use robot_runtime::hri::{Envelope, IntentFields, IntentId};
use robot_runtime::intent::shed::hri_importance;
use robot_runtime::intent::{HriMessage, IntakeOutcome, IntentSource, NotAdmitted, Request};
use robot_runtime::union::CladUnion;

use crate::intents::UserIntent;
use crate::live::SourceCounts;
use crate::robot::{describe_bytes, Arrival, Robot};
use crate::timeline::What;

/// The robot's ROS 2 settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RosOptions {
    /// The node: domain, name, namespace, profile (Jazzy-and-later or Humble hashes),
    /// remapping rules.
    pub node: NodeOptions,
    /// The topic (resolved in the node's namespace, remapped): `/intents`.
    pub topic: String,
    /// The subscription's queue, limits and profile tolerance.
    pub subscription: SubscriptionOptions,
    /// How priority 0 and confidence 0.0 are read.
    pub defaults: DefaultsRule,
    /// Republish the user intents the cloud pipeline recognised as `Intent`s on the topic.
    pub publish: bool,
}

impl Default for RosOptions {
    fn default() -> Self {
        RosOptions {
            node: NodeOptions::default(),
            topic: "/intents".into(),
            subscription: SubscriptionOptions::default(),
            defaults: DefaultsRule::Ros,
            publish: false,
        }
    }
}

/// What the ROS side did so far. Every sample that reached the robot's queue is exactly one
/// of submitted, refused or shed ([`SourceCounts`], the words of every live source).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RosStats {
    /// Samples that reached the robot's queue.
    pub received: u64,
    /// Of those, handed to the one intake (decoded or not: a payload that does not decode is
    /// rejected by the intake).
    pub submitted: u64,
    /// Of those, requests the intake rejected as invalid.
    pub rejected: u64,
    /// Samples refused unread (another type or hash on the topic, too large).
    pub refused: u64,
    /// Intents whose priority or confidence the defaults rule read as unstated.
    pub defaulted: u64,
    /// Problems by kind: samples refused unread (`foreign_type`, `too_large`), payloads that
    /// do not decode (`truncated`, `missing_nul`, `length_past_end`, ...), attachments that
    /// are not rmw_zenoh's (`attachment_*`: the intent was still taken).
    pub problems: BTreeMap<&'static str, u64>,
    /// Samples a full queue shed.
    pub shed: u64,
    /// Intents published.
    pub published: u64,
    /// Recognised intents that were not published (no valid ROS4HRI form, or Zenoh failed).
    pub not_published: u64,
}

impl RosStats {
    /// All problems counted.
    pub fn problem_count(&self) -> u64 {
        self.problems.values().sum()
    }

    /// The counts in the words of every live source.
    pub fn counts(&self) -> SourceCounts {
        SourceCounts {
            received: self.received,
            submitted: self.submitted,
            refused: self.refused,
            shed: self.shed,
        }
    }

    /// One line for the end of a run.
    pub fn summary(&self) -> String {
        let problems = if self.problems.is_empty() {
            "no bad input".to_owned()
        } else {
            let kinds: Vec<String> = self
                .problems
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            format!("bad input: {}", kinds.join(", "))
        };
        format!(
            "samples {} ({} rejected by the intake, {} read with the ROS defaults), {problems}; {} published, {} not published",
            self.counts().summary(),
            self.rejected,
            self.defaulted,
            self.published,
            self.not_published
        )
    }
}

/// The robot's node in the ROS 2 graph: its tokens, its `/intents` subscription and queue,
/// and optionally its publisher. Dropping it undeclares the entities, then the node.
pub struct RosPeer {
    // Field order is drop order: entities before their node.
    publisher: Option<IntentPublisher>,
    subscription: IntentSubscription,
    queue: IntakeReceiver<Received>,
    node: Node,
    defaults: DefaultsRule,
    stats: RefCell<RosStats>,
}

impl std::fmt::Debug for RosPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RosPeer")
            .field("node", &self.node)
            .field("topic", &self.subscription.topic())
            .field("publishes", &self.publisher.is_some())
            .finish_non_exhaustive()
    }
}

impl RosPeer {
    /// Declares the node, its subscription (and publisher) on `session`.
    pub fn open(session: &Session, options: &RosOptions) -> Result<Self, ros2::Error> {
        let node = Node::declare(session, options.node.clone())?;
        let defaults = options.defaults;
        let rank: clad_zenoh::intake::Rank<Received> = Arc::new(move |item| rank(item, defaults));
        let (subscription, queue) =
            node.subscribe_intents_ranked(&options.topic, options.subscription, Some(rank))?;
        let publisher = if options.publish {
            Some(node.intent_publisher(&options.topic, Qos::default())?)
        } else {
            None
        };
        Ok(RosPeer {
            publisher,
            subscription,
            queue,
            node,
            defaults: options.defaults,
            stats: RefCell::default(),
        })
    }

    /// The node.
    pub fn node(&self) -> &Node {
        &self.node
    }

    /// The subscription.
    pub fn subscription(&self) -> &IntentSubscription {
        &self.subscription
    }

    /// The publisher, with `--ros-publish`.
    pub fn publisher(&self) -> Option<&IntentPublisher> {
        self.publisher.as_ref()
    }

    /// Samples the queue shed so far, counted as they are shed (the timeline and the stats
    /// report them when the tick drains the queue).
    pub fn shed_so_far(&self) -> u64 {
        self.queue.dropped()
    }

    /// The counts so far.
    pub fn stats(&self) -> RosStats {
        self.stats.borrow().clone()
    }

    /// Submits everything queued since the last call to the robot's current tick (between
    /// [`Robot::begin_tick`] and [`Robot::end_tick`]), in arrival order. Returns the number
    /// of requests submitted.
    pub fn deliver(&self, robot: &mut Robot, cpu: Duration) -> usize {
        let topic = self.subscription.topic().to_owned();
        let mut submitted = 0;
        let capacity = self.queue.capacity();
        self.queue.drain(|item| match item {
            Intake::Message(Ok(sample)) => {
                self.take(robot, &topic, &sample, cpu);
                submitted += 1;
            }
            Intake::Message(Err(refused)) => {
                let mut stats = self.stats.borrow_mut();
                stats.received += 1;
                stats.refused += 1;
                *stats.problems.entry(refused.kind()).or_default() += 1;
                drop(stats);
                robot.report_ignored(format!("ros2 {topic}: {refused}"));
            }
            Intake::Overflow { dropped } => {
                let mut stats = self.stats.borrow_mut();
                stats.received += dropped;
                stats.shed += dropped;
                drop(stats);
                robot.report_ignored(crate::live::overflow(
                    &format!("ros2 {topic}"),
                    dropped,
                    capacity,
                ));
            }
            // An `Intent` subscription queues its refusals as messages.
            Intake::Refused(e) => {
                let mut stats = self.stats.borrow_mut();
                stats.received += 1;
                stats.refused += 1;
                drop(stats);
                robot.report_ignored(format!("ros2 {topic}: {e}"))
            }
        });
        submitted
    }

    /// One sample: its attachment checked, its payload decoded and submitted to the intake.
    fn take(&self, robot: &mut Robot, topic: &str, sample: &IntentSample, cpu: Duration) {
        {
            let mut stats = self.stats.borrow_mut();
            stats.received += 1;
            stats.submitted += 1;
        }
        let attachment = match sample.attachment() {
            Ok(a) => Some(*a),
            Err(e) => {
                *self
                    .stats
                    .borrow_mut()
                    .problems
                    .entry(e.kind())
                    .or_default() += 1;
                robot.report_ignored(format!(
                    "the attachment of a sample on ros2 {topic}: {e}; the intent is taken without it"
                ));
                None
            }
        };
        let origin = match &attachment {
            Some(a) => format!("seq {} from {}", a.sequence, a.gid.short()),
            None => "no attachment".to_owned(),
        };
        let arrived = robot.now();
        let outcome = sample.with_view(|decoded| match decoded {
            Ok(view) => {
                let stated = view.stated(self.defaults);
                let mut notes = Vec::new();
                if stated.defaulted() {
                    self.stats.borrow_mut().defaulted += 1;
                    notes.push(What::RosDefaults {
                        priority: stated.priority_defaulted().then_some(stated.wire_priority),
                        confidence: stated
                            .confidence_defaulted()
                            .then_some(stated.wire_confidence),
                    });
                }
                let fields = IntentFields {
                    intent: view.intent,
                    data: view.data,
                    source: view.source,
                    modality: view.modality,
                    priority: stated.priority,
                    confidence: stated.confidence,
                };
                let envelope = Envelope {
                    id: attachment.map(|a| IntentId(a.message_id())),
                    ..Envelope::default()
                };
                // The values as sent (the defaults rule's reading follows on its own line).
                let arrival = Arrival {
                    detail: Some(format!("{}  [{origin}]", describe(&view))),
                    notes,
                    ..Arrival::live()
                };
                let request = Request::hri_fields(IntentSource::Ros2, fields, envelope, arrived);
                robot.submit(request, arrival, cpu)
            }
            Err(e) => {
                *self
                    .stats
                    .borrow_mut()
                    .problems
                    .entry(e.kind())
                    .or_default() += 1;
                let bytes = sample.payload();
                let reason = format!("CDR on {}: {e}", sample.key());
                let arrival = Arrival {
                    detail: Some(format!("{}  [{origin}]", describe_bytes(&bytes))),
                    ..Arrival::live()
                };
                let request = Request::hri(
                    IntentSource::Ros2,
                    HriMessage::Undecodable {
                        reason: &reason,
                        bytes: &bytes,
                    },
                    arrived,
                );
                robot.submit(request, arrival, cpu)
            }
        });
        if matches!(
            outcome,
            IntakeOutcome::NotAdmitted(NotAdmitted::Rejected(_))
        ) {
            self.stats.borrow_mut().rejected += 1;
        }
    }

    /// Publishes, as ROS4HRI `Intent`s, the user intents the robot's cloud pipeline recognised
    /// since the last call ([`Robot::take_recognised`]; see [`crate::hri::heard`] for the
    /// form), each reported in the timeline. Returns how many were published; without a
    /// publisher, nothing is taken.
    pub fn publish_heard(&self, robot: &mut Robot) -> usize {
        let Some(publisher) = &self.publisher else {
            return 0;
        };
        let to = format!("ros2 {}", publisher.topic());
        let mut published = 0;
        for heard in robot.take_recognised() {
            let member = UserIntent::tag_name(heard.intent.tag());
            let hri = match crate::hri::heard(&heard.intent) {
                Ok(hri) => hri,
                Err(errors) => {
                    self.stats.borrow_mut().not_published += 1;
                    let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    robot.report_ignored(format!(
                        "{member} (cloud intent {}) not published on {to}: {}",
                        heard.cloud_intent,
                        errors.join("; ")
                    ));
                    continue;
                }
            };
            let wire = hri.to_wire();
            let view = IntentView {
                intent: &wire.intent,
                data: &wire.data,
                source: &wire.source,
                modality: &wire.modality,
                priority: wire.priority,
                confidence: wire.confidence.unwrap_or(1.0),
            };
            match publisher.publish(&view) {
                Ok(attachment) => {
                    self.stats.borrow_mut().published += 1;
                    published += 1;
                    robot.report(What::Published {
                        to: to.clone(),
                        detail: format!(
                            "{}  [seq {}, heard as cloud intent {}]",
                            describe(&view),
                            attachment.sequence,
                            heard.cloud_intent
                        ),
                    });
                }
                Err(e) => {
                    self.stats.borrow_mut().not_published += 1;
                    robot.report_ignored(format!("{member} not published on {to}: {e}"));
                }
            }
        }
        published
    }
}

/// Longest string shown in a timeline line (a hostile publisher may send 64 KiB).
const SHOWN: usize = 160;

fn shorten(s: &str) -> String {
    if s.len() <= SHOWN {
        return s.to_owned();
    }
    let mut end = SHOWN;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

/// An intent as sent (raw wire values), in the words of an `hri` input line.
pub fn describe(view: &IntentView<'_>) -> String {
    let mut m = serde_json::Map::new();
    for (key, value) in [
        ("intent", view.intent),
        ("data", view.data),
        ("source", view.source),
        ("modality", view.modality),
    ] {
        if !value.is_empty() {
            m.insert(key.to_owned(), shorten(value).into());
        }
    }
    m.insert("priority".to_owned(), view.priority.into());
    // The shortest text that reads back as the same f32 (0.95, not 0.949999988079071).
    let c = view.confidence;
    let shown = format!("{c}")
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or_else(|| serde_json::Value::String(format!("{c}")), Into::into);
    m.insert("confidence".to_owned(), shown);
    crate::scenario::describe_hri(&m)
}

/// A ROS 2 sample's rank in a full queue: its priority as the defaults rule reads it, and a
/// stop or cancel is always admitted. Refused samples rank lowest.
fn rank(item: &Intake<Received>, defaults: DefaultsRule) -> u16 {
    let Intake::Message(Ok(sample)) = item else {
        return 0;
    };
    sample.with_view(|decoded| match decoded {
        Ok(view) => hri_importance(view.intent, view.stated(defaults).priority).rank(),
        Err(_) => 0,
    })
}
