//! The tree of files: the generic type files, the big enums and unions shaped like the
//! robot's, and the top-level files with their autounions.

use std::collections::HashSet;
use std::fmt::Write as _;

use super::*;

impl Gen {
    pub(super) fn build(mut self) -> Corpus {
        let types = self.type_files();
        let shared_topics = self.rng.sample(TOPICS, 10);
        let g2e_topics = self.rng.sample(TOPICS, 14);
        let e2g_topics = self.rng.sample(TOPICS, 20);

        // externalInterface/shared: included by both top-level files.
        let mut shared = Vec::new();
        for t in &shared_topics {
            let inc = self.pick_files(&types.generic, 1, 2);
            let path = format!(
                "clad/externalInterface/shared/{}Messages.clad",
                lower_first(t)
            );
            let mut f = self.begin(
                &path,
                &format!("{t} messages shared by both directions of the app protocol."),
                inc,
                &["Anki", "Vector", "ExternalInterface"],
            );
            if self.rng.chance(30) {
                let name = self.compound(t, STRUCT_NOUNS, 30);
                let k = self.rng.range(2, 5) as usize;
                self.record(&mut f, Kind::Structure, &name, k, false);
            }
            let n = self.rng.range(4, 6) as usize;
            self.messages(&mut f, t, SHARED_NOUNS, n);
            shared.push(self.finish(f));
        }

        // externalInterface/gameToEngine.
        let mut g2e = Vec::new();
        for (i, t) in g2e_topics.iter().enumerate() {
            let mut inc = self.pick_files(&types.generic, 1, 2);
            if self.rng.chance(30) {
                inc.push(*self.rng.pick(&shared));
            }
            if i == 0 {
                inc.push(types.action_results);
            }
            let path = format!(
                "clad/externalInterface/gameToEngine/{}Requests.clad",
                lower_first(t)
            );
            let mut f = self.begin(
                &path,
                &format!("Requests from the app to the engine about {}.", words(t)),
                inc,
                &["Anki", "Vector", "ExternalInterface"],
            );
            if self.rng.chance(25) {
                self.random_enum(&mut f, t);
            }
            let n = if i == 0 {
                14
            } else {
                self.rng.range(6, 8) as usize
            };
            self.messages(&mut f, t, G2E_NOUNS, n);
            g2e.push(self.finish(f));
        }

        // externalInterface/engineToGame.
        let mut e2g = Vec::new();
        for t in &e2g_topics {
            let mut inc = self.pick_files(&types.generic, 1, 2);
            if self.rng.chance(30) {
                inc.push(*self.rng.pick(&shared));
            }
            let path = format!(
                "clad/externalInterface/engineToGame/{}Events.clad",
                lower_first(t)
            );
            let mut f = self.begin(
                &path,
                &format!("Events the engine reports to the app about {}.", words(t)),
                inc,
                &["Anki", "Vector", "ExternalInterface"],
            );
            if self.rng.chance(25) {
                let name = self.compound(t, STRUCT_NOUNS, 30);
                let k = self.rng.range(2, 5) as usize;
                self.record(&mut f, Kind::Structure, &name, k, false);
            }
            let n = self.rng.range(3, 4) as usize;
            self.messages(&mut f, t, E2G_NOUNS, n);
            e2g.push(self.finish(f));
        }

        self.game_to_engine(&types, &shared, &g2e);
        self.engine_to_game(&types, &shared, &e2g);
        self.robot_interface(&types);
        self.gateway(&types);
        self.cloud(&types);
        self.external_comms(&types);
        self.viz(&types);

        // Roots: files nobody includes.
        let included: HashSet<usize> = self
            .files
            .iter()
            .flat_map(|f| f.includes.iter().copied())
            .collect();
        let roots = (0..self.files.len())
            .filter(|i| !included.contains(i))
            .map(|i| self.files[i].path.clone())
            .collect();
        let files: Vec<(String, String)> =
            self.files.into_iter().map(|f| (f.path, f.text)).collect();
        self.stats.files = files.len();
        self.stats.lines = files.iter().map(|(_, t)| t.lines().count()).sum();
        Corpus {
            files,
            roots,
            stats: self.stats,
        }
    }

    pub(super) fn type_files(&mut self) -> TypeFiles {
        let mut generic = Vec::new();

        // Named constants, like the real commsConstants.clad.
        let mut f = self.begin(
            "clad/types/commsConstants.clad",
            "Constants shared by the engine, the robot process and the app.",
            Vec::new(),
            &["Anki", "Vector"],
        );
        let names = [
            ("kDirectCommsBufferSize", "1048576"),
            ("kMaxPacketSize", "0x5dc"),
            ("kMaxMessageSize", "0x7d0"),
            ("kReliableConnectionPort", "5551"),
            ("kUiMessageBufferSize", "0x40000"),
        ];
        let _ = writeln!(
            f.out,
            "/// Named constants (CLAD has no constant declarations)."
        );
        let _ = writeln!(f.out, "enum no_cpp_class uint_32 CommsConstants {{");
        for (i, (n, v)) in names.iter().enumerate() {
            let comma = if i + 1 < names.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {n} = {v}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("CommsConstants".into());
        self.stats.enums += 1;
        self.stats.enum_members += names.len();
        self.add_type(
            &f,
            "CommsConstants",
            Kind::Enum,
            names.iter().map(|(n, _)| n.to_string()).collect(),
        );
        let comms = self.finish(f);

        // Verbatim enum values, like the real actionResults.clad.
        let mut f = self.begin(
            "clad/types/actionResults.clad",
            "Action results: a category in the high bits and a detail code in the low bits.",
            vec![comms],
            &["Anki", "Vector"],
        );
        let cats = [
            "SUCCESS",
            "RUNNING",
            "RETRY",
            "ABORT",
            "CANCELLED_WHILE_RUNNING",
        ];
        let _ = writeln!(f.out, "enum no_cpp_class uint_8 ActionResultCategory {{");
        for (i, c) in cats.iter().enumerate() {
            let comma = if i + 1 < cats.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {c}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        let _ = writeln!(
            f.out,
            "enum no_cpp_class uint_8 ARCBitShift {{\n  NUM_BITS = 8\n}}\n"
        );
        let _ = writeln!(f.out, "/// Every result code of every action.");
        let _ = writeln!(f.out, "enum uint_32 ActionResult {{");
        let mut members = Vec::new();
        for c in cats {
            let _ = writeln!(
                f.out,
                "  {c} = verbatim ActionResultCategory::{c} * ARCBitShift::NUM_BITS,"
            );
            members.push(c.to_owned());
            let k = self.rng.range(1, 4);
            for j in 0..k {
                let name = format!("{c}_DETAIL_{}", j + 1);
                let _ = writeln!(f.out, "  {name},");
                members.push(name);
            }
        }
        let _ = writeln!(f.out, "}}\n");
        for n in ["ActionResultCategory", "ARCBitShift", "ActionResult"] {
            self.names.insert(n.into());
        }
        self.stats.enums += 3;
        self.stats.enum_members += cats.len() + 1 + members.len();
        self.add_type(
            &f,
            "ActionResultCategory",
            Kind::Enum,
            cats.iter().map(|c| c.to_string()).collect(),
        );
        self.add_type(&f, "ARCBitShift", Kind::Enum, vec!["NUM_BITS".into()]);
        self.add_type(&f, "ActionResult", Kind::Enum, members);
        let action_results = self.finish(f);

        let mut animation_trigger = 0;
        let mut behavior_ids = 0;
        let mut user_intent = 0;
        let mut active_features = 0;
        let plan: Vec<(String, String, Vec<&str>)> = TOPICS
            .iter()
            .map(|t| {
                let ns: Vec<&str> = match *t {
                    "Camera" | "Face" | "Eye" | "Photo" | "Marker" => vec!["Anki", "Vision"],
                    "Mic" | "Volume" | "Sound" => vec!["Anki", "AudioMetaData", "GameEvent"],
                    "Log" | "Timer" => vec!["Anki", "Util"],
                    _ => vec!["Anki", "Vector"],
                };
                (
                    format!("clad/types/{}Types.clad", lower_first(t)),
                    t.to_string(),
                    ns,
                )
            })
            .chain(BEHAVIOR_FILES.iter().map(|(stem, prefix)| {
                (
                    format!("clad/types/behaviorComponent/{stem}.clad"),
                    prefix.to_string(),
                    vec!["Anki", "Vector"],
                )
            }))
            .collect();
        for (i, (path, prefix, ns)) in plan.iter().enumerate() {
            if i == 20 {
                animation_trigger = self.animation_trigger();
            }
            if i == 48 {
                behavior_ids = self.behavior_ids();
                let inc = vec![behavior_ids, *self.rng.pick(&generic)];
                user_intent = self.user_intent(inc);
            }
            let mut inc = if generic.is_empty() {
                Vec::new()
            } else {
                self.pick_files(&generic, 0, 2)
            };
            if i > 20 && self.rng.chance(10) {
                inc.push(animation_trigger);
            }
            if i < 48 && self.rng.chance(10) {
                inc.push(comms);
            }
            let mut f = self.begin(
                path,
                &format!("Types of the {} subsystem.", words(prefix)),
                inc,
                ns,
            );
            let n_enums = self.rng.range(1, 2);
            let mut last_enum = 0;
            for _ in 0..n_enums {
                last_enum = self.random_enum(&mut f, prefix);
            }
            if self.types[last_enum].members.len() <= 24 && self.rng.chance(12) {
                self.bool_concept(&mut f, last_enum);
            }
            if prefix == "ActiveFeature" {
                self.active_feature_concept(&mut f);
            }
            let n_structs = if self.rng.chance(15) { 2 } else { 1 };
            for _ in 0..n_structs {
                let name = self.compound(prefix, STRUCT_NOUNS, 15);
                let m = self.rng.range(2, 7) as usize;
                self.record(&mut f, Kind::Structure, &name, m, false);
            }
            let idx = self.finish(f);
            if prefix == "ActiveFeature" {
                active_features = idx;
            }
            generic.push(idx);
        }
        TypeFiles {
            generic,
            comms,
            action_results,
            animation_trigger,
            behavior_ids,
            user_intent,
            active_features,
        }
    }

    /// An enum concept returning another enum, with verbatim values (like the real
    /// `ActiveFeature` -> `ActiveFeatureType` concept).
    pub(super) fn active_feature_concept(&mut self, f: &mut Src) {
        let kinds = ["Social", "Play", "Utility", "Maintenance"];
        let _ = writeln!(f.out, "enum uint_8 ActiveFeatureType {{");
        for (i, k) in kinds.iter().enumerate() {
            let comma = if i + 1 < kinds.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {k}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("ActiveFeatureType".into());
        self.add_type(
            f,
            "ActiveFeatureType",
            Kind::Enum,
            kinds.iter().map(|k| k.to_string()).collect(),
        );
        self.stats.enums += 1;
        self.stats.enum_members += kinds.len();
        let names = self.enum_member_names(14);
        self.enum_decl(
            f,
            "ActiveFeatureId",
            "uint_8",
            EnumStyle::Plain,
            names.clone(),
            false,
        );
        self.names.insert("ActiveFeatureId".into());
        let _ = writeln!(
            f.out,
            "enum_concept ActiveFeatureType GetActiveFeatureType[ActiveFeatureId] {{"
        );
        for (i, m) in names.iter().enumerate() {
            let comma = if i + 1 < names.len() { "," } else { "" };
            let k = self.rng.pick(&kinds);
            let _ = writeln!(f.out, "  {m} = verbatim ActiveFeatureType::{k}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.stats.enum_concepts += 1;
    }

    pub(super) fn animation_trigger(&mut self) -> usize {
        #[rustfmt::skip]
        const CONTEXT: &[&str] = &[
            "Cube", "Face", "Pet", "Charger", "Sleep", "Wake", "Dance", "FistBump", "Knock",
            "Petting", "Weather", "Timer", "Photo", "Volume", "Blackjack", "Onboarding",
            "Feeding", "Explore", "Greeting", "Reacting", "Cliff", "Lift", "Drive", "Sound",
        ];
        #[rustfmt::skip]
        const MOOD: &[&str] = &[
            "Happy", "Sad", "Angry", "Curious", "Bored", "Surprised", "Tired", "Excited",
            "Scared", "Proud", "Confused", "Frustrated", "Sneezy", "Sleepy",
        ];
        const PART: &[&str] = &["", "GetIn", "GetOut", "Loop", "Short", "Long"];
        let mut all = Vec::new();
        for c in CONTEXT {
            for m in MOOD {
                for p in PART {
                    all.push(format!("{c}{m}{p}"));
                }
            }
        }
        let mut names = self.rng.sample(&all, ANIMATION_TRIGGER_MEMBERS - 1);
        names.sort();
        let mut f = self.begin(
            ANIMATION_TRIGGER_FILE,
            "Every animation trigger the behavior system can play (auto-generated list).",
            Vec::new(),
            &["Anki", "Vector"],
        );
        let _ = writeln!(
            f.out,
            "/// Animation triggers, sorted by name. Values are not stable"
        );
        let _ = writeln!(f.out, "/// across releases: never store them.");
        let _ = writeln!(f.out, "enum int_32 AnimationTrigger {{");
        let _ = writeln!(f.out, "  InvalidAnimTrigger = -1,");
        let mut section = String::new();
        for (i, n) in names.iter().enumerate() {
            let prefix: String = n
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_uppercase())
                .take(4)
                .collect();
            if prefix != section && i % 20 == 0 {
                let _ = writeln!(f.out, "  // {prefix}...");
                section = prefix;
            }
            let comma = if i + 1 < names.len() { "," } else { "" };
            let _ = writeln!(f.out, "  {n}{comma}");
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("AnimationTrigger".into());
        let mut members = vec!["InvalidAnimTrigger".to_owned()];
        members.extend(names);
        self.stats.enums += 1;
        self.stats.enum_members += members.len();
        self.add_type(&f, "AnimationTrigger", Kind::Enum, members);
        self.finish(f)
    }

    pub(super) fn behavior_ids(&mut self) -> usize {
        const VERB: &[&str] = &[
            "Wander", "React", "Find", "Play", "Go", "Look", "Drive", "Explore", "Greet",
            "Observe", "Search", "Dance", "Sleep", "Charge", "Pounce", "Fetch", "Roll", "Pickup",
            "Stack", "Knock",
        ];
        const OBJ: &[&str] = &[
            "Cube", "Face", "Charger", "Sound", "Touch", "Cliff", "Light", "Home", "Person", "Pet",
            "Marker", "Obstacle", "Ceiling", "Motion", "Voice",
        ];
        const SUFFIX: &[&str] = &["", "Simple", "Quick", "Internal", "Test"];
        let mut all = Vec::new();
        for v in VERB {
            for o in OBJ {
                for s in SUFFIX {
                    all.push(format!("{v}{o}{s}"));
                }
            }
        }
        let mut names = self.rng.sample(&all, BEHAVIOR_ID_MEMBERS);
        names.sort();
        let mut f = self.begin(
            BEHAVIOR_ID_FILE,
            "Ids of every behavior instance in the behavior tree.",
            Vec::new(),
            &["Anki", "Vector"],
        );
        let _ = writeln!(f.out, "enum uint_16 BehaviorID {{");
        for (i, n) in names.iter().enumerate() {
            if i == 0 {
                let _ = writeln!(f.out, "  {n} = 0,");
            } else if i + 1 < names.len() {
                let _ = writeln!(f.out, "  {n},");
            } else {
                let _ = writeln!(f.out, "  {n}");
            }
        }
        let _ = writeln!(f.out, "}}\n");
        self.names.insert("BehaviorID".into());
        self.stats.enums += 1;
        self.stats.enum_members += names.len();
        self.add_type(&f, "BehaviorID", Kind::Enum, names);
        self.finish(f)
    }

    pub(super) fn user_intent(&mut self, includes: Vec<usize>) -> usize {
        #[rustfmt::skip]
        const CATS: &[&str] = &[
            "greeting", "imperative", "global", "knowledge", "meet", "movement", "play",
            "seasonal", "show", "system", "weather", "explore", "check", "take",
        ];
        #[rustfmt::skip]
        const WHAT: &[&str] = &[
            "hello", "goodbye", "come", "lookatme", "dance", "fetchcube", "volume", "timer",
            "photo", "forecast", "fistbump", "blackjack", "cube", "charger", "quiet", "sleep",
            "wake", "question", "response", "name", "age", "spin", "scold", "praise", "forward",
            "backward", "turnleft", "turnright", "scan", "home",
        ];
        let mut all = Vec::new();
        for c in CATS {
            for w in WHAT {
                all.push(format!("{c}_{w}"));
            }
        }
        let mut intents = vec!["unmatched_intent".to_owned()];
        intents.extend(self.rng.sample(&all, USER_INTENT_MEMBERS - 1));

        let mut f = self.begin(
            USER_INTENT_FILE,
            "Intents recognised by the cloud and their parameters.",
            includes,
            &["Anki", "Vector"],
        );
        let vis = self.visible(&f);
        let _ = writeln!(f.out, "/// A payload-less intent (\"the user said it\").");
        let _ = writeln!(f.out, "structure UserIntent_Void {{\n}}\n");
        self.names.insert("UserIntent_Void".into());
        self.stats.structures += 1;
        let void = self.add_type(&f, "UserIntent_Void", Kind::Structure, Vec::new());

        // 22 payload structures, each with one to three members.
        let mut payloads = Vec::new();
        for w in self.rng.sample(WHAT, 22) {
            let mut camel = w.to_owned();
            camel[..1].make_ascii_uppercase();
            let name = self.fresh(&format!("UserIntent_{camel}"));
            let _ = writeln!(f.out, "structure {name} {{");
            let k = self.rng.range(1, 3) as usize;
            let mut used = HashSet::new();
            for i in 0..k {
                let m = if i == 0 && w == "timer" {
                    "int_32 time_s".to_owned()
                } else if i == 0 && self.rng.chance(25) {
                    let b = self.types.iter().position(|t| t.name == "BehaviorID");
                    match b {
                        Some(b) if vis.enums.contains(&b) => "BehaviorID behaviorId".to_owned(),
                        _ => format!("string {}", self.field_name(&mut used)),
                    }
                } else {
                    self.field(&f, &vis, &mut used)
                };
                let comma = if i + 1 < k { "," } else { "" };
                let _ = writeln!(f.out, "  {m}{comma}");
            }
            let _ = writeln!(f.out, "}}\n");
            self.stats.structures += 1;
            self.stats.fields += k;
            payloads.push(self.add_type(&f, &name, Kind::Structure, Vec::new()));
        }

        // Every payload once, five of them twice, the rest of the 68 members void.
        let mut member_types: Vec<usize> = payloads.clone();
        member_types.extend(self.rng.sample(&payloads, 5));
        while member_types.len() < USER_INTENT_MEMBERS {
            member_types.push(void);
        }
        self.rng.shuffle(&mut member_types);
        let members: Vec<(String, String, Option<i64>)> = intents
            .iter()
            .zip(&member_types)
            .map(|(i, &t)| (self.types[t].name.clone(), i.clone(), None))
            .collect();
        self.names.insert("UserIntent".into());
        let _ = writeln!(
            f.out,
            "// One member per intent. Many intents share a payload type,"
        );
        let _ = writeln!(f.out, "// hence dupes_allowed.");
        self.union_decl(&mut f, "union", true, "UserIntent", &members);
        self.finish(f)
    }

    pub(super) fn game_to_engine(&mut self, types: &TypeFiles, shared: &[usize], g2e: &[usize]) {
        let mut inc: Vec<usize> = shared.iter().chain(g2e).copied().collect();
        inc.push(types.comms);
        inc.push(types.action_results);
        inc.sort_unstable();
        let mut f = self.begin(
            GAME_TO_ENGINE_FILE,
            "Every message the app sends to the engine. The autounion collects all messages \
             of this file and of everything it includes.",
            inc,
            &["Anki", "Vector", "ExternalInterface"],
        );
        let included_messages = self
            .types
            .iter()
            .filter(|t| t.kind == Kind::Message && f.closure.contains(&t.file))
            .count();
        // Own messages: the 0x22 explicitly tagged ones plus enough to reach the target.
        let own = (GAME_TO_ENGINE_EXPLICIT + GAME_TO_ENGINE_AUTOMATIC)
            .saturating_sub(included_messages)
            .max(GAME_TO_ENGINE_EXPLICIT + 2);
        let topics = [
            "Ui", "App", "Game", "Debug", "Dev", "Factory", "Demo", "Replay",
        ];
        let mut msgs = Vec::new();
        for i in 0..own {
            if i % 8 == 0 {
                let t = topics[(i / 8) % topics.len()];
                self.section(&mut f, &format!("{t} messages"));
            }
            let t = topics[(i / 8) % topics.len()];
            let name = self.compound(t, G2E_NOUNS, 80);
            let k = self.message_members();
            msgs.push(self.record(&mut f, Kind::Message, &name, k, false));
        }
        self.section(&mut f, "The union of everything above");
        let _ = writeln!(
            f.out,
            "// Members 0x00-0x21 are pinned for old apps; every other message of this"
        );
        let _ = writeln!(f.out, "// translation unit is appended automatically.");
        let members: Vec<(String, String, Option<i64>)> = msgs[..GAME_TO_ENGINE_EXPLICIT]
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let n = self.types[t].name.clone();
                (n.clone(), n, Some(i as i64))
            })
            .collect();
        self.names.insert("MessageGameToEngine".into());
        self.union_decl(&mut f, "autounion", false, "MessageGameToEngine", &members);
        let total = included_messages + own;
        assert!(
            total < 240,
            "MessageGameToEngine would have {total} members"
        );
        self.finish(f);
    }

    pub(super) fn engine_to_game(&mut self, types: &TypeFiles, shared: &[usize], e2g: &[usize]) {
        let mut inc: Vec<usize> = shared.iter().chain(e2g).copied().collect();
        inc.extend([
            types.animation_trigger,
            types.behavior_ids,
            types.user_intent,
            types.action_results,
            types.active_features,
        ]);
        let extra = self.rng.sample(&types.generic, 7);
        for e in extra {
            if !inc.contains(&e) {
                inc.push(e);
            }
        }
        let mut f = self.begin(
            ENGINE_TO_GAME_FILE,
            "Every message the engine sends to the app, collected by an autounion.",
            inc,
            &["Anki", "Vector", "ExternalInterface"],
        );
        let at = self.types.iter().position(|t| t.name == "AnimationTrigger");
        let bid = self.types.iter().position(|t| t.name == "BehaviorID");
        let ui = self.types.iter().position(|t| t.name == "UserIntent");
        self.section(&mut f, "Engine status");
        let a = self.type_ref(&f, at.expect("AnimationTrigger"));
        let _ = writeln!(f.out, "message AnimationStarted {{");
        let _ = writeln!(f.out, "  uint_32 robotId,");
        let _ = writeln!(f.out, "  {a} trigger,");
        let _ = writeln!(f.out, "  string animName\n}}\n");
        let _ = writeln!(f.out, "message BehaviorTransition {{");
        let b = self.type_ref(&f, bid.expect("BehaviorID"));
        let _ = writeln!(f.out, "  {b} oldBehavior,\n  {b} newBehavior,");
        let _ = writeln!(f.out, "  float_32 timestampSec = 0.0\n}}\n");
        let u = self.type_ref(&f, ui.expect("UserIntent"));
        let _ = writeln!(f.out, "message UserIntentReceived {{");
        let _ = writeln!(f.out, "  {u} intent,");
        let _ = writeln!(f.out, "  bool fromCloud = 1\n}}\n");
        for n in [
            "AnimationStarted",
            "BehaviorTransition",
            "UserIntentReceived",
        ] {
            self.names.insert(n.into());
            self.add_type(&f, n, Kind::Message, Vec::new());
        }
        self.stats.messages += 3;
        self.stats.fields += 3 + 3 + 2;
        let more = self.rng.range(5, 8) as usize;
        self.messages(&mut f, "Engine", E2G_NOUNS, more);
        self.section(&mut f, "The union of everything above");
        self.names.insert("MessageEngineToGame".into());
        let _ = writeln!(
            f.out,
            "// No member is pinned: every message of the translation unit is collected."
        );
        self.union_decl(&mut f, "autounion", false, "MessageEngineToGame", &[]);
        let total = self
            .types
            .iter()
            .filter(|t| t.kind == Kind::Message && (t.file == f.idx || f.closure.contains(&t.file)))
            .count();
        assert!(
            total < 240,
            "MessageEngineToGame would have {total} members"
        );
        self.finish(f);
    }

    pub(super) fn robot_interface(&mut self, types: &TypeFiles) {
        let ns = ["Anki", "Vector", "RobotInterface"];
        let stems = [
            ("motorMessages", "Motor"),
            ("imuMessages", "Imu"),
            ("cliffMessages", "Cliff"),
            ("bodyMessages", "Body"),
            ("activeObjectMessages", "ActiveObject"),
        ];
        let mut files = Vec::new();
        let mut msgs: Vec<Vec<usize>> = Vec::new();
        for (stem, topic) in stems {
            let inc = self.pick_files(&types.generic, 1, 2);
            let mut f = self.begin(
                &format!("clad/robotInterface/{stem}.clad"),
                &format!("{topic} messages between the robot process and the engine."),
                inc,
                &ns,
            );
            if topic == "Body" {
                self.record(&mut f, Kind::Structure, "RobotPublicState", 6, true);
            }
            let n = self.rng.range(4, 6) as usize;
            msgs.push(self.messages(&mut f, topic, ROBOT_NOUNS, n));
            files.push(self.finish(f));
        }
        for (path, union_name, part, topic) in [
            ("messageRobotToEngine", "RobotToEngine", 0..3, "RobotState"),
            ("messageEngineToRobot", "EngineToRobot", 3..5, "EngineCmd"),
        ] {
            let mut inc: Vec<usize> = files[part.clone()].to_vec();
            inc.push(types.comms);
            let mut f = self.begin(
                &format!("clad/robotInterface/{path}.clad"),
                &format!("The {union_name} union and its top-level messages."),
                inc,
                &ns,
            );
            let n = self.rng.range(3, 5) as usize;
            let own = self.messages(&mut f, topic, ROBOT_NOUNS, n);
            let mut ts: Vec<usize> = msgs[part].iter().flatten().copied().collect();
            ts.extend(own);
            let mut members = self.union_members_for(&f, &ts, 0x01, 60);
            members.push(("uint_32".into(), "pingCounter".into(), None));
            self.union_decl(&mut f, "union", false, union_name, &members);
            self.finish(f);
        }
    }

    pub(super) fn gateway(&mut self, types: &TypeFiles) {
        let ns = ["Anki", "Vector", "Gateway"];
        let inc = self.pick_files(&types.generic, 1, 2);
        let mut f = self.begin(
            "clad/gateway/gatewayTypes.clad",
            "Types of the gateway protocol (emitted as Go and C++).",
            inc,
            &ns,
        );
        self.random_enum(&mut f, "Gateway");
        self.random_enum(&mut f, "Gateway");
        for _ in 0..3 {
            let name = self.compound("Gateway", STRUCT_NOUNS, 20);
            let k = self.rng.range(2, 6) as usize;
            self.record(&mut f, Kind::Structure, &name, k, false);
        }
        let gtypes = self.finish(f);
        let mut prev = gtypes;
        for (path, union_name, topic) in [
            ("messageExternalToRobot", "ExternalToRobot", "External"),
            ("messageRobotToExternal", "RobotToExternal", "Gateway"),
        ] {
            let mut f = self.begin(
                &format!("clad/gateway/{path}.clad"),
                "Gateway protocol messages; tags are fixed forever.",
                vec![prev],
                &ns,
            );
            let n = self.rng.range(7, 9) as usize;
            let ms = self.messages(&mut f, topic, G2E_NOUNS, n);
            let members = self.union_members_for(&f, &ms, 0x00, 100);
            self.union_decl(&mut f, "union", false, union_name, &members);
            prev = self.finish(f);
        }
    }

    pub(super) fn cloud(&mut self, types: &TypeFiles) {
        let mut mic_file = 0;
        for (path, ns, void, union_name, prefix) in [
            (
                "clad/cloud/mic.clad",
                "CloudMic",
                "MicVoid",
                "Message",
                "Mic",
            ),
            (
                "clad/cloud/docs.clad",
                "JDocs",
                "DocsVoid",
                "DocRequest",
                "Doc",
            ),
        ] {
            let inc = self.pick_files(&types.generic, 0, 1);
            let mut f = self.begin(
                path,
                &format!(
                    "Messages between the robot and the {} cloud service.",
                    words(ns)
                ),
                inc,
                &["Anki", "Vector", ns],
            );
            let _ = writeln!(f.out, "structure {void} {{\n}}\n");
            self.names.insert(void.into());
            self.stats.structures += 1;
            self.add_type(&f, void, Kind::Structure, Vec::new());
            let n = self.rng.range(5, 7) as usize;
            let ms = self.messages(&mut f, prefix, E2G_NOUNS, n);
            let mut members = Vec::new();
            for (i, &m) in ms.iter().enumerate() {
                members.push((
                    self.types[m].name.clone(),
                    lower_first(&self.types[m].name),
                    None,
                ));
                if i % 2 == 0 {
                    members.push((
                        void.to_owned(),
                        format!("{}Signal{i}", lower_first(prefix)),
                        None,
                    ));
                }
            }
            self.union_decl(&mut f, "union", true, union_name, &members);
            let idx = self.finish(f);
            if ns == "CloudMic" {
                mic_file = idx;
            }
        }
        let mut f = self.begin(
            "clad/cloud/token.clad",
            "Token service requests and responses.",
            Vec::new(),
            &["Anki", "Vector", "TokenComms"],
        );
        self.random_enum(&mut f, "Token");
        let ms = self.messages(&mut f, "Token", G2E_NOUNS, 6);
        let members = self.union_members_for(&f, &ms, 0x01, 100);
        self.union_decl(&mut f, "union", false, "TokenRequest", &members);
        let token = self.finish(f);

        let mut f = self.begin(
            "clad/cloud/logcollector.clad",
            "Log upload requests (embeds cloud unions in messages).",
            vec![mic_file, token],
            &["Anki", "Vector", "LogCollector"],
        );
        let vis = self.visible(&f);
        let _ = writeln!(f.out, "message LogEnvelope {{");
        let mut used = HashSet::new();
        for (i, &u) in vis.unions.iter().enumerate() {
            let ty = self.type_ref(&f, u);
            let _ = writeln!(f.out, "  {ty} payload{i},");
        }
        let extra = self.field(&f, &vis, &mut used);
        let _ = writeln!(f.out, "  {extra}\n}}\n");
        self.names.insert("LogEnvelope".into());
        self.stats.messages += 1;
        self.stats.fields += vis.unions.len() + 1;
        self.add_type(&f, "LogEnvelope", Kind::Message, Vec::new());
        self.messages(&mut f, "LogUpload", E2G_NOUNS, 4);
        self.finish(f);
    }

    pub(super) fn external_comms(&mut self, types: &TypeFiles) {
        #[rustfmt::skip]
        const NAMES: &[&str] = &[
            "ConnRequest", "ConnResponse", "NonceMessage", "ChallengeMessage",
            "ChallengeSuccessMessage", "WifiConnectRequest", "WifiConnectResponse",
            "WifiIpRequest", "WifiIpResponse", "StatusRequest", "StatusResponse",
            "WifiScanRequest", "WifiScanResponse", "OtaUpdateRequest", "OtaUpdateResponse",
            "Cancel", "Ack", "ForceDisconnect", "WifiForgetRequest", "WifiForgetResponse",
            "WifiAccessPointRequest", "WifiAccessPointResponse", "SshRequest", "SshResponse",
            "LogRequest", "LogResponse", "FileDownload", "CloudSessionRequest",
            "CloudSessionResponse", "AppConnectionIdRequest", "AppConnectionIdResponse",
            "ResponseError",
        ];
        let inc = vec![types.comms];
        let mut f = self.begin(
            "clad/sdk/messageExternalComms.clad",
            "BLE protocol between the app and the robot: a union of versioned unions.",
            inc,
            &["Anki", "Vector", "ExternalComms"],
        );
        self.random_enum(&mut f, "Rts");
        let mut ms = Vec::new();
        for n in NAMES {
            let name = self.fresh(&format!("Rts{n}"));
            let k = self.message_members();
            ms.push(self.record(&mut f, Kind::Message, &name, k, false));
        }
        // RtsConnection_1 (the legacy protocol) and versions 2-5, each a superset of the
        // previous one.
        let mut versions = Vec::new();
        for (v, count) in [(1, 10), (2, 16), (3, 20), (4, 26), (5, 32)] {
            let members = self.union_members_for(&f, &ms[..count], 0x00, 70);
            let name = format!("RtsConnection_{v}");
            versions.push(self.union_decl(&mut f, "union", false, &name, &members));
        }
        let members: Vec<(String, String, Option<i64>)> = versions[1..]
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                let n = self.types[u].name.clone();
                (n.clone(), n, Some(i as i64 + 2))
            })
            .collect();
        let rts = self.union_decl(&mut f, "union", false, "RtsConnection", &members);
        self.names.insert("RtsConnection".into());
        let members = vec![
            (
                self.types[versions[0]].name.clone(),
                "RtsConnection_1".to_owned(),
                Some(0),
            ),
            (
                self.types[rts].name.clone(),
                "RtsConnection".to_owned(),
                Some(1),
            ),
        ];
        self.union_decl(&mut f, "union", false, "ExternalCommsMessage", &members);
        self.finish(f);
    }

    pub(super) fn viz(&mut self, types: &TypeFiles) {
        let ns = ["Anki", "Vector", "VizInterface"];
        let inc = self.pick_files(&types.generic, 1, 2);
        let mut f = self.begin(
            "clad/vizInterface/vizTypes.clad",
            "Types of the visualisation protocol.",
            inc,
            &ns,
        );
        // One enum with a duplicate value (like the real vizTypes.clad).
        let names: Vec<String> = ["Red", "Green", "Blue", "Yellow", "Cyan", "Magenta"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let _ = writeln!(f.out, "enum uint_8 VizColorId {{");
        for n in &names {
            let _ = writeln!(f.out, "  {n},");
        }
        let _ = writeln!(f.out, "  DefaultColor = 0 // same as Red\n}}\n");
        self.names.insert("VizColorId".into());
        let mut members = names;
        members.push("DefaultColor".into());
        self.stats.enums += 1;
        self.stats.enum_members += members.len();
        self.add_type(&f, "VizColorId", Kind::Enum, members);
        for _ in 0..2 {
            let name = self.compound("Viz", STRUCT_NOUNS, 20);
            let k = self.rng.range(3, 6) as usize;
            self.record(&mut f, Kind::Structure, &name, k, false);
        }
        let vt = self.finish(f);
        let mut f = self.begin(
            "clad/vizInterface/vizShapes.clad",
            "Shapes the engine draws in the visualiser.",
            vec![vt],
            &ns,
        );
        let shapes = self.messages(&mut f, "VizShape", SHARED_NOUNS, 4);
        let vs = self.finish(f);
        let mut f = self.begin(
            "clad/vizInterface/messageViz.clad",
            "Everything the engine sends to the visualiser.",
            vec![vt, vs],
            &ns,
        );
        let mut ms = shapes;
        ms.extend(self.messages(&mut f, "Viz", E2G_NOUNS, 4));
        let members = self.union_members_for(&f, &ms, 0x10, 100);
        self.union_decl(&mut f, "union", false, "VizMessage", &members);
        self.finish(f);
    }
}

pub(super) struct TypeFiles {
    generic: Vec<usize>,
    comms: usize,
    action_results: usize,
    animation_trigger: usize,
    behavior_ids: usize,
    user_intent: usize,
    active_features: usize,
}
