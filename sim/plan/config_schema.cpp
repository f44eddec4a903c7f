#include "plan/config_schema.h"

#include "games/registry.h"
#include "plan/run_config.h"
#include "strategies/family.h"
#include "strategies/sweep.h"

namespace dicesim {
namespace {

// `if game == X then ...`: the game's rules, precision targets and strategies.
ordered_json game_branch(const GameEntry& game) {
  ordered_json rules = object_schema(game.rules_parameters());
  rules["description"] = std::string(game.title) + "'s rules; a missing key takes its default";
  ordered_json targets = ordered_json::array({"rate"});
  for (std::string_view measure : game.measures) targets.push_back(measure);
  return {{"if", {{"properties", {{"game", {{"const", game.name}}}}}, {"required", {"game"}}}},
          {"then",
           {{"properties",
             {{"rules", rules},
              {"precision", {{"propertyNames", {{"enum", targets}}}}},
              {"strategies", strategies_schema(game.families())}}}}}};
}

}  // namespace

ordered_json config_schema() {
  ordered_json schema = {
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"$id", "https://github.com/dicesim/dicesim/configs/schema.json"},
      {"title", "dicesim run config"},
      {"description",
       "A dicesim run config (configs/README.md), printed by `dicesim schema`. The C++ checks (dicesim validate) "
       "remain the authority for rules that relate several fields."},
  };
  schema.update(object_schema(config_parameters()));
  ordered_json branches = ordered_json::array();
  for (const GameEntry& game : games()) branches.push_back(game_branch(game));
  schema["allOf"] = branches;
  schema["$defs"] = sweep_schema_definitions();
  return schema;
}

}  // namespace dicesim
