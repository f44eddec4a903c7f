// The config format is declared once, in C++ (config/parameters.h): the
// readers use the declarations, `dicesim schema` prints configs/schema.json
// from them, and these tests hold the shipped schema, the shipped configs and
// the docs' tables (configs/README.md, each game's README) to them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "games/registry.h"
#include "plan/run_config.h"
#include "test_util.h"

namespace dicesim {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::filesystem::path> shipped_configs() {
  std::vector<std::filesystem::path> configs;
  for (const auto& entry : std::filesystem::directory_iterator(testing::source_path("configs")))
    if (entry.path().extension() == ".json" && entry.path().filename() != "schema.json")
      configs.push_back(entry.path());
  std::sort(configs.begin(), configs.end());
  return configs;
}

TEST(ConfigFormat, TheShippedSchemaIsWhatDicesimSchemaPrints) {
  const auto printed = testing::dicesim("schema");
  ASSERT_EQ(printed.exit_code, 0) << printed.out;
  EXPECT_TRUE(printed.out == read_text(testing::source_path("configs/schema.json")))
      << "configs/schema.json differs from `dicesim schema`: run build/dicesim schema > configs/schema.json";
}

TEST(ConfigFormat, TheSchemaHasABranchAndDefaultsForEveryGame) {
  const json schema = json::parse(testing::dicesim("schema").out);
  ASSERT_EQ(schema["allOf"].size(), games().size());
  for (std::size_t g = 0; g < games().size(); ++g) {
    const json& then = schema["allOf"][g]["then"]["properties"];
    EXPECT_EQ(schema["allOf"][g]["if"]["properties"]["game"]["const"], games()[g].name);
    for (const Parameter& rule : games()[g].rules_parameters()) {
      if (rule.default_value) {
        EXPECT_EQ(then["rules"]["properties"][rule.name]["default"], *rule.default_value);
      }
    }
    // An entry is a library strategy or one of the game's families.
    const json& entry = then["strategies"]["items"]["anyOf"];
    EXPECT_EQ(entry[0]["required"], json::array({"library"}));
    EXPECT_EQ(entry[1]["allOf"].size(), games()[g].families().size());
  }
  EXPECT_EQ(schema["properties"]["seed"]["default"], 1);
  EXPECT_EQ(schema["properties"]["contests"]["properties"]["distributions"]["default"], true);
}

// What a game's measures are called does not depend on its rules: the
// declared names (the schema's precision keys) are the loaded game's.
TEST(ConfigFormat, EachGamesDeclaredMeasuresAreItsMeasures) {
  std::set<std::string> loaded;
  for (const auto& path : shipped_configs()) {
    const std::string game = json::parse(read_text(path.string())).at("game");
    if (!loaded.insert(game).second) continue;
    const RunConfig config = load_run_config(path.string());
    std::vector<std::string_view> names;
    for (const Measure& m : config.game->measures()) names.push_back(m.name);
    EXPECT_EQ(names, config.entry->measures) << path;
  }
  EXPECT_EQ(loaded.size(), games().size());
}

TEST(ConfigFormat, EveryShippedConfigPointsAtTheSchemaFirst) {
  const std::regex first_key(R"(^\{\s*"\$schema": "\./schema\.json",)");
  for (const auto& path : shipped_configs())
    EXPECT_TRUE(std::regex_search(read_text(path.string()), first_key)) << path;
}

// A README's tables, as (first column's keys) -> the other cells.
struct MarkdownTable {
  std::vector<std::string> header;
  std::map<std::string, std::vector<std::string>> rows;  // each key of a row's first cell, e.g. `high_from`
};

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream row(line.substr(1));
  std::string cell;
  while (std::getline(row, cell, '|')) out.push_back(std::regex_replace(cell, std::regex(R"(^\s+|\s+$)"), ""));
  return out;
}

// The first table after `heading` within `section`.
MarkdownTable table_after(const std::string& section, const std::string& heading) {
  MarkdownTable table;
  const std::size_t at = section.find(heading);
  if (at == std::string::npos) return table;
  std::istringstream lines(section.substr(at));
  std::string line;
  while (std::getline(lines, line) && line.rfind('|', 0) != 0) {
  }
  table.header = cells(line);
  std::getline(lines, line);  // | --- |
  const std::regex key("`([^`]+)`");
  while (std::getline(lines, line) && line.rfind('|', 0) == 0) {
    const std::vector<std::string> row = cells(line);
    for (std::sregex_iterator k(row[0].begin(), row[0].end(), key), end; k != end; ++k) table.rows[(*k)[1]] = row;
  }
  return table;
}

std::string without_backticks(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), '`'), text.end());
  return text;
}

// Each game's README (sim/games/<game>/README.md) lists its rules and
// families in its config section as declared: the same keys, the declared
// defaults, each parameter by name.
TEST(ConfigFormat, TheReadmeTablesMatchTheDeclarations) {
  for (const GameEntry& game : games()) {
    const std::string file = "sim/games/" + std::string(game.name) + "/README.md";
    const std::string readme = read_text(testing::source_path(file));
    const std::size_t begin = readme.find("(`\"game\": \"" + std::string(game.name) + "\"`)");
    ASSERT_NE(begin, std::string::npos) << game.name << " has no config section in " << file;
    const std::string section = readme.substr(begin, readme.find("\n## ", begin) - begin);

    const MarkdownTable rules = table_after(section, "### `rules`");
    std::set<std::string> declared, documented;
    for (const Parameter& p : game.rules_parameters()) declared.insert(p.name);
    for (const auto& [key, row] : rules.rows) documented.insert(key);
    EXPECT_EQ(documented, declared) << game.name << "'s rules table";
    if (rules.header.size() > 1 && rules.header[1] == "default")
      for (const Parameter& p : game.rules_parameters()) {
        if (rules.rows.count(p.name)) {
          EXPECT_EQ(without_backticks(rules.rows.at(p.name)[1]), default_text(p)) << game.name << " " << p.name;
        }
      }

    const MarkdownTable families = table_after(section, "### Strategy families");
    std::set<std::string> family_names, family_rows;
    for (const StrategyFamily& f : game.families()) {
      family_names.insert(std::string(f.name));
      if (!families.rows.count(std::string(f.name))) continue;
      const std::string& parameters = families.rows.at(std::string(f.name))[1];
      if (f.parameters.empty()) {
        EXPECT_EQ(parameters.rfind("none", 0), 0u) << game.name << " " << f.name;
      }
      for (const Parameter& p : f.parameters)
        EXPECT_NE(parameters.find("`" + p.name + "`"), std::string::npos)
            << game.name << " " << f.name << " " << p.name;
    }
    for (const auto& [key, row] : families.rows) family_rows.insert(key);
    EXPECT_EQ(family_rows, family_names) << game.name << "'s families table";
  }
}

}  // namespace
}  // namespace dicesim
