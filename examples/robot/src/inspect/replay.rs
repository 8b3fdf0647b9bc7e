//! Replay: a recorded trace (`--trace-json`, see [`crate::trace`]) as the page's history.
//! The page rebuilds, for any tick the slider picks, the stack, which behaviors were in
//! scope, the intents, the resources and the timeline up to it.
//!
//! A trace recorded with `--trace-why` also carries, on each tick where something changed,
//! a `why` event (each behavior's state, the conditions' values, the robot state, as the
//! live page's state changes): the page rebuilds from them why at any tick.
//!
//! A trace is user input: a line that is not a JSON object with `event`, `tick` and `t_ms`,
//! or whose tick goes back, is reported with its line number and skipped; the rest
//! replays. The page reads every value defensively (a hostile `why` event cannot break it). A trace without the header line (written before it existed, or by hand) is
//! replayed over the tree the robot loads (`--tree`, default the shipped one), and the page
//! says so.

use serde_json::{Map, Value};

use crate::trace::HEADER_EVENT;

/// The largest trace read (bytes).
pub const MAX_TRACE: u64 = 256 * 1024 * 1024;

/// A trace, read.
#[derive(Debug, Default)]
pub struct Trace {
    /// The header line, if the trace has one.
    pub header: Option<Map<String, Value>>,
    /// The events, in order.
    pub entries: Vec<Value>,
    /// One message per line skipped.
    pub problems: Vec<String>,
}

/// Reads a trace's text (never fails as a whole).
pub fn read(text: &str) -> Trace {
    let mut t = Trace::default();
    let mut last_tick = 0;
    for (k, line) in text.lines().enumerate() {
        let n = k + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let mut problem = |p: String| t.problems.push(format!("line {n}: {p}"));
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                problem(format!("not JSON: {e}"));
                continue;
            }
        };
        let Value::Object(obj) = value else {
            problem("not a JSON object".into());
            continue;
        };
        let event = obj.get("event").and_then(Value::as_str);
        let tick = obj.get("tick").and_then(Value::as_u64);
        let t_ms = obj.get("t_ms").and_then(Value::as_u64);
        let (Some(event), Some(tick), Some(_)) = (event, tick, t_ms) else {
            problem("an event needs \"event\" (a string), \"tick\" and \"t_ms\" (numbers)".into());
            continue;
        };
        if event == HEADER_EVENT {
            if t.header.is_some() || !t.entries.is_empty() {
                problem("a second header line (only the first line may be one)".into());
            } else if let Err(e) = check_tree(obj.get("tree")) {
                problem(format!(
                    "the header's tree is not usable ({e}); the fallback tree is shown"
                ));
            } else {
                t.header = Some(obj);
            }
            continue;
        }
        if tick < last_tick {
            problem(format!(
                "tick {tick} goes back (the line before was at tick {last_tick})"
            ));
            continue;
        }
        last_tick = tick;
        t.entries.push(Value::Object(obj));
    }
    t
}

/// Checks a header's tree before the page walks it: `nodes`, an array of objects each with
/// a string `name` and `class`, and every behavior index it holds (`base`, `delegates`,
/// `linked`, a state's `behavior`) within the array.
fn check_tree(tree: Option<&Value>) -> Result<(), String> {
    let nodes = tree
        .and_then(|t| t.get("nodes"))
        .and_then(Value::as_array)
        .ok_or("no \"tree\" with \"nodes\"")?;
    let n = nodes.len() as u64;
    let index_ok = |v: &Value| v.as_u64().is_some_and(|i| i < n);
    let base = tree.and_then(|t| t.get("base"));
    if !nodes.is_empty() && !base.is_some_and(index_ok) {
        return Err("\"base\" is not the index of a behavior".into());
    }
    for (k, node) in nodes.iter().enumerate() {
        let bad = |what: &str| Err(format!("behavior {k}: {what}"));
        if !node.get("name").is_some_and(Value::is_string)
            || !node.get("class").is_some_and(Value::is_string)
        {
            return bad("needs a string \"name\" and \"class\"");
        }
        for key in ["delegates", "linked"] {
            match node.get(key) {
                None if key == "linked" => {}
                Some(Value::Array(list)) if list.iter().all(index_ok) => {}
                _ => return bad(&format!("\"{key}\" must list behavior indices")),
            }
        }
        if let Some(states) = node.get("states") {
            let ok = states.as_array().is_some_and(|list| {
                list.iter().all(|st| {
                    st.get("name").is_some_and(Value::is_string)
                        && st.get("behavior").is_none_or(index_ok)
                })
            });
            if !ok {
                return bad("\"states\" must be names with behavior indices");
            }
        }
    }
    Ok(())
}

/// The static parts of the replay's `hello`: the tree and tick rate of the header (or
/// `fallback_tree`, the tree the robot loads, for a trace without one), the trace's name,
/// and the problems found reading it.
pub fn hello(
    trace: &Trace,
    name: &str,
    fallback_tree: Value,
    fallback_tps: u32,
) -> Map<String, Value> {
    let mut m = Map::new();
    let (tree, tps, note) = match &trace.header {
        Some(h) => (
            h.get("tree").cloned().unwrap_or(Value::Null),
            h.get("ticks_per_second")
                .and_then(Value::as_u64)
                .unwrap_or(u64::from(fallback_tps)),
            None,
        ),
        None => (
            fallback_tree,
            u64::from(fallback_tps),
            Some(
                "this trace has no tree header: shown over the tree the robot loads now".to_owned(),
            ),
        ),
    };
    m.insert("tree".into(), tree);
    // A --trace-why trace's robot-state keys (its `why` events name them by index).
    if let Some(keys) = trace.header.as_ref().and_then(|h| h.get("state_keys")) {
        if keys.is_array() {
            m.insert("state_keys".into(), keys.clone());
        }
    }
    m.insert("ticks_per_second".into(), tps.into());
    m.insert("trace".into(), name.into());
    let mut problems: Vec<Value> = trace.problems.iter().map(|p| p.as_str().into()).collect();
    if let Some(n) = note {
        problems.insert(0, n.into());
    }
    m.insert("problems".into(), problems.into());
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_are_reported_and_skipped() {
        let text = concat!(
            "{\"tick\":0,\"t_ms\":0,\"event\":\"tree\",\"tree\":{\"base\":0,\"nodes\":[]}}\n",
            "{\"tick\":0,\"t_ms\":0,\"event\":\"stack\",\"stack\":[\"A\"]}\n",
            "garbage\n",
            "\n",
            "[1]\n",
            "{\"tick\":\"x\",\"t_ms\":0,\"event\":\"note\"}\n",
            "{\"tick\":5,\"t_ms\":250,\"event\":\"note\",\"text\":\"hi\"}\n",
            "{\"tick\":4,\"t_ms\":200,\"event\":\"note\",\"text\":\"back\"}\n",
            "{\"tick\":6,\"t_ms\":300,\"event\":\"tree\",\"tree\":{\"nodes\":[]}}\n",
        );
        let t = read(text);
        assert!(t.header.is_some());
        assert_eq!(t.entries.len(), 2);
        let lines: Vec<&str> = t
            .problems
            .iter()
            .map(|p| p.split(':').next().unwrap())
            .collect();
        assert_eq!(lines, ["line 3", "line 5", "line 6", "line 8", "line 9"]);
    }

    #[test]
    fn a_hostile_tree_header_is_refused_and_the_fallback_used() {
        for tree in [
            r#"{"base":0,"nodes":[{"name":"A","class":"Wait","delegates":[7]}]}"#,
            r#"{"base":3,"nodes":[{"name":"A","class":"Wait","delegates":[]}]}"#,
            r#"{"base":0,"nodes":[{"name":1,"class":"Wait","delegates":[]}]}"#,
            r#"{"base":0,"nodes":[{"name":"A","class":"Wait","delegates":[-1]}]}"#,
            r#"{"base":0,"nodes":[{"name":"A","class":"Wait","delegates":[],"linked":[0,9]}]}"#,
            r#"{"base":0,"nodes":[{"name":"A","class":"M","delegates":[],"states":[{"name":"S","behavior":4}]}]}"#,
            r#"{"base":0,"nodes":["A"]}"#,
        ] {
            let t = read(&format!(
                "{{\"tick\":0,\"t_ms\":0,\"event\":\"tree\",\"tree\":{tree}}}\n"
            ));
            assert!(t.header.is_none(), "{tree}");
            assert!(t.problems[0].contains("not usable"), "{:?}", t.problems);
        }
        let good = r#"{"base":0,"nodes":[{"name":"A","class":"M","delegates":[1],"linked":[1],"states":[{"name":"S","behavior":1}]},{"name":"B","class":"Wait","delegates":[]}]}"#;
        let t = read(&format!(
            "{{\"tick\":0,\"t_ms\":0,\"event\":\"tree\",\"tree\":{good}}}\n"
        ));
        assert!(t.header.is_some(), "{:?}", t.problems);
    }

    #[test]
    fn a_trace_without_header_uses_the_fallback_tree() {
        let t = read("{\"tick\":0,\"t_ms\":0,\"event\":\"stack\",\"stack\":[]}\n");
        let h = hello(
            &t,
            "x.jsonl",
            serde_json::json!({"base": 0, "nodes": []}),
            20,
        );
        assert_eq!(h["ticks_per_second"], 20);
        assert!(h["problems"][0]
            .as_str()
            .unwrap()
            .contains("no tree header"));
    }
}
