#include "engine/cluster.h"

#include <cstdlib>

#ifdef DICESIM_WITH_MPI
#include <mpi.h>
#endif

namespace dicesim {

namespace {
bool started_by_mpi_launcher() {
  for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(variable)) return true;
  return false;
}

// The tasks of the Slurm step this process belongs to; 1 outside srun (a
// batch script's own shell is no step of several tasks).
int slurm_step_tasks_from_environment() {
  const char* tasks = std::getenv("SLURM_STEP_NUM_TASKS");
  if (!tasks) return 1;
  char* end = nullptr;
  const long n = std::strtol(tasks, &end, 10);
  return end != tasks && *end == '\0' && n > 1 && n < (1L << 30) ? static_cast<int>(n) : 1;
}

#ifdef DICESIM_WITH_MPI
int reduce_over_ranks(int value, MPI_Op op) {
  int result = value;
  MPI_Allreduce(&value, &result, 1, MPI_INT, op, MPI_COMM_WORLD);
  return result;
}
#endif
}  // namespace

Cluster::Cluster([[maybe_unused]] int& argc, [[maybe_unused]] char**& argv)
    : slurm_step_tasks_(slurm_step_tasks_from_environment()) {
#ifdef DICESIM_WITH_MPI
  if (!started_by_mpi_launcher()) return;
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  joined_ = true;
#else
  (void)started_by_mpi_launcher;
#endif
}

Cluster::~Cluster() {
#ifdef DICESIM_WITH_MPI
  if (joined_) MPI_Finalize();
#endif
}

BlockRange Cluster::part(BlockRange range) const {
  const auto at = [&](int r) {
    return range.begin +
           static_cast<std::uint64_t>(static_cast<unsigned __int128>(range.end - range.begin) * r / size_);
  };
  return {at(rank_), at(rank_ + 1)};
}

void Cluster::gather([[maybe_unused]] EngineOutput& output) const {
#ifdef DICESIM_WITH_MPI
  if (size_ == 1) return;
  std::vector<std::int64_t> flat;
  for (const auto& counters : output.counters) flat.insert(flat.end(), counters.begin(), counters.end());
  std::vector<std::int64_t> sum(flat.size(), 0);
  MPI_Reduce(flat.data(), sum.data(), static_cast<int>(flat.size()), MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  // Each rank played a prefix of its part: one range (possibly empty) each.
  const BlockRange mine = output.done.empty() ? BlockRange{} : output.done.front();
  const std::uint64_t local[2] = {mine.begin, mine.end};
  std::vector<std::uint64_t> all(2 * std::size_t(size_));
  MPI_Gather(local, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  double slowest = 0;
  MPI_Reduce(&output.wall_seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (!leader()) return;
  std::size_t i = 0;
  for (auto& counters : output.counters)
    for (std::int64_t& c : counters) c = sum[i++];
  output.done.clear();
  for (int r = 0; r < size_; ++r) output.done.push_back({all[2 * r], all[2 * r + 1]});
  join_ranges(output.done);
  output.wall_seconds = slowest;
#endif
}

void Cluster::broadcast([[maybe_unused]] std::vector<std::uint64_t>& values) const {
#ifdef DICESIM_WITH_MPI
  if (size_ > 1) MPI_Bcast(values.data(), static_cast<int>(values.size()), MPI_UINT64_T, 0, MPI_COMM_WORLD);
#endif
}

int Cluster::min_over_ranks(int value) const {
#ifdef DICESIM_WITH_MPI
  if (size_ > 1) return reduce_over_ranks(value, MPI_MIN);
#endif
  return value;
}

int Cluster::max_over_ranks(int value) const {
#ifdef DICESIM_WITH_MPI
  if (size_ > 1) return reduce_over_ranks(value, MPI_MAX);
#endif
  return value;
}

int Cluster::agree(int code) const {
#ifdef DICESIM_WITH_MPI
  if (size_ > 1) MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
#endif
  return code;
}

int Cluster::abort(int code) const {
#ifdef DICESIM_WITH_MPI
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  return code;
}

}  // namespace dicesim
