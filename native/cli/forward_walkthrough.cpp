#include "forward_walkthrough.hpp"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "embedlab/compare.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/format.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/notes.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/torch_init.hpp"
#include "walkthrough_steps.hpp"

namespace embedlab::cli {
namespace {

// Each id's token in the file's vocabulary: "15496 = 'Hello', 995 = 'Ġworld'" (token_text()), the
// first kShownTokens of them.
constexpr std::size_t kShownTokens = 16;
std::string token_texts(const Ids& ids, const std::vector<std::string>& tokens) {
  std::string text;
  for (std::size_t k = 0; k < ids.size() && k < kShownTokens; ++k) {
    const auto id = static_cast<std::size_t>(ids[k]);
    text += (k ? ", " : "") + std::to_string(ids[k]) + " = ";
    if (id >= tokens.size()) {
      text += "(none: the vocabulary has " + std::to_string(tokens.size()) + " tokens)";
      continue;
    }
    text += token_text(tokens[id]);
  }
  return ids.size() > kShownTokens ? text + ", ..." : text;
}

}  // namespace

void print_forward_walkthrough(const Input& t, std::ostream& out) {
  const Index n = static_cast<Index>(t.ids.size());
  const Index d = t.weight.cols();
  out << "# " << t.origin << "\n";
  out << "# idx = torch.tensor([" << list_text(t.ids) << "]), V = " << t.vocab << ", d = " << d
      << "\n";
  if (!t.tokens.empty()) out << "# the file's tokens: " << token_texts(t.ids, t.tokens) << "\n";
  out << "\n";

  print_step(out, "embedding.weight", format_tensor(t.weight, parameter_style()));

  const auto embedding_output = grad_fn_style("EmbeddingBackward0");
  Ids seen;
  for (auto id : t.ids) {
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    print_step(out, "embedding(torch.tensor([" + std::to_string(id) + "]))",
               format_tensor(lookup(t.weight, {id}), embedding_output));
  }
  const std::uint64_t before_lookup = t.weight.blocks_decoded();
  const Matrix rows = lookup(t.weight, t.ids);
  const std::uint64_t lookup_blocks = t.weight.blocks_decoded() - before_lookup;
  print_step(out, "embedding(idx)", format_tensor(rows, embedding_output));
  out.flush();  // the rows are there before the product reads the whole table

  // The one-hot matrix is printed from the ids: (n, V) is never made.
  print_step(out, "onehot = torch.nn.functional.one_hot(idx, " + std::to_string(t.vocab) + ")",
             format_tensor(
                 n, t.vocab, [&](Index i, Index j) { return t.ids[i] == j ? 1.0f : 0.0f; },
                 integer_style()));

  if (t.kind == TableKind::seeded) {
    // The notebooks re-seed and print a fresh Linear's weight before replacing it.
    TorchGenerator gen(t.seed);
    const auto fresh = init_linear(gen, t.vocab, d, false);
    print_step(out,
               "torch.manual_seed(" + std::to_string(t.seed) + "); linear = torch.nn.Linear(" +
                   std::to_string(t.vocab) + ", " + std::to_string(d) +
                   ", bias=False); linear.weight",
               format_tensor(fresh.weight, parameter_style()));
  }
  print_step(out, "linear.weight = torch.nn.Parameter(embedding.weight.T); linear.weight",
             format_tensor(t.weight, parameter_style(), true));

  StreamedProduct product(t.weight, one_hot_encoding(t.ids, t.vocab));
  const std::uint64_t before_product = t.weight.blocks_decoded();
  product.run();
  const std::uint64_t product_blocks = t.weight.blocks_decoded() - before_product;
  print_step(out, "linear(onehot.float())",
             format_tensor(product.result(), grad_fn_style("MmBackward0")));

  print_step(out, "torch.equal(embedding(idx), linear(onehot.float()))",
             torch_equal(rows, product.result()) ? "True" : "False");
  print_verdict(out, "embedding(idx) vs linear(onehot.float())", rows, product.result(),
                RoutePair::lookup);
  print_notes(out, {forward_cost_note(n, t.vocab, d)});
  if (t.counts_blocks)
    out << "# " << blocks_decoded_note(t.weight, lookup_blocks, product_blocks) << "\n";
}

}  // namespace embedlab::cli
