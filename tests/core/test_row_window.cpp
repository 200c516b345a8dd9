// What the views draw of a table: whole up to 2^18 values, else the first and last three rows and
// the ids' rows; the expected rows written out by hand.
#include <catch2/catch.hpp>

#include "embedlab/row_window.hpp"

using embedlab::Ids;

TEST_CASE("views hold a table whole up to 2^18 values", "[row_window]") {
  CHECK(embedlab::views_hold_whole(4, 5));
  CHECK(embedlab::views_hold_whole(512, 512));
  CHECK_FALSE(embedlab::views_hold_whole(512, 513));
  CHECK_FALSE(embedlab::views_hold_whole(50257, 256));
  CHECK(embedlab::kHeatmapRows == 256);
  CHECK(embedlab::kHeatmapCols == 512);
}

TEST_CASE("the rows drawn: both ends and the ids', ascending, each once", "[row_window]") {
  CHECK(embedlab::drawn_rows(50257, {2, 3, 1}) == Ids{0, 1, 2, 3, 50254, 50255, 50256});
  CHECK(embedlab::drawn_rows(50257, {40000, 7, 40000}) ==
        Ids{0, 1, 2, 7, 40000, 50254, 50255, 50256});
  CHECK(embedlab::drawn_rows(4, {1}) == Ids{0, 1, 2, 3});
  CHECK(embedlab::drawn_rows(1, {0}) == Ids{0});
}
