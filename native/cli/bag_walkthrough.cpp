#include "bag_walkthrough.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "embedlab/embedding_bag.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/error.hpp"
#include "embedlab/ids.hpp"
#include "embedlab/notes.hpp"
#include "embedlab/padding_idx.hpp"
#include "embedlab/sample_weights.hpp"
#include "embedlab/streamed.hpp"
#include "walkthrough_steps.hpp"

namespace embedlab::cli {
namespace {

Ids parse_offsets(const std::string& text) {
  try {
    return parse_ids(text);
  } catch (const InputError& e) {
    throw InputError(Argument::offsets, std::string("--offsets: ") + e.what());
  }
}

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (std::size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
  return s;
}

// ", mode='sum', padding_idx=1": the nn.EmbeddingBag arguments the options stand for.
std::string module_arguments(const BagWalkOptions& o) {
  std::string s = ", mode='" + o.mode + "'";
  if (o.scale_grad_by_freq) s += ", scale_grad_by_freq=True";
  if (o.include_last_offset) s += ", include_last_offset=True";
  if (o.padding_idx) s += ", padding_idx=" + std::to_string(*o.padding_idx);
  return s;
}

// Each id's bag, -1 for the padding ones, which no bag counts.
std::vector<Index> bag_of_each_id(const Ids& ids, const Ids& offsets, Index bags, Index padding) {
  std::vector<Index> bag_of(ids.size(), -1);
  for (Index b = 0; b < bags; ++b) {
    const auto end = static_cast<std::size_t>(
        b + 1 < static_cast<Index>(offsets.size()) ? offsets[b + 1] : ids.size());
    for (auto k = static_cast<std::size_t>(offsets[b]); k < end; ++k)
      if (ids[k] != padding) bag_of[k] = b;
  }
  return bag_of;
}

// PyTorch code that builds the multi-hot matrix M (B, V), as bag_matrix does.
std::string multi_hot_code(const Ids& ids, const std::vector<Index>& bag_of, Index bags,
                           Index vocab, const SampleWeights& weights, bool mean) {
  std::vector<std::string> rows, cols, values;
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (bag_of[k] < 0) continue;
    rows.push_back(std::to_string(bag_of[k]));
    cols.push_back(std::to_string(ids[k]));
    if (!weights.literals.empty()) values.push_back(weights.literals[k]);
  }
  std::string code = "M = torch.zeros(" + std::to_string(bags) + ", " + std::to_string(vocab) + ")";
  if (!rows.empty()) {
    code += ".index_put_((torch.tensor([" + join(rows) + "]), torch.tensor([" + join(cols) +
            "])), " +
            (values.empty() ? "torch.ones(" + std::to_string(rows.size()) + ")"
                            : "torch.tensor([" + join(values) + "])") +
            ", accumulate=True)";
  }
  if (mean) code += "; M = M / M.sum(1, keepdim=True).clamp(min=1)";
  return code + "; M";
}

void describe_bags(const Ids& ids, const Ids& offsets, Index bags, std::ostream& out) {
  for (Index b = 0; b < bags; ++b) {
    const Index begin = offsets[b];
    const Index end = b + 1 < static_cast<Index>(offsets.size()) ? offsets[b + 1]
                                                                 : static_cast<Index>(ids.size());
    const Ids members(ids.begin() + begin, ids.begin() + end);
    out << "# bag " << b << " = idx[" << begin << ":" << end << "] = [" << list_text(members) << "]"
        << (members.empty() ? ": empty, a row of zeros" : "") << "\n";
  }
}

}  // namespace

void add_bag_options(CLI::App& command, BagWalkOptions& options) {
  command
      .add_option("--offsets", options.offsets_text,
                  "where each bag starts in --ids, beginning with 0, e.g. 0,2")
      ->capture_default_str();
  command.add_option("--mode", options.mode, "how a bag's rows are reduced")->capture_default_str();
  command.add_option("--per-sample-weights", options.per_sample_weights_text,
                     "one weight per id, multiplying its row (mode sum only), e.g. 1,0.5,2");
  command.add_flag("--include-last-offset", options.include_last_offset,
                   "--offsets also ends with the end of the ids (CSR style), e.g. 0,2,3");
  command.add_option("--padding-idx", options.padding_idx,
                     "ids equal to it are left out of every bag (negative counts from the end)");
  command.add_flag("--scale-grad-by-freq", options.scale_grad_by_freq,
                   "divide each row's gradient by how often its id occurs in --ids");
  add_gradient_options(command, options.gradient);
}

void print_bag_walkthrough(const Input& t, const BagWalkOptions& o, std::ostream& out) {
  // Everything that can fail runs before anything is printed; G comes right after the table.
  const Ids offsets = parse_offsets(o.offsets_text);
  const SampleWeights weights = parse_sample_weights(o.per_sample_weights_text);
  BagOptions options;
  options.mode = parse_bag_mode(o.mode);
  options.include_last_offset = o.include_last_offset;
  options.padding_idx = o.padding_idx;
  options.per_sample_weights = weights.values;
  options.scale_grad_by_freq = o.scale_grad_by_freq;
  const Index padding = resolve_padding_idx(o.padding_idx, t.vocab);
  std::optional<TorchGenerator> generator;
  const embedlab::Table weight = module_weight(t, o.padding_idx, generator);
  const BagOutput forward = embedding_bag(weight, t.ids, offsets, options);
  const Index bags = forward.output.rows();
  const Index d = weight.cols();
  const UpstreamGradient upstream = upstream_gradient(o.gradient, bags, d, generator);
  const Gradient grad = embedding_bag_backward_view(t.ids, offsets, upstream.g, forward, t.vocab,
                                                    options, printed_rows(t.vocab, d));

  if (t.kind == TableKind::seeded) {
    out << "# torch.manual_seed(" << t.seed << "); bag = torch.nn.EmbeddingBag(" << t.vocab << ", "
        << d << module_arguments(o) << ")\n";
  } else {
    out << "# " << t.origin << "\n# nn.EmbeddingBag options: " << module_arguments(o).substr(2)
        << "\n";
  }
  out << "# idx = torch.tensor([" << list_text(t.ids) << "]), offsets = torch.tensor(["
      << list_text(offsets) << "]), V = " << t.vocab << ", d = " << d << "\n";
  if (!weights.literals.empty())
    out << "# psw = torch.tensor([" << join(weights.literals) << "])\n";
  out << "\n";

  print_step(out, "bag.weight", format_tensor(weight, parameter_style()));
  print_step(out,
             std::string("out = bag(idx, offsets") +
                 (weights.literals.empty() ? "" : ", per_sample_weights=psw") + "); out",
             format_tensor(forward.output, grad_fn_style("EmbeddingBagBackward0")));
  describe_bags(t.ids, offsets, bags, out);
  out << "\n";

  const BagFacts facts{
      t.ids, t.vocab, d, options.mode, o.padding_idx, o.scale_grad_by_freq, forward.bag_size};
  if (options.mode == BagMode::max) {
    print_notes(out, bag_notes(facts));
    out << "\n";
  } else {
    const auto bag_of = bag_of_each_id(t.ids, offsets, bags, padding);
    // M (B, V) is printed from its entries and multiplied streamed: it is never made whole.
    const Encoding m = bag_encoding(t.ids, offsets, t.vocab, options);
    std::map<std::pair<Index, Index>, float> entries;
    for (const EncodingEntry& e : m.entries) entries[{e.row, e.col}] = e.value;
    print_step(out,
               multi_hot_code(t.ids, bag_of, bags, t.vocab, weights, options.mode == BagMode::mean),
               format_tensor(bags, t.vocab, [&](Index i, Index j) {
                 const auto it = entries.find({i, j});
                 return it == entries.end() ? 0.0f : it->second;
               }));
    StreamedProduct streamed(weight, m);
    streamed.run();
    const Matrix& product = streamed.result();
    print_step(out, "M @ bag.weight", format_tensor(product, grad_fn_style("MmBackward0")));
    print_verdict(out, "out vs M @ bag.weight", forward.output, product, RoutePair::bag);
    print_notes(out, bag_notes(facts));
    out << "\n";
  }

  print_step(out, upstream.code, format_tensor(upstream.g));
  print_step(out, "out.backward(G); bag.weight.grad", format_gradient(grad));
  print_notes(out, bag_gradient_notes(facts));
}

}  // namespace embedlab::cli
