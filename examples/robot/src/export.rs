//! The behavior tree as a picture: Graphviz DOT and Mermaid, with a stack highlighted (the
//! behaviors on it filled, the edges between them bold).
//!
//! ```sh
//! cargo run -p robot-example -- --dot tree.dot --at-tick 600 && dot -Tsvg tree.dot > tree.svg
//! ```

use std::fmt::Write as _;

use robot_runtime::union::CladUnion;

use crate::behaviors::{Class, Tree};
use crate::intents::UserIntent;

fn class_name(class: &Class) -> &'static str {
    match class {
        Class::ReactToVoiceCommand { .. } => "ReactToVoiceCommand",
        Class::VoiceCommand => "VoiceCommand",
        Class::ReactToUnclaimedIntent => "ReactToUnclaimedIntent",
        Class::Wait => "Wait",
    }
}

/// The intents a behavior responds to, as one label line.
fn intents_of(tree: &Tree, index: usize) -> String {
    let mut names: Vec<&str> = tree.behaviors[index]
        .matchers
        .iter()
        .map(|m| UserIntent::tag_name(m.target_tag()))
        .collect();
    names.dedup();
    names.join(", ")
}

/// Node identifiers: the root is `root`, behaviors `b0`, `b1`, ... in priority order.
fn node(i: Option<usize>) -> String {
    i.map_or_else(|| "root".to_owned(), |i| format!("b{i}"))
}

/// Graphviz DOT. `stack` is bottom first, as [`Dispatcher::stack`](crate::behaviors::Dispatcher::stack)
/// gives it (an action on top, in brackets, is drawn as a leaf of its behavior).
pub fn dot(tree: &Tree, stack: &[String]) -> String {
    let on_stack = |id: &str| stack.iter().any(|s| s == id);
    let mut out = String::new();
    let _ = writeln!(out, "digraph behaviors {{");
    let _ = writeln!(out, "  rankdir=LR;");
    let _ = writeln!(
        out,
        "  node [shape=box, style=rounded, fontname=\"Helvetica\"];"
    );
    let fill = |on: bool| {
        if on {
            ", style=\"rounded,filled,bold\", fillcolor=\"#ffd966\""
        } else {
            ""
        }
    };
    let _ = writeln!(
        out,
        "  root [label=\"{}\\nDispatcherStrictPriority\"{}];",
        tree.root,
        fill(on_stack(&tree.root))
    );
    for (i, b) in tree.behaviors.iter().enumerate() {
        let intents = intents_of(tree, i);
        let extra = if intents.is_empty() {
            String::new()
        } else {
            format!("\\n[{intents}]")
        };
        let _ = writeln!(
            out,
            "  {} [label=\"{}\\n{}{}\"{}];",
            node(Some(i)),
            b.id,
            class_name(&b.class),
            extra,
            fill(on_stack(&b.id))
        );
        let bold = if on_stack(&b.id) { " [penwidth=3]" } else { "" };
        let _ = writeln!(
            out,
            "  root -> {} [label=\"{}\"]{};",
            node(Some(i)),
            i + 1,
            bold
        );
    }
    if let (Some(top), Some(action)) = (stack.iter().rev().nth(1), stack.last()) {
        if let (Some(i), Some(name)) = (
            tree.behaviors.iter().position(|b| &b.id == top),
            action.strip_prefix('[').and_then(|a| a.strip_suffix(']')),
        ) {
            let _ = writeln!(
                out,
                "  action [shape=ellipse, label=\"{name}\", style=filled, fillcolor=\"#ffd966\"];"
            );
            let _ = writeln!(out, "  {} -> action [penwidth=3];", node(Some(i)));
        }
    }
    let _ = writeln!(out, "}}");
    out
}

/// A Mermaid flowchart (renders in GitHub Markdown).
pub fn mermaid(tree: &Tree, stack: &[String]) -> String {
    let on_stack = |id: &str| stack.iter().any(|s| s == id);
    let mut out = String::new();
    let _ = writeln!(out, "flowchart LR");
    let _ = writeln!(
        out,
        "  root[\"{}<br/>DispatcherStrictPriority\"]",
        tree.root
    );
    let mut link = 0;
    let mut bold_links = Vec::new();
    let mut has_action = false;
    for (i, b) in tree.behaviors.iter().enumerate() {
        let intents = intents_of(tree, i);
        let extra = if intents.is_empty() {
            String::new()
        } else {
            format!("<br/>[{intents}]")
        };
        let _ = writeln!(
            out,
            "  {}[\"{}<br/>{}{}\"]",
            node(Some(i)),
            b.id,
            class_name(&b.class),
            extra
        );
        let _ = writeln!(out, "  root -->|{}| {}", i + 1, node(Some(i)));
        if on_stack(&b.id) {
            bold_links.push(link);
        }
        link += 1;
    }
    if let (Some(top), Some(action)) = (stack.iter().rev().nth(1), stack.last()) {
        if let (Some(i), Some(name)) = (
            tree.behaviors.iter().position(|b| &b.id == top),
            action.strip_prefix('[').and_then(|a| a.strip_suffix(']')),
        ) {
            let _ = writeln!(out, "  action([\"{name}\"])");
            let _ = writeln!(out, "  {} --> action", node(Some(i)));
            bold_links.push(link);
            has_action = true;
        }
    }
    let _ = writeln!(
        out,
        "  classDef active fill:#ffd966,stroke:#333,stroke-width:3px"
    );
    let mut active: Vec<String> = Vec::new();
    if on_stack(&tree.root) {
        active.push("root".into());
    }
    for (i, b) in tree.behaviors.iter().enumerate() {
        if on_stack(&b.id) {
            active.push(node(Some(i)));
        }
    }
    if has_action {
        active.push("action".into());
    }
    if !active.is_empty() {
        let _ = writeln!(out, "  class {} active", active.join(","));
    }
    for l in bold_links {
        let _ = writeln!(out, "  linkStyle {l} stroke-width:3px");
    }
    out
}
