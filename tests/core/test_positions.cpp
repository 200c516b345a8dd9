// Positions (positions.hpp), a checkpoint's tables (checkpoint_positions.hpp), the tied head
// (tied_head.hpp) and 3-D printing. Expected tensor strings are PyTorch 1.13.1's own str() of
// the same tensors; the head's logits and top-k are checked against dot products summed in
// double here.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "embedlab/byte_source.hpp"
#include "embedlab/checkpoint_positions.hpp"
#include "embedlab/format.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/positions.hpp"
#include "embedlab/safetensors.hpp"
#include "embedlab/tied_head.hpp"
#include "error_of.hpp"
#include "matrix_literals.hpp"
#include "safetensors_builder.hpp"

using embedlab::Argument;
using embedlab::Index;
using embedlab::Matrix;

TEST_CASE("a 3-D tensor prints as PyTorch prints it, whole and summarised") {
  const float a[2][2][3] = {{{1.5f, -2.0f, 0.125f}, {0.25f, 3.0f, -0.5f}},
                            {{0.0f, 1.0f, 7.0f}, {-1.0f, 2.0f, 0.75f}}};
  CHECK(embedlab::format_tensor(2, 2, 3, [&](Index s, Index i, Index j) { return a[s][i][j]; }) ==
        "tensor([[[ 1.5000, -2.0000,  0.1250],\n"
        "         [ 0.2500,  3.0000, -0.5000]],\n"
        "\n"
        "        [[ 0.0000,  1.0000,  7.0000],\n"
        "         [-1.0000,  2.0000,  0.7500]]])");
  embedlab::TensorStyle added;
  added.suffixes = {"grad_fn=<AddBackward0>"};
  // (arange(1600).reshape(8, 4, 50) - 100) / 8: summarised, scientific, wrapped at 80 columns.
  CHECK(embedlab::format_tensor(
            8, 4, 50,
            [](Index s, Index i, Index j) {
              return (static_cast<float>(s * 200 + i * 50 + j) - 100.0f) / 8.0f;
            },
            added) ==
        "tensor([[[-1.2500e+01, -1.2375e+01, -1.2250e+01,  ..., -6.6250e+00,\n"
        "          -6.5000e+00, -6.3750e+00],\n"
        "         [-6.2500e+00, -6.1250e+00, -6.0000e+00,  ..., -3.7500e-01,\n"
        "          -2.5000e-01, -1.2500e-01],\n"
        "         [ 0.0000e+00,  1.2500e-01,  2.5000e-01,  ...,  5.8750e+00,\n"
        "           6.0000e+00,  6.1250e+00],\n"
        "         [ 6.2500e+00,  6.3750e+00,  6.5000e+00,  ...,  1.2125e+01,\n"
        "           1.2250e+01,  1.2375e+01]],\n"
        "\n"
        "        [[ 1.2500e+01,  1.2625e+01,  1.2750e+01,  ...,  1.8375e+01,\n"
        "           1.8500e+01,  1.8625e+01],\n"
        "         [ 1.8750e+01,  1.8875e+01,  1.9000e+01,  ...,  2.4625e+01,\n"
        "           2.4750e+01,  2.4875e+01],\n"
        "         [ 2.5000e+01,  2.5125e+01,  2.5250e+01,  ...,  3.0875e+01,\n"
        "           3.1000e+01,  3.1125e+01],\n"
        "         [ 3.1250e+01,  3.1375e+01,  3.1500e+01,  ...,  3.7125e+01,\n"
        "           3.7250e+01,  3.7375e+01]],\n"
        "\n"
        "        [[ 3.7500e+01,  3.7625e+01,  3.7750e+01,  ...,  4.3375e+01,\n"
        "           4.3500e+01,  4.3625e+01],\n"
        "         [ 4.3750e+01,  4.3875e+01,  4.4000e+01,  ...,  4.9625e+01,\n"
        "           4.9750e+01,  4.9875e+01],\n"
        "         [ 5.0000e+01,  5.0125e+01,  5.0250e+01,  ...,  5.5875e+01,\n"
        "           5.6000e+01,  5.6125e+01],\n"
        "         [ 5.6250e+01,  5.6375e+01,  5.6500e+01,  ...,  6.2125e+01,\n"
        "           6.2250e+01,  6.2375e+01]],\n"
        "\n"
        "        ...,\n"
        "\n"
        "        [[ 1.1250e+02,  1.1262e+02,  1.1275e+02,  ...,  1.1838e+02,\n"
        "           1.1850e+02,  1.1862e+02],\n"
        "         [ 1.1875e+02,  1.1888e+02,  1.1900e+02,  ...,  1.2462e+02,\n"
        "           1.2475e+02,  1.2488e+02],\n"
        "         [ 1.2500e+02,  1.2512e+02,  1.2525e+02,  ...,  1.3088e+02,\n"
        "           1.3100e+02,  1.3112e+02],\n"
        "         [ 1.3125e+02,  1.3138e+02,  1.3150e+02,  ...,  1.3712e+02,\n"
        "           1.3725e+02,  1.3738e+02]],\n"
        "\n"
        "        [[ 1.3750e+02,  1.3762e+02,  1.3775e+02,  ...,  1.4338e+02,\n"
        "           1.4350e+02,  1.4362e+02],\n"
        "         [ 1.4375e+02,  1.4388e+02,  1.4400e+02,  ...,  1.4962e+02,\n"
        "           1.4975e+02,  1.4988e+02],\n"
        "         [ 1.5000e+02,  1.5012e+02,  1.5025e+02,  ...,  1.5588e+02,\n"
        "           1.5600e+02,  1.5612e+02],\n"
        "         [ 1.5625e+02,  1.5638e+02,  1.5650e+02,  ...,  1.6212e+02,\n"
        "           1.6225e+02,  1.6238e+02]],\n"
        "\n"
        "        [[ 1.6250e+02,  1.6262e+02,  1.6275e+02,  ...,  1.6838e+02,\n"
        "           1.6850e+02,  1.6862e+02],\n"
        "         [ 1.6875e+02,  1.6888e+02,  1.6900e+02,  ...,  1.7462e+02,\n"
        "           1.7475e+02,  1.7488e+02],\n"
        "         [ 1.7500e+02,  1.7512e+02,  1.7525e+02,  ...,  1.8088e+02,\n"
        "           1.8100e+02,  1.8112e+02],\n"
        "         [ 1.8125e+02,  1.8138e+02,  1.8150e+02,  ...,  1.8712e+02,\n"
        "           1.8725e+02,  1.8738e+02]]], grad_fn=<AddBackward0>)");
  CHECK(embedlab::torch_size_text({8, 4, 256}) == "torch.Size([8, 4, 256])");
}

TEST_CASE("a batch is a rectangle, and its rows fit the context") {
  const auto batch = embedlab::token_batch({{1, 2}, {3, 4}, {5, 6}});
  CHECK(batch.rows == 3);
  CHECK(batch.length == 2);
  CHECK(batch.ids == embedlab::Ids{1, 2, 3, 4, 5, 6});
  const auto [argument, message] = error_of([] { embedlab::token_batch({{1, 2}, {3}}); });
  CHECK(argument == Argument::ids);
  CHECK(message.find("row 2 has 1 ids but row 1 has 2") != std::string::npos);
  embedlab::check_context(4, 4);
  const auto [arg2, too_long] = error_of([] { embedlab::check_context(5, 4); });
  CHECK(arg2 == Argument::ids);
  CHECK(too_long.find("index out of range in self") != std::string::npos);
  CHECK(too_long.find("positions 0..3 only") != std::string::npos);
}

TEST_CASE("positions: both routes give P[:T], and the sum broadcasts over the rows") {
  const Matrix p = rows({{1.0f, 2.0f}, {3.0f, 4.0f}, {5.0f, 6.0f}});
  const embedlab::Table table(p);
  const Matrix looked_up = embedlab::position_rows(table, 2);
  const Matrix product = embedlab::position_product(table, 2);
  CHECK(looked_up == rows({{1.0f, 2.0f}, {3.0f, 4.0f}}));
  CHECK(product == looked_up);
  const Matrix tokens = rows({{10.0f, 20.0f}, {30.0f, 40.0f}, {50.0f, 60.0f}, {70.0f, 80.0f}});
  CHECK(embedlab::add_positions(tokens, looked_up) ==
        rows({{11.0f, 22.0f}, {33.0f, 44.0f}, {51.0f, 62.0f}, {73.0f, 84.0f}}));
  CHECK_THROWS_AS(embedlab::position_rows(table, 4), embedlab::InputError);
}

TEST_CASE("the tied head: logits and top-k against double sums, whatever the block size") {
  const Index vocab = 1500, dim = 7, n = 3;
  Matrix w(vocab, dim), h(n, dim);
  for (Index v = 0; v < vocab; ++v)
    for (Index j = 0; j < dim; ++j) w(v, j) = std::sin(0.37f * v + 1.3f * j);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < dim; ++j) h(i, j) = std::cos(0.9f * i - 0.4f * j);
  embedlab::HeadOptions options;
  options.whole = true;
  options.top_k = 4;
  options.keep_columns = {0, 1499};
  embedlab::StreamedHead whole(embedlab::Table(w), h, options);
  whole.run();
  options.block_rows = 512;
  embedlab::StreamedHead blocks(embedlab::Table(w), h, options);
  blocks.run();
  CHECK(blocks.logits() == whole.logits());  // the same bits, block by block
  for (Index i = 0; i < n; ++i) {
    std::vector<std::pair<double, Index>> exact;
    for (Index v = 0; v < vocab; ++v) {
      double dot = 0.0;
      for (Index j = 0; j < dim; ++j) dot += double(h(i, j)) * double(w(v, j));
      CHECK(std::abs(whole.logits()(i, v) - dot) < 1e-5);
      exact.push_back({-dot, v});
    }
    std::sort(exact.begin(), exact.end());
    const auto& top = whole.top()[static_cast<std::size_t>(i)];
    REQUIRE(top.size() == 4);
    for (std::size_t k = 0; k < 4; ++k) CHECK(top[k].id == exact[k].second);
    CHECK(whole.kept_columns()(i, 1) == whole.logits()(i, 1499));
  }
  const auto [argument, message] =
      error_of([&] { embedlab::StreamedHead(embedlab::Table(w), Matrix(2, 3)); });
  CHECK(argument == Argument::dim);
  CHECK(message ==
        "h has 3 columns but W has d = 7: the tied head computes h @ W.T, so h is (n, d)");
}

TEST_CASE("top-k: the head lists 0 to V tokens, the predictions 1 to V") {
  embedlab::check_top_k(0, 4, 0);
  embedlab::check_top_k(4, 4, 1);
  const auto [over, over_message] = error_of([] { embedlab::check_top_k(5, 4, 0); });
  CHECK(over == Argument::ids);
  CHECK(over_message == "top-k must be between 0 and V = 4, got 5");
  CHECK(error_of([] { embedlab::check_top_k(0, 4, 1); }).second ==
        "top-k must be between 1 and V = 4, got 0");
}

TEST_CASE("a checkpoint ties unless it stores an output layer or its config says not") {
  embedlab::SafetensorsHeader header;
  header.tensors.push_back({"wte.weight", "F32", {50257, 768}, 0, 0});
  header.tensors.push_back({"wpe.weight", "F32", {1024, 768}, 0, 0});
  CHECK(embedlab::head_tying(header).tied);
  CHECK(embedlab::position_table_candidates(header).size() == 1);
  CHECK(!embedlab::head_tying(header, R"({"tie_word_embeddings": false})").tied);
  header.tensors.push_back({"lm_head.weight", "F32", {50257, 768}, 0, 0});
  CHECK(!embedlab::head_tying(header).tied);
  CHECK(embedlab::head_tying(header, R"({"tie_word_embeddings": true})").tied);
  const auto [argument, message] = error_of([&] { embedlab::head_tying(header, "[1]"); });
  CHECK(argument == Argument::weights);
  CHECK(message == "config.json holds the array [1], not an object of settings");
  // 1 MiB of spaces is still a config's size (whitespace around an object); one byte more is not.
  const std::string padded = R"({"tie_word_embeddings": false})";
  CHECK(!embedlab::head_tying(header, padded + std::string((1 << 20) - padded.size(), ' ')).tied);
  CHECK(embedlab::test::message_of([&] {
          embedlab::head_tying(header, padded + std::string((1 << 20) - padded.size() + 1, ' '));
        }) == "config.json is over 1 MiB: not a model's config.json");
}

// Little-endian float32 bytes.
static std::string f32_bytes(const std::vector<float>& values) {
  std::string out(values.size() * 4, '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

TEST_CASE("a checkpoint's wte and wpe open by their names, d checked, tying decided") {
  using embedlab::test::entry;
  using embedlab::test::safetensors_file;
  // wpe (2, 2) then wte (3, 2): rows written by hand, read back where they lie.
  const std::string data = f32_bytes({0.5f, -1.0f, 2.0f, 0.25f, 1, 2, 3, 4, 5, 6});
  const std::string json = "{" + entry("transformer.wpe.weight", "F32", "[2, 2]", 0, 16) + ", " +
                           entry("transformer.wte.weight", "F32", "[3, 2]", 16, 40) + "}";
  auto c =
      embedlab::open_checkpoint_positions(embedlab::memory_source(safetensors_file(json, data)));
  CHECK(c.token_tensor == "transformer.wte.weight");
  CHECK(c.position_tensor == "transformer.wpe.weight");
  CHECK(c.tying.tied);
  CHECK(c.token.rows() == 3);
  CHECK(c.position.rows() == 2);
  const Matrix p = embedlab::position_rows(c.position, 2);
  CHECK(p(1, 0) == 2.0f);
  CHECK(p(1, 1) == 0.25f);
  CHECK(embedlab::lookup(c.token, {2})(0, 1) == 6.0f);
  CHECK(!embedlab::open_checkpoint_positions(embedlab::memory_source(safetensors_file(json, data)),
                                             R"({"tie_word_embeddings": false})")
             .tying.tied);

  const std::string narrow = "{" + entry("wpe.weight", "F32", "[2, 1]", 0, 8) + ", " +
                             entry("wte.weight", "F32", "[3, 2]", 8, 32) + "}";
  CHECK(embedlab::test::message_of([&] {
          embedlab::open_checkpoint_positions(embedlab::memory_source(
              safetensors_file(narrow, f32_bytes({0, 0, 1, 2, 3, 4, 5, 6}))));
        }) ==
        "the position table wpe.weight has d = 1 but the token table wte.weight has d = 2: "
        "they are added, so d must agree");
  const std::string none = "{" + entry("wte.weight", "F32", "[3, 2]", 0, 24) + "}";
  CHECK(embedlab::test::message_of([&] {
          embedlab::open_checkpoint_positions(
              embedlab::memory_source(safetensors_file(none, f32_bytes({1, 2, 3, 4, 5, 6}))));
        }).find("no tensor named like a position table") != std::string::npos);
}
