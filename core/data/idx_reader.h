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

}  // namespace trainscope
