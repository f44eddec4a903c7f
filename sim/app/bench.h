// `dicesim bench`: games per second of fixed reference configs at each
// thread count, as a fraction of the floor the generator sets (pcg64
// draws/s on this machine over the draws a game of the case takes, counted),
// against a straightforward implementation, and a signature (a hash of every
// counter) that must not change with the thread count.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace dicesim {

struct BenchOptions {
  std::string games = "2e7";
  std::vector<int> threads;  // default: 1 and all available CPUs (--threads: main.cpp, as every command's)
  bool skip_naive = false;
  std::string only;            // time only the cases whose label contains this (empty: all)
  std::string device = "cpu";  // gpu: also time each case on the GPU
};

void add_bench_options(CLI::App* cmd, BenchOptions& options);
int run_bench(const BenchOptions& options);

}  // namespace dicesim
