//! The `cladz` bridge: `echo` in one process, `pub` in another, and garbage from a third
//! session; loopback only (`tcp/127.0.0.1`, multicast scouting off).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clad_zenoh::zenoh::Wait;
use clad_zenoh::{config, TypeTag};
use common::clad::cloud_mic::{IntentResult, Message};
use serde_json::{json, Value};

fn cladz() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cladz"));
    c.current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    c
}

#[test]
fn pub_and_echo_bridge_clad_json_and_report_garbage() {
    let ep = format!("tcp/127.0.0.1:{}", common::free_port());
    let mut echo = cladz()
        .args([
            "echo",
            "-I",
            "schemas",
            "cloud.clad",
            "--count",
            "4",
            "--listen",
            &ep,
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("cladz echo starts");
    let mut lines = BufReader::new(echo.stdout.take().unwrap()).lines();

    // Wait until echo listens: a session that can connect and sees its subscriber.
    let deadline = Instant::now() + Duration::from_secs(20);
    let probe = loop {
        if let Ok(s) = config::peer(&[], &[&ep], false).and_then(config::open) {
            let p = s.declare_publisher("CloudMic/Message").wait().unwrap();
            if p.matching_status().wait().unwrap().matching() {
                drop(p);
                break s;
            }
            s.close().wait().unwrap();
        }
        assert!(Instant::now() < deadline, "cladz echo never listened");
        std::thread::sleep(Duration::from_millis(100));
    };

    let mut publisher = cladz()
        .args(["pub", "-I", "schemas", "cloud.clad", "--connect", &ep])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cladz pub starts");
    let result = json!({"type": "result", "intent": "intent_clock_settimer_extend",
                        "parameters": "{\"timer_duration\":\"300\"}", "metadata": ""});
    let open = json!({"type": "streamOpen", "session": "s1"});
    {
        let stdin = publisher.stdin.as_mut().unwrap();
        writeln!(
            stdin,
            "{}",
            json!({"type": "CloudMic::Message", "value": result})
        )
        .unwrap();
        writeln!(stdin, "not json").unwrap();
        writeln!(
            stdin,
            "{}",
            json!({"type": "CloudMic::Message", "value": {"type": "nope"}})
        )
        .unwrap();
        // One byte that is not UTF-8: that line only.
        stdin
            .write_all(b"{\"type\": \"CloudMic::Message\", \"value\": \xff}\n")
            .unwrap();
        // A typo at the top level and one inside the value: errors naming the key.
        writeln!(
            stdin,
            "{}",
            json!({"type": "CloudMic::Message", "value": open, "priorty": 255})
        )
        .unwrap();
        writeln!(
            stdin,
            "{}",
            json!({"type": "CloudMic::Message",
                   "value": {"type": "streamOpen", "session": "s1", "sesion": "s2"}})
        )
        .unwrap();
        writeln!(
            stdin,
            "{}",
            json!({"type": "CloudMic::Message", "value": open})
        )
        .unwrap();
    }
    let out = publisher.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a bad line makes exit 1: {stderr}"
    );
    let report: Vec<&str> = stderr.lines().collect();
    assert_eq!(report.len(), 7, "{stderr}");
    assert!(
        report[0].starts_with("ok line 1: CloudMic/Message "),
        "{stderr}"
    );
    assert!(
        report[1].starts_with("error: line 2: invalid JSON"),
        "{stderr}"
    );
    assert!(report[2].starts_with("error: line 3: "), "{stderr}");
    assert_eq!(
        report[3],
        "error: line 4: not UTF-8 text: byte 0xff at column 40"
    );
    assert!(
        report[4].starts_with(r#"error: line 5: unknown key "priorty""#),
        "{stderr}"
    );
    assert!(
        report[5].starts_with(
            r#"error: line 6: CloudMic::Message.streamOpen: unknown key "sesion" (expected one of: session)"#
        ),
        "{stderr}"
    );
    assert_eq!(report[6], "ok line 7: CloudMic/Message 4 bytes");

    // Garbage from another session: no tag, then a tag of an unknown type.
    probe
        .put("CloudMic/Message", vec![1u8, 2, 3])
        .wait()
        .unwrap();
    probe
        .put("CloudMic/Message", vec![0u8])
        .attachment(
            TypeTag {
                name: "Nope::Nothing",
                hash: None,
            }
            .encode()
            .unwrap(),
        )
        .wait()
        .unwrap();

    let got: Vec<Value> = (0..4)
        .map(|_| serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap())
        .collect();
    assert_eq!(
        got[0],
        json!({"key": "CloudMic/Message", "type": "CloudMic::Message", "value": result})
    );
    assert_eq!(
        got[1],
        json!({"key": "CloudMic/Message", "type": "CloudMic::Message", "value": open})
    );
    assert_eq!(got[2]["key"], "CloudMic/Message");
    assert!(got[2]["error"]
        .as_str()
        .unwrap()
        .contains("no CLAD type tag"));
    assert!(got[3]["error"]
        .as_str()
        .unwrap()
        .contains("not in the schema"));
    assert!(echo.wait().unwrap().success());
    // The packed bytes cladz sent are the generated type's encoding.
    let m: Message = serde_json::from_value(open).unwrap();
    assert_eq!(clad_runtime::wire::Wire::packed_size(&m), 4);
}

#[test]
fn pub_with_no_subscriber_says_the_message_was_not_delivered() {
    // A session that listens but that nobody subscribes on: nothing can receive.
    let ep = format!("tcp/127.0.0.1:{}", common::free_port());
    let mut publisher = cladz()
        .args([
            "pub",
            "-I",
            "schemas",
            "cloud.clad",
            "--listen",
            &ep,
            "--wait",
            "300",
        ])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cladz pub starts");
    {
        let stdin = publisher.stdin.as_mut().unwrap();
        for session in ["a", "b"] {
            let open = json!({"type": "streamOpen", "session": session});
            writeln!(
                stdin,
                "{}",
                json!({"type": "CloudMic::Message", "value": open})
            )
            .unwrap();
        }
    }
    let out = publisher.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let report: Vec<&str> = stderr.lines().collect();
    assert_eq!(report.len(), 2, "{stderr}");
    for (i, line) in report.iter().enumerate() {
        assert!(
            line.starts_with(&format!(
                "error: line {}: not delivered: no subscriber on CloudMic/Message",
                i + 1
            )),
            "{stderr}"
        );
    }
}

/// `cloud.clad` and `common.clad` copied to a scratch directory, `cloud.clad` edited.
struct ChangedSchemas(std::path::PathBuf);

impl ChangedSchemas {
    fn new(name: &str, from: &str, to: &str) -> Self {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas");
        let dir = std::env::temp_dir().join(format!("cladz-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cloud = std::fs::read_to_string(format!("{root}/cloud.clad")).unwrap();
        assert_eq!(cloud.matches(from).count(), 1);
        std::fs::write(dir.join("cloud.clad"), cloud.replace(from, to)).unwrap();
        std::fs::copy(format!("{root}/common.clad"), dir.join("common.clad")).unwrap();
        ChangedSchemas(dir)
    }

    fn dir(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for ChangedSchemas {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const SWAP_FROM: &str = "  string[uint_16] parameters,\n  string[uint_16] metadata,";
const SWAP_TO: &str = "  string[uint_16] metadata,\n  string[uint_16] parameters,";

#[test]
fn cladz_pub_from_a_copy_with_swapped_nested_members_is_refused_by_the_robot() {
    // The issue's run: `IntentResult`'s members swapped in a copy of cloud.clad, a set-timer
    // result published with it. The generated receiver refuses it, naming the type.
    let changed = ChangedSchemas::new("pub", SWAP_FROM, SWAP_TO);
    let ep = format!("tcp/127.0.0.1:{}", common::free_port());
    let robot = config::peer(&[&ep], &[], false)
        .and_then(config::open)
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let _sub = clad_zenoh::subscribe::<Message, _>(&robot, None, move |r| {
        let _ = tx.send(r);
    })
    .unwrap();
    let mut publisher = cladz()
        .args(["pub", "-I", changed.dir(), "cloud.clad", "--connect", &ep])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cladz pub starts");
    let timer = json!({"type": "result", "intent": "intent_clock_settimer_extend",
                       "parameters": "{\"timer_duration\":\"60\"}",
                       "metadata": "{\"timer_duration\":\"999\"}"});
    writeln!(
        publisher.stdin.as_mut().unwrap(),
        "{}",
        json!({"type": "CloudMic::Message", "value": timer})
    )
    .unwrap();
    let out = publisher.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    match rx.recv_timeout(common::WAIT).expect("an event") {
        Err(clad_zenoh::ReceiveError::HashMismatch { type_name, .. }) => {
            assert_eq!(type_name, "CloudMic::Message");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn cladz_echo_with_a_changed_copy_refuses_what_the_generated_code_sends() {
    // The other side of the link: the schema-driven receiver has the changed schema.
    let changed = ChangedSchemas::new("echo", SWAP_FROM, SWAP_TO);
    let ep = format!("tcp/127.0.0.1:{}", common::free_port());
    let mut echo = cladz()
        .args([
            "echo",
            "-I",
            changed.dir(),
            "cloud.clad",
            "--count",
            "1",
            "--listen",
            &ep,
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("cladz echo starts");
    let mut lines = BufReader::new(echo.stdout.take().unwrap()).lines();
    let deadline = Instant::now() + Duration::from_secs(20);
    let (session, publisher) = loop {
        if let Ok(s) = config::peer(&[], &[&ep], false).and_then(config::open) {
            let p = clad_zenoh::Publisher::<Message>::declare(&s, None).unwrap();
            if p.wait_for_subscribers(Duration::from_millis(500)).unwrap() {
                break (s, p);
            }
            drop(p);
            s.close().wait().unwrap();
        }
        assert!(Instant::now() < deadline, "cladz echo never listened");
    };
    publisher
        .put(&Message::Result(IntentResult {
            intent: "intent_clock_settimer_extend".into(),
            parameters: r#"{"timer_duration":"60"}"#.into(),
            metadata: String::new(),
        }))
        .unwrap();
    let line: Value = serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap();
    let error = line["error"].as_str().unwrap_or_else(|| panic!("{line}"));
    assert!(error.contains("`CloudMic::Message`"), "{error}");
    assert!(error.contains("schema hash"), "{error}");
    assert!(line.get("value").is_none(), "never decoded: {line}");
    assert!(echo.wait().unwrap().success());
    drop(session);
}
