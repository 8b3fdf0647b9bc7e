//! [`StaticHriMap`]: HRI intent (+ role values) → user-intent member (+ payload fields), the
//! table `robot-codegen` (`HriMap`) compiles from `hri_intent_map.json` at build time,
//! checked against the user-intent union and this crate's ROS4HRI vocabulary. With it a touchscreen's `MOVE_TO goal=kitchen` and a voice command
//! become the same user-intent member, claimed by the same behavior.

use super::data::RoleValue;
use super::message::HriIntent;
use crate::union::CladUnion;
use serde::de::value::MapDeserializer;
use std::borrow::Cow;
use thiserror::Error;

/// A condition on a role's value (`goal` = `poi_docking`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleCondition {
    /// The role key.
    pub role: &'static str,
    /// The value it must have.
    pub value: &'static str,
}

/// A role copied into a payload field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoleField {
    /// The role key in `data`.
    pub role: &'static str,
    /// The payload field it fills.
    pub field: &'static str,
}

/// Where an admitted HRI request goes, as its map entry says (`"to"` in
/// `hri_intent_map.json`): to the behaviors as the pending user intent, to the mission
/// controller (a capability that needs the robot's resources), or to both (a stop: the
/// controller halts its missions and a behavior ends what it runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Route {
    /// The pending user intent, claimed by a behavior (the default).
    #[default]
    Behaviors,
    /// The mission controller.
    Missions,
    /// Both.
    Both,
}

impl Route {
    /// The map's spelling: `behaviors`, `missions`, `both`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Behaviors => "behaviors",
            Self::Missions => "missions",
            Self::Both => "both",
        }
    }

    /// Reads the map's spelling.
    pub fn from_name(name: &str) -> Option<Route> {
        [Self::Behaviors, Self::Missions, Self::Both]
            .into_iter()
            .find(|r| r.name() == name)
    }

    /// The behaviors get it (as the pending user intent).
    pub const fn to_behaviors(self) -> bool {
        matches!(self, Self::Behaviors | Self::Both)
    }

    /// The mission controller gets it.
    pub const fn to_missions(self) -> bool {
        matches!(self, Self::Missions | Self::Both)
    }
}

/// One mapping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HriMapEntry<T: 'static> {
    /// The intent's canonical wire value (custom intents: their string).
    pub intent: &'static str,
    /// Conditions on role values; all must hold.
    pub when: &'static [RoleCondition],
    /// The user-intent member.
    pub tag: T,
    /// Roles copied into payload fields; a role absent from `data` leaves the field at its
    /// default. A role value that is not a string is copied as its JSON text.
    pub fields: &'static [RoleField],
    /// Where the request goes.
    pub route: Route,
    /// A feature that must be enabled for this entry to exist (evaluated at lookup time by
    /// the intent component's feature gate, as for cloud and app intents).
    pub feature_gate: Option<&'static str>,
}

/// The compiled map: entries grouped by intent (byte order); within an intent, in file
/// order, so a conditional entry written before the catch-all wins.
#[derive(Clone, Copy, Debug)]
pub struct StaticHriMap<T: 'static> {
    /// The entries.
    pub entries: &'static [HriMapEntry<T>],
}

/// Why an HRI intent could not become a user intent.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HriMapError {
    /// No entry maps this intent (with these role values).
    #[error("no user intent is mapped from {intent}")]
    Unmapped {
        /// The intent's wire value.
        intent: String,
    },
    /// The payload could not be built (a generated union without structure members, or a
    /// field that does not accept a string).
    #[error("building user intent `{member}` from {intent}: {reason}")]
    Payload {
        /// The intent's wire value.
        intent: String,
        /// The member's name.
        member: &'static str,
        /// What serde said.
        reason: String,
    },
}

impl<T: Copy + 'static> StaticHriMap<T> {
    /// The entry that applies to `intent`: the first, in file order, among the entries of
    /// its intent whose conditions hold.
    pub fn lookup(&self, intent: &HriIntent) -> Option<&'static HriMapEntry<T>> {
        self.lookup_with(intent.intent.wire(), |role| {
            intent.data.get(role).and_then(RoleValue::as_str)
        })
    }

    /// [`StaticHriMap::lookup`] of the intent whose wire value is `wire` and whose string
    /// roles `role` gives.
    pub(crate) fn lookup_with<'r>(
        &self,
        wire: &str,
        role: impl Fn(&str) -> Option<&'r str>,
    ) -> Option<&'static HriMapEntry<T>> {
        let entries = self.entries;
        // A scan, not a binary search: the map is a few dozen entries, most intents' names
        // differ in length, and a name compared is mostly the shared `__intent_` prefix.
        let start = entries.iter().position(|e| e.intent == wire)?;
        entries[start..]
            .iter()
            .take_while(|e| e.intent == wire)
            .find(|e| e.when.iter().all(|c| role(c.role) == Some(c.value)))
    }

    /// The user intent `intent` maps to (ignoring feature gates and routes: the intent
    /// component's intake applies them).
    pub fn to_user_intent<U: CladUnion<Tag = T>>(
        &self,
        intent: &HriIntent,
    ) -> Result<U, HriMapError> {
        let Some(entry) = self.lookup(intent) else {
            return Err(HriMapError::Unmapped {
                intent: intent.intent.wire().to_owned(),
            });
        };
        entry.build(intent)
    }

    /// True when a stop or cancel request maps to member `tag` (a voice "stop" becomes the
    /// member the map gives `STOP_ACTIVITY`): such a request is never shed from a full input
    /// queue ([`crate::intent::Importance`]).
    pub fn is_stop_member(&self, tag: T) -> bool
    where
        T: PartialEq,
    {
        self.entries.iter().any(|e| {
            e.tag == tag
                && [
                    crate::hri::IntentKind::StopActivity.wire(),
                    crate::hri::IntentKind::CancelActivity.wire(),
                ]
                .contains(&e.intent)
        })
    }
}

impl<T: Copy + 'static> HriMapEntry<T> {
    /// The user intent this entry makes of `intent`: its member, with the roles it copies
    /// in their payload fields.
    pub fn build<U: CladUnion<Tag = T>>(&self, intent: &HriIntent) -> Result<U, HriMapError> {
        self.build_with(intent.intent.wire(), |role| {
            intent.data.get(role).map(|v| match v {
                RoleValue::Str(s) => Cow::Borrowed(s),
                RoleValue::Other(other) => Cow::Owned(other.to_string()),
            })
        })
    }

    /// [`HriMapEntry::build`] of the intent whose wire value is `wire` and whose roles
    /// `role` gives as payload text (a string as it is, any other value as its JSON text).
    pub(crate) fn build_with<'r, U: CladUnion<Tag = T>>(
        &self,
        wire: &str,
        role: impl Fn(&str) -> Option<Cow<'r, str>>,
    ) -> Result<U, HriMapError> {
        let payload_error = |reason: String| HriMapError::Payload {
            intent: wire.to_owned(),
            member: U::tag_name(self.tag),
            reason,
        };
        match self.deserialize_member(role) {
            Some(r) => r.map_err(|e| payload_error(e.to_string())),
            None => Err(payload_error(NOT_IMPLEMENTED.into())),
        }
    }

    /// The member built from the roles `role` gives, as
    /// [`CladUnion::deserialize_struct_member`] answers it (`None`: the union does not
    /// implement it, [`NOT_IMPLEMENTED`]). Answered in that very shape, so that the member
    /// stays where deserialization wrote it until its caller moves it where it is kept
    /// (wrapped in another `Result` it was copied once more: 29 instructions, measured).
    pub(crate) fn deserialize_member<'r, U: CladUnion<Tag = T>>(
        &self,
        role: impl Fn(&str) -> Option<Cow<'r, str>>,
    ) -> Option<Result<U, serde::de::value::Error>> {
        if !U::payload_is_struct(self.tag) {
            return Some(Err(serde::de::Error::custom(
                "the member's payload is not a structure",
            )));
        }
        // The roles as the payload's fields, borrowed: set one by one where the union's
        // generated builder reads them (a string field is the text moved or copied), else
        // through serde's map deserializer (the same member, the same errors).
        let fields = || {
            self.fields
                .iter()
                .filter_map(|f| role(f.role).map(|v| (f.field, v)))
        };
        if let Some(built) = U::struct_member_from_text(self.tag, fields()) {
            return Some(built);
        }
        crate::hint::cold_path();
        let fields = MapDeserializer::<_, serde::de::value::Error>::new(fields());
        U::deserialize_struct_member(self.tag, fields)
    }
}

/// Why a member could not be built when its union has no `deserialize_struct_member`.
pub(crate) const NOT_IMPLEMENTED: &str = "the union does not implement deserialize_struct_member";
