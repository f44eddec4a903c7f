// libFuzzer: any text given as a config either loads or is refused with an
// InputError; anything else (a crash, another exception) is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "plan/run_config.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    dicesim::load_run_config(dicesim::parse_json_text(text, "fuzz.json"), "fuzz.json");
  } catch (const dicesim::InputError&) {
  }
  return 0;
}
