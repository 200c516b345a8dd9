#pragma once
// A Hugging Face tokenizer.json's vocabulary, as the tokens a model's rows stand for: what the
// tied head's largest logits are spelled with when the file lies beside a checkpoint.
//
// The tokens are spelled as the vocabulary stores them: byte-level BPE (GPT-2, Llama 3, Qwen 3)
// writes each byte as one printable character ("Ġthe" for " the"), SentencePiece-style
// vocabularies write a space as "▁". model.vocab is an object { token: id } (BPE, WordPiece) or
// an array of [token, score] pairs (Unigram, id = index); added_tokens [{ id, content }] add to or
// override it.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace embedlab {

// A tokenizer.json of 64 MiB or more is not read (Gemma 3's, the largest listed, is 33 MB).
inline constexpr std::size_t kMaxTokenizerBytes = std::size_t{64} << 20;

// Each id's token, "" for an id the file leaves out. An InputError (of weights) when the text is
// over kMaxTokenizerBytes, not JSON, has no model.vocab, or names an id outside [0, 2^22).
std::vector<std::string> tokenizer_json_tokens(std::string_view json_text);

}  // namespace embedlab
