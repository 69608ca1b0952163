// Fingerprints of data files (core/data/data_fingerprint.h).
#include "core/data/data_fingerprint.h"

#include <openssl/evp.h>
#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/data/default_paths.h"
#include "core/system/cancel.h"

namespace trainscope {

namespace fs = std::filesystem;

std::string sha256OfFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  if (!in || fs::is_directory(file, ec))
    throw Error(ErrorCode::Data, file.string(),
                "cannot read " + file.string() + " to fingerprint it");
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1)
    throw Error(ErrorCode::Internal, file.string(), "OpenSSL's SHA-256 is not available");
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize got = in.gcount();
    if (got > 0) EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<size_t>(got));
    throwIfCancelled(file.string());
  }
  if (in.bad())
    throw Error(ErrorCode::Data, file.string(), "reading " + file.string() + " failed");
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &length);
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", digest[i]);
    hex += two;
  }
  return hex;
}

int64_t modificationTimeNs(const fs::path& path) {
  // file_time_type's epoch is libstdc++'s own (not the Unix epoch) before C++20's file_clock
  // conversions: stat() gives what Python's os.stat gives.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
}

DataFile fingerprintFile(const std::string& key, const fs::path& file) {
  DataFile f;
  f.key = key;
  f.path = file.string();
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec)
    throw Error(ErrorCode::Data, file.string(),
                "cannot read " + file.string() + " to fingerprint it: " + ec.message());
  f.size = static_cast<int64_t>(size);
  f.mtime_ns = modificationTimeNs(file);
  f.sha256 = sha256OfFile(file);
  return f;
}

std::vector<DataFile> dataFilesOf(const DataConfig& c, std::vector<DataFile> folders) {
  std::vector<std::pair<std::string, const std::optional<std::string>*>> keys;
  if (c.source == "csv")
    keys = {{"data.csv.path", &c.csv.path}, {"data.csv.val_path", &c.csv.val_path},
            {"data.csv.test_path", &c.csv.test_path}};
  else if (c.source == "npy")
    keys = {{"data.npy.path", &c.npy.path}, {"data.npy.y_path", &c.npy.y_path}};
  else if (c.source == "idx")
    keys = {{"data.idx.path", &c.idx.path}, {"data.idx.y_path", &c.idx.y_path},
            {"data.idx.test_path", &c.idx.test_path}, {"data.idx.test_y_path", &c.idx.test_y_path}};
  std::vector<DataFile> out;
  for (const auto& [key, value] : keys)
    if (*value && !(*value)->empty())
      out.push_back(fingerprintFile(key, fs::absolute(**value).lexically_normal()));
  if (c.source == "fashion-mnist") {
    const fs::path dir = c.path ? fs::path(*c.path) : fs::path(kFashionMnistDir);
    for (const char* name : {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
                             "t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"})
      out.push_back(fingerprintFile(std::string("data.path/") + name, fs::absolute(dir) / name));
  }
  for (DataFile& f : folders) out.push_back(std::move(f));
  return out;
}

namespace {

std::string describe(const DataFile& f) {
  const bool folder = f.sha256.rfind("listing:", 0) == 0;
  return std::to_string(f.size) + (folder ? " images, listing " + f.sha256.substr(8)
                                       : " bytes, SHA-256 " + f.sha256.substr(0, 16) + "...");
}

}  // namespace

std::vector<std::string> dataFileChanges(const std::vector<DataFile>& recorded,
                                         const std::vector<DataFile>& now,
                                         const std::string& recorded_by) {
  std::vector<std::string> changes;
  for (const DataFile& then : recorded) {
    for (const DataFile& f : now) {
      if (f.key != then.key) continue;
      if (f.path != then.path)
        changes.push_back(f.key + " is " + f.path + ", but " + recorded_by + " read " + then.path +
                          " (" + describe(then) + "; now " + describe(f) + ")");
      else if (f.size != then.size || f.sha256 != then.sha256)
        changes.push_back(f.key + " " + f.path + " changed since " + recorded_by + " read it: " +
                          describe(then) + " then; " + describe(f) + " now");
    }
  }
  return changes;
}

std::vector<std::string> checkDataUnchanged(const std::vector<DataFile>& recorded,
                                            const std::vector<DataFile>& now,
                                            const std::string& recorded_by, bool allow) {
  std::vector<std::string> changes = dataFileChanges(recorded, now, recorded_by);
  if (changes.empty() || allow) return changes;
  std::string file;
  for (const DataFile& then : recorded)
    if (changes.front().rfind(then.key + " ", 0) == 0) file = then.path;
  std::string message;
  for (const std::string& c : changes) message += (message.empty() ? "" : "; ") + c;
  throw Error(ErrorCode::Data, file,
              message + ". The splits and metrics would no longer be the run's (reordered rows move "
                        "training samples into validation); restore the file, or pass "
                        "--allow-changed-data to go on with a warning recorded in the run");
}

void to_json(nlohmann::json& j, const DataFile& f) {
  j = nlohmann::json{{"key", f.key}, {"path", f.path}, {"size", f.size},
                     {"mtime_ns", f.mtime_ns}, {"sha256", f.sha256}};
}

void from_json(const nlohmann::json& j, DataFile& f) {
  j.at("key").get_to(f.key);
  j.at("path").get_to(f.path);
  j.at("size").get_to(f.size);
  j.at("mtime_ns").get_to(f.mtime_ns);
  j.at("sha256").get_to(f.sha256);
}

}  // namespace trainscope
