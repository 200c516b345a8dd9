// libFuzzer target: the tokenizer.json vocabulary reader on any bytes returns the tokens by id or
// throws InputError about the weights with a message; it never crashes. What it returns agrees
// with the limits: no more ids than a table may have rows.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "embedlab/error.hpp"
#include "embedlab/limits.hpp"
#include "embedlab/tokenizer_json.hpp"
#include "fuzz_check.hpp"

using embedlab::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> tokens;
  try {
    tokens = embedlab::tokenizer_json_tokens(text);
  } catch (const embedlab::InputError& e) {
    require(e.what()[0] != '\0', "an InputError has a message");
    require(e.argument() == embedlab::Argument::weights, "a tokenizer's errors are about weights");
    return 0;
  }
  require(tokens.size() <= static_cast<std::size_t>(embedlab::default_limits.max_vocab),
          "no more ids than a table has rows");
  return 0;
}
