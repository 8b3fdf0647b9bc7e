//! Running the `robot-example` binary from the command-line tests (`cli.rs`, `inspect_cli.rs`,
//! `tree_cli.rs`, `ros2.rs`): each test file uses what it needs.
#![allow(dead_code)]

use std::process::Command;

/// The binary, with colours off (the tests read its text).
pub fn robot() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_robot-example"));
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Runs `cmd` to its end: exit code, stdout, stderr.
pub fn output(cmd: &mut Command) -> (Option<i32>, String, String) {
    let out = cmd.output().expect("run robot-example");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the binary with `args` to its end.
pub fn run(args: &[&str]) -> (Option<i32>, String, String) {
    output(robot().args(args))
}

/// Starts the binary with `args`, waits until its stderr says `ready` (it prints that line
/// after its Ctrl-C handler is in place: no guessed time), sends SIGINT, and returns its exit
/// code and everything it wrote on stderr.
#[cfg(unix)]
pub fn interrupted(args: &[&str], ready: &str) -> (Option<i32>, String) {
    use std::io::{BufRead, BufReader, Read};
    use std::process::Stdio;
    let mut child = robot()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start robot-example");
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    while !seen.contains(ready) {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            panic!("robot-example ended before saying {ready:?}: {seen}");
        }
        seen.push_str(&line);
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill -INT");
    assert!(kill.success());
    err.read_to_string(&mut seen).unwrap();
    (child.wait().unwrap().code(), seen)
}
