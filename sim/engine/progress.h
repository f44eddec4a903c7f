// Progress of a long exact computation (the exact odds of `check`, the
// solvers of `solve`), on stderr only: stdout carries the results.
//   on a terminal: one line redrawn in place, "what done/total ... elapsed",
//     from one second on, at most five times a second, cleared at the end;
//   elsewhere (a pipe, a log file): one such line every 60 seconds (or
//     --progress-every), none when that is 0.
// Progress objects nest (a table inside the list of tables): the line shows
// every level of the thread, outermost first. Every advance() polls the stop
// flag of interrupt.h and throws Interrupted once it is set, so a long solve
// stops cleanly at its next step.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace dicesim {

class Progress {
 public:
  struct Output {
    std::FILE* file;     // stderr
    bool terminal;       // redraw in place (stderr is a terminal)
    double first_after;  // seconds before the first line
    double every;        // seconds between lines
  };
  // The default output: stderr, silent under set_progress_quiet(true).
  static Output standard();

  Progress(std::string what, std::uint64_t total) : Progress(std::move(what), total, standard()) {}
  Progress(std::string what, std::uint64_t total, Output output);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // `steps` more done; may print; throws Interrupted if a stop was asked for.
  void advance(std::uint64_t steps = 1);

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

// --quiet: no progress lines at all.
void set_progress_quiet(bool quiet);
// --progress-every: the seconds between lines when stderr is not a terminal
// (default 60; 0: none).
void set_progress_log_every(double seconds);

// "12.3 M": a count with an SI prefix, three significant digits.
std::string readable_count(double count);
// "1:02:03": hours, minutes and seconds.
std::string clock_time(double seconds);
// "37.2%  1.23 G / 3.30 G games  12.3 M/s  ETA 0:02:51"
std::string progress_text(double done, double total, double elapsed_seconds);

}  // namespace dicesim
