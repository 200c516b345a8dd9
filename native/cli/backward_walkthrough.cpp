#include "backward_walkthrough.hpp"

#include <vector>

#include "embedlab/backward.hpp"
#include "embedlab/encoding.hpp"
#include "embedlab/format.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/max_norm.hpp"
#include "embedlab/notes.hpp"
#include "embedlab/padding_idx.hpp"
#include "walkthrough_steps.hpp"

namespace embedlab::cli {
namespace {

// ", padding_idx=1, max_norm=1.0": the nn.Embedding arguments the options stand for.
std::string module_arguments(const BackwardOptions& o) {
  std::string s;
  if (o.padding_idx) s += ", padding_idx=" + std::to_string(*o.padding_idx);
  if (o.max_norm) {
    s += ", max_norm=" + python_float(*o.max_norm);
    if (o.norm_type != 2.0) s += ", norm_type=" + python_float(o.norm_type);
  }
  if (o.scale_grad_by_freq) s += ", scale_grad_by_freq=True";
  return s;
}

}  // namespace

void add_backward_options(CLI::App& command, BackwardOptions& options) {
  add_gradient_options(command, options.gradient);
  command.add_option("--padding-idx", options.padding_idx,
                     "nn.Embedding's padding_idx: that row gets no gradient (negative counts "
                     "from the end)");
  command.add_flag("--scale-grad-by-freq", options.scale_grad_by_freq,
                   "divide each row's gradient by how often its id occurs in idx");
  auto* max_norm = command.add_option("--max-norm", options.max_norm,
                                      "rescale looked-up rows whose norm exceeds this, in place, "
                                      "before the lookup");
  command.add_option("--norm-type", options.norm_type, "the p of the p-norm for --max-norm")
      ->capture_default_str()
      ->needs(max_norm);
}

void print_backward_walkthrough(const Input& t, const BackwardOptions& o, std::ostream& out) {
  const auto n = static_cast<Index>(t.ids.size());
  const Index d = t.weight.cols();
  EmbeddingOptions embedding_options;
  embedding_options.padding_idx = o.padding_idx;
  embedding_options.scale_grad_by_freq = o.scale_grad_by_freq;
  // Everything that can fail runs before anything is printed; G comes right after the table.
  resolve_padding_idx(o.padding_idx, t.vocab);
  std::optional<TorchGenerator> generator;
  const embedlab::Table initial = module_weight(t, o.padding_idx, generator);
  const UpstreamGradient upstream = upstream_gradient(o.gradient, n, d, generator);
  embedlab::Table weight = initial;
  const Ids scaled = o.max_norm ? embedding_renorm(weight, t.ids, *o.max_norm, o.norm_type) : Ids{};

  if (t.kind == TableKind::seeded) {
    out << "# torch.manual_seed(" << t.seed << "); embedding = torch.nn.Embedding(" << t.vocab
        << ", " << d << module_arguments(o) << ")\n";
  } else {
    out << "# " << t.origin << "\n";
    if (!module_arguments(o).empty())
      out << "# nn.Embedding options: " << module_arguments(o).substr(2) << "\n";
  }
  out << "# idx = torch.tensor([" << list_text(t.ids) << "]), V = " << t.vocab << ", d = " << d
      << "\n\n";

  print_step(out, "embedding.weight", format_tensor(initial, parameter_style()));
  const auto embedding_output = grad_fn_style("EmbeddingBackward0");
  if (o.max_norm) {
    print_step(out, "out = embedding(idx); embedding.weight",
               format_tensor(weight, parameter_style()));
    print_notes(out, {max_norm_note(scaled, *o.max_norm)});
    out << "\n";
    print_step(out, "out", format_tensor(lookup(weight, t.ids), embedding_output));
  } else {
    print_step(out, "out = embedding(idx); out",
               format_tensor(lookup(weight, t.ids), embedding_output));
  }
  print_step(out, upstream.code, format_tensor(upstream.g));

  GradientViewOptions view = printed_rows(t.vocab, d);
  const Gradient grad =
      embedding_backward_view(t.ids, upstream.g, t.vocab, embedding_options, view);
  print_step(out, "out.backward(G); embedding.weight.grad", format_gradient(grad));
  // onehot^T @ G a block of rows at a time, each compared with the scatter-add's as it comes.
  const BackwardFacts facts{t.ids, t.vocab, d, o.padding_idx, o.scale_grad_by_freq};
  Grader grader = backward_grader(facts);
  std::vector<float> expected;
  view.on_rows = [&](Index first, Index count, const float* values) {
    expected.assign(static_cast<std::size_t>(count * d), 0.0f);
    for (Index i = first; i < first + count; ++i)
      if (grad.has_row(i))
        for (Index j = 0; j < d; ++j)
          expected[static_cast<std::size_t>((i - first) * d + j)] = grad.at(i, j);
    grader.add(expected.data(), values, count * d);
  };
  StreamedGradient gemm(one_hot_encoding(t.ids, t.vocab), upstream.g, view);
  gemm.run();
  print_step(out,
             "onehot = torch.nn.functional.one_hot(idx, " + std::to_string(t.vocab) +
                 ").float(); onehot.T @ G",
             format_gradient(gemm.result()));

  const Verdict verdict = grader.verdict();
  print_verdict(out, "embedding.weight.grad vs onehot.T @ G", verdict);
  print_notes(out, backward_notes(facts, verdict));
}

}  // namespace embedlab::cli
