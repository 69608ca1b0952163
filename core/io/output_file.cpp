// The run folder and output file of the commands that write one file (output_file.h).
#include "core/io/output_file.h"

#include <cstdint>
#include <fstream>
#include <iterator>

#include "core/errors.h"

namespace trainscope {

std::filesystem::path checkRunFolder(const std::string& arg, const std::string& file_hint) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::absolute(arg, ec).lexically_normal();
  if (!fs::exists(dir, ec)) throw Error(ErrorCode::Config, arg, arg + " does not exist");
  if (!fs::is_directory(dir, ec))
    throw Error(ErrorCode::Config, arg, arg + " is not a run folder (it is a file" + file_hint + ")");
  for (const char* f : {"config.json", "run.json"})
    if (!fs::is_regular_file(dir / f, ec))
      throw Error(ErrorCode::Config, arg,
                  dir.string() + " is not a TrainScope run folder: it has no " + f);
  return dir;
}

std::function<bool(const std::string&)> startsWith(const std::string& marker) {
  return [marker](const std::string& bytes) { return bytes.compare(0, marker.size(), marker) == 0; };
}

std::filesystem::path checkOutputFile(const std::string& file, const std::string& option,
                                      const std::function<bool(const std::string&)>& writtenByUs) {
  namespace fs = std::filesystem;
  if (file.empty()) throw Error(ErrorCode::Config, option, option + " needs a file name");
  std::error_code ec;
  const fs::path path = fs::absolute(file, ec).lexically_normal();
  if (fs::is_directory(path, ec))
    throw Error(ErrorCode::Config, option,
                option + " " + path.string() + " is a directory; give a file name in it");
  if (!fs::is_directory(path.parent_path(), ec))
    throw Error(ErrorCode::Config, option,
                option + " " + path.string() + ": the folder " + path.parent_path().string() +
                    " does not exist");
  if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))
    throw Error(ErrorCode::Config, option,
                option + " " + path.string() +
                    " exists and is not a regular file (a FIFO, a device or a socket); give a "
                    "file name");
  if (fs::exists(path, ec)) {
    // A file up to 64 MiB is read whole; of a larger one (an exported model can be) its first
    // and last MiB: where the marks of what TrainScope writes are (a text's first line, an
    // ONNX file's producer, a zip archive's central directory).
    constexpr std::uintmax_t kWhole = 64u << 20, kEnd = 1u << 20;
    const std::uintmax_t size = fs::file_size(path, ec);
    std::string bytes;
    if (!ec) {
      std::ifstream in(path, std::ios::binary);
      if (size <= kWhole) {
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
      } else {
        bytes.resize(2 * kEnd);
        in.read(bytes.data(), static_cast<std::streamsize>(kEnd));
        in.seekg(static_cast<std::streamoff>(size - kEnd));
        in.read(bytes.data() + kEnd, static_cast<std::streamsize>(kEnd));
      }
      if (!in.good() && !in.eof())
        throw Error(ErrorCode::Io, path.string(), "cannot read " + path.string());
    }
    if (ec || !writtenByUs(bytes))
      throw Error(ErrorCode::Config, option,
                  option + " " + path.string() +
                      " exists and was not written by TrainScope; refusing to replace it "
                      "(choose another name or remove it yourself)");
  }
  return path;
}

}  // namespace trainscope
