// Bank-or-throw decisions of many turns, kept as runs (the table solve's,
// tenk_table_win.h): per turn its top total and, per landing kind, the
// totals at which the decision flips, starting from "throw on" at total 1.
// Past the top every landing banks. Win-optimal play flips once or twice a
// kind, and many kinds flip at the same totals, so a turn keeps each
// distinct list of flips once, with a number per kind naming its list:
//   top, distinct lists d, the list numbers, d lists (each: its count of
//   flips, then the flips).
// A list number takes as few bits as d allows (1, 2, 4 or 8, so that none
// straddles two words): most turns flip in a handful of ways, and seed
// 003's 25 kinds then take 7 words of list numbers, not 13. The lists of a
// turn whose top is below 256 (nearly all) are bytes, two to a word (the
// last word padded with a zero byte): no flip and no count of flips
// exceeds the top.
// A turn takes a few dozen bytes where a byte per (total, kind) took
// hundreds: 10,000 to 10,000 at three seats keeps 24 million turns.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

namespace dicesim::tenk {

class DecisionRuns {
 public:
  // banks[(t - 1) * kinds + kind], t = 1..top, of one turn, encoded (appended to `out`).
  static void encode(const std::uint8_t* banks, int top, int kinds, std::vector<std::uint16_t>& out);

  static constexpr int kMostKinds = 255;  // a list number is at most a byte
  // The bits of one list number, and the words of a turn's list numbers,
  // where the turn keeps `distinct` lists.
  static int index_bits(int distinct) { return distinct <= 2 ? 1 : distinct <= 4 ? 2 : distinct <= 16 ? 4 : 8; }
  static int index_words(int kinds, int distinct) { return (kinds * index_bits(distinct) + 15) / 16; }
  static int widest_index_words(int kinds) { return index_words(kinds, kMostKinds); }
  // Whether a turn of this top keeps its lists in bytes.
  static bool narrow(int top) { return top <= 0xff; }

  void resize(std::size_t turns, int kinds) {
    start_.assign(turns, kNone);
    kinds_ = kinds;
  }
  // Keeps an encoded turn as turn `turn` (each turn once).
  void store(std::size_t turn, const std::uint16_t* encoded, std::size_t size);
  bool has(std::size_t turn) const { return turn < start_.size() && start_[turn] != kNone; }

  int top(std::size_t turn) const { return *first(turn); }
  // Whether the turn banks at total t (1..) landing as `kind`.
  bool banks(std::size_t turn, int t, int kind) const;
  // Every decision of the turn up to `top` (past its own: banks) into
  // banks[(t - 1) * kinds + kind].
  void decode(std::size_t turn, int top, int kinds, std::uint8_t* banks) const;
  std::size_t bytes() const {
    return start_.size() * sizeof(std::uint32_t) + blocks_.size() * kBlockWords * sizeof(std::uint16_t);
  }

 private:
  // Where a turn begins is a word number: 32 bits hold 8 GiB of runs, more
  // than any table the memory limits let through (store checks).
  static constexpr std::uint32_t kNone = ~std::uint32_t{0};
  // Where the turn's runs begin; a turn never stored (a table solved
  // without keep_decisions) is a logic error, not a read past the runs.
  const std::uint16_t* first(std::size_t turn) const {
    if (!has(turn)) throw std::logic_error("tenk: the decisions of a table solved without keep_decisions");
    return blocks_[start_[turn] / kBlockWords].get() + start_[turn] % kBlockWords;
  }
  // The number of the list that kind `kind` flips by, in a turn's runs at `at`.
  static int list_of(const std::uint16_t* at, int kind) {
    const int bits = index_bits(at[1]), per_word = 16 / bits;
    return (at[2 + kind / per_word] >> (bits * (kind % per_word))) & ((1 << bits) - 1);
  }
  // A turn's first list, past its list numbers.
  const std::uint16_t* lists(const std::uint16_t* at) const { return at + 2 + index_words(kinds_, at[1]); }
  // Calls f with the turn's first list as bytes or as 16-bit words, as its top says.
  template <class F>
  decltype(auto) with_lists(const std::uint16_t* at, F&& f) const {
    if (narrow(at[0])) return f(reinterpret_cast<const std::uint8_t*>(lists(at)));
    return f(lists(at));
  }
  // Every kind's decisions at totals 1..top of the turn at `at`, its lists from `list`.
  template <class Flip>
  void decode_lists(const std::uint16_t* at, const Flip* list, int top, std::uint8_t* banks) const;
  // The runs live in blocks of a fixed size, a turn's within one block:
  // they grow by a block at a time, never by copying all of them into a
  // vector twice as large (which the memory estimate could not bound).
  static constexpr std::size_t kBlockWords = std::size_t(1) << 20;
  std::vector<std::uint32_t> start_;  // [turn]: block * kBlockWords + where in it its runs begin
  std::vector<std::unique_ptr<std::uint16_t[]>> blocks_;
  std::size_t used_ = 0;  // words used in the last block
  int kinds_ = 0;
};

}  // namespace dicesim::tenk
