#include "core/distributed/dist_env.h"

#include <cerrno>
#include <climits>
#include <cstdlib>

#include "core/errors.h"

namespace trainscope {
namespace {

/// The integer value of environment variable `name` within [lo, hi]; nullopt when unset.
std::optional<int> envInt(const char* name, long lo, long hi) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long x = std::strtol(v, &end, 10);
  if (errno != 0 || *end != '\0' || x < lo || x > hi)
    throw Error(ErrorCode::Config, name,
                std::string("environment variable ") + name + "=\"" + v +
                    "\" must be an integer from " + std::to_string(lo) + " to " +
                    std::to_string(hi));
  return static_cast<int>(x);
}

[[noreturn]] void missing(const char* name) {
  throw Error(ErrorCode::Config, name,
              std::string("environment variable ") + name +
                  " is not set, but WORLD_SIZE asks for a distributed run (a launcher such as "
                  "`trainscope-cli launch` or torchrun sets RANK, WORLD_SIZE, MASTER_ADDR and "
                  "MASTER_PORT)");
}

}  // namespace

std::optional<DistEnv> distEnvFromEnvironment() {
  const std::optional<int> world = envInt("WORLD_SIZE", 1, 1 << 20);
  if (!world || *world == 1) return std::nullopt;
  DistEnv e;
  e.world_size = *world;
  const std::optional<int> rank = envInt("RANK", 0, INT_MAX);
  if (!rank) missing("RANK");
  if (*rank >= e.world_size)
    throw Error(ErrorCode::Config, "RANK",
                "environment variable RANK=" + std::to_string(*rank) +
                    " must be below WORLD_SIZE=" + std::to_string(e.world_size));
  e.rank = *rank;
  e.local_rank = envInt("LOCAL_RANK", 0, INT_MAX).value_or(0);
  e.local_world_size = envInt("LOCAL_WORLD_SIZE", 1, 1 << 20).value_or(1);
  const char* addr = std::getenv("MASTER_ADDR");
  if (addr == nullptr || *addr == '\0') missing("MASTER_ADDR");
  e.master_addr = addr;
  const std::optional<int> port = envInt("MASTER_PORT", 1, 65535);
  if (!port) missing("MASTER_PORT");
  e.master_port = *port;
  return e;
}

bool distributedAvailable() {
#ifdef TRAINSCOPE_HAVE_GLOO
  return true;
#else
  return false;
#endif
}

std::string distributedUnavailableReason() {
#ifdef TRAINSCOPE_HAVE_GLOO
  return {};
#else
  return "this build of TrainScope has no distributed training: the gloo headers "
         "(Debian package libgloo-dev, which c10d's ProcessGroupGloo.hpp needs) were not found "
         "when it was configured; install them (scripts/setup-deps) and configure again";
#endif
}

}  // namespace trainscope
