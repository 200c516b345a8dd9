#include <catch2/catch.hpp>

#include "embedlab/error.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"

using Catch::Contains;
using embedlab::InputError;

TEST_CASE("shapes over the limits are refused with the limit and the reason") {
  CHECK_THROWS_WITH(embedlab::check_table_shape(2'000'000, 5),
                    Contains("vocabulary size V = 2000000 is over the limit of 1048576"));
  CHECK_THROWS_WITH(embedlab::check_table_shape(10, 100'000),
                    Contains("embedding dimension d = 100000 is over the limit of 8192"));
  CHECK_THROWS_WITH(embedlab::check_table_shape(1'000'000, 8192),
                    Contains("the embedding table (V x d) would be 1000000 x 8192 floats") &&
                        Contains("over the limit of 67108864 floats (256 MiB)") &&
                        Contains("keeps memory bounded"));
  CHECK_THROWS_WITH(embedlab::check_onehot_shape(65536, 1'000'000),
                    Contains("the one-hot matrix (n x V) would be 65536 x 1000000 floats"));
  CHECK_THROWS_WITH(embedlab::check_id_count(70'000),
                    Contains("too many token ids: 70000 given, at most 65536"));
  CHECK_THROWS_WITH(embedlab::check_table_shape(-3, 5),
                    Contains("vocabulary size V must be at least 1, got -3"));
}

TEST_CASE("limits are checked before the one-hot matrix is allocated") {
  // 65536 x 1048576 floats would be 256 GiB: reaching the allocation would crash the test.
  embedlab::Ids ids(65536, 0);
  CHECK_THROWS_AS(embedlab::one_hot(ids, 1 << 20), InputError);
}

TEST_CASE("results are bounded too: 65536 ids of a 8192-wide table would be 2 GiB") {
  const embedlab::Matrix w = embedlab::Matrix::Zero(1, 8192);
  const embedlab::Ids ids(65536, 0);
  CHECK_THROWS_WITH(embedlab::lookup(w, ids),
                    Contains("the result (n x d) would be 65536 x 8192 floats"));
}

TEST_CASE("custom limits apply") {
  embedlab::Limits small;
  small.max_elements = 100;
  CHECK_NOTHROW(embedlab::check_table_shape(10, 10, small));
  CHECK_THROWS_WITH(embedlab::check_table_shape(10, 11, small), Contains("over the limit of 100"));
}
