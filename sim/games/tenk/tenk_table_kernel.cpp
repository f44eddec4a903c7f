// The inner loop of the table solve (tenk_table_lanes.h): a throw's value
// as the sum over its outcomes of probability * the lanes where each lands.
#include <cstring>

#include "games/tenk/tenk_table_lanes.h"

namespace dicesim::tenk {
namespace {

// Four sums side by side, each taking every fourth outcome: one sum would
// wait for each addition to finish before the next. Four lanes a vector.
template <int L>
inline void sum_outcomes(const Lanes<L>* from, const ThrowArrays& throws, Lanes<L>* go) {
  using Chunk = double __attribute__((vector_size(32)));
  constexpr int kChunks = L / 4, kSums = 4;
  for (int s = 0; s < throws.states; ++s) {
    Chunk sum[kSums][kChunks] = {};
    const auto add = [&](Chunk* to, int o) {
      const double* lanes = from[throws.offset[o]].v.data();
      for (int c = 0; c < kChunks; ++c) {
        Chunk x;
        std::memcpy(&x, lanes + 4 * c, sizeof x);
        to[c] += x * throws.probability[o];
      }
    };
    int o = throws.first[s];
    const int end = throws.first[s + 1];
    for (; o + kSums <= end; o += kSums)
      for (int k = 0; k < kSums; ++k) add(sum[k], o + k);
    for (int k = 0; o < end; ++o, ++k) add(sum[k], o);
    for (int c = 0; c < kChunks; ++c) sum[0][c] = (sum[0][c] + sum[1][c]) + (sum[2][c] + sum[3][c]);
    sum[0][kChunks - 1] += Chunk{0, 0, 0, throws.bust[s]};  // in the vector: one lane's store would stall a load
    std::memcpy(go[s].v.data(), sum[0], sizeof sum[0]);
  }
}

}  // namespace

// Built for AVX2 and for any x86-64, chosen when the program loads; one
// build elsewhere.
#if defined(__x86_64__)
#define DICESIM_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define DICESIM_CLONES
#endif
#define DICESIM_THROW_ROW(L)                                                                     \
  DICESIM_CLONES void throw_row(const Lanes<L>* from, const ThrowArrays& throws, Lanes<L>* go) { \
    sum_outcomes<L>(from, throws, go);                                                           \
  }
DICESIM_THROW_ROW(4)
DICESIM_THROW_ROW(8)
DICESIM_THROW_ROW(12)
#undef DICESIM_THROW_ROW
#undef DICESIM_CLONES

}  // namespace dicesim::tenk
