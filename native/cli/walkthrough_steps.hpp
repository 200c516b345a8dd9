#pragma once
// The pieces every walk-through prints: ">>> code" lines with PyTorch-formatted results.
#include <ostream>
#include <string>
#include <vector>

#include "embedlab/format.hpp"
#include "embedlab/matrix.hpp"
#include "embedlab/streamed.hpp"
#include "embedlab/verdict.hpp"

namespace embedlab::cli {

// "2, 3, 1": ids (or offsets) as they go inside torch.tensor([...]).
std::string list_text(const Ids& values);

// A vocabulary's token between single quotes, as the file spells it: "'Ġthe'"; bytes below
// 0x20, 0x7f, the quote and the backslash escaped as \xNN.
std::string token_text(const std::string& token);

// A float as Python's repr writes it in code: 1.0, 0.25, float('inf').
std::string python_float(double value);

// A parameter: "Parameter containing:" then the tensor, requires_grad=True.
TensorStyle parameter_style();
// The output of an autograd op: grad_fn=<name>.
TensorStyle grad_fn_style(const std::string& name);
// An integer tensor (F.one_hot's int64).
TensorStyle integer_style();

// A (V, d) gradient view as PyTorch prints it; its printed rows are among those it keeps (see
// printed_rows), and a row it does not keep is +0.0 (a scatter-add's).
std::string format_gradient(const Gradient& gradient);
// The view of a (V, d) gradient that a printout needs: the rows it prints, never held whole.
GradientViewOptions printed_rows(Index vocab, Index dim);

// ">>> code", the result, a blank line.
void print_step(std::ostream& out, const std::string& code, const std::string& result);

// expected and actual graded for one pair of routes, on one comment line:
// "# <compared>: bit-identical. All 15 elements hold the same 32 bits in both results."
void print_verdict(std::ostream& out, const std::string& compared, const Matrix& expected,
                   const Matrix& actual, RoutePair pair);
void print_verdict(std::ostream& out, const std::string& compared, const Verdict& verdict);

// The core's notes (notes.hpp), one comment line each.
void print_notes(std::ostream& out, const std::vector<std::string>& notes);

}  // namespace embedlab::cli
