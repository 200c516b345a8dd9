"""Next-token training's model as PyTorch 1.13 builds and steps it, for the tests that hold the
core against it (tests/torch, tests/wasm) and the fixture the Train view's e2e test reads:

    torch.manual_seed(seed)
    embedding = nn.Embedding(V, d)
    head = nn.Linear(d, V, bias=False)        # drawn right after the table, from the same seed
    head.weight = embedding.weight            # tied: the same Parameter, in the optimizer once
"""
import torch
import torch.nn.functional as F


def next_token_model(seed, vocab, dim, head_kind):
    """(embedding, head, the parameters the optimizer takes) for head_kind 'tied' or 'untied'."""
    torch.manual_seed(seed)
    embedding = torch.nn.Embedding(vocab, dim)
    head = torch.nn.Linear(dim, vocab, bias=False)
    if head_kind == "tied":
        head.weight = embedding.weight
        return embedding, head, list(embedding.parameters())
    return embedding, head, list(embedding.parameters()) + list(head.parameters())


def next_token_forward(embedding, head, seq):
    """(x, logits, loss) of a sequence: inputs seq[:-1], targets seq[1:], the mean cross-entropy."""
    x = embedding(seq[:-1])
    logits = head(x)
    return x, logits, F.cross_entropy(logits, seq[1:])
