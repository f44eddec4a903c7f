// 10,000 solved for the chance of winning: the ordered solver against an
// independent value iteration over every state of small games. The exact
// odds against play, the cache and `solve tenk --win` are in
// tenk_win_odds_test.cpp.
#include "games/tenk/tenk_win.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <oneapi/tbb/task_arena.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <numeric>
#include <sstream>
#include <type_traits>

#include "engine/rng.h"
#include "games/tenk/tenk_game_loop.h"
#include "games/tenk/tenk_strategies.h"
#include "games/tenk/tenk_win_cache.h"
#include "math/stats.h"
#include "tenk_test_util.h"
#include "test_util.h"

namespace dicesim::tenk {
namespace {

using helpers::small_rules;

TEST(TenkWin, ThrowOutcomesCoverEveryThrowOnce) {
  for (const char* name : {"seed000", "seed003"})
    for (const bool partial : {false, true}) {
      Rules rules = preset(name);
      rules.partial_set_aside = partial;
      const Scoring scoring(rules);
      const std::vector<ThrowOutcomes> all = throw_outcomes(scoring);
      for (int dice = 1; dice <= rules.dice; ++dice)
        for (int pending = 0; pending < rules.pending_faces(); ++pending) {
          if (!rules.reachable(dice, pending)) continue;
          const ThrowOutcomes& t = all[dice * 7 + pending];
          double total = t.bust;
          for (const ThrowGroup& g : t.groups) total += g.probability;
          EXPECT_NEAR(total, 1.0, 1e-12) << name << " dice " << dice << " pending " << pending;
          double busts = 0;
          for (int i = 0; i < scoring.multisets(dice); ++i)
            if (scoring.move_count(dice, pending, i) == 0) busts += scoring.probability(dice, i);
          EXPECT_NEAR(t.bust, busts, 1e-15);
        }
    }
}

// Value iteration over every state of the game, written for clarity, not
// speed: turn starts, every (turn total, dice, pending) within a turn, and
// the last turn that answers a reached target, all swept until nothing
// moves. Values are P(win) + P(tie) / 2 for the seat to move.
class BruteForce {
 public:
  explicit BruteForce(const Rules& rules)
      : rules_(rules), scoring_(rules), throws_(throw_outcomes(scoring_)), units_(rules.target / kPoint) {
    // Past this turn total a last turn's chance to answer is below 1e-10.
    cap_ = rules.exact_target ? units_ : units_ + 400;
    chase_.assign(std::size_t(cap_ + 1) * 49, 0.0);
    start_.assign(std::size_t(2) * units_ * units_, 0.5);
    turn_.assign(std::size_t(2) * units_ * units_ * (cap_ + 1) * 49, 0.5);
    solve_chases();
    for (int sweep = 0; sweep < 100000 && sweep_all() > 1e-14; ++sweep) {
    }
  }
  double start(int seat, int mine, int theirs) const {
    return start_[(std::size_t(seat) * units_ + mine) * units_ + theirs];
  }

 private:
  int minimum(int banked) const { return (rules_.bank_minimum_at(banked * kPoint) + kPoint - 1) / kPoint; }
  // The chance that a last turn from a fresh hand gathers at least `need`
  // units and may stop there (exact target: exactly `need`).
  double& chase_at(int need, int dice, int pending) { return chase_[(std::size_t(need) * 7 + dice) * 7 + pending]; }
  void solve_chases() {
    for (double change = 1; change > 1e-16;) {
      change = 0;
      for (int need = 0; need <= cap_; ++need)
        for (int dice = 1; dice <= rules_.dice; ++dice)
          for (int pending = 0; pending < rules_.pending_faces(); ++pending) {
            if (!rules_.reachable(dice, pending)) continue;
            const ThrowOutcomes& t = throws_[dice * 7 + pending];
            double value = 0;
            for (const ThrowGroup& g : t.groups) {
              double best = 0;
              for (int k = g.first; k < g.first + g.count; ++k) {
                const ThrowOption& o = t.options[k];
                const int left = need - o.points;
                double v;
                if (rules_.exact_target)
                  v = left == 0 ? 1 : left < 0 ? 0 : chase_at(left, o.dice, o.pending);
                else if (left <= 0 && !(o.hot && rules_.no_stop_on_hot_dice))
                  v = 1;
                else
                  v = chase_at(std::max(left, 0), o.dice, o.pending);
                best = std::max(best, v);
              }
              value += g.probability * best;
            }
            change = std::max(change, std::abs(value - chase_at(need, dice, pending)));
            chase_at(need, dice, pending) = value;
          }
    }
  }
  // The answering seat's value of its last turn against a reached score,
  // from a fresh hand or (IV.5) taking over the position banked.
  double answer(int theirs, int score, int t, const ThrowOption& o) {
    const int need = rules_.exact_target ? units_ - theirs : std::max(score - theirs + 1, minimum(theirs));
    const auto from = [&](int left, int dice, int pending) {
      if (rules_.exact_target) return left > 0 ? chase_at(left, dice, pending) : 0.0;
      return chase_at(std::clamp(left, 0, cap_), dice, pending);
    };
    double chance = from(need, rules_.dice, kNoPending);
    if (rules_.continue_previous) chance = std::max(chance, from(need - t, handed_dice(o), handed_pending(o)));
    return rules_.exact_target ? chance / 2 : chance;
  }
  int handed_dice(const ThrowOption& o) const { return o.hot ? rules_.dice : o.dice; }
  int handed_pending(const ThrowOption& o) const { return o.hot ? kNoPending : o.pending; }
  // The other seat's value of its turn after a bank (not reaching).
  double next_turn(int seat, int theirs, int score, int t, const ThrowOption& o) {
    double value = start_at(1 - seat, theirs, score);
    if (rules_.continue_previous)
      value = std::max(value, turn_at(1 - seat, theirs, score, std::min(t, cap_), handed_dice(o), handed_pending(o)));
    return value;
  }
  double& start_at(int seat, int mine, int theirs) {
    return start_[(std::size_t(seat) * units_ + mine) * units_ + theirs];
  }
  double& turn_at(int seat, int mine, int theirs, int t, int dice, int pending) {
    return turn_[((((std::size_t(seat) * units_ + mine) * units_ + theirs) * (cap_ + 1) + t) * 7 + dice) * 7 + pending];
  }
  double after(int seat, int mine, int theirs, int t, const ThrowOption& o, double on_bust) {
    const int score = mine + t;
    if (rules_.exact_target && score > units_) return on_bust;
    const bool reached = rules_.exact_target ? score == units_ : score >= units_;
    const bool may_bank =
        (rules_.exact_target && reached) || (t >= minimum(mine) && !(o.hot && rules_.no_stop_on_hot_dice));
    const bool answered = seat == 0 || rules_.last_turn;
    // Past the cap nothing depends on the total any more (a fresh answer
    // to the score is negligible): the states at the cap stand for them.
    const double go = turn_at(seat, mine, theirs, std::min(t, cap_), o.dice, o.pending);
    if (!may_bank) return go;
    const double bank = !reached   ? 1 - next_turn(seat, theirs, score, t, o)
                        : answered ? 1 - answer(theirs, score, t, o)
                                   : 1;
    if (reached && (!answered || rules_.bank_at_target)) return bank;  // no padding
    return std::max(bank, go);
  }
  double sweep_all() {
    double change = 0;
    for (int seat = 0; seat < 2; ++seat)
      for (int mine = units_ - 1; mine >= 0; --mine)
        for (int theirs = units_ - 1; theirs >= 0; --theirs) {
          const double on_bust = 1 - start_at(1 - seat, theirs, mine);
          for (int t = cap_; t >= 0; --t)
            for (int dice = 1; dice <= rules_.dice; ++dice)
              for (int pending = 0; pending < rules_.pending_faces(); ++pending) {
                if (!rules_.reachable(dice, pending)) continue;
                const ThrowOutcomes& outcomes = throws_[dice * 7 + pending];
                double value = outcomes.bust * on_bust;
                for (const ThrowGroup& g : outcomes.groups) {
                  double best = -1;
                  for (int k = g.first; k < g.first + g.count; ++k)
                    best = std::max(
                        best, after(seat, mine, theirs, t + outcomes.options[k].points, outcomes.options[k], on_bust));
                  value += g.probability * best;
                }
                double& slot = turn_at(seat, mine, theirs, t, dice, pending);
                change = std::max(change, std::abs(value - slot));
                slot = value;
              }
          double& s = start_at(seat, mine, theirs);
          change = std::max(change, std::abs(turn_at(seat, mine, theirs, 0, rules_.dice, kNoPending) - s));
          s = turn_at(seat, mine, theirs, 0, rules_.dice, kNoPending);
        }
    return change;
  }

  Rules rules_;
  Scoring scoring_;
  std::vector<ThrowOutcomes> throws_;
  int units_, cap_;
  std::vector<double> chase_, start_, turn_;
};

void expect_solver_matches_brute_force(const Rules& rules, const std::string& what) {
  const Scoring scoring(rules);
  const WinSolution solved = solve_win(scoring);
  const BruteForce brute(rules);
  double worst = 0;
  for (int seat = 0; seat < 2; ++seat)
    for (int mine = 0; mine < solved.units(); ++mine)
      for (int theirs = 0; theirs < solved.units(); ++theirs)
        worst = std::max(worst, std::abs(solved.at(seat, mine, theirs).utility() - brute.start(seat, mine, theirs)));
  EXPECT_LT(worst, 1e-9) << what;
  EXPECT_NEAR(solved.first_wins() + solved.second_wins() + solved.tie(), 1.0, 1e-12) << what;
}

TEST(TenkWin, Seed000AgreesWithValueIterationOverEveryState) {
  expect_solver_matches_brute_force(small_rules("seed000", 500), "seed000, 500");
  expect_solver_matches_brute_force(small_rules("seed000", 1000), "seed000, 1000");
}

TEST(TenkWin, LastTurnAgreesWithValueIteration) {
  Rules rules = small_rules("seed000", 500);
  rules.last_turn = true;
  expect_solver_matches_brute_force(rules, "last_turn");
}

TEST(TenkWin, ExactTargetAgreesWithValueIteration) {
  Rules rules = small_rules("seed000", 500);
  rules.exact_target = true;
  expect_solver_matches_brute_force(rules, "exact_target");
}

TEST(TenkWin, HotDiceAndPartialSettingAsideAgreeWithValueIteration) {
  Rules rules = small_rules("seed000", 500);
  rules.no_stop_on_hot_dice = true;
  expect_solver_matches_brute_force(rules, "IV.1");
  rules.no_stop_on_hot_dice = false;
  rules.partial_set_aside = true;
  expect_solver_matches_brute_force(rules, "IV.4");
}

TEST(TenkWin, TakingOverAgreesWithValueIteration) {
  Rules rules = small_rules("seed000", 500);
  rules.continue_previous = true;
  expect_solver_matches_brute_force(rules, "IV.5");
  rules.last_turn = true;
  expect_solver_matches_brute_force(rules, "IV.5 and last_turn");
  rules.last_turn = false;
  rules.exact_target = true;
  expect_solver_matches_brute_force(rules, "IV.5 and exact_target");
}

// The house rule "bank at the target" takes padding away: the solver agrees
// with value iteration, and the seats that could pad are worse off.
TEST(TenkWin, BankingAtTheTargetAgreesWithValueIterationAndTakesPaddingAway) {
  for (const bool last_turn : {false, true}) {
    Rules rules = small_rules("seed000", 1000);
    rules.last_turn = last_turn;
    const WinSolution padding = solve_win(Scoring(rules));
    rules.bank_at_target = true;
    expect_solver_matches_brute_force(rules, last_turn ? "bank_at_target, last_turn" : "bank_at_target");
    const WinSolution banking = solve_win(Scoring(rules));
    EXPECT_LT(banking.first_wins(), padding.first_wins() - 1e-6) << last_turn;  // the first seat pads
  }
}

TEST(TenkWin, Seed003AgreesWithValueIteration) {
  expect_solver_matches_brute_force(small_rules("seed003", 500), "seed003, 500");
}

// Every byte of a solution as the cache stores it (values, then policy),
// but the stats of the solve, which differ from run to run, and then the
// values of taken-over positions (IV.5), which the cache does not keep.
std::string solution_bytes(WinSolution solution) {
  solution.stats = WinSolveStats{};
  std::string bytes = win_solution_bytes(solution);
  bytes.append(reinterpret_cast<const char*>(solution.handed_values.data()),
               solution.handed_values.size() * sizeof(WinValue));
  return bytes;
}

// The pairs of one score sum are solved in parallel and their decisions
// recorded afterwards: one thread or two give the same solution, byte for
// byte, and a second pass that keeps rows gives the values of the brute
// force (above).
TEST(TenkWin, TheSolutionIsTheSameAtAnyThreadCount) {
  std::vector<std::pair<Rules, std::string>> cases;
  for (const char* name : {"seed000", "seed003"}) cases.emplace_back(small_rules(name, 1500), name);
  Rules variant = small_rules("seed000", 1500);
  variant.partial_set_aside = true;
  cases.emplace_back(variant, "IV.4");
  variant.partial_set_aside = false, variant.continue_previous = true, variant.exact_target = true;
  cases.emplace_back(variant, "IV.5 and IV.3");
  variant.exact_target = false, variant.no_stop_on_hot_dice = true;
  cases.emplace_back(variant, "IV.5 and IV.1");
  for (const auto& [rules, what] : cases) {
    const Scoring scoring(rules);
    std::string bytes[2];
    for (int threads : {1, 2}) {
      tbb::task_arena arena(threads);
      arena.execute([&] { bytes[threads - 1] = solution_bytes(solve_win(scoring, rules.continue_previous)); });
    }
    EXPECT_GT(bytes[0].size(), 1000u) << what;
    EXPECT_TRUE(bytes[0] == bytes[1]) << what;
  }
}

}  // namespace
}  // namespace dicesim::tenk
