#pragma once
// Quoting a piece of user input inside an error message (used by the id and .npy parsers).
#include <cstdio>
#include <string>
#include <string_view>

namespace embedlab {

// `piece` between quotes, as one readable line: bytes below 0x20 and 0x7f are escaped as \xNN
// (and bytes from 0x80 on too for binary input, which need not be UTF-8); a piece longer than
// max_shown bytes is cut at a UTF-8 character boundary and ends in "...".
inline std::string quoted(std::string_view piece, char quote = '"', std::size_t max_shown = 24,
                          bool binary = false) {
  const bool cut = piece.size() > max_shown;
  if (cut) {
    std::size_t n = max_shown;
    while (n > 0 && (static_cast<unsigned char>(piece[n]) & 0xC0) == 0x80) --n;
    piece = piece.substr(0, n);
  }
  std::string out(1, quote);
  for (char c : piece) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f || (binary && byte >= 0x80)) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else {
      out += c;
    }
  }
  if (cut) out += "...";
  out += quote;
  return out;
}

}  // namespace embedlab
