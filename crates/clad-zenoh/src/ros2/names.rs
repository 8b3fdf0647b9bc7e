//! ROS names as rmw_zenoh maps them onto Zenoh: topic name resolution (namespaces, `~`,
//! substitutions, remapping rules), the data key expression of a topic, and the liveliness
//! tokens through which ROS 2 nodes see each other.
//!
//! ```text
//! data key:      <domain>/<topic without its leading '/'>/<dds type>/<type hash>
//! node token:    @ros2_lv/<domain>/<zid>/<nid>/<nid>/NN/<enclave>/<namespace>/<node>
//! pub/sub token: @ros2_lv/<domain>/<zid>/<nid>/<eid>/<MP|MS>/<enclave>/<namespace>/<node>/<topic>/<dds type>/<type hash>/<qos>
//! ```
//!
//! In tokens every `/` of the enclave, namespace, node and topic becomes `%` (the root `/`
//! is `%`); in the data key the topic keeps its inner slashes.

use std::fmt;
use std::str::FromStr;

/// The type-hash chunk Humble writes (Humble has no type hashes).
pub const HUMBLE_TYPE_HASH: &str = "TypeHashNotSupported";

/// The key prefix of every ROS 2 liveliness token.
pub const TOKEN_PREFIX: &str = "@ros2_lv";

/// Which ROS 2 releases the robot talks to: the type hash in keys and tokens differs, so a
/// Humble graph and a newer one never exchange data, even through one router.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    /// Iron and later (Jazzy, Kilted, Lyrical, Rolling): the RIHS01 type hash.
    #[default]
    Jazzy,
    /// Humble: the literal `TypeHashNotSupported`.
    Humble,
}

impl Profile {
    /// The type-hash chunk for a type whose RIHS01 hash is `rihs01`.
    pub fn type_hash(self, rihs01: &'static str) -> &'static str {
        match self {
            Profile::Jazzy => rihs01,
            Profile::Humble => HUMBLE_TYPE_HASH,
        }
    }

    /// The other profile.
    pub fn other(self) -> Profile {
        match self {
            Profile::Jazzy => Profile::Humble,
            Profile::Humble => Profile::Jazzy,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Profile::Jazzy => "jazzy",
            Profile::Humble => "humble",
        })
    }
}

impl FromStr for Profile {
    type Err = String;

    /// A distribution's name: `humble`, or `iron`/`jazzy`/`kilted`/`lyrical`/`rolling`
    /// (all of which hash types).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "humble" => Ok(Profile::Humble),
            "iron" | "jazzy" | "jazzy+" | "kilted" | "lyrical" | "rolling" => Ok(Profile::Jazzy),
            other => Err(format!(
                "unknown ROS 2 distribution {other:?} (humble, iron, jazzy, kilted, lyrical, rolling)"
            )),
        }
    }
}

/// A name ROS would refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NameError {
    /// A node name: letters, digits and `_`, not starting with a digit.
    #[error("node name {name:?}: {problem}")]
    Node {
        /// The name.
        name: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// A namespace: `/`, or `/`-separated tokens.
    #[error("namespace {name:?}: {problem}")]
    Namespace {
        /// The namespace.
        name: String,
        /// What is wrong.
        problem: &'static str,
    },
    /// A topic name, before or after expansion.
    #[error("topic name {name:?}: {problem}")]
    Topic {
        /// The name.
        name: String,
        /// What is wrong.
        problem: String,
    },
    /// A remapping rule that is not `from:=to` or `node:from:=to`.
    #[error("remapping rule {rule:?}: {problem}")]
    Remap {
        /// The rule.
        rule: String,
        /// What is wrong.
        problem: String,
    },
}

fn token_problem(token: &str) -> Option<&'static str> {
    let first = token.chars().next()?;
    if first.is_ascii_digit() {
        return Some("a name token must not start with a digit");
    }
    token
        .chars()
        .any(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        .then_some("only letters, digits, `_` and `/` are allowed")
}

/// Checks a node name (`robot`, `intent_tester`).
pub fn validate_node_name(name: &str) -> Result<(), NameError> {
    let err = |problem| {
        Err(NameError::Node {
            name: name.to_owned(),
            problem,
        })
    };
    if name.is_empty() {
        return err("empty");
    }
    if name.len() > 255 {
        return err("longer than 255 bytes");
    }
    match token_problem(name) {
        Some(p) => err(p),
        None => Ok(()),
    }
}

/// Checks a namespace (`/`, `/robot1`, `/pal/robot1`).
pub fn validate_namespace(ns: &str) -> Result<(), NameError> {
    let err = |problem| {
        Err(NameError::Namespace {
            name: ns.to_owned(),
            problem,
        })
    };
    if ns == "/" {
        return Ok(());
    }
    let Some(rest) = ns.strip_prefix('/') else {
        return err("must start with `/`");
    };
    if rest.ends_with('/') {
        return err("must not end with `/`");
    }
    for token in rest.split('/') {
        if token.is_empty() {
            return err("empty name token (`//`)");
        }
        if let Some(p) = token_problem(token) {
            return err(p);
        }
    }
    Ok(())
}

/// Checks a fully qualified topic name (`/intents`, `/robot1/intents`).
pub fn validate_full_topic_name(name: &str) -> Result<(), NameError> {
    let err = |problem: &str| {
        Err(NameError::Topic {
            name: name.to_owned(),
            problem: problem.to_owned(),
        })
    };
    let Some(rest) = name.strip_prefix('/') else {
        return err("a fully qualified name starts with `/`");
    };
    if rest.is_empty() {
        return err("empty");
    }
    if rest.ends_with('/') {
        return err("must not end with `/`");
    }
    for token in rest.split('/') {
        if token.is_empty() {
            return err("empty name token (`//`)");
        }
        if let Some(p) = token_problem(token) {
            return err(p);
        }
    }
    Ok(())
}

/// Expands a topic name as `rcl` does for node `node` in namespace `ns`: `~` is the node's
/// private namespace (`<ns>/<node>`), `{node}` and `{ns}`/`{namespace}` are substituted, a
/// relative name is put in `ns`. The result is checked ([`validate_full_topic_name`]).
pub fn expand_topic_name(name: &str, node: &str, ns: &str) -> Result<String, NameError> {
    validate_node_name(node)?;
    validate_namespace(ns)?;
    let err = |problem: String| NameError::Topic {
        name: name.to_owned(),
        problem,
    };
    if name.is_empty() {
        return Err(err("empty".into()));
    }
    let private = || {
        if ns == "/" {
            format!("/{node}")
        } else {
            format!("{ns}/{node}")
        }
    };
    let (mut out, body) = match name.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => (private(), rest),
        Some(_) => return Err(err("`~` must be followed by `/` or end the name".into())),
        None => (String::with_capacity(name.len()), name),
    };
    // Substitutions.
    let mut rest = body;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            return Err(err("unmatched `{`".into()));
        };
        let what = &rest[open + 1..open + close];
        match what {
            "node" => out.push_str(node),
            "ns" | "namespace" => out.push_str(if ns == "/" { "" } else { ns }),
            other => return Err(err(format!("unknown substitution {{{other}}}"))),
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    if out.contains('}') {
        return Err(err("unmatched `}`".into()));
    }
    if !out.starts_with('/') {
        out = if ns == "/" {
            format!("/{out}")
        } else {
            format!("{ns}/{out}")
        };
    }
    validate_full_topic_name(&out).map_err(|e| match e {
        NameError::Topic { problem, .. } => err(format!("expands to {out:?}: {problem}")),
        other => other,
    })?;
    Ok(out)
}

/// A remapping rule, as given after `--ros-args -r`: `from:=to`, or `node:from:=to` for one
/// node only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remap {
    /// The node it applies to (`None`: every node).
    pub node: Option<String>,
    /// The name to replace.
    pub from: String,
    /// Its replacement.
    pub to: String,
}

impl FromStr for Remap {
    type Err = NameError;

    fn from_str(rule: &str) -> Result<Self, Self::Err> {
        let err = |problem: &str| NameError::Remap {
            rule: rule.to_owned(),
            problem: problem.to_owned(),
        };
        let (lhs, to) = rule
            .split_once(":=")
            .ok_or_else(|| err("expected `from:=to`"))?;
        let (node, from) = match lhs.split_once(':') {
            Some((node, from)) => {
                validate_node_name(node).map_err(|e| err(&e.to_string()))?;
                (Some(node.to_owned()), from)
            }
            None => (None, lhs),
        };
        if from.is_empty() || to.is_empty() {
            return Err(err("both sides must be names"));
        }
        if from.starts_with("__") {
            return Err(err(
                "`__ns`/`__node` are set with the namespace and node options",
            ));
        }
        Ok(Remap {
            node,
            from: from.to_owned(),
            to: to.to_owned(),
        })
    }
}

/// The fully qualified topic `name` resolves to for node `node` in namespace `ns`: expanded
/// ([`expand_topic_name`]), then the first rule of `remaps` that applies to this node and
/// whose expanded `from` equals it replaces it with its expanded `to`.
pub fn resolve_topic_name(
    name: &str,
    node: &str,
    ns: &str,
    remaps: &[Remap],
) -> Result<String, NameError> {
    let expanded = expand_topic_name(name, node, ns)?;
    for rule in remaps {
        if rule.node.as_deref().is_some_and(|n| n != node) {
            continue;
        }
        if expand_topic_name(&rule.from, node, ns)? == expanded {
            return expand_topic_name(&rule.to, node, ns);
        }
    }
    Ok(expanded)
}

/// The data key expression of a topic (`/robot1/intents` → `0/robot1/intents/<type>/<hash>`).
pub fn data_key(domain: u32, full_topic: &str, dds_type: &str, type_hash: &str) -> String {
    let topic = full_topic.strip_prefix('/').unwrap_or(full_topic);
    let topic = topic.strip_suffix('/').unwrap_or(topic);
    format!("{domain}/{topic}/{dds_type}/{type_hash}")
}

/// `name` with every `/` as `%` (how tokens carry names).
pub fn mangle(name: &str) -> String {
    name.replace('/', "%")
}

/// What a liveliness token announces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntityKind {
    /// A node (`NN`).
    Node,
    /// A publisher (`MP`).
    Publisher,
    /// A subscription (`MS`).
    Subscription,
}

impl EntityKind {
    /// The token's kind chunk.
    pub fn chunk(self) -> &'static str {
        match self {
            EntityKind::Node => "NN",
            EntityKind::Publisher => "MP",
            EntityKind::Subscription => "MS",
        }
    }
}

/// Reliability of a publisher or subscription.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reliability {
    /// Every sample arrives (rmw_zenoh's default).
    #[default]
    Reliable,
    /// Samples may be lost.
    BestEffort,
}

/// Durability of a publisher or subscription.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Durability {
    /// Only live samples (rmw_zenoh's default).
    #[default]
    Volatile,
    /// Late subscribers get the publisher's last samples.
    TransientLocal,
}

/// History of a publisher or subscription.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum History {
    /// Keep the last `n` samples.
    KeepLast(u32),
    /// Keep everything.
    KeepAll,
}

/// The QoS a pub/sub token announces. Deadline, lifespan and liveliness are always the
/// defaults here (infinite, automatic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Qos {
    /// Reliability.
    pub reliability: Reliability,
    /// Durability.
    pub durability: Durability,
    /// History.
    pub history: History,
}

impl Default for Qos {
    /// rclcpp's default for publishers and subscriptions: reliable, volatile, keep last 10.
    fn default() -> Self {
        Qos {
            reliability: Reliability::Reliable,
            durability: Durability::Volatile,
            history: History::KeepLast(10),
        }
    }
}

/// The depth rmw_zenoh leaves out of a token (its default).
const DEFAULT_DEPTH: u32 = 42;

impl Qos {
    /// The token chunk: every value that differs from rmw_zenoh's default, the others left
    /// empty (`::,10:,:,:,,` for the default).
    pub fn to_keyexpr(&self) -> String {
        let rel = match self.reliability {
            Reliability::Reliable => "",
            Reliability::BestEffort => "2",
        };
        let dur = match self.durability {
            Durability::Volatile => "",
            Durability::TransientLocal => "1",
        };
        let (kind, depth) = match self.history {
            History::KeepLast(d) if d == DEFAULT_DEPTH => ("", String::new()),
            History::KeepLast(d) => ("", d.to_string()),
            History::KeepAll => ("2", String::new()),
        };
        format!("{rel}:{dur}:{kind},{depth}:,:,:,,")
    }
}

/// Who the robot is in the graph: what every token of its node repeats.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeIdentity {
    /// The ROS domain (`ROS_DOMAIN_ID`).
    pub domain: u32,
    /// The Zenoh session id, as its `Display` text.
    pub zid: String,
    /// The node's id in the session.
    pub node_id: u32,
    /// The security enclave (`/`).
    pub enclave: String,
    /// The namespace (`/`).
    pub namespace: String,
    /// The node name.
    pub name: String,
}

impl NodeIdentity {
    /// The node's token.
    pub fn node_token(&self) -> String {
        format!(
            "{TOKEN_PREFIX}/{}/{}/{}/{}/{}/{}/{}/{}",
            self.domain,
            self.zid,
            self.node_id,
            self.node_id,
            EntityKind::Node.chunk(),
            mangle(&self.enclave),
            mangle(&self.namespace),
            self.name
        )
    }

    /// The token of a publisher or subscription `entity_id` of this node on `full_topic`.
    pub fn entity_token(
        &self,
        kind: EntityKind,
        entity_id: u32,
        full_topic: &str,
        dds_type: &str,
        type_hash: &str,
        qos: &Qos,
    ) -> String {
        format!(
            "{TOKEN_PREFIX}/{}/{}/{}/{entity_id}/{}/{}/{}/{}/{}/{dds_type}/{type_hash}/{}",
            self.domain,
            self.zid,
            self.node_id,
            kind.chunk(),
            mangle(&self.enclave),
            mangle(&self.namespace),
            self.name,
            mangle(full_topic),
            qos.to_keyexpr()
        )
    }

    /// The node's fully qualified name (`/robot`, `/robot1/robot`).
    pub fn full_name(&self) -> String {
        if self.namespace == "/" {
            format!("/{}", self.name)
        } else {
            format!("{}/{}", self.namespace, self.name)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "RIHS01_850d5c0a06aecf153f4cbc75f27fc655d687f93300bcc928a9d21712716fcfaa";
    const TYPE: &str = "hri_actions_msgs::msg::dds_::Intent_";

    fn robot() -> NodeIdentity {
        NodeIdentity {
            domain: 0,
            zid: "5f1e2d3c4b5a69788796a5b4c3d2e1f0".into(),
            node_id: 0,
            enclave: "/".into(),
            namespace: "/".into(),
            name: "robot".into(),
        }
    }

    #[test]
    fn the_spec_tokens_of_the_robot() {
        let r = robot();
        assert_eq!(
            r.node_token(),
            "@ros2_lv/0/5f1e2d3c4b5a69788796a5b4c3d2e1f0/0/0/NN/%/%/robot"
        );
        assert_eq!(
            r.entity_token(EntityKind::Subscription, 1, "/intents", TYPE, HASH, &Qos::default()),
            format!("@ros2_lv/0/5f1e2d3c4b5a69788796a5b4c3d2e1f0/0/1/MS/%/%/robot/%intents/{TYPE}/{HASH}/::,10:,:,:,,")
        );
        let mut ns = robot();
        ns.namespace = "/pal".into();
        let t = ns.entity_token(
            EntityKind::Publisher,
            2,
            "/pal/intents",
            TYPE,
            HUMBLE_TYPE_HASH,
            &Qos::default(),
        );
        assert!(
            t.contains("/MP/%/%pal/robot/%pal%intents/hri_actions_msgs::msg::dds_::Intent_/TypeHashNotSupported/"),
            "{t}"
        );
        assert_eq!(ns.full_name(), "/pal/robot");
        assert_eq!(t.split('/').count(), 13);
        assert_eq!(r.node_token().split('/').count(), 9);
    }

    #[test]
    fn data_keys_as_in_the_spec() {
        assert_eq!(
            data_key(0, "/intents", TYPE, HASH),
            format!("0/intents/{TYPE}/{HASH}")
        );
        assert_eq!(
            data_key(0, "/intents", TYPE, Profile::Humble.type_hash(HASH)),
            format!("0/intents/{TYPE}/TypeHashNotSupported")
        );
        assert_eq!(
            data_key(42, "/robot1/intents", TYPE, HASH),
            format!("42/robot1/intents/{TYPE}/{HASH}")
        );
    }

    #[test]
    fn qos_chunks_write_only_what_differs_from_the_defaults() {
        assert_eq!(Qos::default().to_keyexpr(), "::,10:,:,:,,");
        let be5 = Qos {
            reliability: Reliability::BestEffort,
            history: History::KeepLast(5),
            ..Qos::default()
        };
        assert_eq!(be5.to_keyexpr(), "2::,5:,:,:,,");
        let tl1 = Qos {
            durability: Durability::TransientLocal,
            history: History::KeepLast(1),
            ..Qos::default()
        };
        assert_eq!(tl1.to_keyexpr(), ":1:,1:,:,:,,");
        let d42 = Qos {
            history: History::KeepLast(42),
            ..Qos::default()
        };
        assert_eq!(d42.to_keyexpr(), "::,:,:,:,,");
        let all = Qos {
            history: History::KeepAll,
            ..Qos::default()
        };
        assert_eq!(all.to_keyexpr(), "::2,:,:,:,,");
    }

    #[test]
    fn topic_names_expand_as_rcl_expands_them() {
        let e = |name, node, ns| expand_topic_name(name, node, ns);
        assert_eq!(e("/intents", "robot", "/").unwrap(), "/intents");
        assert_eq!(e("intents", "robot", "/").unwrap(), "/intents");
        assert_eq!(e("intents", "robot", "/robot1").unwrap(), "/robot1/intents");
        assert_eq!(e("/intents", "robot", "/robot1").unwrap(), "/intents");
        assert_eq!(e("~", "robot", "/").unwrap(), "/robot");
        assert_eq!(e("~/heard", "robot", "/r1").unwrap(), "/r1/robot/heard");
        assert_eq!(e("{node}/in", "robot", "/r1").unwrap(), "/r1/robot/in");
        assert_eq!(e("{ns}/in", "robot", "/r1").unwrap(), "/r1/in");
        assert_eq!(e("{ns}/in", "robot", "/").unwrap(), "/in");
        for (bad, why) in [
            ("", "empty"),
            ("/", "empty"),
            ("/intents/", "end with"),
            ("//intents", "empty name token"),
            ("/1intents", "digit"),
            ("/in-tents", "only letters"),
            ("~intents", "`~`"),
            ("{robot}/x", "unknown substitution"),
            ("{node", "unmatched"),
            ("x}", "unmatched"),
        ] {
            let err = e(bad, "robot", "/").unwrap_err().to_string();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
        assert!(e("x", "1robot", "/").is_err());
        assert!(e("x", "robot", "robot1").is_err());
        assert!(e("x", "robot", "/robot1/").is_err());
    }

    #[test]
    fn remapping_applies_the_first_matching_rule_for_this_node() {
        let rules: Vec<Remap> = [
            "other:intents:=/elsewhere",
            "intents:=/robot1/intents",
            "/intents:=/x",
        ]
        .iter()
        .map(|r| r.parse().unwrap())
        .collect();
        assert_eq!(
            resolve_topic_name("/intents", "robot", "/", &rules).unwrap(),
            "/robot1/intents"
        );
        assert_eq!(
            resolve_topic_name("/intents", "other", "/", &rules).unwrap(),
            "/elsewhere"
        );
        // `intents` in namespace /ns expands to /ns/intents: no rule matches it.
        assert_eq!(
            resolve_topic_name("/intents", "robot", "/ns", &rules).unwrap(),
            "/x"
        );
        assert_eq!(
            resolve_topic_name("heard", "robot", "/ns", &rules).unwrap(),
            "/ns/heard"
        );
        for bad in ["intents", "a:=", ":=b", "1x:a:=b", "__ns:=/r"] {
            assert!(bad.parse::<Remap>().is_err(), "{bad}");
        }
    }

    #[test]
    fn profiles_by_distribution() {
        for d in ["iron", "Jazzy", "kilted", "lyrical", "rolling"] {
            assert_eq!(d.parse::<Profile>().unwrap(), Profile::Jazzy);
        }
        assert_eq!("humble".parse::<Profile>().unwrap(), Profile::Humble);
        assert!("foxy".parse::<Profile>().is_err());
        assert_eq!(Profile::Humble.type_hash(HASH), HUMBLE_TYPE_HASH);
        assert_eq!(Profile::Jazzy.other(), Profile::Humble);
    }
}
