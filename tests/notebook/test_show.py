"""embedlab.show() in Python, against numpy and torch: the bytes that reach the element (every
dtype, -0.0, NaN and Inf bit for bit), shapes, the core's verdict and printing in the output, the
errors of the Python API's own arguments, the two deliveries and the size bound. Run with the
venv's Python (the built wheel). The bad inputs every front end shares are the conformance list's
(tests/fixtures/bad-inputs.json, tests/conformance)."""

import base64
import html
import json
import re
import struct
import unittest

import numpy as np
import torch

import embedlab


def attribute(shown, name):
    """An attribute of the output's <embedding-demo>, unescaped, or None."""
    tag = re.search(r"<embedding-demo[^>]*>", shown.html).group(0)
    found = re.search(rf' {name}="([^"]*)"', tag)
    return None if found is None else html.unescape(found.group(1))


def safetensors(shown, name):
    """The .safetensors file in the element's `name` attribute: {tensor: (dtype, shape, bytes)},
    and its metadata."""
    data = base64.b64decode(attribute(shown, name))
    (size,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + size])
    metadata = header.pop("__metadata__", {})
    start = 8 + size
    tensors = {
        key: (
            t["dtype"],
            tuple(t["shape"]),
            data[start + t["data_offsets"][0] : start + t["data_offsets"][1]],
        )
        for key, t in header.items()
    }
    return tensors, metadata


def only_tensor(shown):
    tensors, _ = safetensors(shown, "table")
    assert len(tensors) == 1
    return next(iter(tensors.values()))


def float32_bytes(values):
    """Little-endian float32, value by value, with struct: the reference for the bytes sent."""
    return b"".join(struct.pack("<f", v) for v in np.asarray(values, dtype=np.float64).reshape(-1))


class WholeTable(unittest.TestCase):
    def test_the_notebooks_embedding_goes_whole_bit_for_bit(self):
        torch.manual_seed(123)
        embedding = torch.nn.Embedding(4, 5)
        shown = embedlab.show(embedding, torch.tensor([2, 3, 1]))
        self.assertEqual(shown.path, embedlab.WHOLE)
        self.assertEqual(attribute(shown, "ids"), "2, 3, 1")
        dtype, shape, data = only_tensor(shown)
        self.assertEqual((dtype, shape), ("F32", (4, 5)))
        self.assertEqual(data, float32_bytes(embedding.weight.detach().numpy()))
        # The notebook's print(embedding(idx)), in the text, and its row 2 in the static table.
        self.assertIn(
            "embedding(idx):\n"
            "tensor([[ 0.6957, -1.8061, -1.1589,  0.3255, -0.6315],\n"
            "        [-2.8400, -0.7849, -1.4096, -0.4076,  0.7953],\n"
            "        [ 1.3010,  1.2753, -0.2010, -0.1606, -0.4015]])\n",
            shown.text,
        )
        self.assertIn("<td>-1.8061</td>", shown.html)
        self.assertEqual(shown.verdict.grade, "identical")
        self.assertTrue(
            shown.text.endswith(
                "embedding(idx) vs one_hot(idx, V) @ W, in PyTorch "
                f"{torch.__version__}: bit-identical. All 15 elements hold the same 32 bits in "
                "both results.\n"
                "torch.equal(embedding(idx), one_hot(idx, V) @ W): True\n"
                # n = 3, V = 4, d = 5: 3·5 floats; 3·4·5 multiply-adds, 3·3·5 by zero.
                "The lookup copied n·d = 15 floats; the one-hot product did n·V·d = 60 "
                "multiply-adds, 45 of them by zero."
            )
        )
        bundle = shown._repr_mimebundle_()
        self.assertEqual(set(bundle), {"text/html", "text/plain"})

    def test_a_linear_layer_is_shown_as_its_weight_transposed(self):
        torch.manual_seed(123)
        embedding = torch.nn.Embedding(4, 5)
        linear = torch.nn.Linear(4, 5, bias=False)
        linear.weight = torch.nn.Parameter(embedding.weight.T.detach())
        dtype, shape, data = only_tensor(embedlab.show(linear, [2, 3, 1]))
        self.assertEqual(shape, (4, 5))
        self.assertEqual(data, float32_bytes(embedding.weight.detach().numpy()))

    def test_bfloat16_and_float16_tensors_keep_their_bits(self):
        torch.manual_seed(0)
        values = torch.randn(6, 3)
        bf16 = values.to(torch.bfloat16)
        dtype, shape, data = only_tensor(embedlab.show(bf16, [0, 5]))
        # bfloat16 is float32's upper 16 bits: those of the exactly widened values.
        upper = (bf16.float().numpy().view(np.uint32) >> 16).astype("<u2").tobytes()
        self.assertEqual((dtype, shape, data), ("BF16", (6, 3), upper))
        f16 = values.to(torch.float16)
        dtype, _, data = only_tensor(embedlab.show(f16, [1]))
        self.assertEqual((dtype, data), ("F16", np.asarray(f16.numpy(), dtype="<f2").tobytes()))

    def test_numpy_arrays_and_nested_lists(self):
        table = np.arange(12, dtype=np.float64).reshape(4, 3) / 7
        dtype, shape, data = only_tensor(embedlab.show(table, np.array([3, 0])))
        self.assertEqual((dtype, shape), ("F64", (4, 3)))
        self.assertEqual(data, b"".join(struct.pack("<d", v) for v in table.reshape(-1)))
        dtype, shape, data = only_tensor(embedlab.show([[0.1, 0.2], [0.3, 0.4]], [1, 1]))
        self.assertEqual((dtype, shape, data), ("F32", (2, 2), float32_bytes([0.1, 0.2, 0.3, 0.4])))
        self.assertIn("in the embedlab core", embedlab.show(table, [0]).text)

    def test_negative_zero_nan_and_inf_survive(self):
        table = np.array([[-0.0, np.nan], [np.inf, -np.inf], [1.5, 0.0]], dtype=np.float32)
        table[0, 1] = np.frombuffer(struct.pack("<I", 0x7FC00123), dtype=np.float32)[0]  # a payload
        shown = embedlab.show(table, [0, 1])
        _, _, data = only_tensor(shown)
        self.assertEqual(data, table.tobytes())
        self.assertEqual(data[:4], b"\x00\x00\x00\x80")
        self.assertEqual(data[4:8], struct.pack("<I", 0x7FC00123))
        # The product adds 0 * inf into every row: NaN where the lookup has numbers.
        self.assertEqual(shown.verdict.grade, "differs")
        self.assertIn("torch.equal(embedding(idx), one_hot(idx, V) @ W): False", shown.text)

    def test_a_negative_zero_is_equal_in_value(self):
        # The lookup copies W's -0.0; the product adds +0.0 terms onto it: the core's grade.
        for table in (np.array([[-0.0, 1.0], [2.0, 3.0]], np.float32), torch.tensor([[-0.0, 1.0]])):
            shown = embedlab.show(table, [0])
            self.assertEqual(
                (shown.verdict.grade, shown.verdict.headline), ("value", "equal in value")
            )
            self.assertIn(
                ": equal in value. 1 of 2 elements differ only in the sign of zero: the lookup "
                "copies a \u22120.0 of W as it is",
                shown.text,
            )
            # torch.equal compares values: -0.0 == +0.0.
            self.assertIn("torch.equal(embedding(idx), one_hot(idx, V) @ W): True", shown.text)
            self.assertIn("equal in value", shown.html)

    def test_numbers_are_printed_as_pytorch_prints_them(self):
        shown = embedlab.show(torch.tensor([[1e-5, 1.0], [0.5, -2.0]]), [0, 1])
        self.assertIn(
            "tensor([[ 1.0000e-05,  1.0000e+00],\n        [ 5.0000e-01, -2.0000e+00]])", shown.text
        )
        self.assertIn("<td>1.0000e-05</td>", shown.html)
        # A float64 table's rows as the core (and the element) read them: .float().
        self.assertIn("embedding(idx).float():", embedlab.show(np.eye(2), [1]).text)

    def test_ids_typed_as_text_are_read_as_the_page_reads_them(self):
        shown = embedlab.show(np.eye(4, dtype=np.float32), "tensor([3, 0, 3])")
        self.assertEqual(attribute(shown, "ids"), "3, 0, 3")

    def test_a_batch_is_shown_as_b_by_t_tokens(self):
        shown = embedlab.show(np.eye(4, dtype=np.float32), [[0, 1, 2], [3, 3, 0]])
        self.assertEqual(attribute(shown, "ids"), "0, 1, 2, 3, 3, 0")
        self.assertIn("2 × 3 tokens", attribute(shown, "label"))


class Text(unittest.TestCase):
    class Words:
        """A tokenizer as the notebooks' have it (encode), here one id per word, by hand."""

        IDS = {"the": 0, "cat": 1, "sat": 2}

        def encode(self, text):
            return [self.IDS[word] for word in text.split()]

    class SpacedWords(Words):
        """With decode([id]) as Hugging Face's tokenizers have it: a word after a space."""

        def decode(self, ids):
            words = list(self.IDS)
            return "".join(words[i] if i == 0 else " " + words[i] for i in ids)

    class ByteWords(Words):
        """With tiktoken's decode_single_token_bytes."""

        def decode_single_token_bytes(self, token):
            return ["The".encode(), " cät".encode(), b" \xe2"][token]

    def test_the_notebooks_tokenizer_gives_the_ids(self):
        shown = embedlab.show(
            np.eye(3, dtype=np.float32), text="the cat sat", tokenizer=self.Words()
        )
        self.assertEqual(attribute(shown, "ids"), "0, 1, 2")
        self.assertIn("'the cat sat'", attribute(shown, "label"))
        self.assertIsNone(attribute(shown, "tokens"))  # encode alone: no chips

    def test_the_tokens_bytes_go_to_the_element_for_its_chips(self):
        table = np.eye(3, dtype=np.float32)
        for tokenizer, expected in (
            (self.SpacedWords(), [b"the", b" cat", b" sat"]),
            (self.ByteWords(), [b"The", " cät".encode(), b" \xe2"]),
        ):
            shown = embedlab.show(table, text="the cat sat", tokenizer=tokenizer)
            sent = [base64.b64decode(part) for part in attribute(shown, "tokens").split(" ")]
            self.assertEqual(sent, expected)

    def test_text_without_a_tokenizer_or_with_ids(self):
        table = np.eye(3, dtype=np.float32)
        with self.assertRaisesRegex(embedlab.EmbedlabInputError, r"text= needs tokenizer="):
            embedlab.show(table, text="the cat", tokenizer="gpt2")
        with self.assertRaisesRegex(embedlab.EmbedlabInputError, r"not both"):
            embedlab.show(table, [0], text="the", tokenizer=self.Words())


class LargeTable(unittest.TestCase):
    def test_gpt2s_shape_sends_both_routes_within_the_bound(self):
        torch.manual_seed(123)
        big = torch.nn.Embedding(50257, 256)
        ids = torch.tensor([2, 3, 1])
        shown = embedlab.show(big, ids)
        self.assertEqual(shown.path, embedlab.KERNEL)
        self.assertIsNone(attribute(shown, "table"))
        self.assertLessEqual(len(shown.html.encode()), 2_000_000)
        self.assertIn("stays in the kernel", shown.text)
        tensors, metadata = safetensors(shown, "routes")
        weight = big.weight.detach().numpy()
        self.assertEqual(tensors["lookup"], ("F32", (3, 256), float32_bytes(weight[[2, 3, 1]])))
        self.assertEqual(tensors["product"][2], float32_bytes(weight[[2, 3, 1]]))
        kept = [0, 1, 2, 3, 50254, 50255, 50256]
        self.assertEqual(metadata["kept"], ",".join(map(str, kept)))
        self.assertEqual(metadata["vocab"], "50257")
        self.assertEqual(tensors["rows"][2], float32_bytes(weight[kept]))
        self.assertEqual(tensors["heatmap"][:2], ("F32", (256, 256)))

    def test_the_core_computes_the_routes_of_a_large_numpy_table(self):
        table = np.random.default_rng(1).standard_normal((5000, 64), dtype=np.float32)
        shown = embedlab.show(table, [4999, 7])
        self.assertEqual(shown.path, embedlab.KERNEL)
        self.assertIn("both routes ran in the embedlab core", shown.text)
        tensors, _ = safetensors(shown, "routes")
        self.assertEqual(tensors["product"][2], float32_bytes(table[[4999, 7]]))

    def test_too_many_ids_for_one_output_is_an_error_before_anything_runs(self):
        big = torch.zeros(50257, 768)
        with self.assertRaisesRegex(
            embedlab.EmbedlabInputError, r"over the 2,000,000 .* show fewer ids"
        ):
            embedlab.show(big, list(range(1000)))

    def test_the_heatmap_is_the_cores(self):
        # 512 rows in 256 pixel rows of 2 rows each; 2 columns, a pixel each.
        values = np.zeros((512, 2), dtype=np.float32)
        values[0:2, 0] = [-3.0, 3.0]  # equal magnitudes: the first, -3
        values[2:4, 0] = [1.0, np.nan]  # a NaN wins
        values[4:6, 1] = [-0.0, -0.0]  # only zeros: +0.0
        values[6:8, 1] = [0.5, -2.0]  # the largest magnitude: -2
        pixels = embedlab.Table(values).heatmap()
        self.assertEqual(pixels.shape, (256, 2))
        self.assertEqual(pixels[0, 0], -3.0)
        self.assertTrue(np.isnan(pixels[1, 0]))
        self.assertEqual(pixels[2, 1].tobytes(), np.float32(0.0).tobytes())
        self.assertEqual(pixels[3, 1], -2.0)


class BadInput(unittest.TestCase):
    def assertError(self, argument, message, weights, ids, **options):
        with self.assertRaises(embedlab.EmbedlabInputError) as caught:
            embedlab.show(weights, ids, **options)
        self.assertEqual((caught.exception.argument, str(caught.exception)), (argument, message))

    def test_ids_of_the_wrong_kind_or_shape(self):
        table = np.zeros((4, 5), dtype=np.float32)
        self.assertError("ids", "ids must be whole numbers, got float64", table, [1.0, 2.0])
        self.assertError(
            "ids",
            "ids must be whole numbers (torch.long or torch.int), got torch.float32",
            table,
            torch.tensor([1.0]),
        )
        self.assertError(
            "ids", "ids must be 1-D (n,) or a 2-D batch (B, T), got shape (1, 1, 1)", table, [[[1]]]
        )
        self.assertError("ids", "the number of token ids n must be at least 1, got 0", table, [])

    def test_weights_of_the_wrong_kind_or_shape(self):
        self.assertError(
            "weights",
            "tensor 'W' has shape [4] (1-D); an embedding table is 2-D (V, d)",
            np.zeros(4, np.float32),
            [0],
        )
        for weights in (np.zeros((2, 2), np.int64), torch.zeros(2, 2, dtype=torch.int64)):
            self.assertError(
                "weights",
                "tensor 'W' is I64 (int64), which cannot be read as a table: the supported dtypes "
                "are F32, F64, F16 and BF16",
                weights,
                [0],
            )
        self.assertError(
            "weights",
            "W must be an nn.Embedding, an nn.Linear, a torch tensor, a numpy array or nested lists, got str",
            "W",
            [0],
        )

    def test_views_the_element_shows_only_on_the_page(self):
        self.assertError(
            "view",
            'view="train" is a view of the page an output cannot show: it trains a table of its own',
            np.zeros((4, 2), np.float32),
            [0],
            view="train",
        )
        with self.assertRaisesRegex(embedlab.EmbedlabInputError, r'view="nope" is not one of'):
            embedlab.show(np.zeros((4, 2), np.float32), [0], view="nope")

    def test_padding_idx_reaches_the_element_counted_from_zero(self):
        table = np.zeros((4, 2), np.float32)
        self.assertIsNone(attribute(embedlab.show(table, [0]), "padding_idx"))
        shown = embedlab.show(table, [0, 1], view="backward", padding_idx=-1)
        self.assertEqual(attribute(shown, "padding_idx"), "3")
        self.assertEqual(attribute(shown, "view"), "backward")
        self.assertIn("padding_idx = 3", shown.text)
        torch.manual_seed(123)
        embedding = torch.nn.Embedding(4, 5, padding_idx=1)
        self.assertEqual(attribute(embedlab.show(embedding, [2, 3, 1]), "padding_idx"), "1")


if __name__ == "__main__":
    unittest.main()
