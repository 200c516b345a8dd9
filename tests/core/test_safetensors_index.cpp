// Sharded checkpoints: model.safetensors.index.json read and checked, the table's shard found
// by name or by the names of embedding tables, and the table read from its shard on disk.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "embedlab/lookup.hpp"
#include "embedlab/safetensors_index.hpp"
#include "safetensors_builder.hpp"

using Catch::Contains;
using Catch::StartsWith;
using embedlab::parse_safetensors_index;
using embedlab::SafetensorsIndex;
using embedlab::test::entry;
using embedlab::test::message_of;
using embedlab::test::safetensors_file;

namespace {

// Llama 3's index, cut short: the table in the first of two shards.
const std::string kIndex = R"({"metadata": {"total_size": 40},
  "weight_map": {"lm_head.weight": "model-00002-of-00002.safetensors",
                 "model.embed_tokens.weight": "model-00001-of-00002.safetensors",
                 "model.norm.weight": "model-00002-of-00002.safetensors",
                 "model.layers.0.mlp.up_proj.weight": "model-00001-of-00002.safetensors"}})";

std::string index_error(const std::string& json) {
  return message_of([&] { parse_safetensors_index(json); });
}

void write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

}  // namespace

TEST_CASE("an index maps each tensor to its shard, in the order it lists them", "[index]") {
  const SafetensorsIndex index = parse_safetensors_index(kIndex);
  REQUIRE(index.weight_map.size() == 4);
  CHECK(index.weight_map[1].first == "model.embed_tokens.weight");
  CHECK(index.weight_map[1].second == "model-00001-of-00002.safetensors");
  CHECK(index.shards == std::vector<std::string>{"model-00002-of-00002.safetensors",
                                                 "model-00001-of-00002.safetensors"});
  const auto table = embedlab::find_indexed_table(index);
  CHECK(table.tensor == "model.embed_tokens.weight");
  CHECK(table.shard == "model-00001-of-00002.safetensors");
  CHECK(embedlab::find_indexed_table(index, "lm_head.weight").shard ==
        "model-00002-of-00002.safetensors");
  CHECK(embedlab::is_safetensors_index_name("a/model.safetensors.index.json"));
  CHECK_FALSE(embedlab::is_safetensors_index_name("model.safetensors"));
}

TEST_CASE("what is not an index is refused, saying what an index is", "[index]") {
  CHECK_THAT(index_error("{\"weight_map\": {\"a\": \"s.safetensors\",}}"),
             StartsWith("not a safetensors index: invalid JSON (at byte offset 37): ") &&
                 Contains("a safetensors index (model.safetensors.index.json) is a JSON object "
                          "whose \"weight_map\" maps each tensor's name to the file name of its "
                          "shard"));
  CHECK_THAT(index_error("[1, 2]"), StartsWith("not a safetensors index: it is the array [1,2]; "));
  CHECK_THAT(index_error("{\"metadata\": {}}"),
             StartsWith("not a safetensors index: it has no \"weight_map\"; "));
  CHECK_THAT(index_error("{\"weight_map\": [\"a\"]}"),
             StartsWith("not a safetensors index: its \"weight_map\" is the array [\"a\"]; "));
  CHECK(index_error("{\"weight_map\": {\"wte.weight\": 3}}") ==
        "invalid safetensors index: \"weight_map\" maps 'wte.weight' to the number 3, but each "
        "tensor maps to the file name of its shard");
  CHECK(index_error("{\"weight_map\": {\"wte.weight\": \"../x.safetensors\"}}") ==
        "invalid safetensors index: \"weight_map\" puts 'wte.weight' in the shard "
        "'../x.safetensors', which is not a file name: shards are files beside the index");
  CHECK(index_error("{\"weight_map\": {}}") ==
        "invalid safetensors index: its \"weight_map\" is empty: no tensor is in any shard");
  CHECK_THAT(index_error("{\"metadata\": [[[[[[[[[1]]]]]]]]], \"weight_map\": {}}"),
             StartsWith("not a safetensors index: its JSON nests more than 8 levels deep"));
  // A .safetensors file's first bytes are its header's length, not JSON.
  CHECK_THAT(index_error(safetensors_file("{}")),
             StartsWith("not a safetensors index: invalid JSON"));
}

TEST_CASE("the table's shard: by name, or by the names of embedding tables", "[index]") {
  const SafetensorsIndex index = parse_safetensors_index(kIndex);
  CHECK(message_of([&] { embedlab::find_indexed_table(index, "embed_tokens.weight"); }) ==
        "no shard holds a tensor named 'embed_tokens.weight': the index's weight_map has the "
        "close names 'model.embed_tokens.weight'");
  CHECK(message_of([&] { embedlab::find_indexed_table(index, "zzz"); }) ==
        "no shard holds a tensor named 'zzz': the index's weight_map has no name close to it (it "
        "lists 4 tensors)");
  const SafetensorsIndex none = parse_safetensors_index(
      R"({"weight_map": {"lm_head.weight": "a.safetensors", "norm.weight": "a.safetensors"}})");
  CHECK_THAT(message_of([&] { embedlab::find_indexed_table(none); }),
             StartsWith("no tensor in the index is named like the embedding table (wte.weight, ") &&
                 Contains("name the one to load among its 2 tensors: 'lm_head.weight', "
                          "'norm.weight'"));
  const SafetensorsIndex two = parse_safetensors_index(
      R"({"weight_map": {"shared.weight": "a.safetensors", "encoder.embed_tokens.weight": "b.safetensors"}})");
  CHECK(message_of([&] { embedlab::find_indexed_table(two); }) ==
        "2 tensors in the index are named like the embedding table: 'shared.weight', "
        "'encoder.embed_tokens.weight'; name the one to load");
  CHECK(embedlab::find_indexed_table(two, "shared.weight").shard == "a.safetensors");
}

TEST_CASE("an index on disk: the table read from its shard beside it", "[index]") {
  const std::string dir = "embedlab_test_index";
  std::filesystem::create_directory(dir);
  const std::string index_path = dir + "/model.safetensors.index.json";
  write(index_path, kIndex);
  // Shard 1 holds the table, BF16 [2, 2]: 1, -2, 0.5, 3.
  write(
      dir + "/model-00001-of-00002.safetensors",
      safetensors_file("{" + entry("model.layers.0.mlp.up_proj.weight", "F32", "[1, 1]", 0, 4) +
                           ", " + entry("model.embed_tokens.weight", "BF16", "[2, 2]", 4, 12) + "}",
                       std::string("\0\0\0\0\x80\x3f\x00\xc0\x00\x3f\x40\x40", 12)));
  const auto table = embedlab::load_indexed_table(index_path);
  CHECK(table.entry.name == "model.embed_tokens.weight");
  const embedlab::Matrix rows = embedlab::lookup(table.table, {1, 0});
  CHECK(rows(0, 0) == 0.5f);
  CHECK(rows(0, 1) == 3.0f);
  CHECK(rows(1, 1) == -2.0f);
  // The shard of lm_head.weight is missing.
  CHECK_THAT(message_of([&] { embedlab::load_indexed_table(index_path, "lm_head.weight"); }),
             StartsWith(index_path +
                        ": the index puts 'lm_head.weight' in the shard "
                        "'model-00002-of-00002.safetensors', a file beside the "
                        "index: cannot open " +
                        dir + "/model-00002-of-00002.safetensors: "));
  CHECK_THAT(message_of([&] { embedlab::load_indexed_table(index_path, "nope"); }),
             StartsWith(index_path + ": no shard holds a tensor named 'nope'"));
  write(index_path, "{\"weight_map\": 1}");
  CHECK_THAT(
      message_of([&] { embedlab::load_indexed_table(index_path); }),
      StartsWith(index_path + ": not a safetensors index: its \"weight_map\" is the number 1"));
  std::filesystem::remove_all(dir);
}
