#include "embedlab/notes.hpp"

#include <algorithm>
#include <map>

#include "embedlab/format.hpp"
#include "embedlab/padding_idx.hpp"

namespace embedlab {
namespace {

constexpr std::size_t kRowsListed = 8;  // a list of rows longer than this ends in "…"

// "3, 5, 8", summarised beyond kRowsListed entries.
std::string rows_listed(const Ids& rows) {
  std::string s;
  for (std::size_t i = 0; i < rows.size() && i < kRowsListed; ++i)
    s += (i ? ", " : "") + std::to_string(rows[i]);
  return rows.size() > kRowsListed ? s + ", \u2026" : s;
}

// "Row 3" or "Rows 1, 3".
std::string rows_named(const Ids& rows) {
  return (rows.size() == 1 ? "Row " : "Rows ") + rows_listed(rows);
}

// "1 token has" / "3 tokens have"
std::string plural(Index n, const char* one, const char* many) {
  return count_text(n) + " " + (n == 1 ? one : many);
}

// "padding_idx = 1", or "padding_idx = -2 (row 4)" where it counts from the end.
std::string padding_named(Index given, Index row, const char* unit) {
  const std::string named = "padding_idx = " + std::to_string(given);
  return given == row ? named : named + " (" + unit + " " + std::to_string(row) + ")";
}

// id -> its positions in ids, in position order.
std::map<Index, Ids> positions_by_id(const Ids& ids) {
  std::map<Index, Ids> positions;
  for (std::size_t k = 0; k < ids.size(); ++k) positions[ids[k]].push_back(static_cast<Index>(k));
  return positions;
}

// "<lookup> copied n·d = 15 floats; the one-hot product did n·V·d = 60 multiply-adds, 45 of them
// by zero.", n ids (rows) into a (V, d) table, each named as the operation names it.
std::string lookup_and_product_cost(const char* lookup, const char* n_name, const char* v_name,
                                    Index n, Index vocab, Index dim) {
  const std::string n_d = std::string(n_name) + "\u00b7d = ";
  const std::string n_v_d = std::string(n_name) + "\u00b7" + v_name + "\u00b7d = ";
  return std::string(lookup) + " copied " + n_d + plural(n * dim, "float", "floats") +
         "; the one-hot product did " + n_v_d +
         plural(n * vocab * dim, "multiply-add", "multiply-adds") + ", " +
         count_text(n * (vocab - 1) * dim) + " of them by zero.";
}

}  // namespace

Grader backward_grader(const BackwardFacts& f) {
  Grader grader(RoutePair::backward);
  const Index padding = resolve_padding_idx(f.padding_idx, f.vocab);
  const auto positions = positions_by_id(f.ids);
  const auto found = positions.find(padding);
  if (padding >= 0 && found != positions.end()) {
    std::string terms;
    for (Index k : found->second)
      terms += (terms.empty() ? "G[" : " + G[") + std::to_string(k) + "]";
    grader.define_row(padding, f.dim,
                      "Row " + std::to_string(padding) +
                          " is padding_idx: nn.Embedding gives it no gradient, while onehot.T @ G "
                          "knows nothing of padding_idx and adds " +
                          terms + " into it.");
  }
  return grader;
}

std::vector<std::string> backward_notes(const BackwardFacts& f, const Verdict& verdict) {
  std::vector<std::string> notes;
  const Index padding = resolve_padding_idx(f.padding_idx, f.vocab);
  const auto positions = positions_by_id(f.ids);
  if (padding >= 0) {
    const std::string named = padding_named(*f.padding_idx, padding, "row");
    const auto found = positions.find(padding);
    const std::string p = std::to_string(padding);
    notes.push_back(
        found != positions.end()
            ? named + ": row " + p + " of the scatter-add gets no gradient, though " +
                  plural(static_cast<Index>(found->second.size()), "token has", "tokens have") +
                  " id " + p + "; onehot.T @ G knows nothing of padding_idx, so its row " + p +
                  " is not zero."
            : named + ": no token has id " + p + ", so it changes nothing here.");
  }
  if (f.scale_grad_by_freq) {
    notes.push_back(
        "scale_grad_by_freq: each row of the scatter-add is divided by how often its id occurs in "
        "idx; onehot.T @ G knows nothing of it.");
  }
  Ids repeated;
  for (const auto& [id, ks] : positions)
    if (ks.size() > 1) repeated.push_back(id);
  if (!repeated.empty()) {
    notes.push_back(rows_named(repeated) + (repeated.size() == 1 ? " receives" : " receive") +
                    " the sum of several rows of G: the id repeats in idx.");
  }
  // Rows of an id at 3 or more positions whose bits differ: the order of the additions.
  std::vector<bool> row_differs(static_cast<std::size_t>(f.vocab), false);
  for (Index e : verdict.differing) row_differs[static_cast<std::size_t>(e / f.dim)] = true;
  Ids rounded;
  for (const auto& [id, ks] : positions)
    if (ks.size() >= 3 && id != padding && row_differs[static_cast<std::size_t>(id)])
      rounded.push_back(id);
  if (!rounded.empty()) {
    notes.push_back(rows_named(rounded) + (rounded.size() == 1 ? " differs" : " differ") +
                    " in the last bits: with 3 or more rows of G per id, the scatter-add adds "
                    "them in position order, the GEMM in its own blocked order.");
  }
  const Index untouched = f.vocab - static_cast<Index>(positions.size());
  if (untouched > 0) {
    notes.push_back(plural(untouched, "row gets", "rows get") + " zeros: no id asked for " +
                    (untouched == 1 ? "it." : "them."));
  }
  const auto n = static_cast<Index>(f.ids.size());
  notes.push_back(
      "The scatter-add did n\u00b7d = " + count_text(n * f.dim) +
      " additions; onehot.T @ G did V\u00b7n\u00b7d = " + count_text(f.vocab * n * f.dim) +
      " multiply-adds, " + count_text((f.vocab - 1) * n * f.dim) + " of them by zero.");
  return notes;
}

std::string max_norm_note(const Ids& scaled_rows, double max_norm) {
  const std::string bound = python_float_text(max_norm);
  if (scaled_rows.empty())
    return "max_norm: no looked-up row had a norm above " + bound + "; W is unchanged.";
  return "max_norm: " + std::string(scaled_rows.size() == 1 ? "row " : "rows ") +
         rows_listed(scaled_rows) + (scaled_rows.size() == 1 ? " had a norm" : " had norms") +
         " above " + bound + " and " + (scaled_rows.size() == 1 ? "was" : "were") +
         " scaled down in place.";
}

std::vector<std::string> bag_notes(const BagFacts& f) {
  std::vector<std::string> notes;
  const Index padding = resolve_padding_idx(f.padding_idx, f.vocab);
  if (padding >= 0) {
    const std::string named = padding_named(*f.padding_idx, padding, "id");
    notes.push_back(
        std::find(f.ids.begin(), f.ids.end(), padding) != f.ids.end()
            ? named + ": its ids are left out of every bag" +
                  (f.mode == BagMode::mean ? " and of the count a mean divides by." : ".")
            : named + ": no id equals it, so it changes nothing here.");
  }
  if (f.mode == BagMode::max) {
    notes.push_back(
        "mode='max' takes, column by column, the largest entry of the bag's rows: no multi-hot "
        "matrix M gives that as M @ W, since a maximum is not a weighted sum.");
    return notes;
  }
  Index read = 0;
  for (Index size : f.bag_size) read += size;
  const auto bags = static_cast<Index>(f.bag_size.size());
  notes.push_back("The bags read " + plural(read, "row", "rows") + " of W (" +
                  count_text(read * f.dim) + " floats); M @ W did B\u00b7V\u00b7d = " +
                  count_text(bags * f.vocab * f.dim) + " multiply-adds.");
  return notes;
}

std::vector<std::string> bag_gradient_notes(const BagFacts& f) {
  if (!f.scale_grad_by_freq || f.mode == BagMode::max) return {};
  // PyTorch 1.13's CPU backward gives the g-th distinct id (ascending) the count of the g-th
  // id of the sorted ids (pytorch/pytorch#190063): a row's count is wrong where those differ.
  const auto positions = positions_by_id(f.ids);
  Ids sorted = f.ids;
  std::sort(sorted.begin(), sorted.end());
  std::size_t g = 0;
  for (const auto& [id, ks] : positions) {
    if (positions.at(sorted[g++]).size() != ks.size()) {
      return {
          "PyTorch 1.13's CPU kernel divides some of these rows by another id's count "
          "(pytorch/pytorch#190063); these are the documented values, each row divided by its "
          "own id's count."};
    }
  }
  return {};
}

std::string forward_cost_note(Index n, Index vocab, Index dim) {
  return lookup_and_product_cost("The lookup", "n", "V", n, vocab, dim);
}

std::string positions_cost_note(Index length, Index context_length, Index dim) {
  return lookup_and_product_cost("The position lookup", "T", "context_length", length,
                                 context_length, dim);
}

std::vector<std::string> head_cost_notes(Index n, Index distinct, Index vocab, Index dim) {
  // Ids, not rows: n may exceed V (a row read once for each time its id comes).
  return {
      "The input lookup read a row for each of the n = " + plural(n, "id", "ids") + ", " +
          count_text(distinct) + " distinct of the " + plural(vocab, "row", "rows") +
          " of W, copying n\u00b7d = " + plural(n * dim, "float", "floats") + ".",
      "The output layer read all " + plural(vocab, "row", "rows") +
          " of W: n\u00b7V\u00b7d = " + plural(n * vocab * dim, "multiply-add", "multiply-adds") +
          ", none wasted: every logit scores one next token."};
}

std::string blocks_decoded_note(const Table& w, std::uint64_t lookup, std::uint64_t product) {
  const Index per_block = block_values(w.dtype());
  const std::string type(stored_float_name(w.dtype()));
  if (product == 0)
    return "blocks decoded: none by either route: " + type + " rows are read as stored";
  const Index per_row = w.cols() / per_block;
  const std::string what =
      per_block == 1 ? "values converted (" + type + ")"
                     : "blocks decoded (" + type + ", " + std::to_string(per_block) +
                           " weights in " + std::to_string(stored_size(w.dtype())) + " bytes each)";
  std::string text = what + ": the lookup " + std::to_string(lookup) + " (" +
                     std::to_string(lookup / per_row) + " rows x " + std::to_string(per_row) +
                     "), the product " + std::to_string(product) + " (all " +
                     std::to_string(product / per_row) + " rows x " + std::to_string(per_row) + ")";
  if (lookup > 0) text += ", " + std::to_string(product / lookup) + " times as many";
  return text;
}

}  // namespace embedlab
