//! Export of a runner's tree as Graphviz DOT or Mermaid, with the live stack highlighted
//! (filled, with its stack position), behaviors in scope dashed, opaque stand-ins grey.

use std::fmt::Write;

use super::core::LifecycleState;
use super::ids::BehaviorId;
use super::runner::Runner;
use crate::intent::IntentUnion;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tree as a DOT digraph (one node per behavior, one edge per declared delegate; edges
/// along the stack are bold).
pub fn to_dot<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> String {
    let mut out = String::from(
        "digraph behaviors {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n",
    );
    let stack: Vec<_> = runner.stack().collect();
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let name = runner.name(id).map(|n| n.as_str()).unwrap_or("?");
        let class = runner.class(id).unwrap_or("?");
        let pos = stack.iter().position(|s| *s == id);
        let mut label = format!("{}\\n({})", escape(name), escape(class));
        if let Some(p) = pos {
            let _ = write!(label, "\\n[stack {p}]");
        }
        let style = match (pos, runner.state(id), runner.is_opaque(id)) {
            (Some(_), _, _) => "style=filled, fillcolor=\"#9be59b\"",
            (_, _, true) => "style=filled, fillcolor=\"#dddddd\"",
            (_, Some(LifecycleState::InScope), _) => "style=dashed",
            _ => "",
        };
        let _ = writeln!(
            out,
            "  n{i} [label=\"{label}\"{}{}];",
            if style.is_empty() { "" } else { ", " },
            style
        );
    }
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        for d in runner.delegates(id) {
            let live = stack.windows(2).any(|w| w[0] == id && w[1] == *d);
            let _ = writeln!(
                out,
                "  n{i} -> n{}{};",
                d.index(),
                if live { " [penwidth=3]" } else { "" }
            );
        }
    }
    out.push_str("}\n");
    out
}

/// The tree as a Mermaid flowchart (`classDef active` on the stack, `inscope`, `opaque`).
pub fn to_mermaid<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> String {
    let mut out = String::from("flowchart TD\n");
    let stack: Vec<_> = runner.stack().collect();
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let name = runner.name(id).map(|n| n.as_str()).unwrap_or("?");
        let class = runner.class(id).unwrap_or("?");
        let _ = writeln!(
            out,
            "  n{i}[\"{}<br/>({})\"]",
            name.replace('"', "#quot;"),
            class.replace('"', "#quot;")
        );
    }
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        for d in runner.delegates(id) {
            let live = stack.windows(2).any(|w| w[0] == id && w[1] == *d);
            let _ = writeln!(
                out,
                "  n{i} {} n{}",
                if live { "==>" } else { "-->" },
                d.index()
            );
        }
    }
    out.push_str("  classDef active fill:#9be59b,stroke:#2d7a2d\n  classDef inscope stroke-dasharray: 5 5\n  classDef opaque fill:#dddddd\n");
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let class = if stack.contains(&id) {
            "active"
        } else if runner.is_opaque(id) {
            "opaque"
        } else if runner.state(id) == Some(LifecycleState::InScope) {
            "inscope"
        } else {
            continue;
        };
        let _ = writeln!(out, "  class n{i} {class}");
    }
    out
}
