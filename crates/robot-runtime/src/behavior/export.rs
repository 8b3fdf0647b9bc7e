//! Export of a runner's tree as Graphviz DOT or Mermaid, with the live stack highlighted
//! (filled, with its stack position), behaviors in scope dashed, stand-ins grey. Linear in
//! the size of the tree (stack membership is read from each node's stack position), so an
//! original-size tree exports at once.

use std::fmt::Write;

use super::core::LifecycleState;
use super::ids::BehaviorId;
use super::runner::Runner;
use crate::intent::IntentUnion;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// True when the edge `from -> to` is part of the stack.
fn live<U: IntentUnion, E: 'static>(
    runner: &Runner<U, E>,
    from: BehaviorId,
    to: BehaviorId,
) -> bool {
    matches!((runner.stack_pos(from), runner.stack_pos(to)), (Some(a), Some(b)) if b == a + 1)
}

/// The tree as a DOT digraph (one node per behavior, one edge per declared delegate; edges
/// along the stack are bold).
pub fn to_dot<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> String {
    let mut out = String::from(
        "digraph behaviors {\n  rankdir=TB;\n  node [shape=box, fontname=\"Helvetica\"];\n",
    );
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let name = runner.name(id).map(|n| n.as_str()).unwrap_or("?");
        let class = runner.class(id).unwrap_or("?");
        let pos = runner.stack_pos(id);
        let mut label = format!("{}\\n({})", escape(name), escape(class));
        if let Some(p) = pos {
            let _ = write!(label, "\\n[stack {p}]");
        }
        let style = match (pos, runner.state(id), runner.is_stand_in(id)) {
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
            let _ = writeln!(
                out,
                "  n{i} -> n{}{};",
                d.index(),
                if live(runner, id, *d) {
                    " [penwidth=3]"
                } else {
                    ""
                }
            );
        }
    }
    out.push_str("}\n");
    out
}

/// The tree as a Mermaid flowchart (`classDef active` on the stack, `inscope`, `standin`).
pub fn to_mermaid<U: IntentUnion, E: 'static>(runner: &Runner<U, E>) -> String {
    let mut out = String::from("flowchart TD\n");
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
            let arrow = if live(runner, id, *d) { "==>" } else { "-->" };
            let _ = writeln!(out, "  n{i} {arrow} n{}", d.index());
        }
    }
    out.push_str("  classDef active fill:#9be59b,stroke:#2d7a2d\n  classDef inscope stroke-dasharray: 5 5\n  classDef standin fill:#dddddd\n");
    for i in 0..runner.len() {
        let id = BehaviorId::from_index(i);
        let class = if runner.is_on_stack(id) {
            "active"
        } else if runner.is_stand_in(id) {
            "standin"
        } else if runner.state(id) == Some(LifecycleState::InScope) {
            "inscope"
        } else {
            continue;
        };
        let _ = writeln!(out, "  class n{i} {class}");
    }
    out
}
