// dicesim's exit codes (sim/app/README.md), for main, the commands,
// the cluster and the tests.
#pragma once

namespace dicesim {

constexpr int kExitOk = 0;
constexpr int kExitFailedCheck = 1;    // a check found a number beyond chance
constexpr int kExitBadInput = 2;       // bad usage or input: one line, nothing written
constexpr int kExitInternal = 3;       // a failure while writing (a full disk, ...) or a bug
constexpr int kExitInterrupted = 130;  // SIGINT or SIGTERM: what was played is written, marked incomplete

}  // namespace dicesim
