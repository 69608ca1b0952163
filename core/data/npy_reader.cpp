#include "core/data/npy_reader.h"

#include <ATen/ATen.h>
#include <zip.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>

#include "core/errors.h"
#include "core/io/crc32.h"
#include "core/io/file_read.h"
#include "core/system/cancel.h"

namespace trainscope {
namespace {

[[noreturn]] void failNpy(const std::string& file, const std::string& what,
                       const std::string& problem) {
  throw Error(ErrorCode::Data, file, "NumPy file " + what + ": " + problem);
}

/// The value of `key` in the header dict's text: "'<f4'", "False", "(3, 4)".
std::string headerValue(const std::string& header, const std::string& key) {
  const std::size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return {};
  std::size_t p = header.find(':', k);
  if (p == std::string::npos) return {};
  ++p;
  while (p < header.size() && header[p] == ' ') ++p;
  std::size_t end = p;
  if (p < header.size() && header[p] == '(') {
    end = header.find(')', p);
    return end == std::string::npos ? std::string() : header.substr(p, end - p + 1);
  }
  if (p < header.size() && header[p] == '\'') {
    end = header.find('\'', p + 1);
    return end == std::string::npos ? std::string() : header.substr(p, end - p + 1);
  }
  while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  return header.substr(p, end - p);
}

struct Dtype {
  at::ScalarType read;  ///< how the bytes are read
  at::ScalarType keep;  ///< what the tensor holds
  int size = 0;
  bool swap = false;
};

Dtype parseDtype(const std::string& descr, const std::string& file, const std::string& what) {
  // descr: '<f4', '|u1', '|b1', '>i8' ...
  if (descr.size() < 5 || descr.front() != '\'' || descr.back() != '\'')
    failNpy(file, what,
         "its dtype " + descr + " is not a plain number type (structured arrays are not read)");
  const std::string d = descr.substr(1, descr.size() - 2);
  const char order = d[0], kind = d[1];
  const int size = std::atoi(d.c_str() + 2);
  const bool little = order == '<' || order == '|' || (order == '=');
  Dtype t;
  t.size = size;
  t.swap = !little && size > 1;
  using S = at::ScalarType;
  if (kind == 'b' && size == 1) t.read = t.keep = S::Bool;
  else if (kind == 'i' && size == 1) t.read = t.keep = S::Char;
  else if (kind == 'i' && size == 2) t.read = t.keep = S::Short;
  else if (kind == 'i' && size == 4) t.read = t.keep = S::Int;
  else if (kind == 'i' && size == 8) t.read = t.keep = S::Long;
  else if (kind == 'u' && size == 1) t.read = t.keep = S::Byte;
  else if (kind == 'u' && size == 2) t.read = S::Short, t.keep = S::Long;  // bits reinterpreted
  else if (kind == 'u' && size == 4) t.read = S::Int, t.keep = S::Long;
  else if (kind == 'u' && size == 8) t.read = t.keep = S::Long;
  else if (kind == 'f' && size == 2) t.read = S::Half, t.keep = S::Float;
  else if (kind == 'f' && size == 4) t.read = t.keep = S::Float;
  else if (kind == 'f' && size == 8) t.read = t.keep = S::Double;
  else
    failNpy(file, what,
         "its dtype '" + d +
             "' is not one TrainScope reads (bool, int8-64, uint8-64, float16-64; not object, "
             "string, complex or datetime arrays)");
  if (order != '<' && order != '>' && order != '|' && order != '=')
    failNpy(file, what, "its dtype '" + d + "' has no byte order");
  return t;
}

std::vector<int64_t> parseShape(const std::string& text, const std::string& file,
                                const std::string& what) {
  if (text.size() < 2 || text.front() != '(')
    failNpy(file, what, "its header has no shape");
  std::vector<int64_t> shape;
  std::size_t p = 1;
  while (p < text.size()) {
    while (p < text.size() && (text[p] == ' ' || text[p] == ',')) ++p;
    if (p >= text.size() || text[p] == ')') break;
    std::size_t end = p;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == p || end - p > 18) failNpy(file, what, "its shape " + text + " is not valid");
    shape.push_back(std::stoll(text.substr(p, end - p)));
    p = end;
  }
  return shape;
}

}  // namespace

namespace {

/// A checked header: what follows it must be exactly `count` values of `dtype`.
struct NpyHeader {
  Dtype dtype;
  std::string descr;  ///< without quotes
  bool fortran = false;
  std::vector<int64_t> shape;
  std::size_t data_offset = 0;
  uint64_t count = 0;
};

/// Parses the header at the start of `bytes` (`have` of them read) of a file of `total` bytes.
NpyHeader parseHeader(const char* bytes, std::size_t have, uint64_t total, const std::string& file,
                   const std::string& what) {
  static const char kMagic[] = "\x93NUMPY";
  if (have < 10 || std::memcmp(bytes, kMagic, 6) != 0)
    failNpy(file, what, "not a .npy array (no \\x93NUMPY magic at its start)");
  const auto major = static_cast<uint8_t>(bytes[6]);
  std::size_t header_len = 0, start = 0;
  const auto* u = reinterpret_cast<const uint8_t*>(bytes);
  if (major == 1) {
    header_len = u[8] | (u[9] << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (have < 12) failNpy(file, what, "its header is cut off");
    header_len = u[8] | (u[9] << 8) | (u[10] << 16) | (std::size_t(u[11]) << 24);
    start = 12;
  } else {
    failNpy(file, what, "format version " + std::to_string(major) + " is not 1, 2 or 3");
  }
  if (start + header_len > have) failNpy(file, what, "its header is cut off");
  const std::string header(bytes + start, header_len);
  NpyHeader h;
  const std::string descr = headerValue(header, "descr");
  h.dtype = parseDtype(descr, file, what);
  h.descr = descr.substr(1, descr.size() - 2);
  const std::string fortran = headerValue(header, "fortran_order");
  if (fortran != "False" && fortran != "True")
    failNpy(file, what, "its header has no fortran_order");
  h.fortran = fortran == "True";
  h.shape = parseShape(headerValue(header, "shape"), file, what);
  h.data_offset = start + header_len;
  const uint64_t data_bytes = total - h.data_offset;
  uint64_t count = 1;
  for (int64_t d : h.shape) {
    if (d != 0 && count > std::numeric_limits<uint64_t>::max() / 16 / static_cast<uint64_t>(d))
      failNpy(file, what, "its shape is too large");
    count *= static_cast<uint64_t>(d);
  }
  if (count * h.dtype.size != data_bytes)
    failNpy(file, what,
         "its shape and dtype need " + std::to_string(count * h.dtype.size) + " bytes of data but " +
             std::to_string(data_bytes) + " follow the header (a cut-off or padded file)");
  h.count = count;
  return h;
}

/// The checked header of the .npy file `file`, read from its first bytes alone.
NpyHeader headerOfFile(const std::string& file) {
  if (auto problem = notRegularFileProblem(file)) failNpy(file, file, *problem);
  std::error_code ec;
  const uint64_t total = std::filesystem::file_size(file, ec);
  const auto head = readFileHead(file, 65536 + 12);
  if (ec || !head) failNpy(file, file, "cannot be read");
  return parseHeader(head->data(), head->size(), total, file, file);
}

}  // namespace

NpyLayout readNpyLayout(const std::string& file) {
  const NpyHeader h = headerOfFile(file);
  NpyLayout out;
  out.shape = h.shape;
  out.descr = h.descr;
  out.fortran_order = h.fortran;
  out.data_offset = h.data_offset;
  return out;
}

namespace {

/// The array of header `h`, its data bytes (count * dtype size) written by `fill` straight into
/// the tensor's storage (no second copy of a large file in memory).
at::Tensor arrayOf(const NpyHeader& h, const std::function<void(void*, std::size_t)>& fill) {
  const Dtype& dtype = h.dtype;
  const uint64_t count = h.count;
  std::vector<int64_t> sizes = h.shape;
  if (h.fortran) std::reverse(sizes.begin(), sizes.end());
  at::Tensor t = at::empty(sizes, at::TensorOptions().dtype(dtype.read));
  if (count > 0) fill(t.data_ptr(), static_cast<std::size_t>(count * dtype.size));
  if (dtype.swap) {
    auto* p = static_cast<uint8_t*>(t.data_ptr());
    for (uint64_t i = 0; i < count; ++i) std::reverse(p + i * dtype.size, p + (i + 1) * dtype.size);
  }
  if (h.fortran && sizes.size() > 1) {
    std::vector<int64_t> perm(sizes.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(perm.size() - 1 - i);
    t = t.permute(perm).contiguous();
  }
  if (dtype.read != dtype.keep) {
    if (dtype.read == at::kHalf) {
      t = t.to(at::kFloat);
    } else {  // unsigned 16/32-bit: the signed bits widened, then the wrap-around undone
      const double wrap = dtype.size == 2 ? 65536.0 : 4294967296.0;
      at::Tensor wide = t.to(at::kLong);
      t = at::where(wide < 0, wide + static_cast<int64_t>(wrap), wide);
    }
  }
  return t;
}

}  // namespace

at::Tensor parseNpy(const std::vector<char>& bytes, const std::string& file,
                    const std::string& what) {
  const NpyHeader h = parseHeader(bytes.data(), bytes.size(), bytes.size(), file, what);
  return arrayOf(h, [&](void* dst, std::size_t n) {
    std::memcpy(dst, bytes.data() + h.data_offset, n);
  });
}

at::Tensor readNpy(const std::string& file) {
  const NpyHeader h = headerOfFile(file);
  // The data read straight into the array, in 8 MiB pieces (an interrupt is heard between).
  return arrayOf(h, [&](void* dst, std::size_t n) {
    std::ifstream in(file, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(h.data_offset));
    auto* out = static_cast<char*>(dst);
    for (std::size_t done = 0; done < n;) {
      throwIfCancelled(file);
      const std::size_t piece = std::min<std::size_t>(n - done, std::size_t{8} << 20);
      if (!in.read(out + done, static_cast<std::streamsize>(piece)))
        failNpy(file, file, "cannot be read (it changed while it was read?)");
      done += piece;
    }
  });
}

namespace {

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};

std::unique_ptr<zip_t, ZipCloser> openNpz(const std::string& file) {
  if (auto problem = notRegularFileProblem(file)) failNpy(file, file, *problem);
  int error = 0;
  zip_t* z = zip_open(file.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (!z) {
    zip_error_t e;
    zip_error_init_with_code(&e, error);
    const std::string message = zip_error_strerror(&e);
    zip_error_fini(&e);
    failNpy(file, file, "not a readable .npz (zip) archive: " + message);
  }
  return std::unique_ptr<zip_t, ZipCloser>(z);
}

std::vector<std::string> namesIn(zip_t* z) {
  std::vector<std::string> names;
  const zip_int64_t n = zip_get_num_entries(z, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    std::string name = zip_get_name(z, i, 0);
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".npy") == 0) name.resize(name.size() - 4);
    names.push_back(name);
  }
  return names;
}

}  // namespace

std::vector<std::string> npzArrayNames(const std::string& file) {
  auto z = openNpz(file);
  return namesIn(z.get());
}

at::Tensor readNpzArray(const std::string& file, const std::string& name) {
  auto z = openNpz(file);
  const std::string member = name + ".npy";
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat(z.get(), member.c_str(), 0, &st) != 0) {
    std::string known;
    for (const std::string& n : namesIn(z.get())) known += (known.empty() ? "" : ", ") + n;
    failNpy(file, file, "has no array '" + name + "' (its arrays: " + (known.empty() ? "none" : known) + ")");
  }
  const std::string what = file + "'s array '" + name + "'";
  // Deflate expands at most ~1032:1: a record claiming more is corrupt (or a zip bomb).
  if (!(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE) ||
      st.size > (uint64_t{1} << 40) || st.size > st.comp_size * 1100 + 4096)
    failNpy(file, what,
         "its size (" + std::to_string(st.size) + " bytes) is unknown or impossible for its " +
             std::to_string(st.comp_size) + " stored bytes (a corrupt archive)");
  zip_file_t* f = zip_fopen(z.get(), member.c_str(), 0);
  if (!f) failNpy(file, what, std::string("cannot be opened: ") + zip_strerror(z.get()));
  std::vector<char> bytes(st.size);
  const zip_int64_t got = bytes.empty() ? 0 : zip_fread(f, bytes.data(), bytes.size());
  const std::string err = got < 0 ? zip_file_strerror(f) : "";
  zip_fclose(f);
  if (got < 0 || static_cast<uint64_t>(got) != st.size)
    failNpy(file, what, "cannot be read (a corrupt archive" + (err.empty() ? "" : ": " + err) + ")");
  // libzip checks a member's CRC-32 only when a read meets its end; a read of exactly its size
  // never does, so altered data trained silently: checked here, as zipfile does.
  const uint32_t crc = crc32Of(0, bytes.data(), bytes.size());
  if (!(st.valid & ZIP_STAT_CRC) || crc != st.crc)
    failNpy(file, what, "does not match its CRC-32 (the archive is corrupt or was altered)");
  return parseNpy(bytes, file, what);
}

}  // namespace trainscope
