// Progress of a long exact computation (the exact odds of `check`, the
// solvers of `solve`), on stderr only: stdout carries the results.
//   on a terminal: one line redrawn in place, "what done/total ... elapsed",
//     from one second on, at most five times a second, cleared at the end;
//   elsewhere (a pipe, a log file): one such line every 60 seconds (or
//     --progress-every), none when that is 0.
// Progress objects nest (a table inside the list of tables): the line shows
// every level of the thread, outermost first, and an inner level shows where
// the outer ones do, so that the solvers deep inside a run create theirs
// without being told where lines go. The outermost level of a thread shows
// as the thread's ProgressScope says: the run's ProgressSettings, which the
// command and the job runner hand down explicitly. Every advance() polls the
// stop flag of interrupt.h and throws Interrupted once it is set, so a long
// solve stops cleanly at its next step.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace dicesim {

// How a run shows its progress: part of the run's options (--quiet,
// --progress-every), given to the engine (EngineOptions::progress) and to
// the ProgressScope of the run's solves.
struct ProgressSettings {
  bool quiet = false;     // no progress lines at all
  double log_every = 60;  // seconds between lines when stderr is not a terminal (0: none)
};

class Progress {
 public:
  struct Output {
    std::FILE* file;     // stderr; none when silent
    bool terminal;       // redraw in place (stderr is a terminal)
    double first_after;  // seconds before the first line
    double every;        // seconds between lines
  };
  // stderr as `settings` ask: redrawn in place on a terminal, else whole
  // lines every log_every seconds.
  static Output to_stderr(const ProgressSettings& settings);

  // A level nested in this thread's innermost Progress, shown on its output;
  // the outermost level shows on the output of the thread's innermost
  // ProgressScope, or with none (`dicesim solve`, which has no progress
  // options), as the default ProgressSettings ask.
  Progress(std::string what, std::uint64_t total);
  // A level with an output of its own (tests).
  Progress(std::string what, std::uint64_t total, Output output);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `steps` more done; may print; throws Interrupted if a stop was asked for.
  void advance(std::uint64_t steps = 1);
  const Output& output() const { return output_; }

 private:
  using Clock = std::chrono::steady_clock;
  std::string line() const;
  void draw();

  std::string what_;
  std::uint64_t total_, done_ = 0;
  Output output_;
  Clock::time_point start_, next_draw_;
  Progress* outer_;
  bool drawn_ = false;  // this thread's line is on the screen
};

// While it lives, the outermost Progress levels that this thread creates show
// on its output: a command's (from the run's ProgressSettings), or on a job
// runner's worker thread the runner's own (run_jobs). Scopes nest.
class ProgressScope {
 public:
  explicit ProgressScope(const Progress::Output& output);
  explicit ProgressScope(const ProgressSettings& settings) : ProgressScope(Progress::to_stderr(settings)) {}
  ~ProgressScope();
  ProgressScope(const ProgressScope&) = delete;
  ProgressScope& operator=(const ProgressScope&) = delete;

  // The output of this thread's innermost scope; the default settings' without one.
  static Progress::Output current();

 private:
  Progress::Output output_;
  const ProgressScope* outer_;
};

// "12.3 M": a count with an SI prefix, three significant digits.
std::string readable_count(double count);
// "1:02:03": hours, minutes and seconds.
std::string clock_time(double seconds);
// "37.2%  1.23 G / 3.30 G games  12.3 M/s  ETA 0:02:51"
std::string progress_text(double done, double total, double elapsed_seconds);

}  // namespace dicesim
