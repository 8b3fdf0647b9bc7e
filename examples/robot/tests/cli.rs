//! The `robot-example` binary's command line: the live mode's options and their errors.

mod cli_support;

use cli_support::run;

#[test]
fn live_options_need_zenoh() {
    let (code, _, err) = run(&["--listen", "tcp/127.0.0.1:7447"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("--zenoh"), "{err}");
}

#[test]
fn a_zenoh_config_file_excludes_the_endpoint_options() {
    let (code, _, err) = run(&[
        "--zenoh",
        "--zenoh-config",
        "z.json5",
        "--connect",
        "tcp/127.0.0.1:1",
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn latency_with_zenoh_is_refused_not_ignored() {
    let (code, out, err) = run(&["--zenoh", "--latency"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("cannot be used with") && err.contains("'--latency'"),
        "{err}"
    );
}

#[test]
fn a_scenario_that_is_not_utf8_runs_its_good_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    std::fs::write(
        &path,
        b"{\"t\": 0, \"note\": \"caf\xe9\"}\n{\"t\": 10, \"note\": \"still here\"}\n{\"tick\": 1e15, \"note\": \"x\"}\n",
    )
    .unwrap();
    let (code, out, err) = run(&["--scenario", path.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("scenario line 1: not valid UTF-8 (byte 22 of the line is not)"),
        "{err}"
    );
    assert!(
        err.contains("scenario line 3: tick 1000000000000000 is past the scenario horizon"),
        "{err}"
    );
    assert!(out.contains("# still here"), "{out}");
}

#[cfg(not(feature = "zenoh"))]
#[test]
fn without_the_feature_zenoh_says_how_to_build_it() {
    let (code, out, err) = run(&["--zenoh"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("--features zenoh"), "{err}");
}

#[cfg(feature = "zenoh")]
mod live {
    use super::run;

    fn free_port() -> u16 {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        l.local_addr().expect("local address").port()
    }

    #[test]
    fn runs_for_the_time_given_and_prints_the_timeline_as_it_goes() {
        let ep = format!("tcp/127.0.0.1:{}", free_port());
        let (code, out, err) = run(&["--zenoh", "--listen", &ep, "--run-for", "0.3"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.starts_with("     time   tick"), "{out}");
        assert!(err.contains(&format!("listening on [{ep}]")), "{err}");
        assert!(err.contains("cloud messages on CloudMic/Message"), "{err}");
        assert!(
            err.contains(
                "stopped after 6 ticks; messages 0 received (0 submitted, 0 refused, 0 shed): \
                 cloud 0, hri 0"
            ),
            "{err}"
        );
    }

    #[test]
    fn a_bad_endpoint_or_config_file_is_a_clear_error() {
        let (code, _, err) = run(&["--zenoh", "--listen", "nonsense", "--run-for", "0"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.starts_with("error: --zenoh:"), "{err}");

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("z.json5");
        std::fs::write(&path, "{ not json5 at all").unwrap();
        let (code, _, err) = run(&[
            "--zenoh",
            "--zenoh-config",
            path.to_str().unwrap(),
            "--run-for",
            "0",
        ]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.starts_with("error: --zenoh:"), "{err}");
    }

    #[test]
    fn a_negative_run_time_is_refused() {
        let (code, _, err) = run(&["--zenoh", "--run-for=-1"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("--run-for"), "{err}");
    }

    #[test]
    fn a_run_time_past_the_limit_is_a_clear_error_not_a_panic() {
        for t in ["1e20", "31536001", "inf", "NaN"] {
            let (code, _, err) = run(&["--zenoh", "--run-for", t]);
            assert_eq!(code, Some(2), "{t}: {err}");
            assert!(
                err.starts_with(&format!("error: --run-for {}", t.to_lowercase()))
                    || err.starts_with("error: --run-for"),
                "{t}: {err}"
            );
            assert!(err.contains("one year"), "{t}: {err}");
            assert!(!err.contains("panicked"), "{t}: {err}");
        }
    }

    /// Ctrl-C (SIGINT) ends a run with no time limit after the tick in progress, with its
    /// summary line.
    #[cfg(unix)]
    #[test]
    fn ctrl_c_ends_the_robot_with_its_summary_line() {
        // The handler is in place before the robot says it listens.
        let ep = format!("tcp/127.0.0.1:{}", free_port());
        let (code, seen) =
            crate::cli_support::interrupted(&["--zenoh", "--listen", &ep], "live: listening");
        assert_eq!(code, Some(0), "{seen}");
        assert!(
            seen.contains("live: interrupted after") && seen.contains("messages 0 received"),
            "{seen}"
        );
    }
}

/// Standard output that cannot be written (`> /dev/full`) is an error on standard error and
/// exit status 1, in every mode that prints, never a silent success.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_reported() {
    let original = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("behaviors/original")
        .display()
        .to_string();
    for args in [
        vec![],
        vec!["--coverage"],
        vec!["--check-tree", original.as_str()],
        vec!["--latency"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let (code, _, err) = cli_support::output(cli_support::robot().args(&args).stdout(full));
        assert_eq!(code, Some(1), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write standard output: No space left on device"),
            "{args:?}: {err}"
        );
    }
}

/// A scenario read from an endless stream (`/dev/zero` is one endless line) stops with an
/// error after one line's worth of bytes, instead of filling the memory.
#[cfg(unix)]
#[test]
fn an_endless_scenario_stops_with_an_error() {
    let (code, out, err) = run(&["--scenario", "/dev/zero"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("--scenario /dev/zero: line 1 is longer than")
            && err.contains("not a scenario (reading stopped there)"),
        "{err}"
    );
}
