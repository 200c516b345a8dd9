"""What the CLI tests of table files share: a temporary folder to write files into, and what
PyTorch itself prints for the walk-through's steps on a table."""
import os
import tempfile
import unittest

import torch


def torch_printout(w, ids):
    """What PyTorch prints for the walk-through's table, lookup and one-hot product."""
    embedding = torch.nn.Embedding.from_pretrained(w, freeze=False)
    idx = torch.tensor(ids)
    linear = torch.nn.Linear(w.shape[0], w.shape[1], bias=False)
    linear.weight = torch.nn.Parameter(embedding.weight.T)
    onehot = torch.nn.functional.one_hot(idx, w.shape[0])
    return [str(embedding.weight), str(embedding(idx)), str(linear(onehot.float()))]


class Files(unittest.TestCase):
    """A test case with a folder of its own: write(name, bytes) returns the file's path."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, content):
        path = os.path.join(self.dir.name, name)
        with open(path, "wb") as f:
            f.write(content)
        return path
