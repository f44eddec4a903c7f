#include "games/sixers/sixers_strategies.h"

#include <algorithm>
#include <stdexcept>

namespace dicesim::sixers {
namespace {

using KeepRule = int (*)(const std::vector<int>& ascending_scores, int parameter);

// Each rule returns how many of the lowest dice to keep; the caller makes it
// at least one, as the game requires.
int keep_at_most_value(const std::vector<int>& scores, int threshold) {
  return static_cast<int>(std::upper_bound(scores.begin(), scores.end(), threshold) - scores.begin());
}

int keep_count(const std::vector<int>& scores, int count) { return std::min<int>(count, scores.size()); }

int keep_within_sum(const std::vector<int>& scores, int limit) {
  int kept = 0, sum = 0;
  while (kept < static_cast<int>(scores.size()) && sum + scores[kept] <= limit) sum += scores[kept++];
  return kept;
}

// The least value of per_roll is the declared one (families()); the rules
// bound the largest.
struct ThresholdFamily {
  std::string_view name;
  KeepRule rule;
  int (*max_parameter)(const Rules&);
};

const ThresholdFamily kThresholdFamilies[] = {
    {"dice_value_threshold", keep_at_most_value, [](const Rules&) { return 6; }},
    {"dice_number_kept", keep_count, [](const Rules& r) { return r.dice; }},
    {"turn_score_threshold", keep_within_sum, [](const Rules& r) { return r.max_score(); }},
};

Policy compile_threshold(const ThresholdFamily& family, const Parameter& per_roll_parameter, const JsonNode& spec,
                         const Hands& hands) {
  const Rules& rules = hands.rules();
  const int least = per_roll_parameter.min.get<int>();
  const JsonNode per_roll = spec.at("per_roll");
  const std::vector<JsonNode> values = per_roll.elements();
  if (static_cast<int>(values.size()) != rules.rolls - 1)
    per_roll.fail("expected " + std::to_string(rules.rolls - 1) + " values (one per roll but the last), got " +
                  std::to_string(values.size()));
  Policy policy(hands, 1);
  for (int roll = 0; roll + 1 < rules.rolls; ++roll) {
    const int parameter = static_cast<int>(values[roll].integer(least, family.max_parameter(rules)));
    for (int hand = 0; hand < hands.count(); ++hand) {
      const int keep = family.rule(hands.sorted_scores(hand), parameter);
      policy.set_keep(roll, 0, hand, std::max(keep, std::min(1, hands.dice_of(hand))));
    }
  }
  return policy;
}

}  // namespace

const std::vector<StrategyFamily>& families() {
  // A threshold family's per_roll: one value per roll but the last, each
  // within the family's range (the rules bound it further).
  const auto per_roll = [](int least, int most, const char* bounds) {
    return integer_array_parameter("per_roll", least, most, "one value per roll but the last: [x_1, ..., x_{R-1}]")
        .as_required()
        .bounded_by(std::string("[x_1, ..., x_{R-1}], each ") + bounds);
  };
  static const std::vector<StrategyFamily> all = {
      {"dice_value_threshold", {per_roll(0, kFaces, "0..6")}, "f^dv: keep every die whose score is at most s_i", "dv"},
      {"dice_number_kept", {per_roll(1, kMaxDice, "1..dice")}, "f^dn: keep the n_i lowest-scoring dice", "dn"},
      {"turn_score_threshold",
       {per_roll(0, kFaces * kMaxDice, "0..max score (6*dice; 5*dice if zero_face is 6)")},
       "f^ts: keep the lowest dice while their sum stays at most t_i",
       "ts"},
      {"optimal_mean", {}, "exact policy minimising the expected total", "best"},
      {"target_aware",
       {},
       "exact policy maximising P(total < score to beat); plays optimal_mean when there is none",
       "ta"},
      {"optimal_win",
       {},
       "exact policy maximising P(win alone) from its seat, against win-optimal seats after it; blind, it plays as "
       "the first seat of its table",
       "win"},
  };
  return all;
}

const MeanOptimum& Solutions::mean() {
  if (!mean_) mean_ = solve_mean_optimum(hands_);
  return *mean_;
}

const Policy& Solutions::target_aware() {
  if (!target_aware_) target_aware_ = solve_target_aware(hands_, mean());
  return *target_aware_;
}

const WinSeat& Solutions::optimal_win(int seats_after) {
  const std::lock_guard lock(win_mutex_);
  const int top = hands_.rules().max_score();
  while (static_cast<int>(win_seats_.size()) <= seats_after) {
    std::vector<double> later_above(top + 1, 1.0);
    for (const WinSeat& seat : win_seats_)
      for (int t = 0; t <= top; ++t) later_above[t] *= seat.above[t];
    win_seats_.push_back(solve_win_seat(hands_, mean(), later_above));
    win_seats_.back().sampler = PolicySampler(hands_, win_seats_.back().policy);
  }
  return win_seats_[seats_after];
}

bool plays_by_seat(const json& spec) { return spec.at("family") == "optimal_win"; }

Policy compile_strategy(const JsonNode& spec, const Hands& hands, Solutions& solutions) {
  const JsonNode family_node = spec.at("family");
  const StrategyFamily& family = known_family(family_node, "sixers", families());
  spec.only_keys(family.keys());
  for (const ThresholdFamily& f : kThresholdFamilies)
    if (f.name == family.name) return compile_threshold(f, named(family.parameters, "per_roll"), spec, hands);
  if (family.name == "optimal_mean") return solutions.mean().policy;
  if (family.name == "target_aware") return solutions.target_aware();
  if (family.name == "optimal_win") {
    if (win_seat_states(hands) > kMaxWinStates)
      family_node.fail("optimal_win solves at most " + std::to_string(kMaxWinStates) +
                       " decision states; these rules have " + std::to_string(win_seat_states(hands)));
    return solutions.optimal_win(0).policy;
  }
  throw std::logic_error("sixers family " + std::string(family.name) + " is listed but not compiled");
}

namespace {

// A value of the shorthand: an integer, or else the text itself, which
// compile_strategy reports with its JSON path.
json shorthand_value(const std::string& item) {
  try {
    std::size_t used = 0;
    const int value = std::stoi(item, &used);
    if (used == item.size()) return value;
  } catch (const std::exception&) {
  }
  return item;
}

}  // namespace

json strategy_from_text(std::string_view text) {
  const std::size_t open = text.find('(');
  const std::string_view family = text.substr(0, open);
  json spec = json::object();
  spec["family"] = std::string(family);
  for (const StrategyFamily& f : families())
    if (f.short_name == family) spec["family"] = std::string(f.name);
  if (open == std::string_view::npos) return spec;
  std::string_view rest = text.substr(open + 1, text.size() - open - 2);
  if (text.back() != ')' || rest.find_first_of("()") != std::string_view::npos)
    throw InputError(std::string(text) + ": expected FAMILY(a,b,...)");
  json values = json::array();
  // "FAMILY()" is an empty list; otherwise a comma stands between two values.
  for (bool more = !rest.empty(); more;) {
    const std::size_t comma = rest.find(',');
    const std::string item(rest.substr(0, comma));
    if (item.empty())
      throw InputError(std::string(text) + ": expected FAMILY(a,b,...), a number between every two commas");
    values.push_back(shorthand_value(item));
    more = comma != std::string_view::npos;
    if (more) rest = rest.substr(comma + 1);
  }
  spec["per_roll"] = values;
  return spec;
}

}  // namespace dicesim::sixers
