#include "forward_walkthrough.hpp"

#include <algorithm>

#include "embedlab/encoding.hpp"
#include "embedlab/format.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/torch_init.hpp"
#include "walkthrough_steps.hpp"

namespace embedlab::cli {

void print_forward_walkthrough(const Input& t, std::ostream& out) {
  const Index n = static_cast<Index>(t.ids.size());
  const Index d = t.weight.cols();
  out << "# " << t.origin << "\n";
  out << "# idx = torch.tensor([" << list_text(t.ids) << "]), V = " << t.vocab << ", d = " << d
      << "\n\n";

  print_step(out, "embedding.weight", format_tensor(t.weight, parameter_style()));

  const auto embedding_output = grad_fn_style("EmbeddingBackward0");
  Ids seen;
  for (auto id : t.ids) {
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    print_step(out, "embedding(torch.tensor([" + std::to_string(id) + "]))",
               format_tensor(lookup(t.weight, {id}), embedding_output));
  }
  const Matrix rows = lookup(t.weight, t.ids);
  print_step(out, "embedding(idx)", format_tensor(rows, embedding_output));
  out.flush();  // the rows are there before the product reads the whole table

  // The one-hot matrix is printed from the ids: (n, V) is never made.
  print_step(out, "onehot = torch.nn.functional.one_hot(idx, " + std::to_string(t.vocab) + ")",
             format_tensor(n, t.vocab, [&](Index i, Index j) { return t.ids[i] == j ? 1.0f : 0.0f; },
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
  product.run();
  print_step(out, "linear(onehot.float())",
             format_tensor(product.result(), grad_fn_style("MmBackward0")));

  print_verdict(out, "embedding(idx) vs linear(onehot.float())", rows, product.result(), RoutePair::lookup);
  out << "# the lookup copied n*d = " << n * d
      << " floats; the product did n*V*d = " << n * t.vocab * d << " multiply-adds, "
      << n * (t.vocab - 1) * d << " of them multiplications by zero\n";
}

}  // namespace embedlab::cli
