//! The `robot-example` binary's command line: the live mode's options and their errors.

use std::process::Command;

fn robot() -> Command {
    Command::new(env!("CARGO_BIN_EXE_robot-example"))
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = robot()
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("run robot-example");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
            err.contains("stopped after 6 ticks; 0 messages received"),
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
}
