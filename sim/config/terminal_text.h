// Text from data (configs, results files, file names, option values) made
// safe for a terminal: whatever a forged name holds, what dicesim prints
// never sets the terminal's title or colours, moves its cursor or forges a
// line of output.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace dicesim {

// `text` with every byte a terminal would act on escaped: C0 controls (\n,
// \r, \t as such, the others as \xNN, ESC as \x1b), DEL, the C1 controls
// U+0080 to U+009F (each byte as \xNN) and every byte that is not part of
// valid UTF-8 (\xNN). Valid printable UTF-8 ("±", accented names) is kept.
// A backslash is kept too, so that escaping twice changes nothing: the error
// printer escapes whole messages whose quoted parts are already escaped.
std::string terminal_text(std::string_view text);

// JSON text (nlohmann's dump, which escapes C0 but not DEL or C1) with DEL
// and each C1 control written \u007f, \u0080 to \u009f: the same strings,
// safe to print. (Outside strings, JSON text is ASCII without controls.)
std::string json_terminal_text(std::string_view json_text);

// Quoted data in messages is bounded: a 4 MB key makes a short line.
constexpr std::size_t kMostQuotedBytes = 80;

// terminal_text of at most `most` bytes of `text`, cut at a character
// boundary and followed by "..." when cut.
std::string excerpt(std::string_view text, std::size_t most = kMostQuotedBytes);

// excerpt(text) in double quotes: how a message quotes a name or value it
// was given ("unknown key \"...\"").
std::string quoted_text(std::string_view text);

}  // namespace dicesim
