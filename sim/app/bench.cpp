#include "app/bench.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>

#include "config/terminal_text.h"
#include "engine/engine.h"
#include "engine/gpu.h"
#include "games/registry.h"
#include "plan/run_config.h"

namespace dicesim {
namespace {

// Every game's reference configs (GameEntry::bench_cases), in the order of games().
std::vector<BenchCase> bench_cases() {
  std::vector<BenchCase> all;
  for (const GameEntry& g : games()) all.insert(all.end(), g.bench_cases.begin(), g.bench_cases.end());
  return all;
}

using Clock = std::chrono::steady_clock;

std::uint64_t signature(const EngineOutput& output) {
  Fnv1a h;
  for (const auto& counters : output.counters)
    for (std::int64_t c : counters) h.add_word(static_cast<std::uint64_t>(c));
  return h.value();
}

// 16 hex digits, leading zeros included, so that a signature reads the same everywhere.
std::string hex16(std::uint64_t value) {
  std::ostringstream out;
  out << std::hex << std::setw(16) << std::setfill('0') << value;
  return out.str();
}

// A case's tables, ready to play: its strategies compiled, and (once
// warm_up has played them) their solutions attached and their samplers
// built, so that the timed runs count games only, not the solve (cached on
// disk, but read back in every fresh process) or the tables.
struct CaseRuns {
  std::unique_ptr<const RunConfig> config;  // the runs play its game and tables
  std::vector<TableRun> runs;
  DevicePlay on_gpu = {};  // with --device gpu, where the game has GPU play
};
CaseRuns case_runs(const BenchCase& c) {
  auto config = std::make_unique<const RunConfig>(load_run_config(json::parse(c.config), std::string(c.label)));
  std::vector<TableRun> runs = make_table_runs(*config);
  return {std::move(config), std::move(runs)};
}

// threads = 0: on the GPU (the runs' device plays).
EngineOutput run_case(const CaseRuns& c, std::uint64_t games, int threads) {
  std::vector<TableRun> runs = c.runs;
  for (TableRun& run : runs) run.games = games;
  EngineOptions options;
  options.seed = c.config->seed;
  options.threads = std::max(threads, 1);
  options.gpu = threads == 0;
  options.device_play = c.on_gpu;
  return run_tables(runs, options);
}

// Games per second of a case, the best of up to 3 runs within about a
// second (at least one run): a short run (Sixers at 2e7 games lasts a fifth
// of a second) is the most disturbed by other work on a shared machine.
// Every run gives the same counters; the signature is theirs.
std::pair<double, std::uint64_t> timed_case(const CaseRuns& runs, std::uint64_t games, int threads) {
  double best = 0, spent = 0;
  std::uint64_t sig = 0;
  for (int run = 0; run < 3 && (run == 0 || spent < 1.0); ++run) {
    const EngineOutput output = run_case(runs, games, threads);
    best = std::max(best, double(games) / output.wall_seconds);
    spent += output.wall_seconds;
    sig = signature(output);
  }
  return {best, sig};
}

// The floor of every case: pcg64 draws per second on one thread, the
// generator alone (its output folded into a sink the compiler must keep).
double pcg64_draws_per_second(std::uint64_t draws) {
  Rng rng = block_rng(1, 1, 0);
  std::uint64_t sink = 0;
  const Clock::time_point start = Clock::now();
  for (std::uint64_t i = 0; i < draws; ++i) sink ^= rng();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  volatile std::uint64_t keep = sink;
  (void)keep;
  return double(draws) / seconds;
}

// The draws a game of the case takes on average, counted rather than assumed:
// how far each contest's stream moved (PCG's distance between two states)
// while it played `games` games.
// Playing them is also the warm-up of the timed runs (see case_runs).
double draws_per_game(const CaseRuns& c, std::uint64_t games) {
  std::uint64_t draws = 0, played = 0;
  for (const TableRun& contest : c.runs) {
    std::vector<std::int64_t> counters(contest.counters, 0);
    Rng rng = block_rng(c.config->seed, contest.id, 0);
    const Rng start = rng;
    contest.play(games, rng, counters.data());
    draws += static_cast<std::uint64_t>(rng - start);
    played += games;
  }
  return double(draws) / double(played);
}

// The floor at `threads` threads: pcg64 draws per second of that many
// threads drawing at once, each its own stream (the best of 3). The machine
// sets it: on a shared host two cores do not give twice one, even for the
// generator alone, and a case's 2-thread scaling is to be read against it.
double pcg64_floor(std::uint64_t draws, int threads) {
  double best = 0;
  for (int run = 0; run < 3; ++run) {
    std::vector<double> rate(threads);
    std::vector<std::thread> workers;
    for (int t = 1; t < threads; ++t) workers.emplace_back([&, t] { rate[t] = pcg64_draws_per_second(draws); });
    rate[0] = pcg64_draws_per_second(draws);
    for (std::thread& w : workers) w.join();
    best = std::max(best, std::accumulate(rate.begin(), rate.end(), 0.0));
  }
  return best;
}

// The straightforward implementation the README compares against: a
// Mersenne Twister, std::uniform_int_distribution, a vector and a sort per
// roll, keeping dice that score 2 or less (f^dv(2,2)).
double naive_sixers_rate(std::uint64_t games) {
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> die(1, 6);
  std::vector<std::int64_t> histogram(37);
  const Clock::time_point start = Clock::now();
  for (std::uint64_t g = 0; g < games; ++g) {
    int dice = 6, score = 0;
    for (int roll = 0; roll < 3 && dice > 0; ++roll) {
      std::vector<int> scores;
      for (int d = 0; d < dice; ++d) {
        const int face = die(rng);
        scores.push_back(face == 3 ? 0 : face);
      }
      std::sort(scores.begin(), scores.end());
      int keep = roll == 2 ? dice : 0;
      if (roll < 2)
        while (keep < dice && scores[keep] <= 2) ++keep;
      keep = std::max(keep, 1);
      for (int k = 0; k < keep; ++k) score += scores[k];
      dice -= keep;
    }
    ++histogram[score];
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  volatile std::int64_t sink = histogram[10];  // keep the loop
  (void)sink;
  return double(games) / seconds;
}

// A case's row on the GPU, its speed-up over one thread; false if its
// counters differ from the CPU's (`cpu_signature`, at `games` games). Timed at
// no fewer games than a block per thread the GPU keeps in flight: fewer
// would leave most of it idle.
bool time_on_gpu(const BenchCase& c, CaseRuns& runs, std::uint64_t games, double one_thread,
                 std::uint64_t cpu_signature) {
  std::cout << std::left << std::setw(58) << c.label << std::right << std::setw(8) << "gpu";
  try {
    runs.on_gpu = device_play(*runs.config);
  } catch (const InputError&) {
    std::cout << "  no GPU play\n";
    return true;
  }
  const std::uint64_t sig = signature(run_case(runs, games, 0));
  const std::uint64_t timed_games = std::max(games, gpu_blocks_in_flight() * kBlockGames);
  const double rate = timed_case(runs, timed_games, 0).first;
  std::cout << std::setw(14) << std::setprecision(4) << std::scientific << rate << std::fixed << std::setprecision(2)
            << std::setw(10) << rate / one_thread << std::setw(22) << ""
            << "  " << hex16(sig) << "  (" << std::setprecision(1) << std::scientific << double(timed_games)
            << std::fixed << " games)\n";
  return sig == cpu_signature;
}

}  // namespace

void add_bench_options(CLI::App* cmd, BenchOptions& options) {
  cmd->add_option("--games", options.games, "games per case (accepts 1e8)");
  cmd->add_flag("--skip-naive", options.skip_naive, "do not time the straightforward implementation");
  cmd->add_option("--device", options.device,
                  "gpu: also time each case on the GPU (a row \"gpu\", its signature the CPU's; a case whose game "
                  "has no GPU play says so)")
      ->check(CLI::IsMember({"cpu", "gpu"}))
      ->type_name("DEVICE");
  cmd->add_option("--case", options.only,
                  "time only the cases whose label contains PART (the signature is then theirs only)")
      ->type_name("PART");
}

int run_bench(const BenchOptions& options) {
  const std::optional<std::uint64_t> games = parse_count(options.games);
  static_assert(kMaxGames == 1'000'000'000'000'000ULL, "the message below states it");
  if (!games || *games == 0 || *games > kMaxGames)
    throw InputError("--games: expected a whole number from 1 to 1e15, got " + quoted_text(options.games));
  std::vector<int> threads = options.threads;
  if (threads.empty()) threads = {1, available_cpus()};
  threads.erase(std::unique(threads.begin(), threads.end()), threads.end());
  const auto chosen = [&](const BenchCase& c) {
    return std::string_view(c.label).find(options.only) != std::string_view::npos;
  };
  const std::vector<BenchCase> cases = bench_cases();
  if (std::none_of(cases.begin(), cases.end(), chosen))
    throw InputError("--case: no case's label contains " + quoted_text(options.only));
  const bool gpu = options.device == "gpu";
  if (const std::string why = gpu ? gpu_unavailable() : ""; !why.empty()) throw InputError("--device gpu: " + why);
  if (gpu) std::cout << "gpu: " << terminal_text(gpu_description()) << "\n";

  std::map<int, double> floor;
  std::cout << "floor: pcg64 alone, draws/s";
  for (int t : threads) {
    floor[t] = pcg64_floor(*games * 10, t);
    std::cout << (t == threads.front() ? " " : ", ") << std::setprecision(4) << std::scientific << floor[t] << " on "
              << t << (t == 1 ? " thread" : " threads");
    if (t != threads.front())
      std::cout << " (" << std::fixed << std::setprecision(2) << floor[t] / floor[threads.front()] << "x)";
  }
  std::cout << std::fixed
            << "; a case's floor is that / its draws per game; a case marked (1/N) plays N times fewer games\n";
  std::cout << std::left << std::setw(58) << "case" << std::right << std::setw(8) << "threads" << std::setw(14)
            << "games/s" << std::setw(10) << "speedup" << std::setw(12) << "draws/game" << std::setw(10) << "of floor"
            << "  signature\n";
  std::uint64_t bench_signature = 0;
  bool consistent = true;
  double first_case_rate = 0;
  for (const BenchCase& c : cases) {
    if (!chosen(c)) continue;
    double one_thread = 0;
    std::uint64_t first_signature = 0;
    CaseRuns runs = case_runs(c);
    const std::uint64_t case_games = std::max<std::uint64_t>(*games / c.games_divisor, 1);
    const double draws = draws_per_game(runs, std::min<std::uint64_t>(case_games, 1 << 20));
    for (int t : threads) {
      const auto [rate, sig] = timed_case(runs, case_games, t);
      if (one_thread == 0) {
        one_thread = rate;
        first_signature = sig;
      }
      if (first_case_rate == 0) first_case_rate = rate;
      consistent = consistent && sig == first_signature;
      std::cout << std::left << std::setw(58) << c.label << std::right << std::setw(8) << t << std::setw(14)
                << std::setprecision(4) << std::scientific << rate << std::fixed << std::setprecision(2)
                << std::setw(10) << rate / one_thread << std::setw(12) << draws << std::setw(9)
                << 100 * rate * draws / floor[t] << "%  " << hex16(sig) << "\n";
    }
    if (gpu) consistent = time_on_gpu(c, runs, case_games, one_thread, first_signature) && consistent;
    bench_signature = bench_signature * 31 + first_signature;
  }
  if (!options.skip_naive) {
    const double naive = naive_sixers_rate(std::max<std::uint64_t>(*games / 10, 1));
    std::cout << std::left << std::setw(58) << "naive sixers dv(2,2) (mt19937, vector, sort)" << std::right
              << std::setw(8) << 1 << std::setw(14) << std::setprecision(4) << std::scientific << naive << std::fixed
              << "\n"
              << "engine / naive, one thread: " << std::setprecision(1) << first_case_rate / naive << "x\n";
  }
  std::cout << "signature: " << hex16(bench_signature)
            << (consistent ? ""
                : gpu      ? "  (MISMATCH across thread counts or devices)"
                           : "  (MISMATCH across thread counts)")
            << "\n";
  return consistent ? 0 : 1;
}

}  // namespace dicesim
