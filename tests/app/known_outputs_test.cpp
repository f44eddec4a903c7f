// Known outputs, as a chess engine checks its bench signature: the values
// below were produced by the code when they were stored, and pin its
// behaviour, so an unintended change of the random streams or of any game's
// results fails here.
//
// A deliberate change (a new stream layout, a game that draws its dice
// differently, a changed reference config in a game's GameEntry::bench_cases) must update them,
// and the signature and figures under "Speed" in README.md:
//   - stream draws: print block_rng(seed, stable_hash(key), block)() four times
//     for each triple of kStreams;
//   - bench signature: the last line of
//     `build/dicesim bench --games 100000 --threads 1 2 --skip-naive`.
#include <gtest/gtest.h>

#include <array>
#include <sstream>

#include "engine/rng.h"
#include "test_util.h"

namespace dicesim {
namespace {

struct KnownStream {
  std::uint64_t seed;
  const char* contest_key;
  std::uint64_t block;
  std::array<std::uint64_t, 4> first_draws;
};

// A distribution's first block; a later block of a sequential pair; the
// largest seed and the last block of a 10^15-game table.
const KnownStream kStreams[] = {
    {1,
     R"K(independent["dv(2,2)"])K",
     0,
     {0x033853ba9b8df4b8ULL, 0x645f0f2a5b15957eULL, 0x00d02b751fa1056bULL, 0x441ae1449225ec10ULL}},
    {5,
     R"K(sequential["best","aware"])K",
     3,
     {0x21fcf05eaef26f47ULL, 0xcaedf24ccaeb0397ULL, 0xc2d8562ba8f6db25ULL, 0x3eb31fc3ad8fe672ULL}},
    {UINT64_MAX,
     R"K(sequential_tables["optimal","blind"])K",
     15'258'789'062,
     {0x15e349ec8059a529ULL, 0x3d6ec8a9afcc77feULL, 0x897754e8f3c584e4ULL, 0x78f6378ee68823c8ULL}},
};

TEST(KnownOutputs, BlockStreamsDrawTheStoredNumbers) {
  for (const KnownStream& s : kStreams) {
    Rng rng = block_rng(s.seed, stable_hash(s.contest_key), s.block);
    for (std::size_t i = 0; i < s.first_draws.size(); ++i)
      EXPECT_EQ(rng(), s.first_draws[i]) << s.contest_key << " seed " << s.seed << " block " << s.block << " draw "
                                         << i;
  }
}

// The hash of every counter of the fifteen bench cases (every game's GameEntry::bench_cases) at 100,000
// games a case (a case marked 1/N: 100,000 / N), which is also the same for
// 1 and 2 threads (bench exits 1 otherwise).
constexpr const char* kBenchSignature = "e15887218e10ea94";

TEST(KnownOutputs, BenchSignature) {
  const auto bench = testing::dicesim("bench --games 100000 --threads 1 2 --skip-naive");
  EXPECT_EQ(bench.exit_code, 0) << bench.out;
  EXPECT_NE(bench.out.find(std::string("\nsignature: ") + kBenchSignature + "\n"), std::string::npos)
      << "expected signature " << kBenchSignature << "\n"
      << bench.out;
  // The floor is measured, and a case's draws are counted: a Sixers turn
  // is at most 3 rolls of one 64-bit draw each (a rejection is ~2^-61 rare)
  // and at least one.
  EXPECT_NE(bench.out.find("floor: pcg64 alone, "), std::string::npos) << bench.out;
  std::istringstream lines(bench.out);
  std::string line;
  while (std::getline(lines, line) && line.rfind("sixers dv(2,2) distribution", 0) != 0) {
  }
  std::istringstream fields(line.substr(58));
  double threads = 0, rate = 0, speedup = 0, draws = 0;
  fields >> threads >> rate >> speedup >> draws;
  EXPECT_GT(rate, 0) << line;
  EXPECT_GE(draws, 1.0) << line;
  EXPECT_LE(draws, 3.0) << line;
}

}  // namespace
}  // namespace dicesim
