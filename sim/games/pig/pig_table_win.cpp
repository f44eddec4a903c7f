#include "games/pig/pig_table_win.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/enumerable_thread_specific.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <deque>
#include <functional>
#include <optional>
#include <stdexcept>

#include "config/json_input.h"
#include "engine/memory_budget.h"
#include "engine/progress.h"
#include "math/score_tuples.h"
#include "math/turn_cycle.h"

namespace dicesim::pig {

std::size_t TableWin::tuple(const int* scores) const { return encode_tuple(scores, seats_, goal_); }

const SeatOdds& TableWin::value(int mover, const int* scores) const {
  const int sum = TupleLayers::sum(scores, seats_);
  const std::vector<SeatOdds>& layer = layers_[std::size_t(sum)];
  if (layer.empty())
    throw std::logic_error("TableWin::value: the values of scores summing to " + std::to_string(sum) +
                           " were dropped (kept: below " + std::to_string(kept_below_sum_) + ")");
  return layer[layering_.rank(scores, sum) * std::size_t(seats_) + std::size_t(mover)];
}

bool TableWin::holds(int mover, const int* scores, int total) const {
  if (hold_bits_.empty()) throw std::logic_error("TableWin::holds: a solve that kept no decisions");
  const std::size_t bit = state(mover, scores) * std::size_t(goal_) + std::size_t(total);
  return (hold_bits_[bit / 64] >> (bit % 64)) & 1;
}

const TableWin::Mix* TableWin::mix_at(std::size_t state) const {
  if (mixed_states_.empty() || !((mixed_states_[state / 64] >> (state % 64)) & 1)) return nullptr;
  const auto at = std::lower_bound(mixes_.begin(), mixes_.end(), state,
                                   [](const Mix& mix, std::size_t s) { return mix.state < s; });
  return &*at;
}

double TableWin::hold_chance(int mover, const int* scores, int total) const {
  const Mix* mix = mix_at(state(mover, scores));
  return mix && mix->total == total ? mix->hold : double(holds(mover, scores, total));
}

Decision TableWin::decision() const {
  return [this](int seat, const int* scores, int total) { return hold_chance(seat, scores, total); };
}

void TableWin::set_mixes(std::vector<Mix> mixes) {
  std::sort(mixes.begin(), mixes.end(), [](const Mix& a, const Mix& b) { return a.state < b.state; });
  mixes_ = std::move(mixes);
  mixed_states_.clear();
  if (mixes_.empty()) return;
  mixed_states_.assign((turn_starts() + 63) / 64, 0);
  for (const Mix& mix : mixes_) mixed_states_[mix.state / 64] |= std::uint64_t(1) << (mix.state % 64);
}

Decision hold_at_decision(int total) {
  return [total](int, const int*, int turn_total) { return turn_total >= total; };
}

Decision policy_decision(const Policy& policy, int seats) {
  if (policy.phases() != 1) throw std::logic_error("policy_decision: a policy that plans its turns");
  return [&policy, seats](int seat, const int* scores, int total) {
    int leader = 0;
    for (int other = 0; other < seats; ++other) leader = std::max(leader, other == seat ? 0 : scores[other]);
    return policy.hold(0, scores[seat], leader, total);
  };
}

namespace {

// The values of every tuple: every turn start's odds.
double whole_values_bytes(const Rules& rules, int seats) {
  double tuples = 1;
  for (int k = 0; k < seats; ++k) tuples *= rules.goal;
  return tuples * seats * double(sizeof(SeatOdds));
}

// The most values a dropping solve holds at once: while it solves one sum,
// that sum and the goal - 1 above it.
double window_values_bytes(const Rules& rules, int seats) {
  // At least goal sums of the average size: past the limit already, it is
  // not counted (a hostile goal would take long to).
  const double at_least = whole_values_bytes(rules, seats) * rules.goal / (seats * (rules.goal - 1) + 1);
  if (at_least > double(kMostTableWinBytes)) return at_least;
  const TupleLayers layers(seats, rules.goal);
  double most = 0;
  for (int low = 0; low < layers.sums(); ++low) {
    double held = 0;
    for (int sum = low; sum < std::min(layers.sums(), low + rules.goal); ++sum) held += double(layers.size(sum));
    most = std::max(most, held);
  }
  return most * seats * double(sizeof(SeatOdds));
}

}  // namespace

bool drops_values(const Rules& rules, int seats) {
  return rules.dice == 1 && whole_values_bytes(rules, seats) > double(kMostKeptValuesBytes);
}

std::uint64_t table_win_bytes(const Rules& rules, int seats, bool decisions) {
  double tuples = 1;
  for (int k = 0; k < seats; ++k) tuples *= rules.goal;
  // A bit per decision, and one per turn start: whether it randomises.
  const double bits = decisions || rules.dice == 2 ? tuples * seats * (rules.goal + 1) / 8.0 : 0;
  const double values =
      drops_values(rules, seats) ? window_values_bytes(rules, seats) : whole_values_bytes(rules, seats);
  // Two dice: the values resets read (every seat's odds where the previous
  // seat is at 0), in up to 24 vectors at once: the last seven passes'
  // before and after, six differences and the acceleration's own.
  constexpr double kResetVectors = 24;
  const double resets = rules.dice == 2 ? tuples / rules.goal * seats * seats * sizeof(double) * kResetVectors : 0;
  return static_cast<std::uint64_t>(std::min(1e19, values + bits + resets));
}

std::string table_win_refusal(const Rules& rules, int seats) {
  if (seats < 2 || seats > kMostTableSeats)
    return "a table of " + std::to_string(seats) + " seats: win-optimal play is solved for 2 to " +
           std::to_string(kMostTableSeats) + " seats";
  const std::uint64_t bytes = table_win_bytes(rules, seats);
  if (bytes > kMostTableWinBytes)
    return "a table of " + std::to_string(seats) + " seats at goal " + std::to_string(rules.goal) + " needs " +
           std::to_string(bytes >> 20) +
           " MiB (every seat's score at every turn start: the values held and the decisions), more than the " +
           std::to_string(kMostTableWinBytes >> 20) + " MiB allowed";
  return {};
}

void charge_table_win(const Rules& rules, int seats, const std::string& what) {
  memory_budget().charge_once(
      "pig table " + std::to_string(rules.dice) + " " + std::to_string(rules.goal) + " " + std::to_string(seats),
      table_win_bytes(rules, seats), what);
}

// One solve: the tables it fills, and the turn of one seat as an affine
// function of the next seat's value at the same scores.
class TableWinSolver {
 public:
  TableWinSolver(const Rules& rules, int seats, const std::vector<Decision>& fixed, const TableWinOptions& options)
      : rules_(rules), odds_(throw_odds(rules)), fixed_(fixed) {
    fixed_.resize(std::size_t(seats));
    all_fixed_ = std::all_of(fixed_.begin(), fixed_.end(), [](const Decision& d) { return bool(d); });
    one_free_ = std::count_if(fixed_.begin(), fixed_.end(), [](const Decision& d) { return !d; }) == 1;
    // Two dice's passes read the last pass's values and decisions at every sum.
    drop_values_ = rules.dice == 1 && options.drop_values.value_or(drops_values(rules, seats));
    keep_decisions_ = rules.dice == 2 || options.keep_decisions;
    out_.seats_ = seats;
    out_.goal_ = rules.goal;
    out_.tuples_ = 1;
    for (int k = 0; k < seats; ++k) out_.tuples_ *= std::size_t(rules.goal);
    out_.layering_ = TupleLayers(seats, rules.goal);
    out_.layers_.resize(std::size_t(out_.layering_.sums()));
    // Two dice's resets read lower sums before their first pass reaches them.
    if (!drop_values_)
      for (int sum = 0; sum < out_.layering_.sums(); ++sum)
        out_.layers_[std::size_t(sum)].assign(out_.layering_.size(sum) * std::size_t(seats), SeatOdds{});
    if (keep_decisions_) out_.hold_bits_.assign((out_.turn_starts() * std::size_t(rules.goal) + 63) / 64, 0);
  }

  TableWin solve() {
    const auto start = std::chrono::steady_clock::now();
    double change = 0;
    ResetTargets resets(reset_targets());
    PassHistory history;
    // One die: one pass, whose end is known; two dice: passes until they agree.
    Progress progress("Pig win-optimal table of " + std::to_string(out_.seats_) + ": score tuples (" +
                          readable_count(double(out_.tuples_)) + " a pass)",
                      rules_.dice == 1 ? out_.tuples_ : 0);
    constexpr int kMostPasses = 10000;
    // A best reply gone plain that has not settled after this many more
    // passes is given up (its gain unknown): about 20 minutes at goal 100.
    constexpr int kMostPlainPasses = 200;
    int plain_from = 0;  // the pass where a best reply's accelerated passes returned, if they did
    do {
      if (rules_.dice == 2) resets.read_before(out_);
      change = 0;
      out_.unsettled_tuples = out_.cycled_tuples = out_.mixed_tuples = 0;
      out_.most_cycled_gain = 0;
      for (Scratch& scratch : scratches_) scratch.mixes.clear();
      for (int sum = out_.layering_.sums(); sum-- > 0;) {
        change = std::max(change, solve_sum(sum));
        progress.advance(out_.layering_.size(sum));
      }
      gather_mixes();
      if (drop_values_) out_.kept_below_sum_ = rules_.goal;
      ++out_.passes;
      // A pass within the tolerance ends the solve: it is never a cycle.
      if (rules_.dice == 2 && change > kTableWinTolerance && !plain_from && history.cycles_after(decisions_hash())) {
        // One free seat against fixed ones is a plain optimisation, with a
        // pure optimum that plain passes reach (each a contraction towards
        // it): its returns come from the acceleration's jumps across
        // decisions that nearly tie, so it goes on without them.
        if (!one_free_) {
          out_.cycle = TableWin::Cycle{history.returns(), flipped_, change};
          break;
        }
        plain_from = out_.passes;
      }
      if (plain_from && out_.passes - plain_from > kMostPlainPasses) break;
      flipped_ = 0;
      // The last pass is a plain one: only it decides that the values stand.
      if (rules_.dice == 2 && change > kTableWinTolerance && !plain_from) resets.accelerate(out_);
    } while (rules_.dice == 2 && change > kTableWinTolerance && out_.passes < kMostPasses);
    out_.passes_settled = out_.cycle || change <= kTableWinTolerance || rules_.dice == 1;
    out_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(out_);
  }

 private:
  // A seat's turn from turn total t: value = constant + bust * (the next
  // seat's value at the same scores).
  using Affine = TurnLottery<kMostTableSeats>;
  using Path = TurnPath<kMostTableSeats>;

  // Two 1s send the thrower's score to 0, a lower sum, whose values a pass
  // reads as they were before it: the passes converge geometrically, slowly
  // at goal 100 (three players' games pass through many resets). A pass is a
  // map from the values that resets read (the turn starts with the previous
  // seat at 0) to the same values after it; its fixed point is found by
  // Anderson acceleration: the next pass starts from the combination of the
  // last few passes' results whose residuals cancel best (least squares).
  // The pass that ends the solve is a plain one, which must move nothing by
  // more than kTableWinTolerance: the acceleration only saves passes.
  struct ResetTargets {
    static constexpr int kMemory = 6;
    std::vector<std::size_t> states;  // (mover, tuple) a reset reads
    std::vector<double> x;            // their values before the pass
    std::deque<std::vector<double>> xs, gs;

    void read_before(TableWin& table) { x = gather(table); }
    std::vector<double> gather(TableWin& table) const {
      std::vector<double> v;
      v.reserve(states.size() * std::size_t(table.seats()));
      for (std::size_t state : states)
        for (int k = 0; k < table.seats(); ++k) v.push_back(at(table, state)[std::size_t(k)]);
      return v;
    }
    void accelerate(TableWin& table) {
      xs.push_back(x);
      gs.push_back(gather(table));
      if (xs.size() > kMemory + 1) xs.pop_front(), gs.pop_front();
      const std::size_t n = xs.size();
      if (n < 2) return;
      // Residuals f_i = g_i - x_i; minimise |f_last - sum c_j (f_last - f_j)| over c.
      const std::size_t size = x.size(), m = n - 1;
      std::vector<std::vector<double>> d(m, std::vector<double>(size));
      std::vector<double> f(size);
      for (std::size_t e = 0; e < size; ++e) f[e] = gs[m][e] - xs[m][e];
      for (std::size_t j = 0; j < m; ++j)
        for (std::size_t e = 0; e < size; ++e) d[j][e] = f[e] - (gs[j][e] - xs[j][e]);
      std::vector<double> normal(m * m, 0.0), rhs(m, 0.0);
      for (std::size_t i = 0; i < m; ++i) {
        for (std::size_t e = 0; e < size; ++e) rhs[i] += d[i][e] * f[e];
        for (std::size_t j = 0; j <= i; ++j) {
          double sum = 0;
          for (std::size_t e = 0; e < size; ++e) sum += d[i][e] * d[j][e];
          normal[i * m + j] = normal[j * m + i] = sum;
        }
      }
      const std::optional<std::vector<double>> c = solve_small(normal, rhs, m);
      if (!c) {  // the residuals no longer tell the directions apart: start over
        xs.clear(), gs.clear();
        return;
      }
      std::vector<double> next = gs[m];
      for (std::size_t j = 0; j < m; ++j)
        for (std::size_t e = 0; e < size; ++e) next[e] -= (*c)[j] * (gs[m][e] - gs[j][e]);
      scatter(table, next);
    }
    void scatter(TableWin& table, const std::vector<double>& v) const {
      std::size_t e = 0;
      for (std::size_t state : states)
        for (int k = 0; k < table.seats(); ++k) at(table, state)[std::size_t(k)] = v[e++];
    }
    // The values of a state (mover, tuple), as TableWin::state numbers them.
    static SeatOdds& at(TableWin& table, std::size_t state) {
      int scores[kMostTableSeats] = {};
      decode_tuple(state % table.tuples_, table.seats(), table.goal(), scores);
      return table.cell(int(state / table.tuples_), scores, TupleLayers::sum(scores, table.seats()));
    }
    // Gaussian elimination with partial pivoting; nullopt when singular.
    static std::optional<std::vector<double>> solve_small(std::vector<double> a, std::vector<double> b, std::size_t m) {
      double scale = 0;
      for (double v : a) scale = std::max(scale, std::abs(v));
      for (std::size_t col = 0; col < m; ++col) {
        std::size_t pivot = col;
        for (std::size_t r = col + 1; r < m; ++r)
          if (std::abs(a[r * m + col]) > std::abs(a[pivot * m + col])) pivot = r;
        if (std::abs(a[pivot * m + col]) <= 1e-12 * scale) return std::nullopt;
        for (std::size_t k = 0; k < m; ++k) std::swap(a[col * m + k], a[pivot * m + k]);
        std::swap(b[col], b[pivot]);
        for (std::size_t r = col + 1; r < m; ++r) {
          const double factor = a[r * m + col] / a[col * m + col];
          for (std::size_t k = col; k < m; ++k) a[r * m + k] -= factor * a[col * m + k];
          b[r] -= factor * b[col];
        }
      }
      std::vector<double> x(m);
      for (std::size_t r = m; r-- > 0;) {
        double v = b[r];
        for (std::size_t k = r + 1; k < m; ++k) v -= a[r * m + k] * x[k];
        x[r] = v / a[r * m + r];
      }
      return x;
    }
  };

  // The turn starts a reset leads to: seat m's two 1s hand the next seat the
  // scores with m's at 0.
  ResetTargets reset_targets() const {
    ResetTargets targets;
    if (rules_.dice != 2) return targets;
    const int seats = out_.seats_;
    int scores[kMostTableSeats] = {};
    for (int mover = 0; mover < seats; ++mover)
      for (std::size_t tuple = 0; tuple < out_.tuples_; ++tuple) {
        decode_tuple(tuple, seats, rules_.goal, scores);
        if (scores[(mover + seats - 1) % seats] == 0)
          targets.states.push_back(std::size_t(mover) * out_.tuples_ + tuple);
      }
    return targets;
  }

  // The pass's mixes, from every thread, into the table.
  void gather_mixes() {
    std::vector<TableWin::Mix> mixes;
    for (const Scratch& scratch : scratches_) mixes.insert(mixes.end(), scratch.mixes.begin(), scratch.mixes.end());
    out_.set_mixes(std::move(mixes));
  }

  // What solving some tuples found.
  struct Tally {
    double change = 0;          // how far a value moved since the last pass
    std::size_t unsettled = 0;  // tuples whose rounds did not settle, nor a mix found
    std::size_t cycled = 0;     // tuples whose rounds cycled, solved on the best-turn paths
    std::size_t mixed = 0;      // of those, where some seat randomises
    double cycled_gain = 0;     // the most a seat gains at those by another turn
    std::uint64_t flipped = 0;  // decisions changed
    Tally operator+(const Tally& other) const {
      return {std::max(change, other.change),
              unsettled + other.unsettled,
              cycled + other.cycled,
              mixed + other.mixed,
              std::max(cycled_gain, other.cycled_gain),
              flipped + other.flipped};
    }
  };
  // A thread's working rows: per turn total, the turn being solved; per
  // seat, the next seat's values where it holds (by turn total) and where
  // two 1s reset it, looked up once a tuple (they lie at other sums).
  struct Scratch {
    std::vector<Affine> totals, rolls;  // per turn total: the turn from there, and throwing on
    std::array<std::vector<const SeatOdds*>, kMostTableSeats> holds;
    std::array<const SeatOdds*, kMostTableSeats> reset{};
    std::array<std::vector<std::uint8_t>, kMostTableSeats> first_holds;  // each path's first node
    std::array<std::vector<int>, kMostTableSeats> flips;                 // [k]: the total nodes k and k + 1 differ at
    std::vector<TableWin::Mix> mixes;                                    // found by this thread in this pass
  };

  void look_up_reads(const int* scores, int sum, Scratch& scratch) {
    const int seats = out_.seats_;
    int moved[kMostTableSeats];
    std::copy_n(scores, seats, moved);
    for (int m = 0; m < seats; ++m) {
      const int own = scores[m], next = (m + 1) % seats;
      std::vector<const SeatOdds*>& holds = scratch.holds[std::size_t(m)];
      holds.resize(std::size_t(rules_.goal - own));
      for (int t = 1; t < rules_.goal - own; ++t) {
        moved[m] = own + t;
        holds[std::size_t(t)] = &out_.cell(next, moved, sum + t);
      }
      moved[m] = 0;
      scratch.reset[std::size_t(m)] = rules_.dice == 2 && own > 0 ? &out_.cell(next, moved, sum - own) : nullptr;
      moved[m] = own;
    }
  }

  // Every tuple of one score sum, in parallel: their turns read only higher
  // sums (and, two dice's resets, the last pass's lower ones). Returns how
  // far their values moved since the last pass.
  double solve_sum(int sum) {
    std::vector<SeatOdds>& layer = out_.layers_[std::size_t(sum)];
    const std::uint64_t size = out_.layering_.size(sum);
    if (layer.empty()) layer.assign(size * std::size_t(out_.seats_), SeatOdds{});
    constexpr std::uint64_t kGrain = 64;
    const Tally tally = tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, size, kGrain), Tally{},
        [&](const tbb::blocked_range<std::uint64_t>& ranks, Tally found) {
          Scratch& scratch = scratches_.local();
          for (std::uint64_t rank = ranks.begin(); rank != ranks.end(); ++rank)
            found = found + solve_tuple(sum, rank, scratch);
          return found;
        },
        std::plus<Tally>());
    out_.unsettled_tuples += tally.unsettled;
    out_.cycled_tuples += tally.cycled;
    out_.mixed_tuples += tally.mixed;
    out_.most_cycled_gain = std::max(out_.most_cycled_gain, tally.cycled_gain);
    flipped_ += tally.flipped;
    // A sum reads at most goal - 1 above itself: the next one down no longer
    // reads sum + goal - 1 (the sums below the goal are kept).
    const int unread = sum + rules_.goal - 1;
    if (drop_values_ && sum > 0 && unread < out_.layering_.sums())
      std::vector<SeatOdds>().swap(out_.layers_[std::size_t(unread)]);
    return tally.change;
  }

  // The n turn starts at one score tuple, solved together: rounds of best
  // replies; where they cycle, a mixed equilibrium of the tuple's turns.
  Tally solve_tuple(int sum, std::uint64_t rank, Scratch& scratch) {
    const int seats = out_.seats_;
    int scores[kMostTableSeats] = {};
    out_.layering_.unrank(sum, rank, scores);
    SeatOdds* values = &out_.layers_[std::size_t(sum)][rank * std::size_t(seats)];
    std::array<SeatOdds, kMostTableSeats> before, estimate;
    for (int m = 0; m < seats; ++m) before[m] = estimate[m] = values[m];
    std::array<Affine, kMostTableSeats> turn;
    std::array<std::vector<std::uint8_t>, kMostTableSeats> decisions, previous;
    std::array<FixedMix, kMostTableSeats> fixed_mixes{};
    look_up_reads(scores, sum, scratch);
    CycleWatch<kMostTableSeats> watch(kRoundsAtATuple);
    bool settled = false;
    for (int round = 0; watch.plays(round) && !settled; ++round) {
      for (int m = 0; m < seats; ++m) {
        const double x = estimate[(m + 1) % seats][m];
        watch.see(round, m, x);
        turn[m] = solve_turn(m, scores, x, decisions[m], fixed_mixes[m], scratch);
      }
      estimate = close_turn_cycle(turn, seats);
      // Fixed decisions never change: the first round is exact.
      settled = all_fixed_ || (round > 0 && decisions == previous);
      previous = decisions;
      if (!settled)
        watch.unsettled(round, [&] {
          std::uint64_t hash = RoundHistory::kEmpty;
          for (int m = 0; m < seats; ++m) hash = RoundHistory::hash(hash, decisions[m].data(), decisions[m].size());
          return hash;
        });
    }
    Tally tally;
    if (!settled) {
      if (const auto mix = mix_tuple(scores, watch.watched(), decisions, fixed_mixes, scratch)) {
        estimate = mix->values;
        settled = true;
        tally.cycled = 1;
        tally.mixed = std::any_of(mix->plays.begin(), mix->plays.end(), [](CyclePlay p) { return p.toward_next > 0; });
        tally.cycled_gain = mix->gain;
      }
    }
    tally.unsettled = !settled;
    const std::size_t tuple = out_.tuple(scores);
    for (int m = 0; m < seats; ++m) {
      values[m] = estimate[m];
      const std::size_t state = std::size_t(m) * out_.tuples_ + tuple;
      if (keep_decisions_) {
        tally.flipped += store_decisions(state, decisions[m]);
        if (fixed_mixes[m].total > 0) scratch.mixes.push_back({state, fixed_mixes[m].total, fixed_mixes[m].hold});
      }
      for (int k = 0; k < seats; ++k) tally.change = std::max(tally.change, std::abs(estimate[m][k] - before[m][k]));
    }
    return tally;
  }

  // A turn's randomised total (0: none) and the chance it holds there.
  struct FixedMix {
    int total = 0;
    double hold = 0;
  };

  // Where a tuple's best replies cycled: each free seat's best turns as
  // busting grows in worth (its path), and a profile on the paths, pure or
  // mixed, at which no seat gains by another turn (math/turn_cycle.h),
  // searched first where the rounds went, then over the whole paths. Sets
  // the decisions (and mixes) to it; nullopt where none was found.
  std::optional<CycleEquilibrium<kMostTableSeats>> mix_tuple(
      const int* scores, const std::array<std::pair<double, double>, kMostTableSeats>& watched,
      std::array<std::vector<std::uint8_t>, kMostTableSeats>& decisions,
      std::array<FixedMix, kMostTableSeats>& fixed_mixes, Scratch& scratch) {
    const int seats = out_.seats_;
    std::array<Path, kMostTableSeats> paths;
    for (int m = 0; m < seats; ++m)
      paths[m] = fixed_[m] ? Path{{solve_turn(m, scores, 0, decisions[m], fixed_mixes[m], scratch)}, {}}
                           : best_turn_path(m, scores, scratch.first_holds[m], scratch.flips[m], scratch);
    const auto found = settle_cycle(paths, seats, watched);
    if (!found) return std::nullopt;
    const std::size_t tuple = out_.tuple(scores);
    for (int m = 0; m < seats; ++m) {
      if (fixed_[m]) continue;
      const CyclePlay play = found->plays[m];
      decisions[m] = scratch.first_holds[m];
      const std::vector<int>& flips = scratch.flips[m];
      for (int k = 0; k < play.node; ++k) decisions[m][std::size_t(flips[std::size_t(k)])] = 0;
      if (play.toward_next > 0 && keep_decisions_)
        scratch.mixes.push_back(
            {std::size_t(m) * out_.tuples_ + tuple, flips[std::size_t(play.node)], 1 - play.toward_next});
    }
    return found;
  }

  // Seat m's best turns as x, what the next seat's start at these scores is
  // worth to it, grows from 0 to 1 (a TurnPath): the best at 0 (ties
  // hold), then, one at a time, the hold whose throwing on first catches
  // up with it as x grows. Throwing on is worth an affine function of x
  // under the turn's later decisions, growing with it, so a decision only
  // ever flips from holding to throwing, and each flip's turn is best from
  // its threshold to the next (policy improvement finds nothing better in
  // between). `first` receives the first node's decisions and `flips` the
  // total at which each node throws on where the one before held.
  Path best_turn_path(int m, const int* scores, std::vector<std::uint8_t>& first, std::vector<int>& flips,
                      Scratch& scratch) {
    Path path;
    flips.clear();
    FixedMix none;
    path.nodes.push_back(solve_turn(m, scores, 0, first, none, scratch));
    std::vector<std::uint8_t> holds = first;
    const std::vector<const SeatOdds*>& hold_values = scratch.holds[std::size_t(m)];
    for (double x = 0;;) {
      int flip = 0;
      double at = 2;
      for (std::size_t t = 1; t < holds.size(); ++t) {
        const Affine& roll = scratch.rolls[t];
        if (!holds[t] || roll.bust <= 0) continue;
        const double catches = std::max(x, ((*hold_values[t])[m] - roll.constant[m]) / roll.bust);
        if (catches < at) at = catches, flip = int(t);
      }
      if (flip == 0 || at > 1) break;
      holds[std::size_t(flip)] = 0;
      x = at;
      path.thresholds.push_back(at);
      flips.push_back(flip);
      path.nodes.push_back(turn_under(
          m, scores, scratch, [&](int t, const SeatOdds&, const Affine&) { return double(holds[std::size_t(t)]); }));
    }
    return path;
  }

  // Seat m's turn with the others' values fixed: the best reply (or the
  // seat's fixed strategy), deciding as if the next seat's start at these
  // scores were worth x to it, returned as an affine function of that value.
  // A fixed strategy's randomised total goes to `mix`.
  Affine solve_turn(int m, const int* scores, double x, std::vector<std::uint8_t>& decisions, FixedMix& mix,
                    Scratch& scratch) {
    decisions.assign(std::size_t(rules_.goal - scores[m]), 0);
    mix = FixedMix{};
    return turn_under(m, scores, scratch, [&](int t, const SeatOdds& hold, const Affine& roll) {
      double chance = 1;  // of holding; ties hold
      if (!fixed_[m]) {
        chance = hold[m] >= roll.own(m, x) ? 1 : 0;
      } else if (chance = fixed_[m](m, scores, t); chance > 0 && chance < 1) {
        if (mix.total > 0) throw std::logic_error("Pig table solve: a fixed strategy randomises twice a turn");
        mix = FixedMix{t, chance};
      }
      decisions[std::size_t(t)] = chance >= 1;
      return chance;
    });
  }

  // Seat m's turn by decide(t, hold, roll), its chance of holding at turn
  // total t given the values of holding and of throwing on there: every
  // total's turn into scratch.totals and throwing on into scratch.rolls.
  // Returns the turn from its start.
  template <class Decide>
  Affine turn_under(int m, const int* scores, Scratch& scratch, Decide&& decide) {
    const int own = scores[m], room = rules_.goal - own;
    const std::vector<const SeatOdds*>& hold_values = scratch.holds[std::size_t(m)];
    const SeatOdds* reset_value = scratch.reset[std::size_t(m)];
    std::vector<Affine>& totals = scratch.totals;
    totals.resize(std::size_t(rules_.goal));
    scratch.rolls.resize(std::size_t(rules_.goal));
    const double bust = odds_.probability(odds_.bust), reset = odds_.probability(odds_.reset);
    // Two 1s at a score of 0 leave the scores as they are: a bust.
    const bool reset_is_bust = own == 0;
    for (int t = room - 1; t >= 0; --t) {
      Affine roll;
      roll.bust = bust + (reset_is_bust ? reset : 0);
      if (!reset_is_bust && reset > 0) add_scaled(roll.constant, *reset_value, reset);
      for (const auto& [points, ways] : odds_.points) {
        const double p = odds_.probability(ways);
        if (t + points >= room) {
          roll.constant[m] += p;  // the goal: seat m wins at once
        } else {
          add_scaled(roll.constant, totals[t + points].constant, p);
          roll.bust += p * totals[t + points].bust;
        }
      }
      scratch.rolls[t] = totals[t] = roll;
      if (t == 0) break;  // a turn starts with a throw
      const SeatOdds& hold = *hold_values[std::size_t(t)];
      const double chance = decide(t, hold, roll);
      if (chance >= 1) {
        totals[t] = Affine{hold, 0.0};
      } else if (chance > 0) {
        for (std::size_t k = 0; k < hold.size(); ++k) totals[t].constant[k] += chance * (hold[k] - roll.constant[k]);
        totals[t].bust = (1 - chance) * roll.bust;
      }
    }
    return totals[0];
  }

  // One state's decisions into the bits; returns how many changed. Other
  // threads write other states' bits, which may share a word (small goals):
  // each word is changed atomically.
  std::uint64_t store_decisions(std::size_t state, const std::vector<std::uint8_t>& decisions) {
    const std::size_t base = state * std::size_t(rules_.goal);
    std::uint64_t flipped = 0;
    for (std::size_t t = 0; t < decisions.size();) {
      const std::size_t bit = base + t, first = bit % 64;
      const std::size_t count = std::min<std::size_t>(64 - first, decisions.size() - t);
      std::uint64_t mask = 0, set = 0;
      for (std::size_t k = 0; k < count; ++k) {
        mask |= std::uint64_t(1) << (first + k);
        set |= std::uint64_t(decisions[t + k] != 0) << (first + k);
      }
      std::atomic_ref<std::uint64_t> word(out_.hold_bits_[bit / 64]);
      std::uint64_t old = word.load(std::memory_order_relaxed);
      while (!word.compare_exchange_weak(old, (old & ~mask) | set, std::memory_order_relaxed)) {
      }
      flipped += std::uint64_t(std::popcount((old ^ set) & mask));
      t += count;
    }
    return flipped;
  }

  static void add_scaled(SeatOdds& to, const SeatOdds& from, double scale) {
    for (std::size_t k = 0; k < to.size(); ++k) to[k] += from[k] * scale;
  }

  Rules rules_;
  ThrowOdds odds_;
  std::vector<Decision> fixed_;
  bool all_fixed_ = false;  // every seat plays fixed decisions: values only, nothing to improve
  bool one_free_ = false;   // a best reply: one seat optimises against fixed ones
  bool drop_values_ = false, keep_decisions_ = true;
  TableWin out_;
  tbb::enumerable_thread_specific<Scratch> scratches_;
  std::uint64_t flipped_ = 0;  // decisions the pass changed

  // FNV-1a over the decision bits.
  std::uint64_t decisions_hash() const {
    std::uint64_t hash = 14695981039346656037ull;
    for (std::uint64_t word : out_.hold_bits_) hash = (hash ^ word) * 1099511628211ull;
    return hash;
  }
};

bool PassHistory::cycles_after(std::uint64_t decisions_hash) {
  const bool recent = passes_.returned(decisions_hash);
  returns_ += recent && last_ != decisions_hash;
  last_ = decisions_hash;
  return returns_ >= kReturnsToCycle;
}

TableWin solve_table_win(const Rules& rules, int seats, const std::vector<Decision>& fixed,
                         const TableWinOptions& options) {
  if (const std::string why = table_win_refusal(rules, seats); !why.empty()) throw InputError(why);
  if (fixed.empty()) charge_table_win(rules, seats, "Pig's win-optimal table of " + std::to_string(seats) + " seats");
  TableWin table = TableWinSolver(rules, seats, fixed, options).solve();
  // A tuple whose rounds did not settle holds the exact values of its last
  // round's decisions (the round closes the cycle of turns for them) as long
  // as the tuples it reads are final: one die's single pass. With two dice,
  // and where the passes cycled, the values mix several passes' decisions:
  // the last decisions are evaluated exactly, every seat's fixed.
  const bool reevaluate = table.cycle || !table.passes_settled || (table.unsettled_tuples > 0 && rules.dice == 2);
  if (!reevaluate) return table;
  std::vector<Decision> last(std::size_t(seats), table.decision());
  for (std::size_t k = 0; k < fixed.size(); ++k)
    if (fixed[k]) last[k] = fixed[k];
  TableWin evaluated = TableWinSolver(rules, seats, last, options).solve();
  evaluated.cycle = table.cycle;
  evaluated.unsettled_tuples = table.unsettled_tuples;
  evaluated.cycled_tuples = table.cycled_tuples;
  evaluated.mixed_tuples = table.mixed_tuples;
  evaluated.most_cycled_gain = table.most_cycled_gain;
  evaluated.passes_settled = table.passes_settled;
  evaluated.passes += table.passes;
  evaluated.seconds += table.seconds;
  return evaluated;
}

std::vector<double> deviation_gains(const Rules& rules, const TableWin& table) {
  const int start[kMostTableSeats] = {};
  // One reply at a time, beside the table itself.
  memory_budget().charge_once("pig table reply " + std::to_string(rules.dice) + " " + std::to_string(rules.goal) + " " +
                                  std::to_string(table.seats()),
                              table_win_bytes(rules, table.seats(), false), "a best reply to Pig's table solve");
  std::vector<double> gains;
  for (int seat = 0; seat < table.seats(); ++seat) {
    std::vector<Decision> others(std::size_t(table.seats()), table.decision());
    others[std::size_t(seat)] = nullptr;
    // Read at the start only: no decisions kept (one die).
    const TableWin reply =
        solve_table_win(rules, table.seats(), others, {.keep_decisions = false, .drop_values = std::nullopt});
    // A reply whose passes did not settle is no best reply: its gain is not known.
    gains.push_back(reply.cycle || !reply.passes_settled
                        ? std::nan("")
                        : reply.value(0, start)[std::size_t(seat)] - table.value(0, start)[std::size_t(seat)]);
  }
  return gains;
}

}  // namespace dicesim::pig
