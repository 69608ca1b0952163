#pragma once
/// Torch-free: the zip archive of `torch.save` / torch::pickle_save files
/// (torch/serialization.py, caffe2/serialize/inline_container.h): records "<prefix>/data.pkl",
/// "<prefix>/data/<key>", "<prefix>/version", all stored uncompressed. Read with libzip, with
/// its strict consistency checks (ZIP_CHECKCONS: local headers against the central directory)
/// and the CRC-32 of every record read verified, like Python's zipfile.testzip().
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

struct zip;

namespace trainscope {

/// A zip archive that is truncated, corrupt, or not the stored-records form torch writes. The
/// message names the problem and the record; callers add the file name.
class ZipError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The records of a torch zip archive held in memory. Names are given without the archive's
/// prefix (the folder every record is in: "archive" for libtorch, the file's stem for Python),
/// like PyTorchStreamReader's.
class TorchZip {
 public:
  /// Opens the archive in `bytes` (not copied: it must outlive this object). Throws ZipError
  /// when the archive is truncated, inconsistent, holds a compressed or oversized record
  /// (larger than the file; unless `compressed_ok`), or its records are not all in one folder.
  /// `compressed_ok`: accept compressed records too (TorchScript archives deflate their code/
  /// files; torch.save's tensors never are), for has() and the listing only.
  explicit TorchZip(const std::vector<char>& bytes, bool compressed_ok = false);
  ~TorchZip();
  TorchZip(const TorchZip&) = delete;
  TorchZip& operator=(const TorchZip&) = delete;

  /// Whether record `name` ("data.pkl", "data/0") exists.
  bool has(const std::string& name) const;
  /// The size of record `name` in bytes. Throws ZipError when it is missing.
  uint64_t size(const std::string& name) const;
  /// Copies record `name` (exactly size(name) bytes) to `dst` and verifies its CRC-32. Throws
  /// ZipError when it is missing, cannot be read or its CRC-32 does not match (the message says
  /// the file is corrupt).
  void read(const std::string& name, void* dst) const;
  /// read() into a new buffer.
  std::vector<char> read(const std::string& name) const;
  /// Every record's name, without the prefix, in the archive's order.
  std::vector<std::string> names() const;

 private:
  int64_t index(const std::string& name) const;
  const std::vector<char>& bytes_;
  struct zip* archive_ = nullptr;
  std::string prefix_;  ///< "archive/"
};

}  // namespace trainscope
