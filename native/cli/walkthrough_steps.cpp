#include "walkthrough_steps.hpp"

#include <cmath>
#include <cstdio>

#include "embedlab/compare.hpp"

namespace embedlab::cli {

std::string list_text(const Ids& values) {
  std::string s;
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s;
}

std::string token_text(const std::string& token) {
  std::string text = "'";
  for (const char c : token) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || c == '\'' || c == '\\') {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      text += escaped;
    } else {
      text += c;
    }
  }
  return text + "'";
}

std::string python_float(double value) {
  if (std::isinf(value)) return value > 0 ? "float('inf')" : "float('-inf')";
  if (std::isnan(value)) return "float('nan')";
  return python_float_text(value);
}

TensorStyle parameter_style() {
  TensorStyle s;
  s.header = "Parameter containing:\n";
  s.suffixes = {"requires_grad=True"};
  return s;
}

TensorStyle grad_fn_style(const std::string& name) {
  TensorStyle s;
  s.suffixes = {"grad_fn=<" + name + ">"};
  return s;
}

TensorStyle integer_style() {
  TensorStyle s;
  s.integer = true;
  return s;
}

std::string format_gradient(const Gradient& g) {
  return format_tensor(g.rows, g.cols,
                       [&](Index i, Index j) { return g.has_row(i) ? g.at(i, j) : 0.0f; });
}

GradientViewOptions printed_rows(Index vocab, Index dim) {
  GradientViewOptions view;
  view.whole = false;
  view.keep_rows = printed_indices(vocab, vocab, dim);
  return view;
}

void print_step(std::ostream& out, const std::string& code, const std::string& result) {
  out << ">>> " << code << "\n" << result << "\n\n";
}

void print_verdict(std::ostream& out, const std::string& compared, const Matrix& expected,
                   const Matrix& actual, RoutePair pair) {
  print_verdict(out, compared, grade_comparison(expected, actual, pair));
}

void print_verdict(std::ostream& out, const std::string& compared, const Verdict& verdict) {
  out << "# " << compared << ": " << verdict_text(verdict) << "\n";
}

void print_notes(std::ostream& out, const std::vector<std::string>& notes) {
  for (const std::string& note : notes) out << "# " << note << "\n";
}

}  // namespace embedlab::cli
