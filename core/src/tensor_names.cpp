#include "tensor_names.hpp"

#include <algorithm>
#include <utility>

#include "quoted.hpp"

namespace embedlab {
namespace {

constexpr std::string_view kTableSuffixes[] = {
    "wte.weight",    "embed_tokens.weight", "tok_embeddings.weight", "word_embeddings.weight",
    "shared.weight", "embeddings.weight"};

constexpr std::string_view kPositionSuffixes[] = {"wpe.weight", "embed_positions.weight",
                                                  "position_embeddings.weight"};
constexpr std::string_view kOutputSuffixes[] = {"lm_head.weight", "output.weight"};

// `tail` is all of `name`, or its end after a '.'.
bool has_dotted_suffix(std::string_view name, std::string_view tail) {
  if (name.size() < tail.size() || name.substr(name.size() - tail.size()) != tail) return false;
  return name.size() == tail.size() || name[name.size() - tail.size() - 1] == '.';
}

// The Levenshtein distance of a and b when it is at most `most`, else most + 1. Only the cells
// within `most` of the diagonal are computed: O(a.size() * most).
std::size_t edit_distance_within(std::string_view a, std::string_view b, std::size_t most) {
  const std::size_t over = most + 1;
  if (std::max(a.size(), b.size()) - std::min(a.size(), b.size()) > most) return over;
  std::vector<std::size_t> row(b.size() + 1, over);  // row i - 1, then row i, of the table
  for (std::size_t j = 0; j <= std::min(b.size(), most); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    const std::size_t lo = i > most ? i - most : 1, hi = std::min(b.size(), i + most);
    std::size_t diagonal = row[lo - 1];
    row[lo - 1] = lo == 1 && i <= most ? i : over;
    for (std::size_t j = lo; j <= hi; ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({above + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1]), over});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string name_text(std::string_view name) { return quoted(name, '\'', 80); }

bool named_like_embedding_table(std::string_view name) {
  return std::any_of(std::begin(kTableSuffixes), std::end(kTableSuffixes),
                     [&](std::string_view suffix) { return has_dotted_suffix(name, suffix); });
}

bool named_like_position_table(std::string_view name) {
  return std::any_of(std::begin(kPositionSuffixes), std::end(kPositionSuffixes),
                     [&](std::string_view suffix) { return has_dotted_suffix(name, suffix); });
}

bool named_like_output_layer(std::string_view name) {
  return std::any_of(std::begin(kOutputSuffixes), std::end(kOutputSuffixes),
                     [&](std::string_view suffix) { return has_dotted_suffix(name, suffix); });
}

std::vector<std::size_t> close_names(const std::vector<std::string_view>& names,
                                     std::string_view wanted) {
  constexpr std::size_t kLongest = 128;  // a longer name is matched by its suffix only
  const std::size_t most = std::max<std::size_t>(2, wanted.size() / 4);
  std::vector<std::pair<std::size_t, std::size_t>> scored;  // (distance, position)
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::size_t score = most + 1;
    if (has_dotted_suffix(names[i], wanted) || has_dotted_suffix(wanted, names[i]))
      score = 0;
    else if (wanted.size() <= kLongest)
      score = edit_distance_within(names[i], wanted, most);
    if (score <= most) scored.emplace_back(score, i);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::size_t> found;
  for (const auto& s : scored) found.push_back(s.second);
  return found;
}

namespace {

template <typename Json>
std::string shown_json(const Json& value) {
  if (value.is_null()) return "null";
  const std::string text = value.dump(-1, ' ', true, Json::error_handler_t::replace);
  return "the " + std::string(value.type_name()) + " " +
         (text.size() > 60 ? text.substr(0, 60) + "..." : text);
}

}  // namespace

std::string json_text(const nlohmann::json& value) { return shown_json(value); }
std::string json_text(const nlohmann::ordered_json& value) { return shown_json(value); }

std::string json_error_text(const nlohmann::json::exception& e) {
  std::string_view text = e.what();
  const std::size_t tag_end = text.find("] ");
  if (text.substr(0, 16) == "[json.exception." && tag_end != std::string_view::npos)
    text.remove_prefix(tag_end + 2);
  const std::string shown = quoted(text, '"', 240, true);
  return shown.substr(1, shown.size() - 2);
}

}  // namespace embedlab
