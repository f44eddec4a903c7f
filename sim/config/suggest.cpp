#include "config/suggest.h"

#include <algorithm>
#include <vector>

namespace dicesim {
namespace {

// Edits (insert, delete, substitute, swap two neighbours) from a to b: the
// optimal string alignment distance.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& known) {
  const std::size_t allowed = std::max<std::size_t>(1, word.size() / 3);
  std::string_view best;
  std::size_t best_distance = allowed + 1;
  for (std::string_view candidate : known) {
    // The distance is at least the difference in length: a word far longer
    // than any known one (a forged 4 MB key) is refused at once, unmeasured.
    const std::size_t gap = std::max(word.size(), candidate.size()) - std::min(word.size(), candidate.size());
    if (gap >= best_distance) continue;
    if (const std::size_t d = edit_distance(word, candidate); d < best_distance) best_distance = d, best = candidate;
  }
  return best.empty() ? "" : "; did you mean \"" + std::string(best) + "\"?";
}

}  // namespace dicesim
