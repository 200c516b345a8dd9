#include "forward_walkthrough.hpp"

#include <algorithm>

#include "embedlab/compare.hpp"
#include "embedlab/format.hpp"
#include "embedlab/lookup.hpp"
#include "embedlab/onehot.hpp"
#include "embedlab/torch_init.hpp"

namespace embedlab::cli {
namespace {

std::string ids_list(const Ids& ids) {
  std::string s;
  for (std::size_t i = 0; i < ids.size(); ++i) s += (i ? ", " : "") + std::to_string(ids[i]);
  return s;
}

TensorStyle parameter() {
  TensorStyle s;
  s.header = "Parameter containing:\n";
  s.suffixes = {"requires_grad=True"};
  return s;
}

TensorStyle output_of(const char* grad_fn) {
  TensorStyle s;
  s.suffixes = {std::string("grad_fn=<") + grad_fn + ">"};
  return s;
}

void step(std::ostream& out, const std::string& code, const std::string& result) {
  out << ">>> " << code << "\n" << result << "\n\n";
}

}  // namespace

void print_forward_walkthrough(const Table& t, std::ostream& out) {
  const Index n = static_cast<Index>(t.ids.size());
  const Index d = t.weight.cols();
  out << "# " << t.origin << "\n";
  out << "# idx = torch.tensor([" << ids_list(t.ids) << "]), V = " << t.vocab << ", d = " << d
      << "\n\n";

  step(out, "embedding.weight", format_tensor(t.weight, parameter()));

  const auto embedding_output = output_of("EmbeddingBackward0");
  Ids seen;
  for (auto id : t.ids) {
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    step(out, "embedding(torch.tensor([" + std::to_string(id) + "]))",
         format_tensor(lookup(t.weight, {id}), embedding_output));
  }
  const Matrix rows = lookup(t.weight, t.ids);
  step(out, "embedding(idx)", format_tensor(rows, embedding_output));

  const Matrix onehot = one_hot(t.ids, t.vocab);
  TensorStyle integer;
  integer.integer = true;
  step(out, "onehot = torch.nn.functional.one_hot(idx, " + std::to_string(t.vocab) + ")",
       format_tensor(onehot, integer));

  if (t.kind == TableKind::seeded) {
    // The notebooks re-seed and print a fresh Linear's weight before replacing it.
    TorchGenerator gen(t.seed);
    const auto fresh = init_linear(gen, t.vocab, d, false);
    step(out,
         "torch.manual_seed(" + std::to_string(t.seed) + "); linear = torch.nn.Linear(" +
             std::to_string(t.vocab) + ", " + std::to_string(d) + ", bias=False); linear.weight",
         format_tensor(fresh.weight, parameter()));
  }
  step(out, "linear.weight = torch.nn.Parameter(embedding.weight.T); linear.weight",
       format_tensor(linear_weight(t.weight), parameter()));

  const Matrix product = onehot_product(onehot, t.weight);
  step(out, "linear(onehot.float())", format_tensor(product, output_of("MmBackward0")));

  const Comparison c = compare(rows, product);
  out << "# " << c.verdict << "\n";
  out << "# the lookup copied n*d = " << n * d << " floats; the product did n*V*d = "
      << n * t.vocab * d << " multiply-adds, " << n * (t.vocab - 1) * d
      << " of them multiplications by zero\n";
}

}  // namespace embedlab::cli
