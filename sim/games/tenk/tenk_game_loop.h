// 10,000: the hot loop of a whole game (inline templates): the next turn of
// a game in progress, the two-seat loop and a whole game.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "engine/rng.h"
#include "games/tenk/tenk.h"
#include "games/tenk/tenk_rules.h"
#include "games/tenk/tenk_table_win.h"
#include "games/tenk/tenk_turn_play.h"
#include "games/tenk/tenk_turn_sampler.h"

namespace dicesim::tenk {

// Places (seed 000, III): who reached the target in an earlier round
// first, then the higher score; with last turns for everyone, the score
// alone. reached_round[s] < 0: seat s never reached it.
inline void assign_places(const Rules& rules, int players, const int* reached_round, GameResult& out) {
  const auto key = [&](int s) {
    const long reached = reached_round[s] >= 0 && !rules.last_turn ? reached_round[s] : rules.max_rounds;
    return reached * 100000000L - out.score[s];
  };
  for (int s = 0; s < players; ++s) {
    int place = 1;
    for (int o = 0; o < players; ++o) place += key(o) < key(s);
    out.place[s] = place;
  }
}

// Plays the next turn of game g and returns whether the game is over (then
// finish_game gives its result). The turn's score goes to on_turn(seat,
// units). samplers[s] (where given and not null) draws seat s's fresh
// turns whole, except last-turn chases. kLoop (chosen once per block, a
// table's games): whole where every seat has a sampler and no turn takes
// over a position (no IV.5), which leaves out what only those need;
// whole_by_score where, besides, no sampler is optimal_win's.
enum class TurnLoop { general, whole, whole_by_score };
template <TurnLoop kLoop = TurnLoop::general, class OnTurn>
bool play_next_turn(const Scoring& scoring, const Policy* const* seats, const TurnSampler* const* samplers, int players,
                    GameState& g, Rng& rng, OnTurn& on_turn) {
  const Rules& rules = scoring.rules();
  const int s = g.seat;
  const Policy& policy = *seats[s];
  const bool chase = g.finisher >= 0 && policy.chase;
  int units;
  constexpr bool kWholeTurns = kLoop != TurnLoop::general;
  if (kWholeTurns && !chase) [[likely]] {
    // The other seat's units (read by optimal_win's sampler only, at two
    // seats; s ^ 1 stays within g.units at any seat count).
    units =
        samplers[s]->turn_units<kLoop == TurnLoop::whole_by_score>(scoring, policy, s, g.units[s], g.units[s ^ 1], rng);
  } else {
    const int banked = g.units[s] * kPoint;
    const int theirs = players == 2 ? g.units[1 - s] * kPoint : 0;  // read by optimal_win only, at two seats
    const int beat = g.finisher >= 0 ? g.best(players) * kPoint : -1;
    Position start{0, rules.dice, kNoPending};
    const bool takes =
        rules.continue_previous && g.handed_valid && takes_over(rules, policy, s, banked, theirs, beat, g.handed);
    if (takes) start = g.handed;
    const TurnSampler* sampler = samplers ? samplers[s] : nullptr;
    const TurnResult turn =
        policy.table
            ? on_copy(rng, [&](Rng& copy) { return play_solved_table_turn(scoring, *policy.table, s, g, copy); })
        : sampler && !takes && !chase ? sampler->play_turn(scoring, policy, s, banked, theirs, rng)
                                      : play_turn_apart(scoring, policy, s, banked, theirs, start, beat, rng);
    g.handed = turn.position;
    g.handed_valid = turn.score > 0;
    units = turn.score / kPoint;
  }
  if (g.round == 0) g.first_turn[s] = units;
  on_turn(s, units);
  const int total = g.units[s] += units;
  const int score = total * kPoint;  // a multiplication, where units of the target would be a division
  const bool reached = rules.exact_target ? score == rules.target : score >= rules.target;
  if (reached && g.reached_round[s] < 0) [[unlikely]] {
    g.reached_round[s] = g.round;
    if (g.finisher < 0) g.finisher = s;
  }
  if (++g.seat == players) {
    g.seat = 0;
    // Without last turns for everyone the round that reached the target is the last.
    if (++g.round == rules.max_rounds || (g.finisher >= 0 && !rules.last_turn)) return true;
  }
  return g.finisher == g.seat;  // everyone else has had a last turn
}

// A finished game's result.
inline void finish_game(const Rules& rules, int players, const GameState& g, GameResult& out) {
  for (int s = 0; s < players; ++s) {
    out.score[s] = g.units[s] * kPoint;
    out.turns[s] = g.turns(s);
    out.first_turn[s] = g.first_turn[s] * kPoint;
  }
  out.capped = g.finisher < 0;
  assign_places(rules, players, g.reached_round, out);
}

// A two-seat game's result (play_two_seats): per seat its score, turns and
// first turn in units, and the round it reached the target in (< 0: never);
// finisher < 0: nobody reached it.
[[gnu::always_inline]] inline void finish_two_seats(const Rules& rules, const int* units, const int* turns,
                                                    const int* first, const int* reached_round, int finisher,
                                                    GameResult& out) {
  for (int s = 0; s < 2; ++s) {
    out.score[s] = units[s] * kPoint;
    out.turns[s] = turns[s];
    out.first_turn[s] = first[s] * kPoint;
  }
  out.capped = finisher < 0;
  assign_places(rules, 2, reached_round, out);
}

// Two seats drawing every fresh turn whole (TurnLoop::whole or
// whole_by_score at two seats, the commonest tables): the game of
// play_next_turn, turn for turn, with both scores and the round in
// registers. Seat 0 never plays a last turn within a round (the round that
// reached the target is the last); seat 1 may chase seat 0, and seat 0
// seat 1 after the round under last_turn. kByScore[s]: seat s's tables are
// per banked score (not optimal_win's), drawn through TurnSampler::ByScore.
// start: the units each seat starts with (a head start).
template <bool kByScore0, bool kByScore1, class OnTurn>
void play_two_seats(const Scoring& scoring, const Policy* const* seats, const TurnSampler* const* samplers, Rng& rng,
                    GameResult& out, OnTurn& on_turn, const int* start) {
  const Rules& rules = scoring.rules();
  int units[2] = {start[0], start[1]}, first[2] = {0, 0}, reached_round[2] = {-1, -1};
  int round = 0, finisher = -1;
  // Copies of the generator and of the tables' addresses, which stay in
  // registers: only copies of the generator reach the calls.
  Rng local = rng;
  const TurnSampler::ByScore tables[2] = {samplers[0]->by_score(), samplers[1]->by_score()};
  constexpr bool kByScore[2] = {kByScore0, kByScore1};
  // seat: std::integral_constant, so that each seat's way of drawing is
  // chosen at compile time.
  const auto fresh = [&](auto seat) {
    constexpr int s = decltype(seat)::value;
    if constexpr (kByScore[s]) {
      const std::uint32_t code = tables[s].draw(units[s], local);
      if (code != tables[s].decide_code) [[likely]]
        return static_cast<int>(code);  // the units banked
      return samplers[s]->decided_units(scoring, *seats[s], s, units[s], units[s ^ 1], local);
    } else {
      return samplers[s]->turn_units(scoring, *seats[s], s, units[s], units[s ^ 1], local);
    }
  };
  const auto last = [&](auto seat) {  // after the other reached the target
    constexpr int s = decltype(seat)::value;
    if (!seats[s]->chase) return fresh(seat);
    const int beat = std::max(units[0], units[1]) * kPoint;
    return play_turn_apart(scoring, *seats[s], s, units[s] * kPoint, units[s ^ 1] * kPoint, {0, rules.dice, kNoPending},
                           beat, local)
               .score /
           kPoint;
  };
  constexpr std::integral_constant<int, 0> kSeat0;
  constexpr std::integral_constant<int, 1> kSeat1;
  // A seat plays only before it reaches the target (the round that
  // reaches it is the last, and the other seat's last turn ends the game).
  const int target_units = rules.target / kPoint;
  const auto play = [&](int s, int turn) {
    on_turn(s, turn);
    units[s] += turn;
    if (rules.exact_target ? units[s] == target_units : units[s] >= target_units) [[unlikely]] {
      reached_round[s] = round;
      if (finisher < 0) finisher = s;
    }
  };
  int turns[2];
  for (;;) {
    play(0, fresh(kSeat0));
    play(1, finisher < 0 ? fresh(kSeat1) : last(kSeat1));
    turns[0] = turns[1] = ++round;
    if (round == 1) first[0] = units[0] - start[0], first[1] = units[1] - start[1];  // the first round's turns
    if (round == rules.max_rounds || finisher == 0) break;
    if (finisher == 1) {
      if (rules.last_turn) play(0, last(kSeat0)), ++turns[0];
      break;
    }
  }
  finish_two_seats(rules, units, turns, first, reached_round, finisher, out);
  rng = local;
}

// One whole game (see play_next_turn). start (null: 0 each): the units
// each seat starts with, a head start.
template <TurnLoop kLoop = TurnLoop::general, class OnTurn>
void play_game(const Scoring& scoring, const Policy* const* seats, int players, Rng& rng, GameResult& out,
               OnTurn on_turn, const TurnSampler* const* samplers = nullptr, const int* start = nullptr) {
  static constexpr int kFromZero[kMaxPlayers] = {};
  if (!start) start = kFromZero;
  if constexpr (kLoop == TurnLoop::whole_by_score)
    if (players == 2) return play_two_seats<true, true>(scoring, seats, samplers, rng, out, on_turn, start);
  if constexpr (kLoop == TurnLoop::whole)
    if (players == 2) {  // a seat or both play optimal_win
      if (!samplers[0]->per_turn_start())
        return play_two_seats<true, false>(scoring, seats, samplers, rng, out, on_turn, start);
      if (!samplers[1]->per_turn_start())
        return play_two_seats<false, true>(scoring, seats, samplers, rng, out, on_turn, start);
      return play_two_seats<false, false>(scoring, seats, samplers, rng, out, on_turn, start);
    }
  GameState g;
  std::copy_n(start, players, g.units);
  while (!play_next_turn<kLoop>(scoring, seats, samplers, players, g, rng, on_turn)) {
  }
  finish_game(scoring.rules(), players, g, out);
}

}  // namespace dicesim::tenk
