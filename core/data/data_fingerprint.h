#pragma once
/// Fingerprints of the data files a run reads (a run pins its data). A run records
/// them (run.json and the checkpoint's `data.files`, split.json `data_files`); `evaluate`,
/// `train --resume` and `train --replay` compare them with the files as they are now and refuse a
/// changed file unless told to go on. Torch-free (OpenSSL's SHA-256).
#include <cstdint>
#include <filesystem>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/data/data_summary.h"

namespace trainscope {

/// Lower-case hex SHA-256 of `file`'s bytes (as Python's hashlib.sha256(...).hexdigest()),
/// read in 1 MiB pieces. Throws Error(Data, file) when it cannot be read, Cancelled when an
/// interrupt asks (between pieces).
std::string sha256OfFile(const std::filesystem::path& file);

/// The modification time of `path` in nanoseconds since the Unix epoch (stat's st_mtim, as
/// Python's os.stat(path).st_mtime_ns); 0 when it cannot be read.
int64_t modificationTimeNs(const std::filesystem::path& path);

/// `file` (absolute) with its size, modification time and SHA-256, named by config `key`.
/// Throws as sha256OfFile.
DataFile fingerprintFile(const std::string& key, const std::filesystem::path& file);

/// Every file the data of `config` reads (paths absolute: withAbsolutePaths), fingerprinted, in
/// a fixed order: csv path, val_path, test_path; npy path, y_path; idx path, y_path, test_path,
/// test_y_path; fashion-mnist's four IDX files in data.path; then `folders` (image folders:
/// fingerprinted by their loader from the image cache key). Generated data: empty.
std::vector<DataFile> dataFilesOf(const DataConfig& config, std::vector<DataFile> folders);

/// What differs between the files a run recorded and those read now, one English sentence per
/// file, matched by key: "data.csv.path /d/x.csv changed since the run: 12,345 bytes, SHA-256
/// 1a2b3c4d... then; 12,345 bytes, SHA-256 9f8e7d6c... now". A modification time alone (same
/// size and hash) is no change. A key recorded but not read now (another source) or read now
/// but not recorded (a run written before fingerprints) is no change either: the config
/// decides what is read, and is compared elsewhere.
std::vector<std::string> dataFileChanges(const std::vector<DataFile>& recorded,
                                         const std::vector<DataFile>& now,
                                         const std::string& recorded_by);

/// dataFileChanges; when there are any and not `allow`, throws Error(Data, the first changed
/// file) listing them and naming --allow-changed-data; else returns them (the caller records
/// them as warnings).
std::vector<std::string> checkDataUnchanged(const std::vector<DataFile>& recorded,
                                            const std::vector<DataFile>& now,
                                            const std::string& recorded_by, bool allow);

/// JSON form of one entry: {"key", "path", "size", "mtime_ns", "sha256"}.
void to_json(nlohmann::json& j, const DataFile& f);
/// Reads one entry; throws nlohmann::json::exception on a missing key or wrong type.
void from_json(const nlohmann::json& j, DataFile& f);

}  // namespace trainscope
