// 10,000 ("tenk"): the rules as data and the scoring of a throw.
//
// A throw of n dice is a multiset (engine/dice.h). For every number of dice in
// hand, every pending three-of-a-kind face and every multiset, Scoring
// precomputes the legal ways to set dice aside (Move), so that play is table
// lookups. Seed 000 (Pulpan's rules) and seed 003 (the AI blog's rules) are
// presets; a config may override any key of a preset.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "config/json_input.h"
#include "config/parameters.h"
#include "engine/dice.h"
#include "engine/rng.h"

namespace dicesim::tenk {

constexpr int kMaxHand = 6;  // dice in a full hand
// Arrays indexed by a number of dice (0..6) or a face (1..6; 0: none, as
// for the pending face) have this many slots; (dice, pending) pairs index
// flat arrays as dice * kDiceSlots + pending.
constexpr int kDiceSlots = kMaxHand + 1;
constexpr int kPoint = 50;     // every score is a multiple of this
constexpr int kNoPending = 0;  // pending face 0: no three of a kind to add to

struct Rules {
  int dice = 6;
  std::array<int, kDiceSlots> single{0, 100, 0, 0, 0, 50, 0};            // [face]: a single die
  std::array<int, kDiceSlots> triple{0, 1000, 200, 300, 400, 500, 600};  // [face]: three of a kind
  std::array<int, kDiceSlots> of_a_kind{0, 0, 0, 1, 2, 4, 8};            // [n]: n of a kind = of_a_kind[n] x triple
  int straight = 2000;                                                   // 1-2-3-4-5-6 on six dice; 0 = none
  int three_pairs = 0;                                                   // three different pairs; 0 = none
  bool add_to_triple = false;   // a later die of a set-aside triple's face adds the triple's value
  int bank_minimum = 350;       // the least turn total that may be banked
  int high_bank_minimum = 350;  // IV.2: the bank minimum once the banked score is above high_from
  int high_from = 5000;
  int target = 10000;
  bool no_stop_on_hot_dice = false;  // IV.1: no banking when the next throw would use all dice
  bool exact_target = false;         // IV.3: a turn passing the target scores nothing
  bool partial_set_aside = false;    // IV.4: set aside any scoring part of a throw
  bool continue_previous = false;    // IV.5: take over the previous player's banked position
  bool last_turn = false;            // the others get one last turn after someone reaches the target
  bool bank_at_target = false;       // house rule: a turn that reaches the target banks at once (no padding)
  int max_rounds = 400;              // a game still running after this many rounds ends there

  int bank_minimum_at(int banked) const { return banked > high_from ? high_bank_minimum : bank_minimum; }
  int pending_faces() const { return add_to_triple ? kDiceSlots : 1; }
  // A triple set aside leaves at most dice - 3 in hand (hot dice clear it).
  bool reachable(int in_hand, int pending) const { return pending == kNoPending || in_hand <= dice - 3; }
};

// Rules from a config's "rules" object (preset first, then the keys given);
// errors name the JSON path. `node` may be absent (all defaults: game_of_dice).
Rules read_rules(const std::optional<JsonNode>& node);
json rules_json(const Rules& rules);
// The keys of "rules", their static ranges and The Game of Dice's values as
// defaults (read_rules; `dicesim schema`).
const std::vector<Parameter>& rules_parameters();

// The rule presets, named after their source documents; the names of the
// documents' files (seed000, seed003) are accepted too, as older configs use them.
struct PresetName {
  std::string_view name, file_name, source;
};
inline constexpr PresetName kPresets[] = {
    {"game_of_dice", "seed000", "\"The Game of Dice\" by Pulpan (seed 000)"},
    {"ai_blog", "seed003", "the AI blog series (seed 003)"},
};
// A preset by either name; std::invalid_argument for another name.
Rules preset(const std::string& name);
// Whether `name` names a preset ("game_of_dice", "seed000", ...).
bool is_preset(const std::string& name);
// "game_of_dice (or seed000), ai_blog (or seed003)"
std::string preset_names();

// One way of setting aside dice from a throw.
struct Move {
  int points = 0;
  int used = 0;     // dice set aside
  int pending = 0;  // the pending face afterwards (kNoPending: none)
};

// Best score using every die of the multiset (counts[face]), or -1 when some
// die cannot score; pending_after gets the face of an n-of-a-kind used.
int full_score(const Rules& rules, const std::array<int, kDiceSlots>& counts, int pending, int& pending_after);

// A move as the game needs it, relative to the dice it was thrown from, in
// one word (kBust = 0: nothing scored): the points in units of kPoint (bits
// 0-23: a combination can score up to 100 x 100000), the dice and the
// pending face of the next throw (bits 24-26 and 27-29; after hot dice a
// full hand and no pending face) and whether every die scored (bit 30).
using Step = std::uint32_t;
constexpr Step kBust = 0;
inline int step_units(Step s) { return static_cast<int>(s & 0xffffff); }
inline int step_points(Step s) { return step_units(s) * kPoint; }
inline int step_dice(Step s) { return static_cast<int>((s >> 24) & 7); }
inline int step_pending(Step s) { return static_cast<int>((s >> 27) & 7); }
inline bool step_hot(Step s) { return (s >> 30) != 0; }
inline Step make_step(int points, int dice, int pending, bool hot) {
  return Step(points / kPoint) | Step(dice) << 24 | Step(pending) << 27 | Step(hot) << 30;
}

// The probabilities are the fair die's; the samplers (roll(), throw_best,
// TurnSampler) draw on `sampling_die`.
class Scoring {
 public:
  explicit Scoring(const Rules& rules, const Die& sampling_die = fair_die());
  // The samplers point into the tables: a copy would point into the original.
  Scoring(const Scoring&) = delete;
  Scoring& operator=(const Scoring&) = delete;

  const Rules& rules() const { return rules_; }
  int multisets(int dice) const { return static_cast<int>(tables_[dice].size()); }
  const DiceMultiset& multiset(int dice, int i) const { return tables_[dice][i]; }
  double probability(int dice, int i) const { return tables_[dice].probability(i); }
  std::uint64_t ways(int dice, int i) const { return tables_[dice][i].ways; }
  std::uint64_t outcomes(int dice) const { return tables_[dice].outcomes(); }  // 6^dice
  int index_of(const std::vector<int>& faces) const;  // the multiset of these faces (tests, examples)

  // The legal moves, best first (most points, then most dice); empty: a bust.
  // Without partial setting aside there is one: every scoring die.
  const Move* moves(int dice, int pending, int i) const { return &moves_[offset(dice, pending, i)]; }
  int move_count(int dice, int pending, int i) const {
    const std::size_t k = key(dice, pending, i);
    return static_cast<int>(move_offset_[k + 1] - move_offset_[k]);
  }
  // The best move of throw i (kBust when nothing scores).
  Step best(int dice, int pending, int i) const { return best_[key(dice, pending, i)]; }
  Step step(int dice, const Move& move) const;

  // A throw of `dice`: the multiset's index (partial setting aside, where the
  // policy picks the part), or straight away its best move. One draw either
  // way, from different tables: a rule set always takes the same one.
  int roll(int dice, Rng& rng) const { return static_cast<int>(samplers_[dice].sample(rng)); }
  Step throw_best(int dice, int pending, Rng& rng) const {
    return draw_payload(throw_columns_.data(), throwers_[dice * kDiceSlots + pending], rng);
  }
  // What throw_best draws from: each best move (kBust included) with its
  // weight on the sampling die, out of sides^dice.
  const PayloadWeights& throw_weights(int dice, int pending) const {
    return throw_weights_[dice * kDiceSlots + pending];
  }

 private:
  std::size_t key(int dice, int pending, int i) const {
    return (std::size_t(dice) * kDiceSlots + pending) * stride_ + i;
  }
  std::size_t offset(int dice, int pending, int i) const { return move_offset_[key(dice, pending, i)]; }
  void build_throwers();

  Rules rules_;
  std::vector<RollOutcomes> tables_;  // [dice]
  std::vector<RollOutcomes::Sampler> samplers_;
  std::size_t stride_ = 0;  // the most multisets of any number of dice
  std::vector<std::size_t> move_offset_;
  std::vector<Move> moves_;
  std::vector<Step> best_;
  // A throw's best move drawn straight away: an alias table over the
  // distinct best moves, weighted by the multisets that lead to each.
  std::vector<PayloadColumn> throw_columns_;
  std::array<PayloadTable, kDiceSlots * kDiceSlots> throwers_{};  // [dice * kDiceSlots + pending]
  std::array<PayloadWeights, kDiceSlots * kDiceSlots> throw_weights_;
};

}  // namespace dicesim::tenk
