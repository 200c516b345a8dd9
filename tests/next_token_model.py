"""Next-token training's model as PyTorch 1.13 builds and steps it, for the tests that hold the
core against it (tests/torch, tests/wasm) and the fixtures the Train view's e2e test reads: the
book's GPTModel without its transformer blocks, and the chapter's data loader.

    torch.manual_seed(seed)
    tok = nn.Embedding(V, d)
    pos = nn.Embedding(context_length, d)     # with positions: drawn right after the table
    head = nn.Linear(d, V, bias=False)        # drawn tied or not, as GPTModel draws it
    head.weight = tok.weight                  # tied: the same Parameter, in the optimizer once
    loader = DataLoader(windows, batch_size, shuffle, drop_last=True)   # GPTDatasetV1's windows
"""
import torch
import torch.nn.functional as F


def chapter_model(seed, vocab, dim, head_kind, context_length=0):
    """(tok, pos or None, head, the parameters the optimizer takes) for head_kind 'tied' or
    'untied', with a table of context_length positions unless it is 0."""
    torch.manual_seed(seed)
    tok = torch.nn.Embedding(vocab, dim)
    pos = torch.nn.Embedding(context_length, dim) if context_length else None
    head = torch.nn.Linear(dim, vocab, bias=False)
    params = list(tok.parameters()) + (list(pos.parameters()) if pos else [])
    if head_kind == "tied":
        head.weight = tok.weight
        return tok, pos, head, params
    return tok, pos, head, params + list(head.parameters())


def next_token_model(seed, vocab, dim, head_kind):
    """(embedding, head, the parameters the optimizer takes): chapter_model without positions."""
    embedding, _, head, params = chapter_model(seed, vocab, dim, head_kind)
    return embedding, head, params


def next_token_forward(embedding, head, seq):
    """(x, logits, loss) of a sequence: inputs seq[:-1], targets seq[1:], the mean cross-entropy."""
    x = embedding(seq[:-1])
    logits = head(x)
    return x, logits, F.cross_entropy(logits, seq[1:])


def windows(ids, max_length, stride):
    """GPTDatasetV1's (input, target) pairs: ids[i:i + max_length] and the same shifted by one,
    for i in range(0, len(ids) - max_length, stride)."""
    return [
        (torch.tensor(ids[i : i + max_length]), torch.tensor(ids[i + 1 : i + max_length + 1]))
        for i in range(0, len(ids) - max_length, stride)
    ]


def chapter_loader(ids, max_length, stride, batch_size, shuffle):
    """The chapter's DataLoader over the windows: each epoch's iter() draws from the global
    generator, and with shuffle=True orders the windows by a randperm seeded from it."""
    return torch.utils.data.DataLoader(
        windows(ids, max_length, stride), batch_size=batch_size, shuffle=shuffle, drop_last=True
    )


def chapter_forward(tok, pos, head, x, y):
    """(h, logits, loss) of a batch x, y (B, T): h = tok(x) + pos(torch.arange(T)), the mean
    cross-entropy over B * T positions."""
    h = tok(x) + pos(torch.arange(x.shape[1])) if pos is not None else tok(x)
    logits = head(h).flatten(0, 1)
    return h, logits, F.cross_entropy(logits, y.flatten())
