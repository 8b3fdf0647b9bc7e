#!/usr/bin/env python3
"""Talk to the robot as a ROS 2 node would, without ROS installed.

Three commands, each doing on the wire what ROS 2 with rmw_zenoh does:

  router  a Zenoh router, as `ros2 run rmw_zenoh_cpp rmw_zenohd` (tcp/[::]:7447 by default)
  pub     publish one hri_actions_msgs/msg/Intent on /intents, as
          `ros2 topic pub --once /intents hri_actions_msgs/msg/Intent "{...}"`
  echo    print the Intents published on /intents, as `ros2 topic echo /intents`

Needs the project's Python environment (`bash .ci/setup-python`: eclipse-zenoh, rosbags,
xxhash). The message is serialized by rosbags from the message definition, the attachment
by Zenoh's serializer, and the node shows up in the graph with rmw_zenoh's liveliness
tokens, so the same commands work against a real ROS 2 graph on rmw_zenoh.

  .venv/bin/python examples/robot/scripts/ros2_intent.py pub \\
      --intent __intent_move_to__ --data '{"goal": "poi_docking"}' \\
      --source __remote_supervisor__ --modality __modality_touchscreen__ --priority 255 --confidence 1.0
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

try:
    import xxhash
    import zenoh
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore
    from zenoh.ext import Int64, UInt8, z_deserialize, z_serialize
except ImportError as e:
    sys.exit(f"error: {e}: run `bash .ci/setup-python`, then use .venv/bin/python")

INTENT_MSG = """string intent
string data
string source
string modality
uint8 priority
float32 confidence
"""
ROS_TYPE = "hri_actions_msgs/msg/Intent"
DDS_TYPE = "hri_actions_msgs::msg::dds_::Intent_"
QOS = "::,10:,:,:,,"


def typestore():
    store = get_typestore(Stores.ROS2_JAZZY)
    store.register(get_types_from_msg(INTENT_MSG, ROS_TYPE))
    return store


def open_session(mode: str, listen: list[str], connect: list[str]) -> zenoh.Session:
    config = zenoh.Config()
    config.insert_json5("mode", json.dumps(mode))
    config.insert_json5("listen/endpoints", json.dumps(listen))
    config.insert_json5("connect/endpoints", json.dumps(connect))
    config.insert_json5("scouting/multicast/enabled", "false")
    return zenoh.open(config)


def names(args, store) -> tuple[str, str]:
    """The data key and the type-hash chunk of the topic."""
    topic = args.topic.strip("/")
    hash_chunk = "TypeHashNotSupported" if args.distro == "humble" else store.hash_rihs01(ROS_TYPE)
    return f"{args.domain}/{topic}/{DDS_TYPE}/{hash_chunk}", hash_chunk


def router(args) -> int:
    session = open_session("router", [args.listen], [])
    print(f"router listening on {args.listen} (Ctrl-C stops it)", flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    session.close()
    return 0


def pub(args) -> int:
    store = typestore()
    key, hash_chunk = names(args, store)
    session = open_session("peer", ["tcp/localhost:0"], [args.router])
    zid = str(session.zid())
    ns, node = "%", args.node
    topic = "%" + args.topic.strip("/").replace("/", "%")
    node_token = f"@ros2_lv/{args.domain}/{zid}/0/0/NN/%/{ns}/{node}"
    pub_token = f"@ros2_lv/{args.domain}/{zid}/0/1/MP/%/{ns}/{node}/{topic}/{DDS_TYPE}/{hash_chunk}/{QOS}"
    tokens = [session.liveliness().declare_token(t) for t in (node_token, pub_token)]
    publisher = session.declare_publisher(key)
    deadline = time.time() + args.wait
    while not publisher.matching_status.matching:
        if time.time() > deadline:
            print(f"no subscriber on {args.topic} after {args.wait} s (is the robot running "
                  f"with --ros2, connected to {args.router}?)", file=sys.stderr)
            return 1
        time.sleep(0.02)
    msg = store.types[ROS_TYPE](
        intent=args.intent, data=args.data, source=args.source, modality=args.modality,
        priority=args.priority, confidence=args.confidence,
    )
    payload = bytes(store.serialize_cdr(msg, ROS_TYPE))
    gid = xxhash.xxh3_128(pub_token.encode()).intdigest().to_bytes(16, "little")
    attachment = z_serialize((Int64(1), Int64(time.time_ns()), [UInt8(b) for b in gid]))
    publisher.put(payload, attachment=attachment)
    print(f"publishing #1: {msg}")
    time.sleep(0.2)  # let the sample leave before the session closes
    del tokens
    session.close()
    return 0


def echo(args) -> int:
    store = typestore()
    key, _ = names(args, store)
    session = open_session("peer", ["tcp/localhost:0"], [args.router])

    def show(sample):
        try:
            msg = store.deserialize_cdr(sample.payload.to_bytes(), ROS_TYPE)
        except Exception as e:  # noqa: BLE001 -- show what arrived, go on
            print(f"undecodable sample ({e})", flush=True)
            return
        meta = ""
        if sample.attachment is not None:
            try:
                seq, stamp, gid = z_deserialize(tuple[Int64, Int64, list[UInt8]], sample.attachment)
                meta = f"  # seq {int(seq)}, publisher {bytes(int(b) for b in gid).hex()[:8]}"
            except Exception:  # noqa: BLE001
                meta = "  # unreadable attachment"
        fields = {k: getattr(msg, k) for k in ("intent", "data", "source", "modality", "priority", "confidence")}
        print("\n".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {v}" for k, v in fields.items()) + meta)
        print("---", flush=True)

    _sub = session.declare_subscriber(key, show)
    print(f"listening on {args.topic} ({key}); Ctrl-C stops", file=sys.stderr, flush=True)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    session.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    r = sub.add_parser("router", help="a Zenoh router, as rmw_zenohd")
    r.add_argument("--listen", default="tcp/[::]:7447")

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--router", default="tcp/localhost:7447", help="the router to connect to")
    common.add_argument("--domain", type=int, default=int(os.environ.get("ROS_DOMAIN_ID") or 0))
    common.add_argument("--topic", default="/intents")
    common.add_argument("--distro", default="jazzy", help="humble writes no type hash")

    p = sub.add_parser("pub", parents=[common], help="publish one Intent")
    p.add_argument("--intent", required=True)
    p.add_argument("--data", default="")
    p.add_argument("--source", default="")
    p.add_argument("--modality", default="")
    p.add_argument("--priority", type=int, default=0, help="ROS's default is 0, as here")
    p.add_argument("--confidence", type=float, default=0.0, help="ROS's default is 0.0, as here")
    p.add_argument("--node", default="intent_publisher")
    p.add_argument("--wait", type=float, default=5.0, help="seconds to wait for a subscriber")

    sub.add_parser("echo", parents=[common], help="print the Intents on the topic")

    args = parser.parse_args()
    return {"router": router, "pub": pub, "echo": echo}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
