#pragma once
// What the .safetensors header reader and the sharded index reader share: how a message shows a
// tensor's name and a JSON value, which names mark an embedding table, and which names are close
// to one that was asked for.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

// 'model.embed_tokens.weight', quoted and cut short.
std::string name_text(std::string_view name);

// A 2-D tensor so named is taken for the token embedding table: wte.weight, embed_tokens.weight,
// tok_embeddings.weight, word_embeddings.weight, shared.weight or embeddings.weight, alone or
// after a '.' (GPT-2, Llama, Mistral, Qwen, Gemma, BERT, T5, ...).
bool named_like_embedding_table(std::string_view name);
// A tensor so named is taken for the position embedding table: wpe.weight (GPT-2),
// embed_positions.weight (OPT), position_embeddings.weight (BERT), alone or after a '.'.
bool named_like_position_table(std::string_view name);
// A tensor so named is a model's own output layer (an untied head): lm_head.weight (Hugging
// Face) or output.weight (Meta's and llama.cpp's), alone or after a '.'.
bool named_like_output_layer(std::string_view name);
// Those names, as a message lists them.
inline constexpr const char* kTableNamesText =
    "wte.weight, embed_tokens.weight, tok_embeddings.weight, word_embeddings.weight, "
    "shared.weight or embeddings.weight, perhaps after a prefix such as \"model.\"";

// The positions in `names` of those close to `wanted`: one a dotted suffix of the other
// ("wte.weight" for "transformer.wte.weight"), or a few typed characters apart. Closest first.
std::vector<std::size_t> close_names(const std::vector<std::string_view>& names,
                                     std::string_view wanted);

// A JSON value as a message shows it: "the string \"F32\"", "the array [2,-1]", cut short.
std::string json_text(const nlohmann::json& value);
std::string json_text(const nlohmann::ordered_json& value);
// nlohmann's error text without its "[json.exception.parse_error.101] " tag, cut short, with the
// bytes it quotes that are not ASCII escaped (they need not be UTF-8).
std::string json_error_text(const nlohmann::json::exception& e);

}  // namespace embedlab
