"""The conformance list through the CLI: every case not marked not_in cli, run as a user would run
it, must exit with status 2 and print exactly `error: argument --<option>: <message>` on stderr,
the option being the case's argument (its name, dashed).

Usage: cli.py PATH/embedlab"""

import subprocess
import sys
import tempfile
import unittest

from bad_inputs import cases, expected_message, ids_of, write_file

CLI = sys.argv.pop(1)


def command(case, folder):
    """The CLI's arguments for a case, and the path of its file (or None)."""
    ids = ids_of(case)
    text = ids if isinstance(ids, str) else ",".join(str(i) for i in ids)
    path = None
    if "file" in case:
        path = write_file(case, folder)
        args = ["--weights", path, "--ids", text]
    else:
        vocab, dim = case["table"]
        args = ["--seed", "0", "-V", str(vocab), "-d", str(dim), "--ids", text]
    if "padding_idx" in case:  # the gradient with padding_idx
        args = ["backward", *args, "--padding-idx", str(case["padding_idx"])]
    if case.get("onehot"):  # a training step holds its batch's one-hot whole
        args = ["train", *args, "--optimizer", "sgd"]
    return args, path


class Conformance(unittest.TestCase):
    def test_every_case(self):
        ran = 0
        for case in cases("cli"):
            with self.subTest(case=case["name"]), tempfile.TemporaryDirectory() as folder:
                args, path = command(case, folder)
                out = subprocess.run([CLI, *args], capture_output=True, text=True, timeout=120)
                option = "--" + case["argument"].replace("_", "-")
                self.assertEqual(
                    (out.returncode, out.stderr),
                    (2, f"error: argument {option}: {expected_message(case, path)}\n"),
                    " ".join(args)[:200],
                )
                ran += 1
        self.assertGreaterEqual(ran, 18)


if __name__ == "__main__":
    unittest.main()
