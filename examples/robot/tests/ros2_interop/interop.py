#!/usr/bin/env python3
"""The robot against ROS 2 clients nobody on this project wrote (issue 23).

A ROS 2 graph on rmw_zenoh, without ROS: a Zenoh router (eclipse-zenoh, as `rmw_zenohd`
is one), a "ROS node" that puts on the wire exactly what rmw_zenoh_cpp puts (the data key, an
attachment made by Zenoh's own serializer, a CDR payload made by rosbags from the message
definition, liveliness tokens), and the robot (`robot-example --zenoh --ros2`) as a peer of
the router. Checked:

1. the robot is in the graph: a liveliness query sees its node, subscription and publisher
   tokens, in rmw_zenoh's format, with the RIHS01 hash rosbags computes for the message;
2. intents published by the Python node are claimed (each once, with the right fields; the
   ROS defaults rule applied to one left at its defaults; non-ASCII UTF-8 intact);
3. what the robot publishes decodes with rosbags, byte-identical to rosbags' serializer,
   with a correct attachment (sequence from 1, current time, the GID of its token);
4. bad input (no attachment, a pre-2025 attachment, truncated CDR, a length past the end, a
   string without its NUL, big-endian CDR, NaN confidence, a Humble publisher, a flood) is
   reported in the robot's timeline, and the next good intent is still claimed;
5. the robot's tokens disappear when it stops.

Run it with `bash .ci/ros2-interop` (builds the robot, installs the pinned clients into
`.venv`). Exits non-zero on any failure, or when a client is missing: it never skips.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    import xxhash
    import zenoh
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore
    from zenoh.ext import Int64, UInt8, z_deserialize, z_serialize
except ImportError as e:  # never a skip: a missing client is a failure
    print(f"FAIL: a client is missing ({e}); run `bash .ci/setup-python`", file=sys.stderr)
    sys.exit(1)

# hri_actions_msgs/msg/Intent: the six fields of every ROS 2 release (constants omitted: they
# are not on the wire and not in the type hash).
INTENT_MSG = """string intent
string data
string source
string modality
uint8 priority
float32 confidence
"""
ROS_TYPE = "hri_actions_msgs/msg/Intent"
DDS_TYPE = "hri_actions_msgs::msg::dds_::Intent_"
QOS = "::,10:,:,:,,"  # reliable, volatile, keep last 10: rclcpp's default
WAIT = 20.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def session_config(mode: str, listen: list[str], connect: list[str]) -> zenoh.Config:
    config = zenoh.Config()
    config.insert_json5("mode", json.dumps(mode))
    config.insert_json5("listen/endpoints", json.dumps(listen))
    config.insert_json5("connect/endpoints", json.dumps(connect))
    config.insert_json5("scouting/multicast/enabled", "false")
    return config


def run_router(port: int) -> None:
    """The router process: a Zenoh session in router mode, as `rmw_zenohd` is."""
    session = zenoh.open(session_config("router", [f"tcp/127.0.0.1:{port}"], []))
    print("router ready", flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        session.close()


class Failure(Exception):
    pass


class Interop:
    def __init__(self, robot: Path, workdir: Path, verbose: bool):
        self.robot_bin = robot
        self.dir = workdir
        self.verbose = verbose
        self.passed = 0
        self.failed = 0
        self.procs: list[subprocess.Popen] = []
        self.typestore = get_typestore(Stores.ROS2_JAZZY)
        self.typestore.register(get_types_from_msg(INTENT_MSG, ROS_TYPE))
        self.Intent = self.typestore.types[ROS_TYPE]
        self.type_hash = self.typestore.hash_rihs01(ROS_TYPE)
        self.key = f"0/intents/{DDS_TYPE}/{self.type_hash}"
        self.trace = self.dir / "trace.jsonl"
        self.sequence = 0
        self.heard: list[tuple[bytes, bytes | None, int]] = []

    # -- reporting ------------------------------------------------------------------------

    def check(self, ok: bool, what: str, detail: str = "") -> None:
        if ok:
            self.passed += 1
            print(f"ok - {what}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL - {what}" + (f": {detail}" if detail else ""), flush=True)

    def require(self, ok: bool, what: str, detail: str = "") -> None:
        self.check(ok, what, detail)
        if not ok:
            raise Failure(what)

    # -- processes ------------------------------------------------------------------------

    def start_router(self) -> str:
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, __file__, "router", "--port", str(port)],
            stdout=subprocess.PIPE,
            text=True,
        )
        self.procs.append(proc)
        line = proc.stdout.readline()
        self.require(line.strip() == "router ready", "the Python router starts", line)
        deadline = time.time() + WAIT
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return f"tcp/127.0.0.1:{port}"
            except OSError:
                time.sleep(0.05)
        raise Failure("the router's port never accepted connections")

    def start_robot(self, router: str) -> None:
        # What the robot's cloud pipeline hears, 8 s after it starts: discovery is over by
        # then (checked below), so the robot's first publications reach the Python node.
        scenario = self.dir / "scenario.jsonl"
        scenario.write_text(
            "\n".join(
                json.dumps(line)
                for line in [
                    {"t": 8000, "cloud": {"type": "result", "intent": "__intent_move_to__",
                                          "parameters": "{\"goal\":\"kitchen\"}", "metadata": ""}},
                    {"t": 8500, "cloud": {"type": "result", "intent": "intent_clock_settimer_extend",
                                          "parameters": "{\"timer_duration\":\"300\"}", "metadata": ""}},
                ]
            )
            + "\n"
        )
        cmd = [
            str(self.robot_bin), "--zenoh", "--ros2", "--ros-publish",
            "--connect", router, "--queue", "16", "--run-for", "120",
            "--scenario", str(scenario), "--trace-json", str(self.trace),
        ]
        env = dict(os.environ, NO_COLOR="1")
        env.pop("ROS_DOMAIN_ID", None)
        self.robot_out = open(self.dir / "robot.out", "w")
        self.robot_err = open(self.dir / "robot.err", "w")
        self.robot = subprocess.Popen(cmd, stdout=self.robot_out, stderr=self.robot_err, env=env)
        self.robot_started = time.time()
        self.procs.append(self.robot)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT if proc is not self.robot else signal.SIGTERM)
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()

    # -- the robot's timeline -------------------------------------------------------------

    def events(self) -> list[dict]:
        if not self.trace.exists():
            return []
        out = []
        for line in self.trace.read_text(encoding="utf-8").splitlines():
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                break  # a line being written
        return out

    def wait_for(self, what: str, predicate, timeout: float = WAIT) -> list[dict]:
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.robot.poll() is not None:
                raise Failure(f"the robot exited ({self.robot.returncode}) while waiting for {what}")
            events = self.events()
            if predicate(events):
                return events
            time.sleep(0.05)
        self.check(False, what, "timed out")
        raise Failure(what)

    @staticmethod
    def ros_inputs(events: list[dict]) -> list[str]:
        return [e["detail"] for e in events if e.get("event") == "input" and e.get("kind") == "ros2"]

    @staticmethod
    def problems(events: list[dict]) -> list[str]:
        out = []
        for e in events:
            if e.get("event") == "input_ignored":
                out.append(e["reason"])
            elif e.get("event") == "not_understood":
                out.append(f'{e["intent"]}: {e["error"]} -> {e["reaction"]}')
        return out

    # -- the Python ROS node ----------------------------------------------------------------

    def open_node(self, router: str) -> None:
        self.session = zenoh.open(session_config("peer", ["tcp/127.0.0.1:0"], [router]))
        self.zid = str(self.session.zid())
        self.node_token = f"@ros2_lv/0/{self.zid}/0/0/NN/%/%/intent_tester"
        self.pub_token = (
            f"@ros2_lv/0/{self.zid}/0/1/MP/%/%/intent_tester/%intents/{DDS_TYPE}/{self.type_hash}/{QOS}"
        )
        self.gid = xxhash.xxh3_128(self.pub_token.encode()).intdigest().to_bytes(16, "little")

        def on_sample(sample):
            attachment = sample.attachment.to_bytes() if sample.attachment is not None else None
            self.heard.append((sample.payload.to_bytes(), attachment, time.time_ns()))

        # Declared before the robot starts, to hear its first publication; not this session's
        # own publications (as a ROS subscription with ignore_local_publications).
        self.listener = self.session.declare_subscriber(
            self.key, on_sample, allowed_origin=zenoh.Locality.REMOTE)

    def tokens(self) -> list[str]:
        replies = self.session.liveliness().get("@ros2_lv/0/**", timeout=2.0)
        return sorted(str(r.ok.key_expr) for r in replies if r.ok is not None)

    def serialize(self, **fields) -> bytes:
        msg = self.Intent(
            intent=fields.get("intent", ""),
            data=fields.get("data", ""),
            source=fields.get("source", ""),
            modality=fields.get("modality", ""),
            priority=fields.get("priority", 0),
            confidence=fields.get("confidence", 0.0),
        )
        return bytes(self.typestore.serialize_cdr(msg, ROS_TYPE, little_endian=fields.get("le", True)))

    def attachment(self) -> bytes:
        self.sequence += 1
        return z_serialize(
            (Int64(self.sequence), Int64(time.time_ns()), [UInt8(b) for b in self.gid])
        ).to_bytes()

    def put(self, payload: bytes, attachment: bytes | None = b"auto", key: str | None = None) -> None:
        if attachment == b"auto":
            attachment = self.attachment()
        if attachment is None:
            self.publisher.put(payload) if key is None else self.session.put(key, payload)
        else:
            if key is None:
                self.publisher.put(payload, attachment=attachment)
            else:
                self.session.put(key, payload, attachment=attachment)

    def publish(self, **fields) -> None:
        self.put(self.serialize(**fields))

    # -- the checks -------------------------------------------------------------------------

    def check_graph(self) -> None:
        deadline = time.time() + WAIT
        robot_tokens: list[str] = []
        while time.time() < deadline:
            robot_tokens = [t for t in self.tokens() if t.endswith("/robot") or "/%/%/robot/" in t]
            if len(robot_tokens) >= 3:
                break
            time.sleep(0.1)
        node = [t for t in robot_tokens if "/NN/" in t]
        sub = [t for t in robot_tokens if "/MS/" in t]
        pub = [t for t in robot_tokens if "/MP/" in t]
        self.require(len(node) == 1 and len(sub) == 1 and len(pub) == 1,
                     "a liveliness query sees the robot's node, subscription and publisher", str(robot_tokens))
        node, sub, pub = node[0].split("/"), sub[0].split("/"), pub[0].split("/")
        self.check(len(node) == 9 and node[5:] == ["NN", "%", "%", "robot"] and node[3] == node[4],
                   "node token: @ros2_lv/0/<zid>/<nid>/<nid>/NN/%/%/robot", "/".join(node))
        tail = ["%", "%", "robot", "%intents", DDS_TYPE, self.type_hash, QOS]
        self.check(len(sub) == 13 and sub[5] == "MS" and sub[6:] == tail,
                   "subscription token names /intents, the DDS type, rosbags' RIHS01 hash and the QoS", "/".join(sub))
        self.check(len(pub) == 13 and pub[5] == "MP" and pub[6:] == tail,
                   "publisher token likewise", "/".join(pub))
        self.check(node[2] == sub[2] == pub[2] and all(c in "0123456789abcdef" for c in node[2]),
                   "one Zenoh id in all three tokens")
        self.check(all(t[3].isdecimal() and t[4].isdecimal() for t in (node, sub, pub))
                   and node[3] == sub[3] == pub[3] and len({node[4], sub[4], pub[4]}) == 3,
                   "decimal node and entity ids, distinct entity ids")
        self.robot_pub_token = "/".join(pub)
        discovered_after = time.time() - self.robot_started
        self.require(discovered_after < 7.5, "discovery is over before the robot's first publication (8 s)",
                     f"{discovered_after:.1f} s")

    def check_intents(self) -> None:
        self.session.liveliness().declare_token(self.node_token)
        self.pub_token_decl = self.session.liveliness().declare_token(self.pub_token)
        self.publisher = self.session.declare_publisher(self.key)
        deadline = time.time() + WAIT
        while not self.publisher.matching_status.matching:
            if time.time() > deadline:
                raise Failure("the robot's subscription never matched the Python publisher")
            time.sleep(0.02)
        self.check(True, "the Python publisher matches the robot's subscription on the exact key")

        self.publish(intent="__intent_move_to__", data='{"goal": "poi_docking"}',
                     source="__remote_supervisor__", modality="__modality_touchscreen__",
                     priority=255, confidence=1.0)
        events = self.wait_for("the robot claims MOVE_TO poi_docking", lambda ev: any(
            e.get("event") == "claimed" and e.get("intent") == "system_charger" for e in ev))
        first = self.ros_inputs(events)
        self.check(len(first) == 1 and first[0].startswith(
            '__intent_move_to__ {"goal": "poi_docking"} priority 255 from __remote_supervisor__ '
            'via __modality_touchscreen__ confidence 1.0  [seq 1 from '),
            "its fields arrived as sent, with the attachment's sequence number", str(first))

        self.publish(intent="__intent_present_content__", data='{"object": "menu"}',
                     source="__unknown_agent__", modality="__modality_touchscreen__")
        events = self.wait_for("PRESENT_CONTENT left at its defaults is granted", lambda ev: any(
            e.get("event") == "resource" and e.get("holder", "").startswith("present_content")
            and e.get("change", "").startswith("granted") for e in ev))
        rule = [e for e in events if e.get("event") == "ros_defaults"]
        self.check(rule == [{**rule[0], "priority": 0, "confidence": 0.0}] if rule else False,
                   "the ROS defaults rule read priority 0 and confidence 0.0 as unstated, and said so", str(rule))

        text = "la cuisine à côté du café ☕"
        self.publish(intent="__intent_guide__", data=json.dumps({"goal": text, "recipient": "person_1"}, ensure_ascii=False),
                     source="person_1", modality="__modality_speech__", priority=128, confidence=0.95)
        self.publish(intent="__raw_user_input__", data='{"input": "bonjour, ça va ?", "locale": "fr_FR"}',
                     source="__unknown_agent__", modality="__modality_speech__", priority=128, confidence=1.0)
        events = self.wait_for("GUIDE and RAW_USER_INPUT arrive", lambda ev: len(self.ros_inputs(ev)) >= 4)
        seen = self.ros_inputs(events)
        self.check(sum(text in d for d in seen) == 1, "non-ASCII UTF-8 arrives intact, once", str(seen))
        self.check(sum("bonjour, ça va ?" in d for d in seen) == 1, "RAW_USER_INPUT arrives once", str(seen))
        self.check(any(e.get("event") == "resource" and e.get("holder", "").startswith("guide") for e in events),
                   "GUIDE reaches the mission controller")
        self.check(not self.problems(events), "no problem reported for good intents", str(self.problems(events)))


    def check_publications(self) -> None:
        # The scenario's two voice commands come 8 and 8.5 s after the robot's start.
        deadline = self.robot_started + 8.5 + WAIT
        while len(self.heard) < 2 and time.time() < deadline:
            time.sleep(0.05)
        self.require(len(self.heard) >= 2, "the robot's two publications arrive", f"{len(self.heard)} heard")
        expected = [
            dict(intent="__intent_move_to__", data='{"goal":"kitchen"}', source="__unknown_agent__",
                 modality="__modality_speech__", priority=128, confidence=1.0),
            dict(intent="set_timer", data='{"time_s":300}', source="__unknown_agent__",
                 modality="__modality_speech__", priority=128, confidence=1.0),
        ]
        robot_gid = xxhash.xxh3_128(self.robot_pub_token.encode()).intdigest().to_bytes(16, "little")
        for i, ((payload, attachment, arrived), want) in enumerate(zip(self.heard, expected), start=1):
            msg = self.typestore.deserialize_cdr(payload, ROS_TYPE)
            got = {k: getattr(msg, k) for k in want}
            self.check(got == want, f"publication {i} decodes with rosbags to what the robot heard", str(got))
            self.check(payload == self.serialize(**want), f"publication {i} is byte-identical to rosbags' CDR")
            ok = attachment is not None and len(attachment) == 33 and attachment[16] == 0x10
            self.require(ok, f"publication {i} has the 33-byte attachment", repr(attachment))
            seq, stamp, gid = z_deserialize(tuple[Int64, Int64, list[UInt8]], zenoh.ZBytes(attachment))
            self.check(int(seq) == i, f"publication {i}: sequence number {i}", str(int(seq)))
            self.check(abs(int(stamp) - arrived) < 5_000_000_000, f"publication {i}: source time is the wall clock")
            self.check(bytes(int(b) for b in gid) == robot_gid,
                       f"publication {i}: GID = XXH3-128 of the robot's publisher token")
        events = self.events()
        self.check(not any("kitchen" in d or "set_timer" in d for d in self.ros_inputs(events)),
                   "the robot does not hear its own publications")

    def check_user_script(self) -> None:
        """The README's command for users without ROS (examples/robot/scripts/ros2_intent.py)."""
        script = Path(__file__).resolve().parents[2] / "scripts" / "ros2_intent.py"
        done = subprocess.run(
            [sys.executable, str(script), "pub", "--router", self.router, "--intent", "__intent_greet__",
             "--data", '{"recipient": "person_3"}', "--source", "__unknown_agent__",
             "--modality", "__modality_speech__", "--priority", "128", "--confidence", "0.9"],
            capture_output=True, text=True, timeout=60)
        self.check(done.returncode == 0, "scripts/ros2_intent.py pub runs", done.stderr[-500:])
        self.wait_for("the intent of scripts/ros2_intent.py pub arrives", lambda ev: any(
            "person_3" in d for d in self.ros_inputs(ev)))

    def check_bad_input(self) -> None:
        good = 0

        def next_good() -> str:
            nonlocal good
            good += 1
            marker = f"after bad input {good}"
            self.publish(intent="__intent_say__", data=json.dumps({"object": marker}),
                         source="__myself__", modality="__modality_speech__", priority=128, confidence=1.0)
            return marker

        payload = self.serialize(intent="__intent_say__", data='{"object": "x"}', source="__myself__",
                                 modality="__modality_speech__", priority=128, confidence=1.0)
        legacy = z_serialize(("sequence_number", Int64(99), "source_timestamp", Int64(time.time_ns()),
                              "source_gid", bytes(self.gid))).to_bytes()
        past_end = bytearray(payload)
        past_end[4:8] = (200).to_bytes(4, "little")
        no_nul = bytearray(payload)
        no_nul[4 + 4 + len("__intent_say__")] = ord("!")
        cases = [
            ("no attachment", lambda: self.put(self.serialize(intent="__intent_say__", data='{"object": "no attachment"}',
                                                              priority=128, confidence=1.0), attachment=None),
             "no rmw_zenoh attachment"),
            ("a pre-2025 keyed attachment", lambda: self.put(payload, attachment=legacy),
             "keyed attachment of rmw_zenoh releases before mid-2025"),
            ("truncated CDR", lambda: self.put(payload[:26]), "needs 4 bytes, 2 left"),
            ("a string length past the end", lambda: self.put(bytes(past_end)), "runs past the end"),
            ("a string without its NUL", lambda: self.put(bytes(no_nul)), "not the terminating NUL"),
            ("big-endian CDR (rosbags)", lambda: self.put(self.serialize(intent="__intent_say__", le=False)),
             "big-endian"),
            ("NaN confidence (rosbags)", lambda: self.publish(intent="__intent_say__", data='{"object": "nan"}',
                                                              priority=128, confidence=math.nan),
             "confidence NaN is not within 0.0..=1.0"),
            ("a Humble publisher (TypeHashNotSupported)",
             lambda: self.put(payload, key=f"0/intents/{DDS_TYPE}/TypeHashNotSupported"), "TypeHashNotSupported"),
        ]
        for name, send, reported in cases:
            before = len(self.events())
            send()
            marker = next_good()
            events = self.wait_for(f"the good intent after {name} arrives", lambda ev: any(
                marker in d for d in self.ros_inputs(ev)))
            new = events[before:]
            problems = self.problems(new)
            self.check(any(reported in p for p in problems), f"{name} is reported", str(problems))
            self.check(sum(marker in d for d in self.ros_inputs(events)) == 1,
                       f"the good intent after {name} arrives once")

        # A flood: far more intents than a 16-message queue holds between two 50 ms ticks.
        before = len(self.events())
        for i in range(3000):
            self.publish(intent="__intent_say__", data=json.dumps({"object": f"flood {i}"}),
                         source="__myself__", modality="__modality_speech__", priority=128, confidence=1.0)
        time.sleep(1.0)  # the flood drains (a publisher's own queue drops under congestion too)
        marker = next_good()
        events = self.wait_for("the good intent after a flood arrives", lambda ev: any(
            marker in d for d in self.ros_inputs(ev)))
        problems = self.problems(events[before:])
        self.check(any("shed: the input queue (16) was full" in p for p in problems),
                   "the flood's overflow is reported", str(problems[:5]))
        self.check(self.robot.poll() is None, "the robot is still running")

    def check_tokens_leave(self) -> None:
        self.robot.send_signal(signal.SIGTERM)
        self.robot.wait(timeout=10)
        deadline = time.time() + WAIT
        while time.time() < deadline:
            if not [t for t in self.tokens() if "/%/%/robot" in t]:
                self.check(True, "the robot's tokens disappear when it stops")
                return
            time.sleep(0.1)
        self.check(False, "the robot's tokens disappear when it stops")

    def run(self) -> int:
        try:
            router = self.router = self.start_router()
            self.check(True, f"router on {router}")
            self.open_node(router)
            self.start_robot(router)
            self.check_graph()
            self.check_intents()
            self.check_publications()
            self.check_user_script()
            self.check_bad_input()
            self.check_tokens_leave()
        except Failure as e:
            if self.failed == 0:
                self.check(False, str(e))
        except Exception as e:  # noqa: BLE001 -- any crash of the test is a failure
            self.check(False, f"the test crashed: {type(e).__name__}: {e}")
        finally:
            self.stop()
            try:
                self.session.close()
            except Exception:  # noqa: BLE001
                pass
        if self.failed or self.verbose:
            for name in ("robot.err", "robot.out"):
                path = self.dir / name
                if path.exists():
                    lines = path.read_text(errors="replace").splitlines()
                    print(f"--- {name} (last 60 lines) ---")
                    print("\n".join(lines[-60:]))
        print(f"ros2-interop: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed or not self.passed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command")
    r = sub.add_parser("router", help="run the Zenoh router (used by the test itself)")
    r.add_argument("--port", type=int, required=True)
    parser.add_argument("--robot", type=Path, help="the robot-example binary (built with --features zenoh)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory (trace, logs)")
    parser.add_argument("--verbose", action="store_true", help="print the robot's output at the end")
    args = parser.parse_args()
    if args.command == "router":
        run_router(args.port)
        return 0
    if args.robot is None or not args.robot.exists():
        print(f"FAIL: robot binary {args.robot} not found", file=sys.stderr)
        return 1
    workdir = Path(tempfile.mkdtemp(prefix="ros2-interop-"))
    code = Interop(args.robot.resolve(), workdir, args.verbose).run()
    if args.keep or code:
        print(f"work directory kept: {workdir}")
    else:
        for p in workdir.iterdir():
            p.unlink()
        workdir.rmdir()
    return code


if __name__ == "__main__":
    sys.exit(main())
