#include "games/tenk/tenk_decision_runs.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

namespace dicesim::tenk {

namespace {

// A turn's lists are words or bytes (DecisionRuns::narrow): each is its
// count of flips, then the flips.
template <class Flip>
const Flip* nth_list(const Flip* list, int n) {
  for (; n > 0; --n) list += 1 + *list;
  return list;
}

// Whether the list at `list` has flipped to banking at total t.
template <class Flip>
bool banks_at(const Flip* list, int t) {
  const int flips = *list++;
  return (std::upper_bound(list, list + flips, t) - list) % 2 == 1;
}

// Kind `kind`'s decisions at totals 1..top from its list at `list`.
template <class Flip>
void fill_kind(const Flip* list, int top, int kinds, int kind, std::uint8_t* banks) {
  const int flips = *list++;
  bool bank = false;
  int i = 0;
  for (int t = 1; t <= top; ++t) {
    while (i < flips && list[i] == t) bank = !bank, ++i;
    banks[std::size_t(t - 1) * kinds + kind] = bank;
  }
}

// Rewrites the word lists from `at` to the end of `out` as bytes, two to a
// word (each value below 256): a byte never lands on a word not yet read.
void narrow_lists(std::vector<std::uint16_t>& out, std::size_t at) {
  const std::size_t count = out.size() - at;
  auto* bytes = reinterpret_cast<std::uint8_t*>(out.data() + at);
  for (std::size_t i = 0; i < count; ++i) bytes[i] = static_cast<std::uint8_t>(out[at + i]);
  if (count % 2 == 1) bytes[count] = 0;
  out.resize(at + (count + 1) / 2);
}

}  // namespace

void DecisionRuns::encode(const std::uint8_t* banks, int top, int kinds, std::vector<std::uint16_t>& out) {
  if (top < 0 || top > std::numeric_limits<std::uint16_t>::max())
    throw std::logic_error("tenk: a turn's top total does not fit its decision runs");
  if (kinds < 1 || kinds > kMostKinds) throw std::logic_error("tenk: more landing kinds than decision runs index");
  const std::size_t begin = out.size();
  out.push_back(static_cast<std::uint16_t>(top));
  out.push_back(0);  // the distinct lists, once known
  // The lists first, in words, after room for the widest list numbers (a
  // byte each), then the numbers in as few bits as the count of lists
  // allows, then the lists in bytes where the top allows.
  const std::size_t index_at = out.size(), widest = std::size_t(widest_index_words(kinds));
  out.resize(out.size() + widest, 0);
  std::array<std::uint8_t, kMostKinds> list_of_kind{};
  std::array<std::size_t, kMostKinds> lists{};  // where each distinct run list begins in `out`
  int distinct = 0;
  for (int kind = 0; kind < kinds; ++kind) {
    const std::size_t at = out.size();
    out.push_back(0);
    bool bank = false;
    for (int t = 1; t <= top; ++t)
      if ((banks[std::size_t(t - 1) * kinds + kind] != 0) != bank) {
        bank = !bank;
        out.push_back(static_cast<std::uint16_t>(t));
      }
    out[at] = static_cast<std::uint16_t>(out.size() - at - 1);
    // A list equal to an earlier kind's is kept once: kinds flip alike.
    int same = 0;
    while (same < distinct &&
           !std::equal(out.begin() + std::ptrdiff_t(at), out.end(),
                       out.begin() + std::ptrdiff_t(lists[std::size_t(same)]),
                       out.begin() + std::ptrdiff_t(lists[std::size_t(same)] + 1 + out[lists[std::size_t(same)]])))
      ++same;
    if (same < distinct)
      out.resize(at);
    else
      lists[std::size_t(distinct++)] = at;
    list_of_kind[std::size_t(kind)] = static_cast<std::uint8_t>(same);
  }
  out[begin + 1] = static_cast<std::uint16_t>(distinct);
  const std::size_t words = std::size_t(index_words(kinds, distinct));
  out.erase(out.begin() + std::ptrdiff_t(index_at + words), out.begin() + std::ptrdiff_t(index_at + widest));
  const int bits = index_bits(distinct), per_word = 16 / bits;
  for (int kind = 0; kind < kinds; ++kind)
    out[index_at + std::size_t(kind / per_word)] |=
        static_cast<std::uint16_t>(list_of_kind[std::size_t(kind)] << (bits * (kind % per_word)));
  if (narrow(top)) narrow_lists(out, index_at + words);
}

void DecisionRuns::store(std::size_t turn, const std::uint16_t* encoded, std::size_t size) {
  if (size > kBlockWords) throw std::logic_error("tenk: a turn's decision runs longer than a block");
  if (blocks_.empty() || used_ + size > kBlockWords) {
    blocks_.emplace_back(new std::uint16_t[kBlockWords]);
    used_ = 0;
  }
  const std::uint64_t start = (blocks_.size() - 1) * kBlockWords + used_;
  if (start >= kNone) throw std::length_error("tenk: decision runs past 8 GiB");
  start_.at(turn) = static_cast<std::uint32_t>(start);
  std::copy_n(encoded, size, blocks_.back().get() + used_);
  used_ += size;
}

bool DecisionRuns::banks(std::size_t turn, int t, int kind) const {
  const std::uint16_t* at = first(turn);
  if (t > at[0]) return true;
  const int list = list_of(at, kind);
  return with_lists(at, [&](const auto* first_list) { return banks_at(nth_list(first_list, list), t); });
}

void DecisionRuns::decode(std::size_t turn, int top, int kinds, std::uint8_t* banks) const {
  if (kinds != kinds_) throw std::logic_error("tenk: decision runs decoded with another count of kinds");
  const std::uint16_t* at = first(turn);
  const int own_top = std::min<int>(at[0], top);
  std::fill(banks + std::size_t(own_top) * kinds, banks + std::size_t(top) * kinds, std::uint8_t{1});
  with_lists(at, [&](const auto* first_list) { decode_lists(at, first_list, own_top, banks); });
}

template <class Flip>
void DecisionRuns::decode_lists(const std::uint16_t* at, const Flip* list, int top, std::uint8_t* banks) const {
  std::array<const Flip*, kMostKinds> each{};
  for (int d = 0; d < at[1]; ++d, list += 1 + *list) each[std::size_t(d)] = list;
  for (int kind = 0; kind < kinds_; ++kind) fill_kind(each[std::size_t(list_of(at, kind))], top, kinds_, kind, banks);
}

}  // namespace dicesim::tenk
