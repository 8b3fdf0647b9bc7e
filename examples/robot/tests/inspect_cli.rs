//! `--inspect` and `inspect TRACE` on the command line: their errors, with and without the
//! `inspect` feature (the server itself: `tests/inspect.rs`; the page: `tests/browser/`).

mod cli_support;

use cli_support::run;

#[test]
fn inspector_options_need_inspect() {
    let (code, _, err) = run(&["--inspect-token", "0123456789abcdef"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--inspect"), "{err}");
    let (code, _, err) = run(&["--run-for", "1"]);
    assert_eq!(code, Some(2), "--run-for needs --zenoh or --inspect: {err}");
    let (code, _, err) = run(&["--coverage", "inspect", "t.jsonl"]);
    assert_eq!(code, Some(2), "the subcommand takes no robot option: {err}");
}

#[cfg(not(feature = "inspect"))]
#[test]
fn without_the_feature_inspect_says_how_to_build_it() {
    for args in [&["--inspect"][..], &["inspect", "trace.jsonl"][..]] {
        let (code, out, err) = run(args);
        assert_eq!(code, Some(2), "{err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("--features inspect"), "{err}");
    }
}

#[cfg(feature = "inspect")]
mod with_the_feature {
    use super::run;

    #[test]
    fn bad_addresses_and_tokens_are_refused_before_anything_runs() {
        let (code, out, err) = run(&["--inspect", "not-an-address", "--run-for", "0"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(out.is_empty(), "nothing ran: {out}");
        assert!(err.contains("is not an address"), "{err}");
        let (code, _, err) = run(&["--inspect", "0.0.0.0:0", "--run-for", "0"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--inspect-token"), "{err}");
        let (code, _, err) = run(&[
            "--inspect",
            ":0",
            "--inspect-token",
            "short",
            "--run-for",
            "0",
        ]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("16 to 256 characters"), "{err}");
    }

    #[test]
    fn it_serves_plays_and_stops() {
        let (code, out, err) = run(&["--inspect", "127.0.0.1:0", "--run-for", "0.5"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("inspect: open http://127.0.0.1:"), "{err}");
        assert!(
            out.contains("stack: GlobalInterruptions"),
            "the timeline is printed: {out}"
        );
        assert!(err.contains("inspect: stopped after"), "{err}");
    }

    #[test]
    fn a_trace_that_cannot_be_replayed_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let (code, _, err) = run(&["inspect", "/nonexistent/trace.jsonl", "--addr", ":0"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("cannot read /nonexistent/trace.jsonl"),
            "{err}"
        );
        let junk = dir.path().join("junk.jsonl");
        std::fs::write(&junk, "garbage\n{\"no\": \"event\"}\n").unwrap();
        let (code, _, err) = run(&["inspect", junk.to_str().unwrap(), "--addr", ":0"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("line 1: not JSON"), "{err}");
        assert!(err.contains("line 2: an event needs"), "{err}");
        assert!(err.contains("no events to replay"), "{err}");
        // A trace with a bad line replays the rest.
        let trace = dir.path().join("t.jsonl");
        let (code, _, err) = run(&["--trace-json", trace.to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
        let mut text = std::fs::read_to_string(&trace).unwrap();
        assert!(text.starts_with("{\"tick\":0,\"t_ms\":0,\"event\":\"tree\",\"format\":3,"));
        text.push_str("oops\n");
        std::fs::write(&trace, text).unwrap();
        let (code, _, err) = run(&[
            "inspect",
            trace.to_str().unwrap(),
            "--addr",
            ":0",
            "--run-for",
            "0.3",
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(err.contains("(skipped; the rest replays)"), "{err}");
        assert!(err.contains("inspect: open http://127.0.0.1:"), "{err}");
    }

    #[test]
    fn the_original_tree_runs_traces_and_replays() {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("t.jsonl");
        let tree = concat!(env!("CARGO_MANIFEST_DIR"), "/behaviors/original");
        let (code, out, err) = run(&[
            "--inspect",
            "127.0.0.1:0",
            "--tree",
            tree,
            "--run-for",
            "0.6",
            "--trace-json",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains("stack: InitNormalOperation"), "{out}");
        let text = std::fs::read_to_string(&trace).unwrap();
        let header: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let nodes = header["tree"]["nodes"].as_array().unwrap();
        assert!(nodes.len() > 150, "{}", nodes.len());
        let base = header["tree"]["base"].as_u64().unwrap() as usize;
        assert_eq!(nodes[base]["name"], "InitNormalOperation");
        assert!(
            nodes.iter().any(|n| n["stand_in"] == true),
            "stand-ins marked"
        );
        let hla = nodes.iter().find(|n| n["name"] == "HighLevelAI").unwrap();
        assert!(hla["states"].as_array().unwrap().len() > 5, "{hla}");
        // The replay of that trace, and with the tree given as a directory.
        let (code, _, err) = run(&[
            "inspect",
            trace.to_str().unwrap(),
            "--addr",
            ":0",
            "--run-for",
            "0.3",
            "--tree",
            tree,
        ]);
        assert_eq!(code, Some(0), "{err}");
    }

    #[test]
    fn ctrl_c_ends_the_run_with_its_summary() {
        // The handler is in place before the page's address is printed.
        let (code, seen) = crate::cli_support::interrupted(
            &["--inspect", "127.0.0.1:0", "--run-for", "60"],
            "inspect: open",
        );
        assert_eq!(code, Some(0), "{seen}");
        assert!(seen.contains("inspect: interrupted after"), "{seen}");
    }

    #[cfg(feature = "zenoh")]
    #[test]
    fn with_zenoh_the_page_comes_with_the_live_inputs() {
        let (code, out, err) = run(&[
            "--zenoh",
            "--listen",
            "tcp/127.0.0.1:0",
            "--inspect",
            "127.0.0.1:0",
            "--run-for",
            "0.5",
        ]);
        assert_eq!(code, Some(0), "{err}");
        assert!(
            err.contains("live: listening on [tcp/127.0.0.1:0]"),
            "{err}"
        );
        assert!(err.contains("inspect: open http://127.0.0.1:"), "{err}");
        assert!(err.contains("inspect: stopped after"), "{err}");
        assert!(out.contains("stack: GlobalInterruptions"), "{out}");
    }
}
