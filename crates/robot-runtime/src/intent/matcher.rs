//! [`IntentMatcher`]: the one way to say "this intent is for me" — by tag, by full data, or
//! by predicate — used from code, from JSON (`respondToUserIntents`, `UserIntentPending`
//! lists) and by the component's activation calls. Evaluation is pure: no "selected tag"
//! is remembered between checking and activating.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::shape;
use crate::union::CladUnion;

/// A shared predicate on intents.
pub type IntentPredicate<U> = Arc<dyn Fn(&U) -> bool + Send + Sync>;

/// Matches a user intent.
pub enum IntentMatcher<U: CladUnion> {
    /// Any intent with this tag (`{"type": "play_fistbump"}`).
    Tag(U::Tag),
    /// Exactly this intent, payload included (`{"type": "global_stop", "what_to_stop": "timer"}`).
    Exact(U),
    /// An intent with this tag for which the predicate holds; the predicate only runs when
    /// the tag matches (`{"type": "test_name", "_lambda": "test_lambda"}`).
    Predicate {
        /// The tag.
        tag: U::Tag,
        /// A name for logs and JSON round trips.
        name: Cow<'static, str>,
        /// The predicate.
        predicate: IntentPredicate<U>,
    },
}

impl<U: CladUnion + Clone> Clone for IntentMatcher<U> {
    fn clone(&self) -> Self {
        match self {
            Self::Tag(t) => Self::Tag(*t),
            Self::Exact(u) => Self::Exact(u.clone()),
            Self::Predicate {
                tag,
                name,
                predicate,
            } => Self::Predicate {
                tag: *tag,
                name: name.clone(),
                predicate: predicate.clone(),
            },
        }
    }
}

impl<U: CladUnion + fmt::Debug> fmt::Debug for IntentMatcher<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Tag(t) => f.debug_tuple("Tag").field(&U::tag_name(*t)).finish(),
            Self::Exact(u) => f.debug_tuple("Exact").field(u).finish(),
            Self::Predicate { tag, name, .. } => f
                .debug_struct("Predicate")
                .field("tag", &U::tag_name(*tag))
                .field("name", name)
                .finish_non_exhaustive(),
        }
    }
}

/// Why a JSON matcher was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MatcherError {
    /// Not an object.
    #[error("a matcher must be a JSON object")]
    NotAnObject,
    /// No string `"type"`.
    #[error("a matcher needs a string \"type\"")]
    MissingType,
    /// `"type"` names no member.
    #[error("unknown intent tag `{0}`")]
    UnknownTag(String),
    /// `"_lambda"` is not a string, or other keys stand beside it.
    #[error("a `_lambda` matcher takes only \"type\" and a string \"_lambda\"")]
    BadLambda,
    /// No predicate of that name.
    #[error("unknown predicate `{0}`")]
    UnknownPredicate(String),
    /// A full-data matcher must give every field (else "absent" would be ambiguous).
    #[error("full-data matcher for `{tag}` lacks field `{field}`")]
    IncompleteIntent {
        /// The member.
        tag: &'static str,
        /// The first missing field.
        field: &'static str,
    },
    /// A full-data matcher names a field the member does not have.
    #[error("`{tag}` has no field `{field}`")]
    UnknownField {
        /// The member.
        tag: &'static str,
        /// The key.
        field: String,
    },
    /// The union's serde mapping rejected the data.
    #[error("bad intent data for `{tag}`: {reason}")]
    BadIntent {
        /// The member.
        tag: &'static str,
        /// serde's message.
        reason: String,
    },
    /// Two matchers of one list would be ambiguous (two bare-tag or two full-data matchers
    /// for one tag).
    #[error("two {kind} matchers for `{tag}`")]
    Ambiguous {
        /// The member.
        tag: &'static str,
        /// `"tag"` or `"full-data"`.
        kind: &'static str,
    },
}

impl<U: CladUnion> IntentMatcher<U> {
    /// Matches this tag.
    pub fn tag(tag: U::Tag) -> Self {
        Self::Tag(tag)
    }

    /// Matches exactly this intent.
    pub fn exact(intent: U) -> Self {
        Self::Exact(intent)
    }

    /// Matches intents with `tag` for which `predicate` holds.
    pub fn predicate(
        tag: U::Tag,
        name: impl Into<Cow<'static, str>>,
        predicate: impl Fn(&U) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self::Predicate {
            tag,
            name: name.into(),
            predicate: Arc::new(predicate),
        }
    }

    /// The tag this matcher can match.
    pub fn target_tag(&self) -> U::Tag {
        match self {
            Self::Tag(t) | Self::Predicate { tag: t, .. } => *t,
            Self::Exact(u) => u.tag(),
        }
    }
}

impl<U: CladUnion + PartialEq> IntentMatcher<U> {
    /// True when `intent` matches.
    pub fn matches(&self, intent: &U) -> bool {
        match self {
            Self::Tag(t) => intent.tag() == *t,
            Self::Exact(u) => intent == u,
            Self::Predicate { tag, predicate, .. } => intent.tag() == *tag && predicate(intent),
        }
    }

    /// The first matcher of `list` that matches `intent`.
    pub fn first_match<'a>(list: &'a [Self], intent: &U) -> Option<&'a Self> {
        list.iter().find(|m| m.matches(intent))
    }
}

impl<U> IntentMatcher<U>
where
    U: CladUnion + Serialize + DeserializeOwned,
{
    /// A matcher from its JSON form (one element of `respondToUserIntents`):
    ///
    /// * `{"type": tag}` → [`IntentMatcher::Tag`];
    /// * `{"type": tag, "_lambda": name}` → [`IntentMatcher::Predicate`] with the predicate
    ///   `predicates(name)` returns (a per-instance table, not a global one);
    /// * `{"type": tag, field: value, ...}` → [`IntentMatcher::Exact`]; every field of the
    ///   member must be given, and no other key.
    pub fn from_json(
        value: &serde_json::Value,
        predicates: &dyn Fn(&str) -> Option<IntentPredicate<U>>,
    ) -> Result<Self, MatcherError> {
        let obj = value.as_object().ok_or(MatcherError::NotAnObject)?;
        let name = obj
            .get("type")
            .and_then(|t| t.as_str())
            .ok_or(MatcherError::MissingType)?;
        let tag =
            U::tag_from_name(name).ok_or_else(|| MatcherError::UnknownTag(name.to_owned()))?;
        let tag_name = U::tag_name(tag);
        if let Some(l) = obj.get("_lambda") {
            let l = l.as_str().ok_or(MatcherError::BadLambda)?;
            if obj.len() != 2 {
                return Err(MatcherError::BadLambda);
            }
            let predicate =
                predicates(l).ok_or_else(|| MatcherError::UnknownPredicate(l.to_owned()))?;
            return Ok(Self::Predicate {
                tag,
                name: Cow::Owned(l.to_owned()),
                predicate,
            });
        }
        if obj.len() == 1 {
            return Ok(Self::Tag(tag));
        }
        let fields = shape::payload_fields(&U::default_for(tag)).unwrap_or_default();
        if let Some(k) = obj
            .keys()
            .find(|k| *k != "type" && !fields.contains(&k.as_str()))
        {
            return Err(MatcherError::UnknownField {
                tag: tag_name,
                field: k.clone(),
            });
        }
        if let Some(field) = fields.iter().find(|f| !obj.contains_key(**f)) {
            return Err(MatcherError::IncompleteIntent {
                tag: tag_name,
                field,
            });
        }
        let intent = U::deserialize(value).map_err(|e| MatcherError::BadIntent {
            tag: tag_name,
            reason: e.to_string(),
        })?;
        Ok(Self::Exact(intent))
    }

    /// Parses a JSON list of matchers and checks it: at most one bare-tag and one
    /// full-data matcher per tag.
    pub fn list_from_json(
        value: &serde_json::Value,
        predicates: &dyn Fn(&str) -> Option<IntentPredicate<U>>,
    ) -> Result<Vec<Self>, MatcherError> {
        let items: Vec<&serde_json::Value> = match value {
            serde_json::Value::Array(a) => a.iter().collect(),
            other => vec![other],
        };
        let list = items
            .into_iter()
            .map(|v| Self::from_json(v, predicates))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, m) in list.iter().enumerate() {
            let kind = match m {
                Self::Tag(_) => "tag",
                Self::Exact(_) => "full-data",
                Self::Predicate { .. } => continue,
            };
            let dup = list[..i].iter().any(|o| {
                o.target_tag() == m.target_tag()
                    && matches!(
                        (o, m),
                        (Self::Tag(_), Self::Tag(_)) | (Self::Exact(_), Self::Exact(_))
                    )
            });
            if dup {
                return Err(MatcherError::Ambiguous {
                    tag: U::tag_name(m.target_tag()),
                    kind,
                });
            }
        }
        Ok(list)
    }
}
