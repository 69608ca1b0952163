// /proc readings for the system panel and system.csv.
#include "core/system/process_stats.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/system/memory.h"

namespace trainscope {
namespace {

std::string readProcFile(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

double processCpuSeconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double steadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::vector<std::pair<uint64_t, uint64_t>> coreJiffies(const std::string& proc_stat) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  std::istringstream lines(proc_stat);
  for (std::string line; std::getline(lines, line);) {
    // "cpuN user nice system idle iowait irq softirq steal guest guest_nice"; "cpu " is the sum
    if (line.size() < 4 || line.compare(0, 3, "cpu") != 0 ||
        !std::isdigit(static_cast<unsigned char>(line[3])))
      continue;
    std::istringstream words(line.substr(line.find(' ')));
    std::vector<uint64_t> v;
    for (uint64_t x; words >> x;) v.push_back(x);
    if (v.size() < 4) continue;
    uint64_t total = 0;
    for (std::size_t i = 0; i < v.size() && i < 8; ++i) total += v[i];  // guest is inside user
    const uint64_t idle = v[3] + (v.size() > 4 ? v[4] : 0);
    out.emplace_back(total - std::min(total, idle), total);
  }
  return out;
}

int threadsInStat(const std::string& pid_stat) {
  // "pid (comm) state ppid ...": comm may hold spaces and ')', so count from the last ')'
  const auto close = pid_stat.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream words(pid_stat.substr(close + 1));
  std::string w;
  for (int field = 3; words >> w; ++field)
    if (field == 20) return std::atoi(w.c_str());
  return 0;
}

int usableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

int countProcesses(const std::string& prefix) {
  DIR* dir = opendir("/proc");
  if (!dir) return 0;
  int n = 0;
  while (const dirent* e = readdir(dir)) {
    if (!std::isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
    const std::string comm = readProcFile(std::string("/proc/") + e->d_name + "/comm");
    if (comm.compare(0, prefix.size(), prefix) == 0) ++n;
  }
  closedir(dir);
  return n;
}

ProcessSampler::ProcessSampler() {
  last_wall_ = steadySeconds();
  last_cpu_ = processCpuSeconds();
  last_cores_ = coreJiffies(readProcFile("/proc/stat"));
}

ProcessSample ProcessSampler::sample() {
  ProcessSample s;
  s.time =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const double wall = steadySeconds(), cpu = processCpuSeconds();
  const auto cores = coreJiffies(readProcFile("/proc/stat"));
  const double dt = wall - last_wall_;
  s.cpu_percent = dt > 0 ? 100.0 * (cpu - last_cpu_) / (dt * usableCores()) : NAN;
  for (std::size_t i = 0; i < cores.size(); ++i) {
    if (i >= last_cores_.size() || cores[i].second <= last_cores_[i].second) {
      s.core_percent.push_back(NAN);
      continue;
    }
    const double busy =
        static_cast<double>(cores[i].first - std::min(cores[i].first, last_cores_[i].first));
    s.core_percent.push_back(100.0 * busy /
                             static_cast<double>(cores[i].second - last_cores_[i].second));
  }
  s.rss_bytes = residentMemoryBytes().value_or(0);
  s.available_bytes = availableMemoryBytes().value_or(0);
  s.os_threads = threadsInStat(readProcFile("/proc/self/stat"));
  last_wall_ = wall;
  last_cpu_ = cpu;
  last_cores_ = cores;
  return s;
}

BlasKernel judgeBlasKernel(BlasKernel k) {
  // OpenBLAS's x86 kernel families without AVX2 (driver/others/dynamic.c corename table).
  static const char* const kGeneric[] = {
      "Unknown", "Katmai",      "Coppermine", "Northwood",     "Prescott",
      "Banias",  "Atom",        "Core2",      "Penryn",        "Dunnington",
      "Nehalem", "Athlon",      "Opteron",    "Opteron(SSE3)", "Barcelona",
      "Nano",    "Sandybridge", "Bulldozer",  "Piledriver",    "Steamroller"};
  std::string lower;
  for (char c : k.core_type)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool generic = false;
  for (const char* g : kGeneric) {
    std::string gl;
    for (const char* p = g; *p; ++p)
      gl += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
    if (lower == gl) generic = true;
  }
  k.generic_fallback = !k.core_type.empty() && generic && (k.cpu_avx2 || k.cpu_avx512);
  k.suggestion = k.generic_fallback
                     ? (k.cpu_avx512 ? "OPENBLAS_CORETYPE=SkylakeX" : "OPENBLAS_CORETYPE=Haswell")
                     : std::string();
  return k;
}

BlasKernel blasKernel(const std::string& blas_name) {
  BlasKernel k;
  k.library = blas_name;
  using NameFn = char* (*)();
  if (auto corename = reinterpret_cast<NameFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename")))
    if (const char* c = corename()) k.core_type = c;
  if (auto config = reinterpret_cast<NameFn>(dlsym(RTLD_DEFAULT, "openblas_get_config")))
    if (const char* c = config()) k.config = c;
  const std::string cpuinfo = readProcFile("/proc/cpuinfo");
  const auto flags_at = cpuinfo.find("\nflags");
  const std::string flags =
      flags_at == std::string::npos
          ? std::string()
          : cpuinfo.substr(flags_at, cpuinfo.find('\n', flags_at + 1) - flags_at);
  k.cpu_avx2 = flags.find(" avx2") != std::string::npos;
  k.cpu_avx512 = flags.find(" avx512f") != std::string::npos;
  if (const char* env = std::getenv("OPENBLAS_CORETYPE")) k.environment = env;
  return judgeBlasKernel(std::move(k));
}

}  // namespace trainscope
