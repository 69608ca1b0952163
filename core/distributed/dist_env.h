#pragma once
/// The environment a launcher sets for each rank (torchrun's names), and whether this build can
/// train data-parallel at all. Torch-free.
#include <optional>
#include <string>

namespace trainscope {

/// One rank's place in a data-parallel run, as torchrun (torch.distributed.run) describes it in
/// the environment: RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT.
struct DistEnv {
  int rank = 0;              ///< 0 .. world_size-1; rank 0 hosts the store and writes the run dir
  int world_size = 1;        ///< ranks in all
  int local_rank = 0;        ///< rank on this machine
  int local_world_size = 1;  ///< ranks on this machine (1 when LOCAL_WORLD_SIZE is unset)
  std::string master_addr = "127.0.0.1";  ///< where rank 0's TCPStore listens
  int master_port = 29500;                ///< its port (torch's default 29500)
};

/// Reads the environment. nullopt when WORLD_SIZE is unset or 1 (a single-process run). Throws
/// Error(Config, NAME) naming the variable for a value that is not an integer in range, a
/// RANK >= WORLD_SIZE, or a missing RANK / MASTER_ADDR / MASTER_PORT when WORLD_SIZE > 1.
std::optional<DistEnv> distEnvFromEnvironment();

/// True when this build has the c10d Gloo backend (compiled with the gloo headers,
/// TRAINSCOPE_HAVE_GLOO).
bool distributedAvailable();

/// Why distributed training is unavailable in this build (empty when it is available).
std::string distributedUnavailableReason();

}  // namespace trainscope
