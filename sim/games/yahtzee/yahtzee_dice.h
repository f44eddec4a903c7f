// The dice of a Yahtzee turn as multisets: every set of kept dice (0 to 5
// dice, 462 of them) with the set that adding one die of each face makes, and
// every throw of all five dice (252) with the distinct sets a player may keep
// from it. The solvers and the turn tables walk these instead of the 6^5
// ordered throws.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace dicesim::yahtzee {

constexpr int kDice = 5;
constexpr int kFaces = 6;
constexpr int kKeepers = 462;  // multisets of 0..5 dice of 6 faces
constexpr int kRolls = 252;    // multisets of exactly 5 dice

using FaceCounts = std::array<std::uint8_t, kFaces>;  // [f - 1]: dice showing f

class Keepers {
 public:
  Keepers();

  const FaceCounts& counts(int keeper) const { return counts_[keeper]; }
  int size(int keeper) const { return size_[keeper]; }
  // The keeper with one more die showing `face` (1..6); only for size < 5.
  int with(int keeper, int face) const { return with_[keeper][face - 1]; }
  int empty() const { return 0; }

  // The keepers of each size, smallest first: a forward pass adds dice in
  // this order, a backward pass takes means in the reverse.
  const std::vector<int>& of_size(int dice) const { return of_size_[dice]; }

  // Throws of all five dice: roll r (0..251) is keeper roll_keeper(r).
  int roll_keeper(int roll) const { return of_size_[kDice][roll]; }
  int roll_of(int keeper) const { return roll_of_[keeper]; }  // -1 unless 5 dice
  // The distinct keepers a player may keep from roll r (the roll itself and
  // the empty set among them).
  std::span<const std::uint16_t> keeps_of(int roll) const {
    return {keeps_.data() + keeps_start_[roll], keeps_.data() + keeps_start_[roll + 1]};
  }
  // Ordered throws of five fair dice giving roll r (of 7776).
  std::uint32_t ways(int roll) const { return ways_[roll]; }
  // The index of the keeper with these counts (at most 5 dice in all).
  int index(const FaceCounts& counts) const { return by_code_[code(counts)]; }

 private:
  std::vector<FaceCounts> counts_;
  std::vector<int> size_;
  std::vector<std::array<int, kFaces>> with_;
  std::vector<int> of_size_[kDice + 1];
  std::vector<int> roll_of_;
  std::vector<std::uint16_t> keeps_;        // every roll's keepers, one after another
  std::vector<std::uint32_t> keeps_start_;  // roll r's are [keeps_start_[r], keeps_start_[r + 1])
  std::vector<std::uint32_t> ways_;
  std::vector<std::int16_t> by_code_;  // by the counts as a base-6 number
  static int code(const FaceCounts& c) {
    int n = 0;
    for (int f = kFaces - 1; f >= 0; --f) n = n * 6 + c[f];
    return n;
  }
};

// The one table every solver shares (it is the same for any rules).
const Keepers& keepers();

}  // namespace dicesim::yahtzee
