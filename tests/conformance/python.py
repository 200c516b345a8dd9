"""The conformance list through Python: every case not marked not_in python must raise
embedlab.EmbedlabInputError with exactly the case's message and argument. A table of a [V, d]
shape is the notebook's own torch tensor given to embedlab.show() (its routes run in PyTorch, which
holds the one-hot whole), with padding_idx where the case has one; a file is opened with
embedlab.open() and both routes asked of it.

Usage: python.py (with embedlab importable: PYTHONPATH=python and the built module's folder)"""

import tempfile
import unittest

import torch

import embedlab
from bad_inputs import cases, expected_message, ids_of, write_file


def ask(case, path):
    """Runs the case, its file (if it has one) written at path."""
    if path:
        embedlab.open(path).routes(ids_of(case))
    else:
        weights = torch.zeros(*case["table"])
        embedlab.show(weights, ids_of(case), padding_idx=case.get("padding_idx"))


class Conformance(unittest.TestCase):
    def test_every_case(self):
        ran = 0
        for case in cases("python"):
            with self.subTest(case=case["name"]), tempfile.TemporaryDirectory() as folder:
                path = write_file(case, folder) if "file" in case else None
                with self.assertRaises(embedlab.EmbedlabInputError) as raised:
                    ask(case, path)
                self.assertEqual(
                    (raised.exception.argument, str(raised.exception)),
                    (case["argument"], expected_message(case, path)),
                )
                ran += 1
        self.assertGreaterEqual(ran, 20)


if __name__ == "__main__":
    unittest.main()
