#include "embedlab/format.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

// Follows torch/_tensor_str.py with the default print options
// (precision 4, threshold 1000, edgeitems 3, linewidth 80).
namespace embedlab {
namespace {

constexpr int kPrecision = 4;
constexpr Index kThreshold = 1000;
constexpr Index kEdgeItems = 3;
constexpr int kLineWidth = 80;

// printf with Python's rounding of format(value, ".4f") / ".4e" (both round half to even on
// the exact binary value, as glibc does).
std::string printed(const char* fmt, int precision, double value) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, precision, value);
  return buf;
}

// Python spells these "nan", "inf", "-inf" whatever the NaN's sign bit.
std::string nonfinite(double v) { return std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf"); }

// The indices printed along one axis: all, or the first and last kEdgeItems around a gap (-1).
std::vector<Index> shown(Index size, bool summarize) {
  std::vector<Index> idx;
  if (summarize && size > 2 * kEdgeItems) {
    for (Index i = 0; i < kEdgeItems; ++i) idx.push_back(i);
    idx.push_back(-1);
    for (Index i = size - kEdgeItems; i < size; ++i) idx.push_back(i);
  } else {
    for (Index i = 0; i < size; ++i) idx.push_back(i);
  }
  return idx;
}

// PyTorch's _Formatter: one width and one notation for every element shown.
class Formatter {
 public:
  Formatter(const std::vector<double>& values, bool integer) : integer_(integer) {
    if (integer_) {
      for (double v : values) width_ = std::max(width_, text(v).size());
      return;
    }
    std::vector<double> nz;  // |x| of finite non-zero values
    for (double v : values) {
      if (std::isfinite(v) && v != 0.0) nz.push_back(std::abs(v));
    }
    if (nz.empty()) return;
    const double lo = *std::min_element(nz.begin(), nz.end());
    const double hi = *std::max_element(nz.begin(), nz.end());
    int_mode_ = std::all_of(nz.begin(), nz.end(), [](double v) { return v == std::ceil(v); });
    sci_ = hi / lo > 1000.0 || hi > 1.0e8 || (!int_mode_ && lo < 1.0e-4);
    for (double v : values) {
      if (!std::isfinite(v) || v == 0.0) continue;
      width_ = std::max(width_, text(v).size());
    }
  }

  std::string operator()(double v) const {
    const std::string t = text(v);
    return std::string(width_ > t.size() ? width_ - t.size() : 0, ' ') + t;
  }

  // v in this notation, unpadded.
  std::string text(double v) const {
    if (integer_) return std::to_string(static_cast<long long>(v));
    if (!std::isfinite(v)) return nonfinite(v);
    if (sci_) return scientific_text(v);
    if (int_mode_) return printed("%.*f", 0, v) + ".";
    return printed("%.*f", kPrecision, v);
  }

 private:
  bool integer_;
  bool int_mode_ = true;
  bool sci_ = false;
  std::size_t width_ = 1;
};

using At = std::function<float(Index, Index)>;
using At3 = std::function<float(Index, Index, Index)>;

std::string row_string(const At& at, Index r, const std::vector<Index>& cols, const Formatter& fmt,
                       int indent) {
  std::vector<std::string> items;
  for (Index c : cols) items.push_back(c < 0 ? " ..." : fmt(at(r, c)));
  const std::size_t item_width = items.empty() ? 1 : fmt(0.0).size() + 2;
  const auto per_line = std::max<std::size_t>(1, (kLineWidth - indent) / item_width);
  std::string s = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) s += (i % per_line == 0) ? ",\n" + std::string(indent + 1, ' ') : ", ";
    s += items[i];
  }
  return s + "]";
}

}  // namespace

std::vector<std::string> format_elements(const std::vector<double>& shown,
                                         const std::vector<double>& values, bool integer) {
  const Formatter formatter(shown, integer);
  std::vector<std::string> texts;
  texts.reserve(values.size());
  for (double v : values) texts.push_back(formatter.text(v));
  return texts;
}

std::string scientific_text(double value) { return printed("%.*e", kPrecision, value); }

std::string count_text(Index n) {
  std::string digits = std::to_string(n < 0 ? -n : n);
  for (auto i = static_cast<std::ptrdiff_t>(digits.size()) - 3; i > 0; i -= 3)
    digits.insert(i, ",");
  return (n < 0 ? "-" : "") + digits;
}

std::string python_float_text(double value) {
  if (!std::isfinite(value)) return nonfinite(value);
  // The shortest %.*e that reads back exactly gives Python's digits and decimal exponent.
  char text[40];
  for (int decimals = 0; decimals <= 16; ++decimals) {
    std::snprintf(text, sizeof text, "%.*e", decimals, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  const std::string sci = text;
  const auto e = sci.find('e');
  const int exponent = std::stoi(sci.substr(e + 1));
  std::string digits;  // the significant digits, no sign or point
  for (std::size_t i = 0; i < e; ++i)
    if (std::isdigit(static_cast<unsigned char>(sci[i]))) digits += sci[i];
  const std::string sign = value < 0 || std::signbit(value) ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    std::string mantissa = digits.substr(0, 1);
    if (digits.size() > 1) mantissa += "." + digits.substr(1);
    const std::string power = std::to_string(exponent < 0 ? -exponent : exponent);
    return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + (power.size() < 2 ? "0" : "") +
           power;
  }
  if (exponent < 0) return sign + "0." + std::string(-exponent - 1, '0') + digits;
  const auto whole = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= whole) return sign + digits + std::string(whole - digits.size(), '0') + ".0";
  return sign + digits.substr(0, whole) + "." + digits.substr(whole);
}

std::string format_tensor(const Matrix& m, const TensorStyle& style) {
  return format_tensor(
      m.rows(), m.cols(), [&](Index i, Index j) { return m(i, j); }, style);
}

std::vector<Index> printed_indices(Index size, Index rows, Index cols) {
  std::vector<Index> indices = shown(size, rows * cols > kThreshold);
  indices.erase(std::remove(indices.begin(), indices.end(), -1), indices.end());
  return indices;
}

std::string format_tensor(const Table& table, const TensorStyle& style, bool transposed) {
  const std::vector<Index> rows = printed_indices(table.rows(), table.rows(), table.cols());
  Matrix values(static_cast<Index>(rows.size()), table.cols());
  for (std::size_t k = 0; k < rows.size(); ++k)
    table.read_rows(rows[k], 1, values.row(static_cast<Index>(k)).data());
  const auto value = [&](Index i, Index j) {
    return values(std::lower_bound(rows.begin(), rows.end(), i) - rows.begin(), j);
  };
  if (transposed)
    return format_tensor(
        table.cols(), table.rows(), [&](Index i, Index j) { return value(j, i); }, style);
  return format_tensor(table.rows(), table.cols(), value, style);
}

namespace {

// The body of a (n_rows, n_cols) slice at PyTorch's `indent`: rows joined on new lines.
std::string matrix_body(const At& at, const std::vector<Index>& rows,
                        const std::vector<Index>& cols, const Formatter& fmt, int indent) {
  std::string body = "[";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) body += ",\n" + std::string(indent + 1, ' ');
    body += rows[i] < 0 ? "..." : row_string(at, rows[i], cols, fmt, indent + 1);
  }
  return body + "]";
}

// _add_suffixes: a suffix goes on its own line when it would pass the line width.
std::string with_suffixes(const std::string& body, const TensorStyle& style) {
  const std::string prefix = "tensor(";
  const int indent = static_cast<int>(prefix.size());
  std::string out = prefix + body;
  const auto newline = out.rfind('\n');
  std::size_t last_line =
      (newline == std::string::npos ? out.size() : out.size() - newline - 1) + 2;
  for (const auto& suffix : style.suffixes) {
    if (last_line + suffix.size() + 2 > static_cast<std::size_t>(kLineWidth)) {
      out += ",\n" + std::string(indent, ' ') + suffix;
      last_line = indent + suffix.size();
    } else {
      out += ", " + suffix;
      last_line += suffix.size() + 2;
    }
  }
  return style.header + out + ")";
}

}  // namespace

std::string format_tensor(Index n_rows, Index n_cols, const At& at, const TensorStyle& style) {
  const int indent = 7;  // "tensor("
  const bool summarize = n_rows * n_cols > kThreshold;
  const auto rows = shown(n_rows, summarize);
  const auto cols = shown(n_cols, summarize);

  std::vector<double> values;
  for (Index r : rows) {
    for (Index c : cols) {
      if (r >= 0 && c >= 0) values.push_back(at(r, c));
    }
  }
  const Formatter fmt(values, style.integer);
  return with_suffixes(matrix_body(at, rows, cols, fmt, indent), style);
}

std::string format_tensor(Index n_slices, Index n_rows, Index n_cols, const At3& at,
                          const TensorStyle& style) {
  const int indent = 7;  // "tensor("
  const bool summarize = n_slices * n_rows * n_cols > kThreshold;
  const auto slices = shown(n_slices, summarize);
  const auto rows = shown(n_rows, summarize);
  const auto cols = shown(n_cols, summarize);

  std::vector<double> values;
  for (Index s : slices) {
    for (Index r : rows) {
      for (Index c : cols) {
        if (s >= 0 && r >= 0 && c >= 0) values.push_back(at(s, r, c));
      }
    }
  }
  const Formatter fmt(values, style.integer);
  // Slices are joined by a blank line, each a matrix one column further in.
  std::string body = "[";
  for (std::size_t i = 0; i < slices.size(); ++i) {
    if (i > 0) body += ",\n\n" + std::string(indent + 1, ' ');
    if (slices[i] < 0) {
      body += "...";
      continue;
    }
    const Index s = slices[i];
    body += matrix_body([&](Index r, Index c) { return at(s, r, c); }, rows, cols, fmt, indent + 1);
  }
  return with_suffixes(body + "]", style);
}

std::string torch_size_text(const std::vector<Index>& shape) {
  std::string text = "torch.Size([";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "])";
}

}  // namespace embedlab
