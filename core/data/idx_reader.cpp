// IDX reader (MNIST format) over zlib's gzread, which also reads uncompressed files.
#include "core/data/idx_reader.h"

#include <ATen/ops/empty.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>

#include "core/errors.h"
#include "core/io/file_read.h"
#include "core/system/cancel.h"

namespace trainscope {
namespace {

[[noreturn]] void failIdx(const std::filesystem::path& path, const std::string& problem) {
  throw Error(ErrorCode::Data, path.string(), "IDX file " + path.string() + ": " + problem);
}

/// "0x0D (32-bit floats)": an IDX element type byte as the format documents it.
std::string typeText(uint8_t b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", b);
  const char* name = b == 0x09   ? " (signed bytes)"
                     : b == 0x0B ? " (16-bit integers)"
                     : b == 0x0C ? " (32-bit integers)"
                     : b == 0x0D ? " (32-bit floats)"
                     : b == 0x0E ? " (64-bit floats)"
                                 : "";
  return buf + std::string(name);
}

struct GzFile {
  gzFile f = nullptr;
  ~GzFile() {
    if (f) gzclose(f);
  }
};

// Reads exactly n bytes; returns how many were read before end of file. Throws on a gzip error,
// and Cancelled between 1 MiB chunks once an interrupt asked for it (core/system/cancel.h).
int64_t readFully(GzFile& gz, const std::filesystem::path& path, uint8_t* out, int64_t n) {
  int64_t done = 0;
  while (done < n) {
    throwIfCancelled(path.string());
    unsigned chunk = static_cast<unsigned>(std::min<int64_t>(n - done, 1 << 20));
    int got = gzread(gz.f, out + done, chunk);
    if (got < 0) {
      int errnum = 0;
      const char* msg = gzerror(gz.f, &errnum);
      failIdx(path, std::string("corrupt gzip data (") + (msg ? msg : "unknown error") + ")");
    }
    if (got == 0) {
      // gzread returns 0 both at a clean end and at a truncated gzip stream; gzerror tells.
      int errnum = 0;
      const char* msg = gzerror(gz.f, &errnum);
      if (errnum != Z_OK && errnum != Z_BUF_ERROR)
        failIdx(path, std::string("corrupt gzip data (") + (msg ? msg : "unknown error") + ")");
      break;
    }
    done += got;
  }
  return done;
}

/// Reads `path`; `bytes_only`: refuse element types other than 0x08 (Fashion-MNIST's loader).
at::Tensor readIdx(const std::filesystem::path& path, bool bytes_only) {
  if (const auto problem = notRegularFileProblem(path)) failIdx(path, *problem);
  GzFile gz;
  gz.f = gzopen(path.c_str(), "rb");
  if (!gz.f) failIdx(path, "cannot open");
  gzbuffer(gz.f, 1 << 17);

  uint8_t magic[4];
  if (readFully(gz, path, magic, 4) != 4) failIdx(path, "truncated: shorter than its 4-byte header");
  if (magic[0] != 0 || magic[1] != 0) failIdx(path, "not an IDX file (bad magic number)");
  if (bytes_only && magic[2] != 0x08)
    failIdx(path,
         "unsupported IDX element type " + typeText(magic[2]) + " (only unsigned bytes, 0x08)");
  at::ScalarType type = at::kByte;
  int64_t elem = 1;
  switch (magic[2]) {
    case 0x08: type = at::kByte; elem = 1; break;
    case 0x09: type = at::kChar; elem = 1; break;
    case 0x0B: type = at::kShort; elem = 2; break;
    case 0x0C: type = at::kInt; elem = 4; break;
    case 0x0D: type = at::kFloat; elem = 4; break;
    case 0x0E: type = at::kDouble; elem = 8; break;
    default:
      failIdx(path, "unsupported IDX element type " + typeText(magic[2]) +
                     " (the format's types are 0x08, 0x09, 0x0B, 0x0C, 0x0D and 0x0E)");
  }
  int ndims = magic[3];
  if (ndims < 1 || ndims > 4)
    failIdx(path, "unsupported number of dimensions " + std::to_string(ndims));

  std::vector<int64_t> dims(ndims);
  int64_t total = elem;
  for (int i = 0; i < ndims; ++i) {
    uint8_t b[4];
    if (readFully(gz, path, b, 4) != 4) failIdx(path, "truncated in its header");
    int64_t d = (int64_t{b[0]} << 24) | (int64_t{b[1]} << 16) | (int64_t{b[2]} << 8) | b[3];
    if (d <= 0 || d > (int64_t{1} << 31)) failIdx(path, "invalid dimension " + std::to_string(d));
    dims[i] = d;
    total *= d;
    if (total > (int64_t{1} << 34))
      failIdx(path, "implausibly large (" + std::to_string(total) + " bytes)");
  }

  at::Tensor out = at::empty(dims, at::TensorOptions().dtype(type));
  uint8_t* bytes = static_cast<uint8_t*>(out.data_ptr());
  int64_t got = readFully(gz, path, bytes, total);
  if (got != total)
    failIdx(path, "truncated: expected " + std::to_string(total) + " data bytes, found " +
                   std::to_string(got));
  uint8_t extra;
  if (readFully(gz, path, &extra, 1) != 0) failIdx(path, "unexpected data after the last element");
  if (elem > 1) {  // IDX stores big-endian; swap to this machine's little-endian order
    for (int64_t i = 0; i < total; i += elem) std::reverse(bytes + i, bytes + i + elem);
  }
  return out;
}

}  // namespace

at::Tensor readIdxFile(const std::filesystem::path& path) { return readIdx(path, true); }

at::Tensor readIdxArray(const std::filesystem::path& path) { return readIdx(path, false); }

}  // namespace trainscope
