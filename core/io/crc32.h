#pragma once
/// zlib's CRC-32 over any length (zlib counts a call's bytes in a uInt): the checksum of zip
/// members and of TrainScope's image cache. Torch-free, Qt-free.
#include <zlib.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace trainscope {

/// The CRC-32 of `n` bytes at `data`, continued from `crc` (0 to start).
inline uint32_t crc32Of(uint32_t crc, const void* data, std::size_t n) {
  const auto* p = static_cast<const Bytef*>(data);
  uLong c = crc;
  while (n > 0) {
    const auto piece = static_cast<uInt>(std::min<std::size_t>(n, std::size_t{1} << 30));
    c = crc32(c, p, piece);
    p += piece;
    n -= piece;
  }
  return static_cast<uint32_t>(c);
}

}  // namespace trainscope
