//! [`Body`]: the one resource vocabulary of a Vector-shaped robot, what each behavior action
//! kind needs ([`needs`]) and what the original engine's animation tracks lock
//! ([`Body::of_track`], `tracksToLockWhileActivated`).
//!
//! | resource | what it is | original track |
//! |---|---|---|
//! | `Base` | the treads: driving, turning, docking | `BODY_TRACK` |
//! | `Head` | the head motor (gaze) | `HEAD_TRACK` |
//! | `Lift` | the lift (arms) | `LIFT_TRACK` |
//! | `Speech` | the voice: text to speech, dialogue turns | (none: speech is not a track) |
//! | `Screen` | the face display (eyes, content) | `FACE_TRACK` |
//! | `BackpackLights` | the backpack's lights | `BACKPACK_LIGHTS_TRACK` |
//! | `Audio` | the speaker's sound effects (an animation's audio) | `AUDIO_TRACK` |
//!
//! `EVENT_TRACK` (an animation's timed events) moves nothing: it names no resource.
//!
//! What each [`ActionRequest`] kind needs:
//!
//! | action | needs |
//! |---|---|
//! | `Animation` | head, lift, base, screen, backpack lights, audio (every track an animation plays) |
//! | `Speech` | speech, audio |
//! | `Turn` | base |
//! | `MoveHead` | head |
//! | `StandIn` | nothing (a class not run natively: what it would move is unknown) |
//!
//! A mission capability declares its own set ([`Capability::resources`]); the example
//! robot's table is in its `mission` module (navigate: base; guide: base, speech; engage:
//! head, speech; present content: screen, speech; activity: head, screen, speech).
//!
//! [`Capability::resources`]: crate::mission::Capability::resources

use super::resource::{Resource, ResourceSet};
use crate::behavior::ActionRequest;

/// A part of the robot's body a behavior action or a mission capability uses exclusively.
/// Read from JSON by its [`name`](Body::name) (`"base"`, `"backpack_lights"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Body {
    /// The treads.
    Base,
    /// The head motor.
    Head,
    /// The lift.
    Lift,
    /// The voice (text to speech).
    Speech,
    /// The face display.
    Screen,
    /// The backpack's lights.
    BackpackLights,
    /// The speaker's sound effects.
    Audio,
}

impl Resource for Body {
    const ALL: &'static [Body] = &[
        Body::Base,
        Body::Head,
        Body::Lift,
        Body::Speech,
        Body::Screen,
        Body::BackpackLights,
        Body::Audio,
    ];
    fn index(self) -> u8 {
        self as u8
    }
}

impl Body {
    /// The name the timeline and the documentation use (`base`, `backpack_lights`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Body::Base => "base",
            Body::Head => "head",
            Body::Lift => "lift",
            Body::Speech => "speech",
            Body::Screen => "screen",
            Body::BackpackLights => "backpack_lights",
            Body::Audio => "audio",
        }
    }

    /// What an original `AnimTrackFlag` name locks: `Some(EMPTY)` for `EVENT_TRACK` (it moves
    /// nothing), `None` for a name that is not a track.
    pub fn of_track(track: &str) -> Option<ResourceSet<Body>> {
        Some(match track {
            "HEAD_TRACK" => ResourceSet::of(&[Body::Head]),
            "LIFT_TRACK" => ResourceSet::of(&[Body::Lift]),
            "BODY_TRACK" => ResourceSet::of(&[Body::Base]),
            "FACE_TRACK" => ResourceSet::of(&[Body::Screen]),
            "BACKPACK_LIGHTS_TRACK" => ResourceSet::of(&[Body::BackpackLights]),
            "AUDIO_TRACK" => ResourceSet::of(&[Body::Audio]),
            "EVENT_TRACK" => ResourceSet::EMPTY,
            _ => return None,
        })
    }

    /// What a list of track names locks (`tracksToLockWhileActivated`), and the names that
    /// are not tracks (the loader checks them against its vocabulary first; a caller with
    /// names from elsewhere reports these).
    pub fn of_tracks<'a>(
        tracks: impl IntoIterator<Item = &'a str>,
    ) -> (ResourceSet<Body>, Vec<&'a str>) {
        let mut set = ResourceSet::EMPTY;
        let mut unknown = Vec::new();
        for t in tracks {
            match Body::of_track(t) {
                Some(s) => set = set.union(s),
                None => unknown.push(t),
            }
        }
        (set, unknown)
    }
}

/// What the action `request` needs (see the module documentation's table).
pub fn needs(request: &ActionRequest<'_>) -> ResourceSet<Body> {
    match request {
        ActionRequest::Animation { .. } => ResourceSet::of(&[
            Body::Head,
            Body::Lift,
            Body::Base,
            Body::Screen,
            Body::BackpackLights,
            Body::Audio,
        ]),
        ActionRequest::Speech { .. } => ResourceSet::of(&[Body::Speech, Body::Audio]),
        ActionRequest::Turn { .. } => ResourceSet::of(&[Body::Base]),
        ActionRequest::MoveHead { .. } => ResourceSet::of(&[Body::Head]),
        ActionRequest::StandIn { .. } => ResourceSet::EMPTY,
    }
}

/// The parts of what `request` needs that it can play without when a hold keeps them from
/// everyone ([`ArbitratedAction::maskable`](super::ArbitratedAction::maskable)): every track
/// of an animation (the original's track locks masked tracks out of animations: lifted, an
/// animation plays without its body track); nothing of the others (a turn without the base
/// does nothing; speech and a head move need what they claim).
pub fn maskable(request: &ActionRequest<'_>) -> ResourceSet<Body> {
    match request {
        ActionRequest::Animation { .. } => needs(request),
        _ => ResourceSet::EMPTY,
    }
}

/// An event as one short line, `change label what`: the parts granted or released, the
/// victims of a preemption, or the claims a wait or a refusal is blocked by (`granted
/// Spin/Turn base`, `waiting Spin/Turn Safety/hold`), for logs and tests.
impl std::fmt::Display for super::table::ArbiterEvent<Body> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use super::table::ArbiterEvent as E;
        match self {
            E::Granted {
                label, resources, ..
            } => write!(f, "granted {label} {}", names(*resources)),
            E::Preempting { label, victims, .. } => {
                write!(f, "preempting {label} {}", victims.join(","))
            }
            E::Waiting {
                label, blocked_by, ..
            } => write!(f, "waiting {label} {}", blocked_by.join(",")),
            E::Refused {
                label, blocked_by, ..
            } => write!(f, "refused {label} {}", blocked_by.join(",")),
            E::Released {
                label, resources, ..
            } => write!(f, "released {label} {}", names(*resources)),
        }
    }
}

/// A set's names joined with `+` (`base+speech`), for logs and the timeline.
pub fn names(set: ResourceSet<Body>) -> String {
    let mut out = String::new();
    for r in set.iter() {
        if !out.is_empty() {
            out.push('+');
        }
        out.push_str(r.name());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_track_of_the_original_names_its_part() {
        let tracks = [
            "HEAD_TRACK",
            "LIFT_TRACK",
            "BODY_TRACK",
            "FACE_TRACK",
            "EVENT_TRACK",
            "BACKPACK_LIGHTS_TRACK",
            "AUDIO_TRACK",
        ];
        let (set, unknown) = Body::of_tracks(tracks);
        assert!(unknown.is_empty());
        assert_eq!(
            names(set),
            "base+head+lift+screen+backpack_lights+audio",
            "every part but speech"
        );
        let (set, unknown) = Body::of_tracks(["LIGHT_TRACK", "HEAD_TRACK", ""]);
        assert_eq!(set, ResourceSet::of(&[Body::Head]));
        assert_eq!(unknown, ["LIGHT_TRACK", ""]);
    }

    #[test]
    fn an_animation_conflicts_with_driving_and_speech_with_an_animations_audio() {
        let anim = needs(&ActionRequest::Animation {
            name: "anim_greet",
            loops: 1,
        });
        let turn = needs(&ActionRequest::Turn { degrees: 90.0 });
        let speech = needs(&ActionRequest::Speech { text: "hi" });
        let head = needs(&ActionRequest::MoveHead { degrees: 10.0 });
        assert!(anim.intersects(turn) && anim.intersects(speech) && anim.intersects(head));
        assert!(!turn.intersects(speech) && !turn.intersects(head));
        assert!(needs(&ActionRequest::StandIn { class: "X" }).is_empty());
    }
}
