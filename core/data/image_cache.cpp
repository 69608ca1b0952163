// The image-folder source's cache of decoded pixels.
#include "core/data/image_cache.h"

#include <ATen/ATen.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/io/atomic_file.h"
#include "core/io/crc32.h"
#include "core/io/file_read.h"
#include "core/system/cancel.h"

namespace trainscope {
namespace {

namespace fs = std::filesystem;

// Format 2 ends with a CRC-32 of everything after the header (an altered
// cache trained silently); format 1 files are not read (another magic).
constexpr char kMagic[8] = {'T', 'S', 'I', 'M', 'G', 'C', '2', '\n'};

constexpr std::size_t kKeep = 8;

struct Fnv {
  uint64_t h = 1469598103934665603ULL;
  void add(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL;
  }
  void add(const std::string& s) {
    add(s.data(), s.size());
    add("\0", 1);
  }
  void add(int64_t v) { add(&v, sizeof v); }
};

/// The header after the magic: key, files, channels, height, width, kept, failed.
struct Header {
  uint64_t key = 0;
  int64_t n_files = 0, channels = 0, h = 0, w = 0, kept = 0, failed = 0;
};

}  // namespace

fs::path imageCacheDir() {
  if (const char* d = std::getenv("TRAINSCOPE_CACHE_DIR"); d && *d)
    return std::string(d) == "off" ? fs::path() : fs::path(d);
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x && fs::path(x).is_absolute())
    return fs::path(x) / "trainscope";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".cache" / "trainscope";
  return {};
}

uint64_t imageCacheKey(const fs::path& root, int64_t channels,
                       const std::vector<int64_t>& requested_size, const std::string& resize_mode,
                       const std::vector<std::pair<int64_t, std::string>>& files) {
  Fnv f;
  f.add(std::string(kMagic, sizeof kMagic));
  f.add(fs::absolute(root).lexically_normal().string());
  f.add(channels);
  f.add(static_cast<int64_t>(requested_size.size()));
  for (int64_t s : requested_size) f.add(s);
  if (!requested_size.empty()) f.add(resize_mode);
  f.add(static_cast<int64_t>(files.size()));
  int64_t i = 0;
  const std::string prefix = root.string() + "/";
  std::string path;
  for (const auto& [cls, relative] : files) {
    if ((++i & 1023) == 0) throwIfCancelled(root.string());
    f.add(relative);
    f.add(cls);
    path.assign(prefix).append(relative);
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
      f.add(static_cast<int64_t>(st.st_size));
      f.add(static_cast<int64_t>(st.st_mtim.tv_sec));
      f.add(static_cast<int64_t>(st.st_mtim.tv_nsec));
    } else {
      f.add(int64_t{-1});
    }
  }
  return f.h;
}

fs::path imageCacheFile(const fs::path& dir, uint64_t key) {
  char name[64];
  std::snprintf(name, sizeof name, "image-folder-%016llx.bin", static_cast<unsigned long long>(key));
  return dir / name;
}

std::optional<DecodedImages> readImageCache(const fs::path& file, uint64_t key, int64_t n_files,
                                            int64_t channels, int64_t max_in_memory) {
  if (notRegularFileProblem(file)) return std::nullopt;  // a FIFO would block the fopen
  std::FILE* f = std::fopen(file.c_str(), "rb");
  if (!f) return std::nullopt;
  struct Closer {
    std::FILE* f;
    ~Closer() { std::fclose(f); }
  } closer{f};
  char magic[sizeof kMagic];
  Header h;
  if (std::fread(magic, 1, sizeof magic, f) != sizeof magic ||
      std::memcmp(magic, kMagic, sizeof magic) != 0 || std::fread(&h, sizeof h, 1, f) != 1)
    return std::nullopt;
  if (h.key != key || h.n_files != n_files || h.channels != channels || h.h <= 0 || h.w <= 0 ||
      h.kept < 0 || h.failed < 0 || h.kept + h.failed != n_files || h.h > 65536 || h.w > 65536)
    return std::nullopt;
  const int64_t per = channels * h.h * h.w;
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  const uint64_t expected = sizeof magic + sizeof h + 8 * static_cast<uint64_t>(h.kept + h.failed) +
                            static_cast<uint64_t>(h.kept) * static_cast<uint64_t>(per) + 4;
  if (ec || size != expected) return std::nullopt;
  DecodedImages d;
  d.size = {h.h, h.w};
  d.kept.resize(static_cast<std::size_t>(h.kept));
  d.failed.resize(static_cast<std::size_t>(h.failed));
  if (std::fread(d.kept.data(), 8, d.kept.size(), f) != d.kept.size() ||
      std::fread(d.failed.data(), 8, d.failed.size(), f) != d.failed.size())
    return std::nullopt;
  for (int64_t v : d.kept)
    if (v < 0 || v >= n_files) return std::nullopt;
  for (int64_t v : d.failed)
    if (v < 0 || v >= n_files) return std::nullopt;
  const int64_t total = h.kept * per;
  const bool on_disk = total > max_in_memory;  // checked all the same, in a reused buffer
  std::vector<uint8_t> buffer;
  if (on_disk) {
    buffer.resize(8 << 20);
    d.pixels_file = file;
    d.pixels_offset = sizeof magic + sizeof h + 8 * static_cast<uint64_t>(h.kept + h.failed);
  } else {
    d.x = at::empty({h.kept, per}, at::kByte);
  }
  uint8_t* dst = on_disk ? buffer.data() : d.x.data_ptr<uint8_t>();
  uint32_t crc = crc32Of(0, d.kept.data(), 8 * d.kept.size());
  crc = crc32Of(crc, d.failed.data(), 8 * d.failed.size());
  for (int64_t done = 0; done < total;) {  // in 8 MiB pieces, interruptible
    if (cancelRequested()) return std::nullopt;
    const std::size_t piece = static_cast<std::size_t>(std::min<int64_t>(total - done, 8 << 20));
    uint8_t* at = on_disk ? dst : dst + done;
    if (std::fread(at, 1, piece, f) != piece) return std::nullopt;
    crc = crc32Of(crc, at, piece);
    done += static_cast<int64_t>(piece);
  }
  uint32_t stored = 0;
  if (std::fread(&stored, sizeof stored, 1, f) != 1 || stored != crc) return std::nullopt;
  return d;
}

bool writeImageCache(const fs::path& file, uint64_t key, int64_t n_files, int64_t channels,
                     DecodedImages& d) {
  try {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec) return false;
    Header h;
    h.key = key;
    h.n_files = n_files;
    h.channels = channels;
    h.h = d.size.at(0);
    h.w = d.size.at(1);
    h.kept = static_cast<int64_t>(d.kept.size());
    h.failed = static_cast<int64_t>(d.failed.size());
    // Streamed to a temp file beside it, flushed, renamed: no second copy of the pixels in
    // memory, and readers see no file or the whole one.
    const fs::path tmp = file.parent_path() / (atomicTempPrefix(file) + std::to_string(::getpid()));
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) return false;
    bool ok = std::fwrite(kMagic, 1, sizeof kMagic, f) == sizeof kMagic &&
              std::fwrite(&h, sizeof h, 1, f) == 1 &&
              std::fwrite(d.kept.data(), 8, d.kept.size(), f) == d.kept.size() &&
              std::fwrite(d.failed.data(), 8, d.failed.size(), f) == d.failed.size();
    uint32_t crc = crc32Of(0, d.kept.data(), 8 * d.kept.size());
    crc = crc32Of(crc, d.failed.data(), 8 * d.failed.size());
    if (d.x.defined()) {
      const at::Tensor x = d.x.contiguous();
      ok = ok && std::fwrite(x.data_ptr<uint8_t>(), 1, static_cast<std::size_t>(x.numel()), f) ==
                     static_cast<std::size_t>(x.numel());
      crc = crc32Of(crc, x.data_ptr<uint8_t>(), static_cast<std::size_t>(x.numel()));
    } else {  // pixels on disk: copied from their file in pieces
      std::FILE* in = std::fopen(d.pixels_file.c_str(), "rb");
      ok = ok && in;
      std::vector<uint8_t> buffer(8 << 20);
      for (std::size_t got; ok && (got = std::fread(buffer.data(), 1, buffer.size(), in)) > 0;) {
        ok = std::fwrite(buffer.data(), 1, got, f) == got;
        crc = crc32Of(crc, buffer.data(), got);
      }
      if (in) ok = !std::ferror(in) && ok, std::fclose(in);
    }
    ok = ok && std::fwrite(&crc, sizeof crc, 1, f) == 1;
    ok = std::fflush(f) == 0 && ok;
    ok = ::fsync(::fileno(f)) == 0 && ok;
    ok = std::fclose(f) == 0 && ok;
    if (!ok || std::rename(tmp.c_str(), file.c_str()) != 0) {
      fs::remove(tmp, ec);
      return false;
    }
    if (!d.x.defined()) {  // the pixels now live in the cache file
      d.pixels_file = file;
      d.pixels_offset = sizeof kMagic + sizeof h + 8 * static_cast<uint64_t>(h.kept + h.failed);
    }
    // Prune: the newest kKeep cache files stay (only files named as this cache names them).
    std::vector<std::pair<fs::file_time_type, fs::path>> caches;
    for (fs::directory_iterator it(file.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (name.rfind("image-folder-", 0) == 0 && it->path().extension() == ".bin")
        caches.emplace_back(fs::last_write_time(it->path(), ec), it->path());
    }
    std::sort(caches.begin(), caches.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (std::size_t i = kKeep; i < caches.size(); ++i) {
      // Only files that begin as this cache's do (never a user's file of a similar name).
      std::FILE* old = std::fopen(caches[i].second.c_str(), "rb");
      if (!old) continue;
      char magic[sizeof kMagic] = {};
      const bool ours = std::fread(magic, 1, sizeof magic, old) == sizeof magic &&
                        std::memcmp(magic, kMagic, sizeof magic) == 0;
      std::fclose(old);
      if (ours) fs::remove(caches[i].second, ec);
    }
    return true;
  } catch (...) {
    // A cache that cannot be written (full disk, read-only home) only costs the next start.
    return false;
  }
}

}  // namespace trainscope
