#include "games/sixers/sixers_exact.h"

#include <algorithm>
#include <map>
#include <string>

namespace dicesim::sixers {
namespace {

// Choices that differ by less than this are treated as equal, so that ties
// are broken by a stated rule and not by rounding.
constexpr double kTie = 1e-12;

struct Grid {  // a value per (dice in hand, score) pair
  int scores;
  std::vector<double> cells;
  Grid(int dice, int max_score) : scores(max_score + 1), cells(std::size_t(dice + 1) * scores, 0.0) {}
  double& at(int dice, int score) { return cells[std::size_t(dice) * scores + score]; }
};

}  // namespace

std::vector<double> score_distribution(const Hands& hands, const Policy& policy, int target) {
  const Rules& rules = hands.rules();
  std::vector<double> finished(rules.max_score() + 1, 0.0);
  Grid state(rules.dice, rules.max_score());
  state.at(rules.dice, 0) = 1;
  for (int roll = 0; roll < rules.rolls; ++roll) {
    Grid next(rules.dice, rules.max_score());
    for (int dice = 1; dice <= rules.dice; ++dice) {
      for (int score = 0; score <= rules.max_score(); ++score) {
        const double p = state.at(dice, score);
        if (p == 0) continue;
        const int slot = policy.slot(target, score);
        for (int hand = hands.first(dice); hand < hands.first(dice + 1); ++hand) {
          const int keep = policy.keep(roll, slot, hand);
          const int total = score + hands.kept_score(hand, keep);
          const double q = p * hands.probability(hand);
          if (keep == dice)
            finished[total] += q;
          else
            next.at(dice - keep, total) += q;
        }
      }
    }
    state = std::move(next);
  }
  return finished;
}

MeanOptimum solve_mean_optimum(const Hands& hands) {
  const Rules& rules = hands.rules();
  const int width = rules.dice + 1;
  MeanOptimum out;
  out.expected.assign(std::size_t(rules.rolls + 1) * width, 0.0);
  out.policy = Policy(hands, 1);
  for (int left = 1; left <= rules.rolls; ++left) {
    const int roll = rules.rolls - left;
    for (int dice = 1; dice <= rules.dice; ++dice) {
      double expected = 0;
      for (int hand = hands.first(dice); hand < hands.first(dice + 1); ++hand) {
        int best_keep = dice;
        double best = hands.kept_score(hand, dice);
        if (left > 1) {
          // Ties go to keeping more dice: the same mean with fewer throws.
          for (int keep = dice - 1; keep >= 1; --keep) {
            const double value = hands.kept_score(hand, keep) + out.expected[(left - 1) * width + dice - keep];
            if (value < best - kTie) {
              best = value;
              best_keep = keep;
            }
          }
          out.policy.set_keep(roll, 0, hand, best_keep);
        }
        expected += hands.probability(hand) * best;
      }
      out.expected[left * width + dice] = expected;
    }
  }
  out.mean = out.expected[rules.rolls * width + rules.dice];
  return out;
}

Policy solve_target_aware(const Hands& hands, const MeanOptimum& mean) {
  const Rules& rules = hands.rules();
  const int width = rules.dice + 1, top = rules.max_score();
  // chance[left][dice][a]: P(the dice still to come add at most a), playing well.
  std::vector<double> chance(std::size_t(rules.rolls + 1) * width * (top + 1), 0.0);
  const auto at = [&](int left, int dice, int allowance) -> double {
    if (allowance < 0) return 0;
    if (dice == 0) return 1;
    return chance[(std::size_t(left) * width + dice) * (top + 1) + std::min(allowance, top)];
  };
  Policy policy(hands, top + 2);
  for (int roll = 0; roll + 1 < rules.rolls; ++roll)
    for (int hand = 0; hand < hands.count(); ++hand) policy.set_keep(roll, 0, hand, mean.policy.keep(roll, 0, hand));

  for (int left = 1; left <= rules.rolls; ++left) {
    const int roll = rules.rolls - left;
    for (int dice = 1; dice <= rules.dice; ++dice) {
      for (int allowance = 0; allowance <= top; ++allowance) {
        double total = 0;
        for (int hand = hands.first(dice); hand < hands.first(dice + 1); ++hand) {
          int best_keep = dice;
          double best = at(left - 1, 0, allowance - hands.kept_score(hand, dice));
          if (left > 1) {
            double best_mean = hands.kept_score(hand, dice);
            for (int keep = dice - 1; keep >= 1; --keep) {
              const double p = at(left - 1, dice - keep, allowance - hands.kept_score(hand, keep));
              const double m = hands.kept_score(hand, keep) + mean.expected[(left - 1) * width + dice - keep];
              if (p > best + kTie || (p > best - kTie && m < best_mean - kTie)) {
                best = p;
                best_mean = m;
                best_keep = keep;
              }
            }
            policy.set_keep(roll, policy.slot_of(allowance), hand, best_keep);
          }
          total += hands.probability(hand) * best;
        }
        chance[(std::size_t(left) * width + dice) * (top + 1) + allowance] = total;
      }
    }
  }
  return policy;
}

std::size_t win_seat_states(const Hands& hands) {
  const int scores = hands.rules().max_score() + 1;
  return std::size_t(slot_rows(scores)) * scores * hands.rules().rolls * hands.count();
}

namespace {

// Turns rows of decisions, one per (target, score so far), into a policy
// with one slot per distinct row: most rows repeat (every lost position, for
// one), so the compiled table stays small.
Policy policy_of_rows(const Hands& hands, const std::vector<std::uint8_t>& rows) {
  const int top = hands.rules().max_score(), rolls = hands.rules().rolls;
  const std::size_t row_size = std::size_t(rolls) * hands.count();
  std::map<std::string, int> slot_of_row;
  std::vector<int> slot(rows.size() / row_size);
  for (std::size_t r = 0; r < slot.size(); ++r) {
    std::string row(reinterpret_cast<const char*>(&rows[r * row_size]), row_size);
    slot[r] = slot_of_row.try_emplace(std::move(row), int(slot_of_row.size())).first->second;
  }
  Policy policy(hands, static_cast<int>(slot_of_row.size()));
  for (const auto& [row, id] : slot_of_row)
    for (int roll = 0; roll + 1 < rolls; ++roll)
      for (int hand = 0; hand < hands.count(); ++hand)
        if (hands.dice_of(hand) > 0) policy.set_keep(roll, id, hand, row[std::size_t(roll) * hands.count() + hand]);
  for (int code = 0; code < slot_rows(top + 1); ++code)
    for (int score = 0; score <= top; ++score)
      policy.set_slot(target_of_row(code), score, slot[std::size_t(code) * (top + 1) + score]);
  return policy;
}

}  // namespace

WinSeat solve_win_seat(const Hands& hands, const MeanOptimum& mean, const std::vector<double>& later_above) {
  const Rules& rules = hands.rules();
  const int width = rules.dice + 1, top = rules.max_score(), face_top = top / rules.dice;
  const std::size_t row_size = std::size_t(rules.rolls) * hands.count();
  // rows[(code * (top + 1) + score) * row_size + roll * hands + hand]: the
  // keep; positions never reached keep optimal_mean's choice.
  std::vector<std::uint8_t> rows(std::size_t(slot_rows(top + 1)) * (top + 1) * row_size);
  for (std::size_t r = 0; r < rows.size() / row_size; ++r)
    for (int roll = 0; roll < rules.rolls; ++roll)
      for (int hand = 0; hand < hands.count(); ++hand)
        rows[r * row_size + std::size_t(roll) * hands.count() + hand] =
            static_cast<std::uint8_t>(mean.policy.keep(roll, 0, hand));

  WinSeat out;
  // value[(left * width + dice) * (top + 1) + score]: P(win) playing well.
  std::vector<double> value(std::size_t(rules.rolls + 1) * width * (top + 1), 0.0);
  for (int code = 0; code < slot_rows(top + 1); ++code) {
    const int target = target_of_row(code);
    const auto at = [&](int left, int dice, int score) -> double {
      if (dice > 0) return value[(std::size_t(left) * width + dice) * (top + 1) + score];
      return target == kNoTarget || score < target ? later_above[score] : 0.0;
    };
    for (int left = 1; left <= rules.rolls; ++left) {
      const int roll = rules.rolls - left;
      for (int dice = 1; dice <= rules.dice; ++dice) {
        for (int score = 0; score <= face_top * (rules.dice - dice); ++score) {
          std::uint8_t* row =
              &rows[(std::size_t(code) * (top + 1) + score) * row_size + std::size_t(roll) * hands.count()];
          double total = 0;
          for (int hand = hands.first(dice); hand < hands.first(dice + 1); ++hand) {
            int best_keep = dice;
            double best = at(0, 0, score + hands.kept_score(hand, dice));
            double best_mean = hands.kept_score(hand, dice);
            for (int keep = dice - 1; left > 1 && keep >= 1; --keep) {
              const double p = at(left - 1, dice - keep, score + hands.kept_score(hand, keep));
              const double m = hands.kept_score(hand, keep) + mean.expected[(left - 1) * width + dice - keep];
              if (p > best + kTie || (p > best - kTie && m < best_mean - kTie)) {
                best = p;
                best_mean = m;
                best_keep = keep;
              }
            }
            row[hand] = static_cast<std::uint8_t>(best_keep);
            total += hands.probability(hand) * best;
          }
          value[(std::size_t(left) * width + dice) * (top + 1) + score] = total;
        }
      }
    }
    if (code == 0) out.first_value = at(rules.rolls, rules.dice, 0);
  }
  out.policy = policy_of_rows(hands, rows);
  out.above.assign(top + 1, 0.0);
  for (int t = 0; t <= top; ++t) {
    const std::vector<double> p = score_distribution(hands, out.policy, t);
    for (int s = t + 1; s <= top; ++s) out.above[t] += p[s];
  }
  return out;
}

TableOdds table_odds(const Hands& hands, const std::vector<const Policy*>& seats, bool sequential) {
  const int top = hands.rules().max_score();
  const int players = static_cast<int>(seats.size());
  TableOdds odds;
  odds.probability.assign(1, std::vector<std::vector<double>>(players, std::vector<double>(top + 1, 0.0)));
  odds.win.assign(players, 0.0);

  // The table state after each seat: the lowest score so far and who holds it
  // alone (-1: shared). Before the first seat there is no lowest score.
  constexpr int kNone = -1;
  std::map<std::pair<int, int>, double> states{{{kNone, kNone}, 1.0}};
  std::map<std::pair<int, int>, std::vector<double>> cache;  // (seat, target) -> distribution
  for (int seat = 0; seat < players; ++seat) {
    std::map<std::pair<int, int>, double> next;
    for (const auto& [state, p] : states) {
      const auto [lowest, holder] = state;
      const int target = sequential && lowest != kNone ? lowest : kNoTarget;
      auto [entry, fresh] = cache.try_emplace({seat, target});
      if (fresh) entry->second = score_distribution(hands, *seats[seat], target);
      for (int score = 0; score <= top; ++score) {
        const double q = p * entry->second[score];
        if (q == 0) continue;
        odds.probability[0][seat][score] += q;
        if (lowest == kNone || score < lowest)
          next[{score, seat}] += q;
        else if (score == lowest)
          next[{lowest, kNone}] += q;
        else
          next[state] += q;
      }
    }
    states = std::move(next);
  }
  for (const auto& [state, p] : states) {
    if (state.second == kNone)
      odds.tie += p;
    else
      odds.win[state.second] += p;
  }
  return odds;
}

}  // namespace dicesim::sixers
