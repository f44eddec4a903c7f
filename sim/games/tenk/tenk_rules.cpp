#include "games/tenk/tenk_rules.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <stdexcept>
#include <utility>

#include "config/terminal_text.h"

namespace dicesim::tenk {
namespace {

constexpr int kMaxPoints = 100000;  // any one combination
constexpr int kMaxTarget = 1000000;

// The on/off rules, by their key in the config.
constexpr std::pair<const char*, bool Rules::*> kSwitches[] = {
    {"add_to_triple", &Rules::add_to_triple},         {"no_stop_on_hot_dice", &Rules::no_stop_on_hot_dice},
    {"exact_target", &Rules::exact_target},           {"partial_set_aside", &Rules::partial_set_aside},
    {"continue_previous", &Rules::continue_previous}, {"last_turn", &Rules::last_turn},
    {"bank_at_target", &Rules::bank_at_target}};

// The declared range, and a multiple of kPoint.
int read_points(const JsonNode& node, const Parameter& parameter) {
  const int points = static_cast<int>(parameter.read_integer(node));
  if (points % kPoint != 0) node.fail("points must be a multiple of " + std::to_string(kPoint));
  return points;
}

// {"1": 100, "5": 50}: the faces given replace the preset's, the others stay.
void read_face_table(const JsonNode& node, const Parameter& parameter, std::array<int, kDiceSlots>& table) {
  if (!node.value().is_object()) node.fail("expected an object of faces \"1\"..\"6\", got " + describe(node.value()));
  node.only_keys(std::vector<std::string_view>(parameter.choices.begin(), parameter.choices.end()));
  for (int face = 1; face <= kFaces; ++face)
    if (auto v = node.find(std::to_string(face))) table[face] = read_points(*v, parameter);
}

void read_of_a_kind(const JsonNode& node, const Parameter& parameter, Rules& rules) {
  if (!node.value().is_object()) node.fail("expected an object such as {\"4\": 2}, got " + describe(node.value()));
  for (const auto& [key, value] : node.value().items()) {
    const JsonNode child = *node.find(key);
    int n = 0;
    if (key.size() == 1 && key[0] >= '4' && key[0] <= '9') n = key[0] - '0';
    if (n == 0) child.fail("expected a number of dice from 4 to " + std::to_string(rules.dice));
    if (n > rules.dice)
      child.fail(std::to_string(n) + " of a kind needs more dice than the game has (" + std::to_string(rules.dice) +
                 ")");
    rules.of_a_kind[n] = static_cast<int>(parameter.read_integer(child));
  }
}

// bank_minimum, then high_bank_minimum (IV.2; the bank minimum unless
// given), each at most the target, whether given here or by the preset: a
// minimum above the target would forbid the turn that reaches it.
void read_bank_minimums(const JsonNode& node, Rules& rules) {
  const auto read = [&](const char* key, int& minimum) {
    const std::optional<JsonNode> v = node.find(key);
    if (v) minimum = static_cast<int>(named(rules_parameters(), key).read_integer(*v));
    if (minimum <= rules.target) return;
    const std::string numbers = std::to_string(minimum) + " is above the target " + std::to_string(rules.target);
    if (v) v->fail("bank minimum " + numbers);
    node.at("target").fail("the bank minimum " + numbers);
  };
  read("bank_minimum", rules.bank_minimum);
  rules.high_bank_minimum = rules.bank_minimum;
  read("high_bank_minimum", rules.high_bank_minimum);
}

bool something_scores(const Rules& rules) {
  for (int face = 1; face <= kFaces; ++face)
    if (rules.single[face] > 0 || (rules.dice >= 3 && rules.triple[face] > 0)) return true;
  return rules.straight > 0 || rules.three_pairs > 0;  // six-dice combinations only exist with six dice
}

// IV.3: every banked score is a sum of the points of combinations (a die
// added to a triple scores the triple's points again), so an exact target
// that no such sum makes can never be hit and no game could end.
void require_reachable_exact_target(const JsonNode& node, const Rules& rules) {
  if (!rules.exact_target) return;
  std::vector<int> points;  // in units of kPoint
  const auto add = [&](int p) {
    if (p > 0) points.push_back(p / kPoint);
  };
  for (int face = 1; face <= kFaces; ++face) {
    add(rules.single[face]);
    if (rules.dice < 3) continue;
    add(rules.triple[face]);
    for (int n = 4; n <= rules.dice; ++n) add(rules.of_a_kind[n] * rules.triple[face]);
  }
  add(rules.straight);
  add(rules.three_pairs);
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  const int units = rules.target / kPoint;
  std::vector<bool> made(std::size_t(units) + 1, false);
  made[0] = true;
  for (int sum = 1; sum <= units; ++sum)
    for (int p : points)
      if (p <= sum && made[std::size_t(sum - p)]) {
        made[std::size_t(sum)] = true;
        break;
      }
  if (made[std::size_t(units)]) return;
  const std::string target = "the target " + std::to_string(rules.target);
  int divisor = 0;
  for (int p : points) divisor = std::gcd(divisor, p);
  if (units % divisor != 0)
    node.fail("exact_target: every score is a multiple of " + std::to_string(divisor * kPoint) + ", so " + target +
              " cannot be hit and no game could end");
  std::string sums;
  for (int p : points) sums += (sums.empty() ? "" : ", ") + std::to_string(p * kPoint);
  node.fail("exact_target: no sum of the points that score (" + sums + ") makes " + target + ", so no game could end");
}

}  // namespace

bool is_preset(const std::string& name) {
  for (const PresetName& p : kPresets)
    if (name == p.name || name == p.file_name) return true;
  return false;
}

std::string preset_names() {
  std::string names;
  for (const PresetName& p : kPresets)
    names += (names.empty() ? "" : ", ") + std::string(p.name) + " (or " + std::string(p.file_name) + ")";
  return names;
}

Rules preset(const std::string& name) {
  if (!is_preset(name)) throw std::invalid_argument("unknown preset " + name);
  Rules rules;  // the defaults are The Game of Dice's (seed 000)
  if (name == "ai_blog" || name == "seed003") {
    rules.straight = 1000;
    rules.three_pairs = 750;
    rules.of_a_kind = {0, 0, 0, 1, 2, 3, 4};
    rules.add_to_triple = true;
    rules.bank_minimum = rules.high_bank_minimum = 0;
  }
  return rules;
}

const std::vector<Parameter>& rules_parameters() {
  static const std::vector<Parameter> all = [] {
    const json defaults = rules_json(preset(std::string(kPresets[0].name)));
    const auto points = [](const char* key, const char* description) {
      return integer_parameter(key, 0, kMaxPoints, description).in_multiples_of(kPoint);
    };
    std::vector<std::string> faces, kinds;
    for (int face = 1; face <= kFaces; ++face) faces.push_back(std::to_string(face));
    for (int n = 4; n <= 9; ++n) kinds.push_back(std::to_string(n));  // read_of_a_kind names n above the hand
    std::vector<std::string> presets;
    for (const PresetName& p : kPresets) presets.insert(presets.end(), {std::string(p.name), std::string(p.file_name)});
    std::vector<Parameter> keys = {
        choice_parameter("preset", presets, "the rules to start from; the keys given then replace its values")
            .with_default(std::string(kPresets[0].name)),
        integer_parameter("dice", 1, kMaxHand, "dice in a full hand"),
        integer_table_parameter("single", faces, 0, kMaxPoints,
                                "points of a single die by face; the faces given replace the preset's")
            .in_multiples_of(kPoint),
        integer_table_parameter("triple", faces, 0, kMaxPoints,
                                "points of three of a kind by face; the faces given replace the preset's")
            .in_multiples_of(kPoint),
        integer_table_parameter("of_a_kind", kinds, 0, 100,
                                "n of a kind scores this times the triple (0: not a combination), n at most dice"),
        points("straight", "1-2-3-4-5-6 on six dice (0: none)"),
        points("three_pairs", "three different faces twice each, on six dice (0: none)"),
        boolean_parameter("add_to_triple", "IV.1: a later die of a triple's face adds the triple's points"),
        integer_parameter("bank_minimum", 0, kMaxTarget, "the least turn total that may be banked, at most target"),
        integer_parameter("high_bank_minimum", 0, kMaxTarget,
                          "IV.2: the bank minimum above high_from (default: bank_minimum), at most target"),
        integer_parameter("high_from", 0, kMaxTarget, "IV.2: the banked score above which high_bank_minimum applies"),
        integer_parameter("target", kPoint, kMaxTarget, "the score that ends the game").in_multiples_of(kPoint),
        boolean_parameter("no_stop_on_hot_dice", "IV.1: no banking when the next throw would use all the dice"),
        boolean_parameter("exact_target", "IV.3: the target must be hit exactly"),
        boolean_parameter("partial_set_aside", "IV.4: a throw's scoring dice may be set aside in part"),
        boolean_parameter("continue_previous",
                          "IV.5: a player may continue from the position the previous player banked"),
        boolean_parameter("last_turn", "the others get a last turn after the target is reached"),
        boolean_parameter("bank_at_target",
                          "house rule: a turn that reaches the target (in a last turn: beats the best score) banks "
                          "at once where the rules allow, no throwing on to raise the score"),
        integer_parameter("max_rounds", 1, 100000, "rounds after which a game is cut, ranked by score"),
    };
    for (Parameter& key : keys)
      if (defaults.contains(key.name)) key.with_default(defaults.at(key.name));
    return keys;
  }();
  return all;
}

Rules read_rules(const std::optional<JsonNode>& node) {
  if (!node) return preset("game_of_dice");
  if (!node->value().is_object()) node->fail("expected an object, got " + describe(node->value()));
  const std::vector<Parameter>& keys = rules_parameters();
  node->only_keys(keys_of(keys));
  Rules rules = preset("game_of_dice");
  if (auto v = node->find("preset")) {
    const std::string name = v->string();
    if (!is_preset(name)) v->fail("unknown preset " + quoted_text(name) + " (known: " + preset_names() + ")");
    rules = preset(name);
  }
  if (auto v = read_integer_key(*node, keys, "dice")) rules.dice = static_cast<int>(*v);
  for (int n = rules.dice + 1; n <= kMaxHand; ++n) rules.of_a_kind[n] = 0;  // a preset's, beyond the hand
  if (auto v = node->find("single")) read_face_table(*v, named(keys, "single"), rules.single);
  if (auto v = node->find("triple")) read_face_table(*v, named(keys, "triple"), rules.triple);
  if (auto v = node->find("of_a_kind")) read_of_a_kind(*v, named(keys, "of_a_kind"), rules);
  const auto six_dice_combination = [&](const char* key, int& points) {
    auto v = node->find(key);
    if (v) points = read_points(*v, named(keys, key));
    if (points > 0 && rules.dice < 6) {
      if (v) v->fail(std::string(key) + " needs six dice, more than the game has (" + std::to_string(rules.dice) + ")");
      points = 0;  // a preset's six-dice combination, dropped with the sixth die
    }
  };
  six_dice_combination("straight", rules.straight);
  six_dice_combination("three_pairs", rules.three_pairs);
  if (auto v = node->find("target")) rules.target = read_points(*v, named(keys, "target"));
  read_bank_minimums(*node, rules);
  if (auto v = read_integer_key(*node, keys, "high_from")) rules.high_from = static_cast<int>(*v);
  for (const auto& [key, member] : kSwitches)
    if (auto v = node->find(key)) rules.*member = v->boolean();
  if (auto v = read_integer_key(*node, keys, "max_rounds")) rules.max_rounds = static_cast<int>(*v);
  if (!something_scores(rules)) node->fail("nothing scores with these points: no game could ever end");
  require_reachable_exact_target(*node, rules);
  return rules;
}

json rules_json(const Rules& r) {
  const auto faces = [](const std::array<int, kDiceSlots>& table) {
    json out = json::object();
    for (int face = 1; face <= kFaces; ++face) out[std::to_string(face)] = table[face];
    return out;
  };
  json kinds = json::object();
  for (int n = 4; n <= r.dice; ++n) kinds[std::to_string(n)] = r.of_a_kind[n];
  json out = {{"dice", r.dice},
              {"single", faces(r.single)},
              {"triple", faces(r.triple)},
              {"of_a_kind", kinds},
              {"straight", r.straight},
              {"three_pairs", r.three_pairs},
              {"bank_minimum", r.bank_minimum},
              {"high_bank_minimum", r.high_bank_minimum},
              {"high_from", r.high_from},
              {"target", r.target},
              {"max_rounds", r.max_rounds}};
  for (const auto& [key, member] : kSwitches) out[key] = r.*member;
  return out;
}

int full_score(const Rules& rules, const std::array<int, kDiceSlots>& counts, int pending, int& pending_after) {
  pending_after = pending;
  int dice = 0, pairs = 0, ones = 0;
  for (int face = 1; face <= kFaces; ++face) {
    dice += counts[face];
    pairs += counts[face] == 2;
    ones += counts[face] == 1;
  }
  if (dice == 0) return -1;
  // Whole-throw combinations first; they use every die, so nothing else adds.
  int whole = -1;
  if (rules.straight > 0 && dice == 6 && ones == 6) whole = rules.straight;
  if (rules.three_pairs > 0 && dice == 6 && pairs == 3) whole = rules.three_pairs;
  // Face by face: n of a kind (plus singles), singles, or adds to a pending triple.
  int total = 0;
  int kind_face = kNoPending;
  for (int face = 1; face <= kFaces && total >= 0; ++face) {
    const int k = counts[face];
    if (k == 0) continue;
    int best = -1;
    bool best_is_kind = false;
    if (face == pending) best = k * rules.triple[face];
    if (rules.single[face] > 0) best = std::max(best, k * rules.single[face]);
    for (int n = 3; n <= k; ++n) {
      const int kind = n == 3 ? rules.triple[face] : rules.of_a_kind[n] * rules.triple[face];
      if (n > 3 && rules.of_a_kind[n] == 0) continue;
      const int rest = k - n;
      if (rest > 0 && rules.single[face] == 0) continue;
      const int points = kind + rest * rules.single[face];
      if (points > best) best = points, best_is_kind = true;
    }
    if (best <= 0) {
      total = -1;
    } else {
      total += best;
      if (best_is_kind) kind_face = face;
    }
  }
  if (whole > total) return whole;  // pending unchanged: no triple was set aside
  if (total > 0 && kind_face != kNoPending && rules.add_to_triple) pending_after = kind_face;
  return total;
}

namespace {

// Every non-empty part of the throw whose dice all score, best first (most
// points, then most dice); without partial setting aside only the best,
// which is every scoring die.
std::vector<Move> legal_moves(const Rules& rules, const DiceMultiset& thrown, int pending) {
  std::map<std::array<int, kDiceSlots>, Move> parts;
  std::array<int, kDiceSlots> part{};  // [face]: dice of that face set aside
  std::function<void(int)> visit = [&](int face) {
    if (face > kFaces) {
      int after = pending;
      const int points = full_score(rules, part, pending, after);
      int used = 0;
      for (int f = 1; f <= kFaces; ++f) used += part[f];
      if (points > 0) parts[part] = Move{points, used, after};
      return;
    }
    for (int c = 0; c <= thrown.count[face - 1]; ++c) {
      part[face] = c;
      visit(face + 1);
    }
    part[face] = 0;
  };
  visit(1);
  std::vector<Move> moves;
  for (const auto& [dice, move] : parts) moves.push_back(move);
  std::stable_sort(moves.begin(), moves.end(), [](const Move& a, const Move& b) {
    return a.points != b.points ? a.points > b.points : a.used > b.used;
  });
  if (!rules.partial_set_aside && moves.size() > 1) moves.resize(1);
  return moves;
}

}  // namespace

Scoring::Scoring(const Rules& rules, const Die& sampling_die) : rules_(rules) {
  for (int n = 0; n <= kMaxHand; ++n) {
    tables_.emplace_back(n, sampling_die);
    stride_ = std::max(stride_, tables_.back().size());
  }
  for (int n = 0; n <= kMaxHand; ++n) samplers_.push_back(tables_[n].sampler());
  const std::size_t keys = std::size_t(kMaxHand + 1) * kDiceSlots * stride_;
  move_offset_.assign(keys + 1, 0);
  best_.assign(keys, 0);
  std::vector<std::vector<Move>> per_key(keys);
  for (int n = 1; n <= rules.dice; ++n)
    for (int pending = 0; pending < rules.pending_faces(); ++pending)
      for (int i = 0; i < multisets(n); ++i) {
        std::vector<Move> moves = legal_moves(rules, tables_[n][i], pending);
        const std::size_t k = key(n, pending, i);
        if (!moves.empty()) best_[k] = step(n, moves[0]);
        per_key[k] = std::move(moves);
      }
  for (std::size_t k = 0; k < keys; ++k) {
    move_offset_[k + 1] = move_offset_[k] + per_key[k].size();
    moves_.insert(moves_.end(), per_key[k].begin(), per_key[k].end());
  }
  build_throwers();
}

Step Scoring::step(int dice, const Move& move) const {
  const bool hot = move.used == dice;
  const int next = hot ? rules_.dice : dice - move.used;
  const int pending = hot ? kNoPending : move.pending;
  return make_step(move.points, next, pending, hot);
}

void Scoring::build_throwers() {
  for (int n = 1; n <= rules_.dice; ++n)
    for (int pending = 0; pending < rules_.pending_faces(); ++pending) {
      PayloadWeights& weight_of = throw_weights_[n * kDiceSlots + pending];  // by best move
      for (int i = 0; i < multisets(n); ++i) weight_of[best(n, pending, i)] += tables_[n].sampling_weight(i);
      throwers_[n * kDiceSlots + pending] = append_payload_table(weight_of, throw_columns_);
    }
}

int Scoring::index_of(const std::vector<int>& faces) const {
  const int n = static_cast<int>(faces.size());
  std::array<std::uint8_t, kFaces> count{};
  for (int f : faces) ++count[f - 1];
  for (int i = 0; i < multisets(n); ++i)
    if (tables_[n][i].count == count) return i;
  throw std::invalid_argument("Scoring::index_of: not a throw of six-sided dice");
}

}  // namespace dicesim::tenk
