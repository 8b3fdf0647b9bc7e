//! The `cladz` bridge: `echo` in one process, `pub` in another, and garbage from a third
//! session; loopback only (`tcp/127.0.0.1`, multicast scouting off).

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clad_zenoh::zenoh::Wait;
use clad_zenoh::{config, TypeTag};
use common::clad::cloud_mic::Message;
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
    assert_eq!(report.len(), 4, "{stderr}");
    assert!(report[0].starts_with("ok CloudMic/Message "), "{stderr}");
    assert!(report[1].starts_with("error: invalid JSON"), "{stderr}");
    assert!(report[2].starts_with("error: "), "{stderr}");
    assert_eq!(report[3], "ok CloudMic/Message 4 bytes");

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
