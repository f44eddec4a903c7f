#include "strategies/library.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "config/suggest.h"
#include "config/terminal_text.h"

namespace dicesim {

std::string strategy_library_folder() {
  if (const char* set = std::getenv("DICESIM_STRATEGIES"); set && *set) return set;
  std::error_code error;
  const std::filesystem::path program = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::filesystem::path above = program.parent_path().parent_path();
  for (const std::filesystem::path& candidate : {above / "strategies", above / "share" / "dicesim" / "strategies"})
    if (std::filesystem::is_directory(candidate, error)) return candidate.string();
  return (above / "share" / "dicesim" / "strategies").string();
}

std::string strategy_library_file(std::string_view game) {
  return (std::filesystem::path(strategy_library_folder()) / (std::string(game) + ".json")).string();
}

namespace {

constexpr std::string_view kKnownKeys[] = {"description", "source"};

// A library file: {"game": ..., "description": ..., "strategies": {NAME: {"description", "source", "family", ...}}}.
std::vector<LibraryStrategy> read_library(const std::string& file, std::string_view game) {
  const json document = parse_json_file(file);
  const JsonNode root(document, file);
  root.only_keys({"game", "description", "strategies"});
  if (root.at("game").string() != game) root.at("game").fail("expected " + quoted_text(std::string(game)));
  root.at("description").string();
  const JsonNode entries = root.at("strategies");
  if (!entries.value().is_object()) entries.fail("expected an object of named strategies");
  std::vector<LibraryStrategy> out;
  for (const auto& [name, value] : entries.value().items()) {
    const JsonNode entry = entries.at(name);
    if (!value.is_object()) entry.fail("expected an object with a description, a source and a family");
    if (value.contains("name") || value.contains("set"))
      entry.fail("a library strategy takes its name from its key and has no set (a config gives both)");
    LibraryStrategy strategy{name, entry.at("description").string(), entry.at("source").string(), value};
    entry.at("family").string();
    for (std::string_view key : kKnownKeys) strategy.definition.erase(std::string(key));
    out.push_back(std::move(strategy));
  }
  return out;
}

bool plain_name(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  return true;
}

}  // namespace

std::vector<LibraryStrategy> library_strategies(std::string_view game) {
  const std::string file = strategy_library_file(game);
  std::error_code error;
  if (!std::filesystem::exists(file, error)) return {};
  return read_library(file, game);
}

void resolve_library_strategies(const JsonNode& node, json& strategies, std::string_view game) {
  if (!strategies.is_array()) return;                   // the game's reader says what is wrong
  std::optional<std::vector<LibraryStrategy>> library;  // read at the first reference
  const std::vector<JsonNode> entries = node.elements();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const JsonNode& entry = entries[i];
    if (!entry.value().is_object() || !entry.has("library")) continue;
    independently([&] {
      entry.only_keys({"library", "name", "set"});
      const JsonNode reference = entry.at("library");
      const std::string name = reference.string();
      if (!plain_name(name)) reference.fail("a library strategy's name is 1 to 64 of a-z, 0-9 and _");
      const std::string file = strategy_library_file(game);
      std::error_code error;
      if (!std::filesystem::is_regular_file(file, error))
        reference.fail("no strategy library for " + std::string(game) + " (" + terminal_text(file) +
                       "; DICESIM_STRATEGIES names another folder)");
      if (!library) library = read_library(file, game);
      std::vector<std::string_view> names;
      for (const LibraryStrategy& s : *library) {
        if (s.name != name) {
          names.push_back(s.name);
          continue;
        }
        json resolved = s.definition;
        resolved["name"] = entry.has("name") ? entry.value().at("name") : json(name);
        if (entry.has("set")) resolved["set"] = entry.value().at("set");
        strategies[i] = std::move(resolved);
        return;
      }
      reference.fail("no library strategy " + quoted_text(name) + " for " + std::string(game) + " in " +
                     terminal_text(file) + did_you_mean(name, names));
    });
  }
}

}  // namespace dicesim
