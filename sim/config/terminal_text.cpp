#include "config/terminal_text.h"

#include <algorithm>

namespace dicesim {
namespace {

unsigned char byte_at(std::string_view text, std::size_t i) { return static_cast<unsigned char>(text[i]); }

// The length of the valid UTF-8 sequence at the start of `text`, or 0: no
// overlong forms, no surrogates, nothing past U+10FFFF (RFC 3629).
std::size_t utf8_length(std::string_view text) {
  const unsigned char lead = byte_at(text, 0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the allowed range of the second byte
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;   // overlong
    if (lead == 0xed) high = 0x9f;  // surrogates
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;   // overlong
    if (lead == 0xf4) high = 0x8f;  // past U+10FFFF
  } else {
    return 0;  // a continuation byte, C0, C1 or F5..FF as a lead
  }
  if (text.size() < length || byte_at(text, 1) < low || byte_at(text, 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if ((byte_at(text, i) & 0xc0) != 0x80) return 0;
  return length;
}

// prefix and the byte's two hex digits: \x1b, \u009b.
void append_hex(std::string& out, const char* prefix, unsigned char byte) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += prefix;
  out += kHex[byte >> 4];
  out += kHex[byte & 0xf];
}

void append_escaped(std::string& out, unsigned char byte) {
  switch (byte) {
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      append_hex(out, "\\x", byte);
  }
}

// C0, DEL, and C1 (U+0080 to U+009F: 0xC2 0x80 to 0xC2 0x9F).
bool is_control(std::string_view character) {
  const unsigned char lead = byte_at(character, 0);
  return lead < 0x20 || lead == 0x7f || (lead == 0xc2 && byte_at(character, 1) <= 0x9f);
}

}  // namespace

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t valid = utf8_length(text.substr(i));
    const std::string_view character = text.substr(i, std::max<std::size_t>(valid, 1));
    if (valid == 0 || is_control(character))
      for (char byte : character) append_escaped(out, static_cast<unsigned char>(byte));
    else
      out += character;
    i += character.size();
  }
  return out;
}

std::string json_terminal_text(std::string_view json_text) {
  std::string out;
  out.reserve(json_text.size());
  for (std::size_t i = 0; i < json_text.size(); ++i) {
    const bool c1 = byte_at(json_text, i) == 0xc2 && i + 1 < json_text.size() && byte_at(json_text, i + 1) >= 0x80 &&
                    byte_at(json_text, i + 1) <= 0x9f;
    if (!c1 && byte_at(json_text, i) != 0x7f) {
      out += json_text[i];
      continue;
    }
    append_hex(out, "\\u00", byte_at(json_text, c1 ? ++i : i));
  }
  return out;
}

std::string excerpt(std::string_view text, std::size_t most) {
  if (text.size() <= most) return terminal_text(text);
  std::size_t cut = most;
  while (cut > 0 && (byte_at(text, cut) & 0xc0) == 0x80) --cut;  // not inside a character
  return terminal_text(text.substr(0, cut)) + "...";
}

std::string quoted_text(std::string_view text) {
  std::string out(1, '"');  // appended piecewise: GCC 12 misreports "\"" + string under -Wrestrict
  out += excerpt(text);
  out += '"';
  return out;
}

}  // namespace dicesim
