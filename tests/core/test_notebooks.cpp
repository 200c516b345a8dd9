// The notebooks are ground truth: the tensors they printed (4 decimals, kept verbatim in
// tests/fixtures/notebooks/) must come out of torch_init + lookup/onehot_product. The numbers are
// read from the files at test time. 002 and 004 are the PyTorch notebooks (003 uses TensorFlow
// with hand-set weights).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/torch_init.hpp"

using embedlab::Ids;
using embedlab::Index;
using embedlab::Matrix;

namespace {

std::string read_notebook(const std::string& name) {
  const std::string path = std::string(EMBEDLAB_NOTEBOOKS_DIR) + "/" + name;
  std::ifstream file(path);
  INFO("reading " << path);
  REQUIRE(file.good());
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

using Rows = std::vector<std::vector<double>>;

// The first printed 2-D `tensor([[...], ...])` after `cell` (e.g. "In [5]:"), row by row.
Rows printed_tensor(const std::string& notebook, const std::string& cell) {
  const auto at_cell = notebook.find(cell);
  INFO("looking for " << cell);
  REQUIRE(at_cell != std::string::npos);
  auto pos = notebook.find("tensor([[", at_cell);
  REQUIRE(pos != std::string::npos);
  pos += 8;  // at the first row's '['
  Rows rows;
  while (pos < notebook.size() && notebook[pos] == '[') {
    const auto end = notebook.find(']', pos);
    REQUIRE(end != std::string::npos);
    std::vector<double> row;
    const char* p = notebook.c_str() + pos + 1;
    const char* stop = notebook.c_str() + end;
    while (p < stop) {
      char* next = nullptr;
      row.push_back(std::strtod(p, &next));
      REQUIRE(next != p);
      p = next;
      while (p < stop && (*p == ',' || *p == ' ')) ++p;
    }
    rows.push_back(row);
    pos = notebook.find_first_not_of(", \n", end + 1);
  }
  return rows;
}

// Every element agrees to the 4 printed decimals.
void check_printed(const Matrix& ours, const Rows& printed) {
  REQUIRE(ours.rows() == static_cast<Index>(printed.size()));
  for (Index i = 0; i < ours.rows(); ++i) {
    const auto& row = printed[static_cast<std::size_t>(i)];
    REQUIRE(ours.cols() == static_cast<Index>(row.size()));
    for (Index j = 0; j < ours.cols(); ++j) {
      INFO("element (" << i << ", " << j << "): ours " << ours(i, j) << ", printed "
                       << row[static_cast<std::size_t>(j)]);
      CHECK(std::fabs(ours(i, j) - row[static_cast<std::size_t>(j)]) <= 0.00005);
    }
  }
}

Matrix embedding_seed_123() {
  embedlab::TorchGenerator gen(123);
  return embedlab::init_embedding(gen, 4, 5);
}

Matrix linear_weight_seed_123() {
  embedlab::TorchGenerator gen(123);
  return embedlab::init_linear(gen, 4, 5, false).weight;
}

}  // namespace

TEST_CASE("notebook 002: manual_seed(123), Embedding(4, 5), Linear(4, 5)", "[notebooks]") {
  const std::string nb = read_notebook("002.txt");
  const Matrix w = embedding_seed_123();
  const Ids ids = {2, 3, 1};
  check_printed(w, printed_tensor(nb, "In [5]:"));
  check_printed(embedlab::lookup(w, {1}), printed_tensor(nb, "In [6]:"));
  check_printed(embedlab::lookup(w, {2}), printed_tensor(nb, "In [7]:"));
  check_printed(embedlab::lookup(w, ids), printed_tensor(nb, "In [8]:"));
  check_printed(linear_weight_seed_123(), printed_tensor(nb, "In [16]:"));
  check_printed(embedlab::onehot_product(embedlab::one_hot(ids, 4), w),
                printed_tensor(nb, "In [18]:"));
  check_printed(embedlab::lookup(w, ids), printed_tensor(nb, "In [19]:"));
}

// The notebook prints seed 123's table without calling manual_seed in the cells shown.
TEST_CASE("notebook 004: the same table, ids 3, 2, 0, 1", "[notebooks]") {
  const std::string nb = read_notebook("004.txt");
  const Matrix w = embedding_seed_123();
  const Ids ids = {3, 2, 0, 1};
  check_printed(w, printed_tensor(nb, "In [26]:"));
  check_printed(embedlab::lookup(w, {1}), printed_tensor(nb, "In [27]:"));
  check_printed(linear_weight_seed_123(), printed_tensor(nb, "In [41]:"));
  check_printed(embedlab::linear_weight(w), printed_tensor(nb, "In [43]:"));
  check_printed(embedlab::onehot_product(embedlab::one_hot(ids, 4), w),
                printed_tensor(nb, "In [46]:"));
  check_printed(embedlab::lookup(w, ids), printed_tensor(nb, "In [48]:"));
}
