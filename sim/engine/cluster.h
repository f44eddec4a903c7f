// MPI, when dicesim is built with it and started by mpirun: the ranks split a
// run's blocks and rank 0 collects the counts. Without MPI (or without
// mpirun) this is a cluster of one and every call is trivial.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/engine.h"

namespace dicesim {

class Cluster {
 public:
  Cluster(int& argc, char**& argv);  // joins MPI only if started by an MPI launcher
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool leader() const { return rank_ == 0; }
  // Slurm started this process as one of several tasks of a step (srun -n N),
  // yet it has no MPI world of them: without a PMI plugin (srun --mpi=none)
  // or without the MPI build, each task would play the whole run alone.
  bool slurm_tasks_without_world() const { return slurm_step_tasks_ > 1 && size_ == 1; }
  int slurm_step_tasks() const { return slurm_step_tasks_; }

  // This rank's part of a block range: contiguous, in rank order.
  BlockRange part(BlockRange range) const;
  // Sums every rank's counters and gathers the blocks each one played into
  // rank 0's output (other ranks' outputs are left as they were).
  void gather(EngineOutput& output) const;
  // The leader's values, for every rank (the same count on every rank).
  void broadcast(std::vector<std::uint64_t>& values) const;
  // The least and the greatest of every rank's value, for every rank.
  int min_over_ranks(int value) const;
  int max_over_ranks(int value) const;
  // The leader's exit code, for every rank.
  int agree(int code) const;
  // After an error on one rank: ends every rank (the others would wait for
  // it forever), or just returns code in a cluster of one.
  int abort(int code) const;

 private:
  int rank_ = 0;
  int size_ = 1;
  int slurm_step_tasks_ = 1;              // SLURM_STEP_NUM_TASKS: set by srun in each task it starts
  [[maybe_unused]] bool joined_ = false;  // used only when built with MPI
};

}  // namespace dicesim
