#include "embedlab/tokenizer_json.hpp"

#include <nlohmann/json.hpp>

#include "embedlab/error.hpp"
#include "embedlab/limits.hpp"
#include "tensor_names.hpp"

namespace embedlab {
namespace {

// An id of the vocabulary: a whole number below the largest V a table may have.
std::size_t token_id(const nlohmann::json& id, const nlohmann::json& token) {
  if (!id.is_number_integer() || id.get<long long>() < 0 ||
      id.get<long long>() >= default_limits.max_vocab)
    throw InputError(Argument::weights, "tokenizer.json gives " + json_text(token) + " the id " +
                                            id.dump() + ", not a whole number from 0 to " +
                                            std::to_string(default_limits.max_vocab - 1));
  return static_cast<std::size_t>(id.get<long long>());
}

void put(std::vector<std::string>& tokens, std::size_t id, std::string token) {
  if (id >= tokens.size()) tokens.resize(id + 1);
  tokens[id] = std::move(token);
}

}  // namespace

std::vector<std::string> tokenizer_json_tokens(std::string_view json_text_in) {
  if (json_text_in.size() >= kMaxTokenizerBytes)
    throw InputError(Argument::weights, "tokenizer.json is 64 MiB or more: not a tokenizer's");
  nlohmann::json file;
  try {
    file = nlohmann::json::parse(json_text_in.begin(), json_text_in.end());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(Argument::weights, "tokenizer.json is not JSON: " + json_error_text(e));
  }
  const nlohmann::json* vocab = nullptr;
  if (file.is_object() && file.contains("model") && file["model"].is_object() &&
      file["model"].contains("vocab"))
    vocab = &file["model"]["vocab"];
  if (vocab == nullptr || !(vocab->is_object() || vocab->is_array()))
    throw InputError(Argument::weights,
                     "tokenizer.json has no model.vocab, the tokens of a BPE, WordPiece or "
                     "Unigram model");
  std::vector<std::string> tokens;
  if (vocab->is_object()) {
    for (const auto& [token, id] : vocab->items())
      put(tokens, token_id(id, nlohmann::json(token)), token);
  } else {
    for (std::size_t id = 0; id < vocab->size(); ++id) {
      const nlohmann::json& pair = (*vocab)[id];
      if (!pair.is_array() || pair.empty() || !pair[0].is_string())
        throw InputError(Argument::weights, "tokenizer.json's model.vocab[" + std::to_string(id) +
                                                "] is " + json_text(pair) +
                                                ", not a [token, score] pair");
      put(tokens, token_id(nlohmann::json(id), pair[0]), pair[0].get<std::string>());
    }
  }
  if (file.contains("added_tokens") && file["added_tokens"].is_array()) {
    for (const nlohmann::json& added : file["added_tokens"]) {
      if (added.is_object() && added.contains("id") && added.contains("content") &&
          added["content"].is_string())
        put(tokens, token_id(added["id"], added["content"]), added["content"].get<std::string>());
    }
  }
  return tokens;
}

}  // namespace embedlab
