// The zip layer of torch files, on libzip (see torch_zip.h).
#include "core/io/torch_zip.h"

#include <zip.h>

namespace trainscope {
namespace {

std::string errorText(zip_error_t* e) {
  std::string s = zip_error_strerror(e);
  return s;
}

}  // namespace

TorchZip::TorchZip(const std::vector<char>& bytes, bool compressed_ok) : bytes_(bytes) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes_.data(), bytes_.size(), 0, &error);
  if (!source) {
    const std::string why = errorText(&error);
    zip_error_fini(&error);
    throw ZipError("the zip archive cannot be opened (" + why + ")");
  }
  archive_ = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (!archive_) {
    zip_source_free(source);
    const int code = zip_error_code_zip(&error);
    const std::string why = errorText(&error);
    zip_error_fini(&error);
    throw ZipError(std::string("the file is truncated or corrupt (") +
                   (code == ZIP_ER_NOZIP ? "no zip directory at its end: " : "") + why + ")");
  }
  zip_error_fini(&error);
  const zip_int64_t n = zip_get_num_entries(archive_, 0);
  if (n <= 0) {
    zip_discard(archive_);
    throw ZipError("the zip archive holds no records");
  }
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive_, i, 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME) ||
        !(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE) ||
        !(st.valid & ZIP_STAT_COMP_METHOD)) {
      zip_discard(archive_);
      throw ZipError("the zip archive's record " + std::to_string(i) + " cannot be read");
    }
    const std::string name = st.name;
    const std::string folder = name.substr(0, name.find('/') + 1);
    auto fail = [&](const std::string& why) {
      zip_discard(archive_);
      throw ZipError("the zip archive's record " + name + " " + why);
    };
    if (i == 0) prefix_ = folder;
    if (folder.empty() || folder != prefix_)
      fail("is not in the archive's folder " + (prefix_.empty() ? "(none)" : prefix_));
    if (compressed_ok) continue;
    if (st.comp_method != ZIP_CM_STORE)
      fail("is compressed (method " + std::to_string(st.comp_method) +
           "); torch stores records uncompressed");
    if (st.size != st.comp_size || st.size > bytes_.size())
      fail("declares " + std::to_string(st.size) + " bytes, more than the file's " +
           std::to_string(bytes_.size()) + " (corrupt)");
  }
}

TorchZip::~TorchZip() {
  if (archive_) zip_discard(archive_);
}

int64_t TorchZip::index(const std::string& name) const {
  return zip_name_locate(archive_, (prefix_ + name).c_str(), 0);
}

bool TorchZip::has(const std::string& name) const { return index(name) >= 0; }

uint64_t TorchZip::size(const std::string& name) const {
  const int64_t i = index(name);
  zip_stat_t st;
  zip_stat_init(&st);
  if (i < 0 || zip_stat_index(archive_, i, 0, &st) != 0)
    throw ZipError("the zip archive has no record " + prefix_ + name);
  return st.size;
}

void TorchZip::read(const std::string& name, void* dst) const {
  const uint64_t n = size(name);
  zip_file_t* f = zip_fopen_index(archive_, index(name), 0);
  if (!f) {
    zip_error_t* e = zip_get_error(archive_);
    throw ZipError("the zip archive's record " + prefix_ + name + " cannot be read (" +
                   errorText(e) + ")");
  }
  char* out = static_cast<char*>(dst);
  uint64_t done = 0;
  zip_int64_t got = 0;
  // Read to the end: libzip checks the CRC-32 when the last byte has been read.
  char probe[1];
  while (true) {
    got = zip_fread(f, done < n ? out + done : probe, done < n ? n - done : 1);
    if (got <= 0) break;
    done += static_cast<uint64_t>(got);
    if (done > n) break;
  }
  std::string why;
  int code = 0;
  if (got < 0) {
    zip_error_t* e = zip_file_get_error(f);
    code = zip_error_code_zip(e);
    why = errorText(e);
  }
  zip_fclose(f);
  if (code == ZIP_ER_CRC)
    throw ZipError("the zip archive's record " + prefix_ + name +
                   " fails its CRC-32 check: the file is corrupt");
  if (got < 0 || done != n)
    throw ZipError("the zip archive's record " + prefix_ + name + " cannot be read (" +
                   (why.empty() ? "it ends early" : why) + ")");
}

std::vector<std::string> TorchZip::names() const {
  std::vector<std::string> out;
  const zip_int64_t n = zip_get_num_entries(archive_, 0);
  for (zip_int64_t i = 0; i < n; ++i)
    if (const char* name = zip_get_name(archive_, static_cast<zip_uint64_t>(i), 0))
      out.emplace_back(std::string(name).substr(prefix_.size()));
  return out;
}

std::vector<char> TorchZip::read(const std::string& name) const {
  std::vector<char> out(size(name));
  read(name, out.data());
  return out;
}

}  // namespace trainscope
