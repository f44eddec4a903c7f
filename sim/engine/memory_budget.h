// The memory a command may hold (--memory-limit) and what it expects to
// hold. Every plan costs what it will allocate before allocating it (a
// config's strategies, its tables and their counters, solver tables) and
// charges it here; a charge past the limit is refused with one line naming
// what asked for it (a file and JSON path, or a solver), before anything of
// it is allocated. `validate` and `run --dry-run` print the estimate.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace dicesim {

// A charge past the limit: the message names what asked, its cost and the limit.
struct MemoryRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::uint64_t machine_memory_bytes();          // MemTotal, or the cgroup's limit where lower
std::uint64_t resident_bytes();                // the process's resident memory now (VmRSS)
std::uint64_t heap_bytes_in_use();             // bytes malloc has handed out and not taken back (glibc)
std::string memory_text(std::uint64_t bytes);  // "12.3 MiB", "1.50 GiB"
// "8G", "512M", "1.5G", "64K", or a plain count of bytes ("1e9"); 0 and anything else: nullopt.
std::optional<std::uint64_t> parse_memory(std::string_view text);

class MemoryBudget {
 public:
  // A command starts here: the limit, and what the process holds already.
  void start(std::uint64_t limit);
  // The charges forgotten, the baseline kept: the next of several configs
  // (validate) costed on its own, not on what the last one left resident.
  void restart();
  // Adds what `what` will hold, before it is allocated; MemoryRefused when
  // the estimate would pass the limit (nothing is added then).
  void charge(std::uint64_t bytes, const std::string& what);
  // charge(), once per key: a solve that several strategies (and the
  // solver itself) ask for is costed once.
  void charge_once(const std::string& key, std::uint64_t bytes, const std::string& what);
  // Takes back a charge() of what is freed again (HeldCharge).
  void release(std::uint64_t bytes, const std::string& what);
  // charge, charge_once and release may be called from several threads at
  // once (the exact odds of several tables are worked out in parallel): the
  // process's one budget serialises them.
  std::uint64_t estimate() const { return baseline_ + charged_; }
  std::uint64_t charged() const { return charged_; }
  std::uint64_t limit() const { return limit_; }
  // The largest charge and what asked for it, for the printed estimate.
  std::pair<std::string, std::uint64_t> largest() const;
  // Every charge by what asked for it.
  const std::map<std::string, std::uint64_t>& charges() const { return by_what_; }

  // How many copies of a run's counters are held at once (one per thread,
  // their sum, the output, the file's image, the exact odds of check).
  int counter_copies = 4;

 private:
  std::uint64_t limit_ = UINT64_MAX;  // none until a command starts
  std::uint64_t baseline_ = 0;
  std::uint64_t charged_ = 0;
  std::map<std::string, std::uint64_t> by_what_;
  std::map<std::string, bool> once_;
};

// The process's one budget.
MemoryBudget& memory_budget();

// A charge for what is held only while it lives (a solve whose tables are
// freed when it returns): taken back when it ends, so that solves held at
// the same time on several threads are costed together, and one after
// another are not summed.
class HeldCharge {
 public:
  HeldCharge(std::uint64_t bytes, std::string what) : bytes_(bytes), what_(std::move(what)) {
    memory_budget().charge(bytes_, what_);
  }
  ~HeldCharge() { memory_budget().release(bytes_, what_); }
  HeldCharge(const HeldCharge&) = delete;
  HeldCharge& operator=(const HeldCharge&) = delete;

 private:
  std::uint64_t bytes_;
  std::string what_;
};

// While it lives, charges are made as usual (and refused past the limit);
// when it ends they are taken back: for what is held only for a while (each
// of merge's inputs after the first, the file --resume reads, whose plans
// are the run's own again).
class TemporaryCharges {
 public:
  TemporaryCharges() : saved_(memory_budget()) {}
  ~TemporaryCharges() { memory_budget() = saved_; }
  TemporaryCharges(const TemporaryCharges&) = delete;
  TemporaryCharges& operator=(const TemporaryCharges&) = delete;

 private:
  MemoryBudget saved_;
};

}  // namespace dicesim
