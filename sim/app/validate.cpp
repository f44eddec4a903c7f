#include "app/validate.h"

#include <ostream>

#include "app/exit_codes.h"
#include "config/terminal_text.h"
#include "engine/memory_budget.h"
#include "plan/run_config.h"
#include "results/text_columns.h"

namespace dicesim {
namespace {

// Every error of one config, in the order they are met.
std::vector<std::string> config_errors(const std::string& file, RunConfig& config) {
  ErrorCollector collector;
  try {
    config = load_run_config(file);
  } catch (const InputError& e) {  // a part the rest depends on (the JSON, the game, its rules)
    collector.add(e.what());
  } catch (const MemoryRefused& e) {  // a plan past the limit: the rest is not costed
    collector.add(e.what());
  }
  return collector.messages();
}

// 31000000 -> "31,000,000"
std::string group_thousands(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string count_of(std::uint64_t n, const std::string& one, const std::string& many) {
  return group_thousands(n) + " " + (n == 1 ? one : many);
}

}  // namespace

void print_plan(const RunConfig& config, std::ostream& out) {
  const std::vector<Strategy>& strategies = config.game->strategies();
  TextColumns strategy_rows;
  strategy_rows.add_row({"strategy", "family", "parameters"});
  for (const Strategy& s : strategies) {
    json parameters = s.spec;
    parameters.erase("name");
    parameters.erase("family");
    strategy_rows.add_row({s.name, s.spec.value("family", std::string()), parameters.empty() ? "" : parameters.dump()});
  }
  out << count_of(strategies.size(), "strategy", "strategies") << ":\n";
  strategy_rows.print(out);

  const std::string games = (config.precision ? "at most " : "") + group_thousands(config.games);
  TextColumns table_rows;
  table_rows.add_row({"table", "games (per table)"});
  for (const PlannedTable& table : config.plan.tables) table_rows.add_row({table.key, games});
  out << "\n" << count_of(config.plan.tables.size(), "table", "tables") << ":\n";
  table_rows.print(out);
  out << "\n"
      << (config.precision ? "at most " : "") << group_thousands(config.plan.tables.size() * config.games)
      << " games in all (" << group_thousands(config.games) << " a table x "
      << count_of(config.plan.tables.size(), "table", "tables") << "); nothing played (--dry-run)\n"
      << "memory: " << memory_estimate_text() << "\n";
}

std::string memory_estimate_text() {
  const MemoryBudget& budget = memory_budget();
  const auto [what, bytes] = budget.largest();
  std::string text = "about " + memory_text(budget.estimate()) + " at most (limit " + memory_text(budget.limit()) +
                     ", --memory-limit)";
  if (bytes > 0) text += "; the most for " + terminal_text(what) + ": " + memory_text(bytes);
  return text;
}

int validate_command(const std::vector<std::string>& configs, std::ostream& out, std::ostream& err) {
  int failed = 0;
  for (const std::string& file : configs) {
    memory_budget().restart();  // each config costed on its own, from the process as the command started
    RunConfig config;
    const std::vector<std::string> errors = config_errors(file, config);
    for (const std::string& message : errors) err << terminal_text(message) << "\n";  // each one line
    if (!errors.empty()) {
      ++failed;
      continue;
    }
    const std::uint64_t tables = config.plan.tables.size();
    out << terminal_text(file) << ": valid: " << config.entry->name << ", "
        << count_of(config.game->strategies().size(), "strategy", "strategies") << ", "
        << count_of(tables, "table", "tables") << ", " << (config.precision ? "at most " : "")
        << group_thousands(tables * config.games) << " games; memory " << memory_estimate_text() << "\n";
  }
  if (configs.size() > 1 && failed > 0) err << failed << " of " << configs.size() << " configs have errors\n";
  return failed > 0 ? kExitBadInput : kExitOk;
}

}  // namespace dicesim
