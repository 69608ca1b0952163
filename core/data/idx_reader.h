#pragma once
/// Reader for IDX files (the MNIST / Fashion-MNIST format), gzip-compressed or plain (zlib's
/// gzread reads both).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <filesystem>
#include <vector>

namespace trainscope {

/// Reads an IDX file of unsigned bytes (type 0x08). Returns a uint8 tensor with the file's
/// dimensions, e.g. [60000, 28, 28] for images, [60000] for labels. Throws Error(Data, path)
/// naming the file and the problem (missing, bad magic, unsupported type, truncated, trailing
/// data).
at::Tensor readIdxFile(const std::filesystem::path& path);

/// Reads an IDX file of any element type the format defines: 0x08 uint8, 0x09 int8, 0x0B int16,
/// 0x0C int32, 0x0D float32, 0x0E float64 (stored big-endian, returned in native order), 1 to 4
/// dimensions. Throws Error(Data, path) as readIdxFile, and for another type byte.
at::Tensor readIdxArray(const std::filesystem::path& path);

}  // namespace trainscope
