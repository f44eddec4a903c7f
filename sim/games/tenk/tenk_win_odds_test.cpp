// 10,000's two-player win solve in use: the exact odds of any two strategies
// and optimal_win's against play (the Monte Carlo's hot loop), the fair game
// of the value under IV.5, the solution's cache on disk (damaged, forged or
// planted files refused), and `solve tenk --win --json`.
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
#include "games/tenk/tenk_win.h"
#include "games/tenk/tenk_win_cache.h"
#include "math/stats.h"
#include "tenk_test_util.h"
#include "test_util.h"

namespace dicesim::tenk {
namespace {

using helpers::small_rules;

using helpers::compile;

// The solved policy, evaluated as a fixed strategy against itself, gives
// the solver's values; against every shipped family it does at least as
// well as the game's value, in either seat.
void expect_optimal_is_unbeaten(const Rules& rules, const std::string& what) {
  const Scoring scoring(rules);
  const WinSolution solved = solve_win(scoring);
  const WinRule optimal(solved.policy);
  const WinSolution self = evaluate_win(scoring, optimal, optimal);
  for (int seat = 0; seat < 2; ++seat)
    for (int mine = 0; mine < solved.units(); ++mine)
      for (int theirs = 0; theirs < solved.units(); ++theirs) {
        ASSERT_NEAR(self.at(seat, mine, theirs).win, solved.at(seat, mine, theirs).win, 1e-12) << what;
        ASSERT_NEAR(self.at(seat, mine, theirs).tie, solved.at(seat, mine, theirs).tie, 1e-12) << what;
      }
  const double value = solved.at(0, 0, 0).utility();  // the first seat's
  for (const json& spec :
       {json{{"family", "critical_score"}}, json{{"family", "ev_heuristic"}}, json{{"family", "optimal_expected"}},
        json{{"family", "bank_at"}, {"total", 350}}, json{{"family", "bank_at"}, {"total", 1000}}}) {
    const Policy policy = compile(scoring, spec);
    const PolicyRule fixed(rules, policy);
    const WinSolution as_first = evaluate_win(scoring, optimal, fixed);
    const WinSolution as_second = evaluate_win(scoring, fixed, optimal);
    EXPECT_GE(as_first.at(0, 0, 0).utility(), value - 1e-12) << what << " " << spec.dump();
    EXPECT_LE(as_second.at(0, 0, 0).utility(), value + 1e-12) << what << " " << spec.dump();
    EXPECT_NEAR(as_first.first_wins() + as_first.second_wins() + as_first.tie(), 1.0, 1e-12);
  }
}

// Solutions go to a fresh cache directory for each test.
class CachedIn {
 public:
  CachedIn() { ::setenv("DICESIM_CACHE_DIR", dir_.path().c_str(), 1); }
  ~CachedIn() { ::unsetenv("DICESIM_CACHE_DIR"); }
  const testing::TempDir& dir() const { return dir_; }

 private:
  testing::TempDir dir_;
};

std::unique_ptr<SeatRule> rule_of(const Rules& rules, const Policy& policy) {
  if (policy.win) return std::make_unique<WinRule>(policy.win->policy);
  return std::make_unique<PolicyRule>(rules, policy);
}

// A histogram against exact probabilities: the chi-square's normal deviate.
double histogram_z(const std::vector<std::int64_t>& counts, const std::vector<double>& exact) {
  return std::max(0.0, stats::z_for_tail(stats::chi_square(counts, exact).p_value));
}

// The exact odds of two compiled strategies, and the game's shape (each
// seat's first turn and turns played) where it is known, are those of
// play_game, the Monte Carlo's hot loop, at |z| < 5. whole_turns: fresh
// turns drawn whole (TurnSampler) where a sampler applies, as the engine
// plays them.
void expect_odds_match_play(const Rules& rules, const json& first, const json& second, const std::string& what,
                            std::uint64_t games = 40000, bool whole_turns = false) {
  const CachedIn cache;
  const Scoring scoring(rules);
  Solutions solutions(scoring);
  Policy a = compile_strategy(JsonNode(first, "first"), scoring, solutions);
  Policy b = compile_strategy(JsonNode(second, "second"), scoring, solutions);
  solutions.attach_win(a);
  solutions.attach_win(b);
  const std::unique_ptr<SeatRule> rule_a = rule_of(rules, a), rule_b = rule_of(rules, b);
  const WinSolution exact = evaluate_win(scoring, *rule_a, *rule_b);
  const GameShape shape = game_shape(scoring, *rule_a, *rule_b);
  const Policy* seats[2] = {&a, &b};
  std::unique_ptr<TurnSampler> sampler[2];
  if (whole_turns) sampler[0] = TurnSampler::build(scoring, a), sampler[1] = TurnSampler::build(scoring, b);
  const TurnSampler* samplers[2] = {sampler[0].get(), sampler[1].get()};
  Rng rng(12345);
  std::uint64_t first_wins = 0, ties = 0;
  std::array<std::vector<std::int64_t>, 2> turns, first_turn;
  for (int seat = 0; seat < 2; ++seat) {
    turns[seat].assign(shape.turns[seat].size(), 0);
    first_turn[seat].assign(shape.first_turn[seat].size(), 0);
  }
  for (std::uint64_t g = 0; g < games; ++g) {
    GameResult r;
    play_game(
        scoring, seats, 2, rng, r, [](int, int) {}, whole_turns ? samplers : nullptr);
    first_wins += r.place[0] == 1 && r.place[1] == 2;
    ties += r.place[0] == 1 && r.place[1] == 1;
    for (int seat = 0; seat < 2; ++seat) {
      const auto count = [](std::vector<std::int64_t>& bins, int bin) {
        if (!bins.empty()) ++bins[std::min<std::size_t>(bin, bins.size() - 1)];
      };
      count(turns[seat], r.capped ? rules.max_rounds + 1 : r.turns[seat]);
      count(first_turn[seat], r.first_turn[seat] / kPoint);
    }
  }
  EXPECT_LT(std::abs(stats::rate_z(first_wins, games, exact.first_wins())), 5) << what;
  if (exact.tie() > 0) {
    EXPECT_LT(std::abs(stats::rate_z(ties, games, exact.tie())), 5) << what;
  }
  for (int seat = 0; seat < 2; ++seat) {
    if (!turns[seat].empty()) {
      EXPECT_LT(histogram_z(turns[seat], shape.turns[seat]), 5) << what << ", turns " << seat;
    }
    if (!first_turn[seat].empty()) {
      EXPECT_LT(histogram_z(first_turn[seat], shape.first_turn[seat]), 5) << what << ", first turn " << seat;
    }
  }
  // Where a shape is known its probabilities add up to 1.
  for (const auto* p : {&shape.turns[0], &shape.turns[1], &shape.first_turn[0], &shape.first_turn[1]}) {
    if (!p->empty()) {
      EXPECT_NEAR(std::accumulate(p->begin(), p->end(), 0.0), 1.0, 1e-9) << what;
    }
  }
}

TEST(TenkWin, ExactOddsOfTwoStrategiesMatchPlay) {
  const json ev{{"family", "ev_heuristic"}}, critical{{"family", "critical_score"}};
  const json bank{{"family", "bank_at"}, {"total", 500}};
  expect_odds_match_play(small_rules("seed000", 2000), ev, critical, "seed000");
  expect_odds_match_play(small_rules("seed003", 2000), bank, ev, "seed003");
  Rules rules = small_rules("seed000", 2000);
  rules.continue_previous = true;
  expect_odds_match_play(rules, ev, bank, "IV.5");
  rules = small_rules("seed000", 2000);
  rules.exact_target = true;
  rules.last_turn = true;
  expect_odds_match_play(rules, critical, bank, "exact target, last turn");
  rules = small_rules("seed000", 2000);
  rules.no_stop_on_hot_dice = true;
  expect_odds_match_play(rules, bank, critical, "IV.1");
}

// A strategy that does not chase answers a reached score with its usual
// turn: it may bank short of the score, or tie it.
TEST(TenkWin, ExactOddsOfAStrategyThatDoesNotChaseMatchPlay) {
  const json lazy{{"family", "bank_at"}, {"total", 300}, {"chase", false}}, ev{{"family", "ev_heuristic"}};
  expect_odds_match_play(small_rules("seed000", 2000), ev, lazy, "seed000, answering without a chase");
  Rules rules = small_rules("seed000", 2000);
  rules.last_turn = true;
  expect_odds_match_play(rules, lazy, ev, "last turn, answering without a chase");
  rules.exact_target = true;
  expect_odds_match_play(rules, ev, lazy, "exact target, answering without a chase");
  // Under IV.5 the usual turn may start from the position that reached
  // (bank_at 2000, which throws on to the target, takes over every one).
  const json taker{{"family", "bank_at"}, {"total", 2000}, {"chase", false}};
  rules = small_rules("seed000", 2000);
  rules.continue_previous = true;
  expect_odds_match_play(rules, ev, taker, "IV.5, answering without a chase", 200000);
  rules.last_turn = true;
  rules.partial_set_aside = true;
  expect_odds_match_play(rules, taker, ev, "IV.4, IV.5 and last turn, answering without a chase", 200000);
}

// Under IV.4 a fixed strategy keeps the part it values most (choose_move),
// the first of equals.
TEST(TenkWin, ExactOddsUnderPartialSettingAsideMatchPlay) {
  Rules rules = small_rules("seed000", 2000);
  rules.partial_set_aside = true;
  const json optimal{{"family", "optimal_expected"}}, bank{{"family", "bank_at"}, {"total", 400}};
  expect_odds_match_play(rules, optimal, bank, "IV.4");
  expect_odds_match_play(rules, bank, optimal, "IV.4, the other seats");
  rules.continue_previous = true;  // a chase may start from a taken-over position
  expect_odds_match_play(rules, optimal, bank, "IV.4 and IV.5");
  expect_odds_match_play(rules, bank, optimal, "IV.4 and IV.5, the other seats");
}

TEST(TenkWin, OptimalWinPlaysItsExactOdds) {
  const json optimal{{"family", "optimal_win"}}, ev{{"family", "ev_heuristic"}};
  expect_odds_match_play(small_rules("seed000", 2000), optimal, optimal, "seed000, itself");
  expect_odds_match_play(small_rules("seed000", 2000), ev, optimal, "seed000, second against ev");
  expect_odds_match_play(small_rules("seed003", 1500), optimal, ev, "seed003, first against ev");
  Rules rules = small_rules("seed000", 1500);
  rules.continue_previous = true;
  expect_odds_match_play(rules, optimal, ev, "IV.5, first against ev");
  expect_odds_match_play(rules, ev, optimal, "IV.5, second against ev");
  rules = small_rules("seed000", 1500);
  rules.exact_target = true;
  rules.last_turn = true;
  expect_odds_match_play(rules, optimal, optimal, "exact target and last turn, itself");
  rules = small_rules("seed000", 1500);
  rules.bank_at_target = true;
  rules.last_turn = true;
  expect_odds_match_play(rules, optimal, optimal, "bank at the target and last turn, itself");
  rules = small_rules("seed000", 1500);
  rules.partial_set_aside = true;
  expect_odds_match_play(rules, optimal, ev, "IV.4, first against ev");
  expect_odds_match_play(rules, ev, optimal, "IV.4, second against ev");
  rules.continue_previous = true;
  expect_odds_match_play(rules, optimal, optimal, "IV.4 and IV.5, itself");
}

// The same with whole turns drawn from optimal_win's sampler (a table per
// turn start, TurnSampler), against ev_heuristic's and itself.
TEST(TenkWin, OptimalWinDrawingWholeTurnsPlaysItsExactOdds) {
  const json optimal{{"family", "optimal_win"}}, ev{{"family", "ev_heuristic"}};
  expect_odds_match_play(small_rules("seed000", 2000), optimal, optimal, "whole turns, seed000, itself", 40000, true);
  expect_odds_match_play(small_rules("seed000", 2000), ev, optimal, "whole turns, seed000, second against ev", 40000,
                         true);
  expect_odds_match_play(small_rules("seed003", 1500), optimal, ev, "whole turns, seed003, first against ev", 40000,
                         true);
  Rules rules = small_rules("seed000", 1500);
  rules.exact_target = true;
  rules.last_turn = true;
  expect_odds_match_play(rules, optimal, ev, "whole turns, exact target and last turn, first against ev", 40000, true);
  rules = small_rules("seed000", 1500);
  rules.continue_previous = true;  // whole turns where no position is taken over
  expect_odds_match_play(rules, ev, optimal, "whole turns, IV.5, second against ev", 40000, true);
}

// Under IV.4 a last turn keeps the parts likeliest to beat the score: it
// beats it as often as ReachChances says.
TEST(TenkWin, OptimalWinChasesUnderPartialSettingAsideAsLikelyAsTheReachChances) {
  const CachedIn cache;
  Rules rules = small_rules("seed000", 1500);
  rules.partial_set_aside = true;
  const Scoring scoring(rules);
  Solutions solutions(scoring);
  Policy optimal = compile_strategy(JsonNode(json{{"family", "optimal_win"}}, "optimal"), scoring, solutions);
  solutions.attach_win(optimal);
  Rng rng(7);
  for (const int beat : {600, 1450}) {  // from nothing banked, a fresh hand
    constexpr int kTurns = 100000;
    int beaten = 0;
    for (int turn = 0; turn < kTurns; ++turn)
      beaten += play_turn(scoring, optimal, 1, 0, beat, {0, rules.dice, kNoPending}, beat, rng).score > beat;
    const double exact = optimal.win->reach.fresh(WinStrategy::need_to_beat(rules, 0, beat));
    EXPECT_LT(std::abs(stats::rate_z(beaten, kTurns, exact)), 5) << "beat " << beat;
  }
}

// The parts kept under IV.4 come back from their runs as they were set, per
// turn start, the totals past top + 1 as at top + 1.
TEST(TenkWin, PartsKeptComeBackFromTheirRuns) {
  Rules rules = small_rules("seed000", 500);
  rules.partial_set_aside = true;
  WinPolicy policy(rules, rules.target / kPoint);
  constexpr int kGroups = 7;
  Rng rng(3);
  std::map<std::tuple<int, int, int>, std::vector<std::uint8_t>> set;
  for (const auto& [seat, mine, theirs, top] :
       {std::tuple(0, 1, 2, 5), std::tuple(1, 2, 1, 9), std::tuple(0, 0, 0, 0)}) {
    policy.set_top(seat, mine, theirs, top);
    std::vector<std::uint8_t> kept(std::size_t(top + 2) * kGroups);
    for (auto& option : kept)
      option = uniform_below(rng, 4) == 0 ? uniform_below(rng, 3) : 0;  // mostly the first, in runs or not
    policy.set_parts(seat, mine, theirs, kept, kGroups);
    set[{seat, mine, theirs}] = kept;
  }
  for (const auto& [state, kept] : set) {
    const auto [seat, mine, theirs] = state;
    const int totals = static_cast<int>(kept.size() / kGroups);
    for (int t = 0; t < totals + 3; ++t)
      for (int g = 0; g < kGroups; ++g)
        ASSERT_EQ(policy.kept_part(seat, mine, theirs, t, g), kept[std::size_t(std::min(t, totals - 1)) * kGroups + g])
            << seat << " " << mine << " " << theirs << " total " << t << " group " << g;
  }
  EXPECT_TRUE(policy.consistent(rules.target / kPoint, Landings(rules).count()));
}

// Under optimal play on both sides the value of the position (P(win) +
// P(tie)/2 of the seat to move, taking over where that is better) is a fair
// game from turn to turn: its mean change over a turn is zero. Takeovers
// played or valued wrongly show here first.
TEST(TenkWin, UnderIV5TheValueIsAFairGameTurnByTurn) {
  const CachedIn cache;
  Rules rules = small_rules("seed000", 1500);
  rules.continue_previous = true;
  const Scoring scoring(rules);
  const WinSolution solved = solve_win(scoring, true);
  Policy optimal(rules);
  optimal.win = std::make_shared<const WinStrategy>(scoring, solved.policy);
  const Landings& landings = optimal.win->landings;
  const auto utility = [](const WinValue& v) { return v.utility(); };
  // The value for `seat` to move at (mine, theirs) points, handed `handed` if valid.
  const auto start_value = [&](int seat, int mine, int theirs, const Position* handed) {
    if (!handed) return utility(solved.at(seat, mine / kPoint, theirs / kPoint));
    const Handed h{handed->total / kPoint, handed->dice, handed->pending};
    return utility(solved.handed_value(seat, mine / kPoint, theirs / kPoint, h, landings));
  };
  std::array<double, 2> sum{}, squares{};
  std::array<int, 2> turns{};
  Rng rng(2024);
  for (int game = 0; game < 20000; ++game) {
    int score[2] = {0, 0};
    Position handed{};
    bool valid = false;
    for (int seat = 0;; seat = 1 - seat) {
      const int mine = score[seat], theirs = score[1 - seat];
      const double before = start_value(seat, mine, theirs, valid ? &handed : nullptr);
      Position start{0, rules.dice, kNoPending};
      if (valid && takes_over(rules, optimal, seat, mine, theirs, -1, handed)) start = handed;
      const TurnResult turn = play_turn(scoring, optimal, seat, mine, theirs, start, -1, rng);
      double after;
      bool over = false;
      if (mine + turn.score >= rules.target) {  // answered by the other seat, or won outright
        over = true;
        const int need = std::max(mine + turn.score - theirs + kPoint, rules.bank_minimum_at(theirs)) / kPoint;
        const WinStrategy& win = *optimal.win;
        const Handed h{turn.position.total / kPoint, turn.position.dice, turn.position.pending};
        const double answer = std::max(win.reach.fresh(need), win.reach.at(need - h.total, h.dice, h.pending));
        after = seat == 0 ? 1 - answer : 1;
      } else {
        valid = turn.score > 0;
        handed = turn.position;
        score[seat] += turn.score;
        after = 1 - start_value(1 - seat, theirs, score[seat], valid ? &handed : nullptr);
      }
      sum[seat] += after - before;
      squares[seat] += (after - before) * (after - before);
      ++turns[seat];
      if (over) break;
    }
  }
  for (int seat = 0; seat < 2; ++seat) {
    const double mean = sum[seat] / turns[seat];
    const double sd = std::sqrt(squares[seat] / turns[seat] - mean * mean);
    EXPECT_LT(std::abs(mean / (sd / std::sqrt(turns[seat]))), 5) << "seat " << seat << " over " << turns[seat];
  }
}

TEST(TenkWin, TheCacheKeepsASolutionAndRefusesDamagedOrForeignFiles) {
  const CachedIn cache;
  Rules rules = small_rules("seed000", 1000);
  rules.partial_set_aside = true;  // the policy has parts too
  const Scoring scoring(rules);
  const WinSolution solved = solve_win(scoring);
  const std::string path = win_cache_path(rules);
  write_win_cache(path, rules, solved);
  std::string why;
  const std::optional<WinSolution> back = read_win_cache(path, rules, why);
  ASSERT_TRUE(back) << why;
  EXPECT_EQ(back->first_wins(), solved.first_wins());
  EXPECT_EQ(back->policy.bytes(), solved.policy.bytes());
  for (int t = 0; t < 30; ++t)
    for (int g = 0; g < 200; g += 7)
      ASSERT_EQ(back->policy.kept_part(1, 3, 5, t, g), solved.policy.kept_part(1, 3, 5, t, g)) << t << " " << g;

  Rules other = rules;
  other.target = 1050;
  EXPECT_FALSE(read_win_cache(path, other, why));
  EXPECT_EQ(why, "written for other rules");

  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  const auto rewrite = [&](const std::string& text) { std::ofstream(path, std::ios::binary) << text; };
  std::string flipped = bytes;
  flipped[flipped.size() / 2] ^= 1;
  rewrite(flipped);
  EXPECT_FALSE(read_win_cache(path, rules, why));
  EXPECT_EQ(why, "damaged (checksum mismatch)");
  rewrite(bytes.substr(0, bytes.size() / 3));
  EXPECT_FALSE(read_win_cache(path, rules, why));
  rewrite("something else entirely");
  EXPECT_FALSE(read_win_cache(path, rules, why));
  EXPECT_EQ(why, "not a dicesim cache file");

  // A damaged file is solved again, with a warning, and replaced.
  rewrite(flipped);
  std::ostringstream log;
  const std::shared_ptr<const WinSolution> again = cached_win_solution(scoring, log);
  EXPECT_NE(log.str().find("damaged"), std::string::npos) << log.str();
  EXPECT_EQ(again->first_wins(), solved.first_wins());
  EXPECT_TRUE(read_win_cache(path, rules, why)) << why;
}

// A forged cache whose own checksum was recomputed after its values were
// emptied (or cut short) is damaged, not read past its end.
TEST(TenkWin, ACacheWithTooFewValuesIsDamagedEvenWithItsChecksumRecomputed) {
  const CachedIn cache;
  const Rules rules = small_rules("seed000", 1000);
  const WinSolution solved = solve_win(Scoring(rules));
  const std::string path = win_cache_path(rules);
  write_win_cache(path, rules, solved);
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  // The values: their count (8 bytes), then 2 * units^2 of {win, tie}.
  const std::uint64_t count = 2 * std::uint64_t(solved.units()) * solved.units();
  const std::string count_bytes(reinterpret_cast<const char*>(&count), sizeof count);
  const std::size_t at = bytes.find(count_bytes);
  ASSERT_NE(at, std::string::npos);
  for (const std::uint64_t kept : {std::uint64_t(0), count / 2}) {
    std::string body = bytes.substr(0, bytes.size() - sizeof(std::uint64_t));
    const std::size_t data = at + sizeof count, value_bytes = 2 * sizeof(double);
    body.erase(data + kept * value_bytes, (count - kept) * value_bytes);
    body.replace(at, sizeof count, std::string(reinterpret_cast<const char*>(&kept), sizeof kept));
    const std::uint64_t sum = stable_hash(body);
    std::ofstream(path, std::ios::binary) << body << std::string(reinterpret_cast<const char*>(&sum), sizeof sum);
    std::string why;
    EXPECT_FALSE(read_win_cache(path, rules, why)) << kept << " values";
    EXPECT_EQ(why, "damaged (inconsistent sizes)") << kept << " values";
  }
}

// Anything at the cache's path but a regular file of plausible size is
// absent (a FIFO must not block, /dev/zero must not be read without end);
// a failed write says why and leaves no temporary; a link planted at the old
// temporary name (PATH.tmp.PID) is not written through.
TEST(TenkWin, TheCacheTreatsAnythingButAPlausibleRegularFileAsAbsent) {
  const CachedIn cache;
  const Rules rules = small_rules("seed000", 500);
  const Scoring scoring(rules);
  const std::string path = win_cache_path(rules);
  std::filesystem::create_directories(cache.dir().path());
  const std::string target = cache.dir().write("target", "kept");
  std::filesystem::create_symlink(target, path + ".tmp." + std::to_string(::getpid()));
  std::ostringstream first_log;
  const double value = cached_win_solution(scoring, first_log)->first_wins();
  std::string kept;
  std::ifstream(target) >> kept;
  EXPECT_EQ(kept, "kept");
  std::filesystem::remove(path + ".tmp." + std::to_string(::getpid()));

  const auto expect_absent = [&](const std::string& says) {
    std::string why;
    auto reading = std::async(std::launch::async, [&] { return read_win_cache(path, rules, why).has_value(); });
    if (reading.wait_for(std::chrono::seconds(20)) != std::future_status::ready) {
      ADD_FAILURE() << "reading blocked";
      ::close(::open(path.c_str(), O_WRONLY | O_NONBLOCK));  // a FIFO: release the reader
    }
    EXPECT_FALSE(reading.get());
    EXPECT_NE(why.find(says), std::string::npos) << why;
    std::ostringstream log;
    EXPECT_EQ(cached_win_solution(scoring, log)->first_wins(), value);
    EXPECT_NE(log.str().find("warning: " + path + ": " + says), std::string::npos) << log.str();
    std::filesystem::remove_all(path);
  };
  std::filesystem::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  expect_absent("not a regular file");
  std::filesystem::create_symlink("/dev/zero", path);
  expect_absent("not a regular file");
  std::filesystem::resize_file(cache.dir().write("huge", ""), std::uintmax_t(1) << 30);  // sparse
  std::filesystem::rename(cache.dir().file("huge"), path);
  expect_absent("larger than any solution");
  std::filesystem::create_directory(path);
  std::filesystem::create_directory(path + "/inside");  // the rename over it fails too
  expect_absent("not a regular file");

  {  // a full disk: the warning says why, and no temporary is left
    rlimit saved;
    ::getrlimit(RLIMIT_FSIZE, &saved);
    const rlimit tiny{1024, saved.rlim_max};
    const auto previous = std::signal(SIGXFSZ, SIG_IGN);
    ::setrlimit(RLIMIT_FSIZE, &tiny);
    std::ostringstream log;
    cached_win_solution(scoring, log);
    ::setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previous);
    EXPECT_NE(log.str().find("not cached: " + path + ": writing failed: File too large"), std::string::npos)
        << log.str();
  }
  for (const auto& entry : std::filesystem::directory_iterator(cache.dir().path()))
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
}

TEST(TenkWin, OptimalAgainstItselfIsTheValueAndUnbeatenByTheFamilies) {
  expect_optimal_is_unbeaten(small_rules("seed000", 2000), "seed000");
  expect_optimal_is_unbeaten(small_rules("seed003", 1500), "seed003");
  Rules rules = small_rules("seed000", 1500);
  rules.continue_previous = true;
  expect_optimal_is_unbeaten(rules, "IV.5");
  rules.continue_previous = false;
  rules.exact_target = true;
  rules.last_turn = true;
  expect_optimal_is_unbeaten(rules, "exact target, last turn");
  rules = small_rules("seed000", 1500);
  rules.partial_set_aside = true;
  expect_optimal_is_unbeaten(rules, "IV.4");
}

// `solve tenk --win --json` gives every number at full precision and says
// whether the solution was solved now or read from the cache; the text says
// the same ("loaded from the cache ..., solved there on ...").
TEST(TenkWinSolve, JsonHasFullPrecisionAndSaysWhenTheSolutionWasLoaded) {
  const CachedIn cache;
  const json config = {
      {"game", "tenk"},
      {"games", 1},
      {"rules", {{"target", 2000}}},
      {"strategies",
       {{{"name", "ev"}, {"family", "ev_heuristic"}}, {{"name", "bank"}, {"family", "bank_at"}, {"total", 350}}}},
      {"contests", {{"distributions", false}, {"sequential", true}}}};
  const std::string path = cache.dir().write("small.json", config.dump());
  const auto solved = testing::dicesim("solve tenk --win --json --config " + path);
  ASSERT_EQ(solved.exit_code, 0) << solved.out;
  const json first = json::parse(solved.out);
  EXPECT_FALSE(first["solve"]["loaded_from_cache"].get<bool>());
  const auto loaded = testing::dicesim("solve tenk --win --json --config " + path);
  ASSERT_EQ(loaded.exit_code, 0) << loaded.out;
  const json second = json::parse(loaded.out);
  EXPECT_TRUE(second["solve"]["loaded_from_cache"].get<bool>());
  EXPECT_EQ(second["first_wins"], first["first_wins"]);

  const Rules rules = read_rules(JsonNode(config["rules"], "rules"));
  const WinSolution solution = solve_win(Scoring(rules));
  EXPECT_EQ(first["first_wins"].get<double>(), solution.first_wins());  // exact: no digits lost
  EXPECT_EQ(first["tie"].get<double>(), solution.tie());
  EXPECT_EQ(first["against_each_strategy"][0]["strategy"], "ev");

  const auto text = testing::dicesim("solve tenk --win --config " + path);
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_NE(text.out.find("loaded from the cache " + win_cache_path(rules) + ", solved there on "), std::string::npos)
      << text.out;
  EXPECT_EQ(text.out.find("solved in"), std::string::npos) << text.out;
}

}  // namespace
}  // namespace dicesim::tenk
