#include <catch2/catch.hpp>

#include "embedlab/error.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"

using Catch::Contains;
using Catch::Equals;
using embedlab::Argument;
using embedlab::InputError;

TEST_CASE("shapes over the limits are refused with the limit and the reason") {
  CHECK_THROWS_WITH(embedlab::check_table_shape(5'000'000, 5),
                    Contains("vocabulary size V = 5,000,000 is over the limit of 4,194,304"));
  CHECK_THROWS_WITH(embedlab::check_table_shape(10, 100'000),
                    Contains("embedding dimension d = 100,000 is over the limit of 65,536"));
  CHECK_THROWS_WITH(embedlab::check_held_table(1'000'000, 8192),
                    Contains("the embedding table (V x d) would be 1,000,000 x 8,192 floats") &&
                        Contains("over the limit of 67,108,864 floats (256 MiB)") &&
                        Contains("keeps memory bounded"));
  CHECK_THROWS_WITH(embedlab::check_onehot_shape(65536, 1'000'000),
                    Contains("the one-hot matrix (n x V) would be 65,536 x 1,000,000 floats"));
  CHECK_THROWS_WITH(embedlab::check_id_count(70'000),
                    Contains("too many token ids: 70,000 given, at most 65,536"));
  CHECK_THROWS_WITH(embedlab::check_table_shape(-3, 5),
                    Contains("vocabulary size V must be at least 1, got -3"));
}

TEST_CASE("a table of any model's shape is within the limits: its rows are read when needed") {
  // Gemma 3 (262144 x 1152), Llama 3.1 405B (128256 x 16384): V x d far over what is held whole.
  CHECK_NOTHROW(embedlab::check_table_shape(262'144, 1152));
  CHECK_NOTHROW(embedlab::check_table_shape(128'256, 16'384));
  CHECK_NOTHROW(embedlab::check_table_shape(1 << 22, 1 << 16));
  CHECK_FALSE(embedlab::fits_whole(128'256, 16'384));
  CHECK(embedlab::fits_whole(50'257, 768));
  CHECK_THROWS_WITH(embedlab::check_held_table(128'256, 16'384),
                    Contains("the embedding table (V x d) would be 128,256 x 16,384 floats"));
}

TEST_CASE("one wording for too many of anything, placed by argument") {
  CHECK_THROWS_WITH(embedlab::check_count(70'000, Argument::offsets, "bags"),
                    Equals("too many bags: 70,000 given, at most 65,536 are accepted at once"));
  CHECK_NOTHROW(embedlab::check_count(65'536, Argument::offsets, "bags"));
  try {
    embedlab::check_count(3, Argument::per_sample_weights, "per_sample_weights", {2});
    FAIL("no error");
  } catch (const InputError& e) {
    CHECK(e.argument() == Argument::per_sample_weights);
  }
}

TEST_CASE("limits are checked before the one-hot matrix is allocated") {
  // 65536 x 4194304 floats would be 1 TiB: reaching the allocation would crash the test.
  embedlab::Ids ids(65536, 0);
  CHECK_THROWS_AS(embedlab::one_hot(ids, 1 << 22), InputError);
}

TEST_CASE("results are bounded too: 65536 ids of a 8192-wide table would be 2 GiB") {
  const embedlab::Matrix w = embedlab::Matrix::Zero(1, 8192);
  const embedlab::Ids ids(65536, 0);
  CHECK_THROWS_WITH(embedlab::lookup(w, ids),
                    Contains("the result (n x d) would be 65,536 x 8,192 floats"));
}

TEST_CASE("custom limits apply") {
  embedlab::Limits small;
  small.max_elements = 100;
  CHECK_NOTHROW(embedlab::check_held_table(10, 10, small));
  CHECK_THROWS_WITH(embedlab::check_held_table(10, 11, small), Contains("over the limit of 100"));
  CHECK_NOTHROW(embedlab::check_table_shape(10, 11, small));
}
