//! What the robot does with each scenario or live input and each intent event it reports:
//! the requests submitted, the timeline entries written.

use std::time::Duration;

use robot_runtime::intent::{
    CloudErrorCause, DeactivateReason, DropReason, Flag, HriMessage, IntentEvent, IntentSource,
    Match, Reaction, Request,
};
use robot_runtime::union::CladUnion;

use crate::hri::HriEnvelopeBytes;
use crate::intents::{CloudDatagram, Tag, UserIntent};
use crate::log::Item;

use crate::scenario::{ScenarioEvent, TimedEvent};
use crate::timeline::{IntentInfo, What};

use super::describe::{describe_match, hri_event, input_kind, map_entry, payload_json};
use super::{Latency, Recognised, Robot};

impl Robot {
    pub(super) fn input(&mut self, e: &TimedEvent, cpu: Duration) {
        let line = e.line;
        let say = e.say.clone();
        let input = |robot: &mut Self, kind: &'static str, detail: String| {
            robot.push(What::Input {
                line,
                kind,
                detail,
                say: say.clone(),
            });
        };
        let mut from_input = true;
        match &e.event {
            ScenarioEvent::Note(text) => {
                self.push(What::Note { text: text.clone() });
                return;
            }
            ScenarioEvent::Cloud { bytes, .. } => {
                self.submit(CloudDatagram(bytes), self.arrival(e), cpu);
                return;
            }
            ScenarioEvent::AppIntent { intent, param } => {
                self.submit(Request::App { intent, param }, self.arrival(e), cpu);
                return;
            }
            ScenarioEvent::Hri(message) => {
                let request =
                    Request::hri(IntentSource::Hri, HriMessage::Object(message), self.now());
                self.submit(request, self.arrival(e), cpu);
                return;
            }
            ScenarioEvent::HriPacked(bytes) => {
                let request = HriEnvelopeBytes {
                    bytes,
                    arrived: self.now(),
                };
                self.submit(request, self.arrival(e), cpu);
                return;
            }
            ScenarioEvent::TriggerWord {
                will_open_stream,
                from_mute,
            } => {
                let detail = match (from_mute, will_open_stream) {
                    (true, _) => "from the mute button",
                    (false, true) => "heard, stream opening",
                    (false, false) => "heard, no stream",
                };
                input(self, "trigger", detail.to_owned());
                self.runner
                    .intents_mut()
                    .set_trigger_word_pending(*will_open_stream, *from_mute);
            }
            ScenarioEvent::State(patch) => {
                input(
                    self,
                    "state",
                    serde_json::Value::Object(patch.clone()).to_string(),
                );
                for e in original_behaviors::RobotAccessMut::robot_mut(&mut self.runner)
                    .apply_json(patch)
                {
                    self.push(What::InputIgnored {
                        reason: e.to_string(),
                    });
                }
                from_input = false;
            }
            ScenarioEvent::ActionDone { action, result } => {
                input(self, "action", format!("{action} {}", result.name()));
                if !self.completions.complete(action, *result) {
                    self.push(What::InputIgnored {
                        reason: format!("no running action is named {action:?}"),
                    });
                }
                from_input = false;
            }
        }
        self.settle_input(line, from_input, cpu);
    }

    /// After an input: reports what the components logged and marks where a pending intent
    /// came from (for latency).
    pub(super) fn settle_input(&mut self, line: usize, from_input: bool, cpu: Duration) {
        let items = self.log.take();
        let pending = items
            .iter()
            .any(|i| matches!(i, Item::Intent(IntentEvent::Pending { .. })));
        for item in items {
            match item {
                Item::Intent(ev) => self.intent_event(ev, cpu),
                Item::What(w) => self.push(w),
            }
        }
        if pending && from_input {
            self.pending_from = Some((line, self.tick, cpu));
        }
    }

    pub(super) fn intent_event(&mut self, ev: IntentEvent<Tag>, cpu: Duration) {
        {
            let what = match ev {
                IntentEvent::Pending {
                    tag,
                    source,
                    matched,
                } => {
                    let pending = self.runner.intents().pending().filter(|p| p.tag() == tag);
                    let payload = pending.and_then(|p| payload_json(p.intent()));
                    if let (
                        Some(list),
                        Some(p),
                        Match::Cloud { intent } | Match::SimpleVoice { intent },
                    ) = (self.recognised.as_mut(), pending, &matched)
                    {
                        list.push(Recognised {
                            cloud_intent: intent,
                            intent: p.intent().clone(),
                        });
                    }
                    let meta = pending.map(|p| {
                        let m = p.meta();
                        let input = self.last_input.as_ref().filter(|i| i.0 == self.tick);
                        Box::new(IntentInfo {
                            source: m.source.wire().to_owned(),
                            modality: m.modality.wire().to_owned(),
                            priority: m.priority.0,
                            confidence: m.confidence.value(),
                            input: input.map(|i| i.1),
                            text: input.map(|i| i.2.clone()),
                            said: input.and_then(|i| i.3.clone()),
                            map_entry: map_entry(&matched, tag),
                        })
                    });
                    What::Pending {
                        intent: UserIntent::tag_name(tag),
                        payload,
                        source: source.to_string(),
                        via: describe_match(&matched),
                        meta,
                    }
                }
                IntentEvent::Replaced { old, new, .. } => What::Replaced {
                    old: UserIntent::tag_name(old),
                    new: UserIntent::tag_name(new),
                },
                IntentEvent::ClaimDeadlineNear { tag, age_ticks } => What::DeadlineNear {
                    intent: UserIntent::tag_name(tag),
                    age_ticks,
                },
                IntentEvent::Dropped {
                    reason: DropReason::Expired { .. },
                    ..
                } => return, // the Unclaimed event that follows says it
                IntentEvent::Dropped {
                    tag,
                    reason: DropReason::LowerPriority { .. },
                    ..
                } => What::InputIgnored {
                    reason: format!(
                        "{} dropped: a higher-priority intent is pending",
                        UserIntent::tag_name(tag)
                    ),
                },
                IntentEvent::Dropped { tag, .. } => What::Dropped {
                    intent: UserIntent::tag_name(tag),
                },
                IntentEvent::Unclaimed { tag, .. } => {
                    self.pending_from = None;
                    What::Unclaimed {
                        intent: UserIntent::tag_name(tag),
                        age_ticks: self.runner.intents().config().claim_deadline_ticks,
                    }
                }
                IntentEvent::Activated { id, tag, owner, .. } => {
                    let owner = self
                        .runner
                        .owner_name(&owner)
                        .map_or_else(|| owner.to_string(), str::to_owned);
                    let latency = self.pending_from.take().map(|(line, tick, at)| {
                        let ticks = self.tick - tick;
                        self.latencies.push(Latency {
                            line,
                            intent: UserIntent::tag_name(tag),
                            behavior: owner.to_string(),
                            ticks,
                            cpu: cpu.saturating_sub(at),
                        });
                        ticks
                    });
                    What::Claimed {
                        intent: UserIntent::tag_name(tag),
                        behavior: owner.to_string(),
                        activation: id.0.get(),
                        latency_ticks: latency,
                    }
                }
                IntentEvent::Deactivated { tag, reason, .. } => What::Released {
                    intent: UserIntent::tag_name(tag),
                    reason: match reason {
                        DeactivateReason::Released => "released",
                        DeactivateReason::GuardDropped => "guard dropped",
                        DeactivateReason::Superseded => "superseded",
                        DeactivateReason::Forced => "forced",
                    },
                },
                IntentEvent::TimeoutHeld => What::TimeoutHeld { held: true },
                IntentEvent::TimeoutResumed => What::TimeoutHeld { held: false },
                IntentEvent::TriggerWordPending { replaced, .. } => What::TriggerWord {
                    change: if replaced {
                        "pending (replaced)"
                    } else {
                        "pending"
                    },
                },
                IntentEvent::TriggerWordSuppressed => What::TriggerWord {
                    change: "suppressed",
                },
                IntentEvent::TriggerWordCleared => What::TriggerWord { change: "cleared" },
                IntentEvent::TriggerWordDeadlineNear => return,
                IntentEvent::TriggerWordDropped => What::TriggerWord {
                    change: "expired (nobody reacted)",
                },
                IntentEvent::TranslateFailed {
                    intent,
                    error,
                    reaction,
                    ..
                } => What::NotUnderstood {
                    intent: intent.into(),
                    error: error.to_string(),
                    reaction: match reaction {
                        Reaction::Unmatched => "unmatched intent",
                        Reaction::ErrorFlag => "error flag",
                        Reaction::Drop => "dropped",
                    },
                },
                IntentEvent::CloudError { cause } => What::CloudError {
                    cause: match cause {
                        CloudErrorCause::Error { error, extra } if extra.is_empty() => {
                            format!("cloud error {error}")
                        }
                        CloudErrorCause::Error { error, extra } => {
                            format!("cloud error {error}: {extra}")
                        }
                        CloudErrorCause::StreamTimeout => "cloud stream timed out".into(),
                        CloudErrorCause::BadResult => "a result that does not translate".into(),
                        CloudErrorCause::Undecodable { error } => {
                            format!("undecodable datagram: {error}")
                        }
                    },
                },
                IntentEvent::StreamOpened => What::StreamOpened,
                IntentEvent::FlagCleared { flag } => What::FlagCleared {
                    flag: match flag {
                        Flag::Unclaimed => "unclaimed",
                        Flag::Error => "error",
                        Flag::StreamOpen => "stream-open",
                    },
                },
                IntentEvent::CloudIgnored { message } => What::InputIgnored {
                    reason: format!("the intent component does not handle {message}"),
                },
                IntentEvent::Hri(e) => match hri_event(e) {
                    Some(what) => what,
                    None => return,
                },
                // The mission controller's decision follows.
                IntentEvent::ToMissions { .. } => return,
                IntentEvent::InputsShed { source, count } => What::InputIgnored {
                    reason: format!(
                        "{count} request{} from {} shed: the input queue was full (the least important and oldest go first, never a stop)",
                        if count == 1 { "" } else { "s" },
                        input_kind(source)
                    ),
                },
                other => What::InputIgnored {
                    reason: format!("unrecognised intent event {}", other.name()),
                },
            };
            self.push(what);
        }
    }
}
