"""The conformance list (tests/fixtures/bad-inputs.json) as the Python runners read it: its cases,
each case's ids, its file written to a folder, and the message a front end that opened the file
by its path must give."""

import json
import os
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "bad-inputs.json"


def cases(front_end: str):
    """The cases a front end ("cli", "wasm", "python") can be asked: all but those not_in it."""
    with open(FIXTURE, encoding="utf-8") as f:
        return [case for case in json.load(f)["cases"] if front_end not in case.get("not_in", {})]


def ids_of(case):
    """Typed text as it is, a list as it is, {fill, count} as count copies of fill."""
    ids = case["ids"]
    return [ids["fill"]] * ids["count"] if isinstance(ids, dict) else ids


def write_file(case, folder) -> str:
    """The case's file, written into folder; its path."""
    path = os.path.join(folder, case["file"]["name"])
    with open(path, "wb") as f:
        f.write(bytes.fromhex(case["file"]["hex"]))
    return path


def expected_message(case, path=None) -> str:
    """The message, after "<path>: " where the front end opened the case's file by its path."""
    return f"{path}: {case['message']}" if path else case["message"]
