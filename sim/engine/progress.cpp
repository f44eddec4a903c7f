#include "engine/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "engine/interrupt.h"

namespace dicesim {
namespace {

thread_local Progress* t_innermost = nullptr;         // the nesting of this thread's Progress objects
thread_local const ProgressScope* t_scope = nullptr;  // and of its scopes

double seconds(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

std::string readable_count(double count) {
  static const char* const kPrefixes[] = {"", " k", " M", " G", " T", " P"};
  int prefix = 0;
  while (std::abs(count) >= 999.5 && prefix < 5) count /= 1000, ++prefix;
  char text[32];
  std::snprintf(text, sizeof text, prefix == 0 ? "%.0f%s" : "%.3g%s", count, kPrefixes[prefix]);
  return text;
}

std::string clock_time(double seconds) {
  const long total = static_cast<long>(std::max(0.0, seconds) + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  return text;
}

std::string progress_text(double done, double total, double elapsed_seconds) {
  const double rate = done / std::max(elapsed_seconds, 1e-9);
  char percent[16];
  std::snprintf(percent, sizeof percent, "%.1f%%", total > 0 ? 100 * done / total : 0.0);
  std::string text = std::string(percent) + "  " + readable_count(done) + " / " + readable_count(total) + " games  " +
                     readable_count(rate) + "/s  ETA ";
  return text + (rate > 0 ? clock_time((total - done) / rate) : std::string("-"));
}

Progress::Output Progress::to_stderr(const ProgressSettings& settings) {
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  const double every = settings.log_every;
  const bool silent = settings.quiet || (!terminal && every <= 0);
  return {silent ? nullptr : stderr, terminal, terminal ? 1.0 : every, terminal ? 0.2 : every};
}

ProgressScope::ProgressScope(const Progress::Output& output) : output_(output), outer_(t_scope) { t_scope = this; }
ProgressScope::~ProgressScope() { t_scope = outer_; }

Progress::Output ProgressScope::current() {
  return t_scope ? t_scope->output_ : Progress::to_stderr(ProgressSettings{});
}

Progress::Progress(std::string what, std::uint64_t total)
    : Progress(std::move(what), total, t_innermost ? t_innermost->output_ : ProgressScope::current()) {}

Progress::Progress(std::string what, std::uint64_t total, Output output)
    : what_(std::move(what)), total_(total), output_(output), start_(Clock::now()), outer_(t_innermost) {
  // The outermost level decides when lines are drawn; inner ones join its line.
  const Progress* root = this;
  while (root->outer_) root = root->outer_;
  start_ = root->start_;
  next_draw_ =
      root == this
          ? start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(output.first_after))
          : root->next_draw_;
  t_innermost = this;
}

Progress::~Progress() {
  t_innermost = outer_;
  if (outer_) {
    outer_->drawn_ = outer_->drawn_ || drawn_;
    return;
  }
  if (drawn_ && output_.file && output_.terminal) {
    std::fputs("\r\033[K", output_.file);
    std::fflush(output_.file);
  }
}

std::string Progress::line() const {
  std::string text = outer_ ? outer_->line().append(" | ") : std::string();
  text.append(what_).append(" ").append(std::to_string(done_));
  if (total_ > 0) text.append("/").append(std::to_string(total_));
  return text;
}

void Progress::advance(std::uint64_t steps) {
  done_ += steps;
  throw_if_interrupted();
  if (!output_.file) return;
  const Clock::time_point now = Clock::now();
  if (now < next_draw_) return;
  next_draw_ = now + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(output_.every));
  for (Progress* p = outer_; p; p = p->outer_) p->next_draw_ = next_draw_;
  draw();
}

void Progress::draw() {
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "  %.0f s", seconds(Clock::now() - start_));
  const std::string text = line() + elapsed;
  if (output_.terminal)
    std::fprintf(output_.file, "\r\033[K%s", text.c_str());
  else
    std::fprintf(output_.file, "%s\n", text.c_str());
  std::fflush(output_.file);
  drawn_ = true;
}

}  // namespace dicesim
