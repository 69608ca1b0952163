#pragma once
/// NumPy's .npy and .npz files (numpy.lib.format, format versions 1.0, 2.0 and 3.0): a small
/// reader of the documented format, tested against files numpy writes (tests/core/tst_npy.cpp
/// and tests/cli/own_data_python.py). .npz archives, stored (np.savez) or deflated
/// (np.savez_compressed), are read with libzip, CRC-32 checked. Internal to core/data.
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

namespace trainscope {

/// Reads the .npy file `file`: dtypes bool, int8/16/32/64, uint8/16/32/64, float16/32/64 in
/// either byte order ('<', '>', '|'), C or Fortran order, any shape, as a CPU tensor of the
/// same shape (uint16/32/64 as int64, float16 as float32). Throws Error(Data, file) naming the
/// file and the problem for a missing or unreadable file, a bad magic or header, an
/// unsupported dtype (object, string, complex, structured arrays), or a data size that does
/// not match the shape.
at::Tensor readNpy(const std::string& file);

/// An .npy file's layout, from its header alone: for reading its rows from disk.
struct NpyLayout {
  std::vector<int64_t> shape;  ///< as numpy gives it
  std::string descr;           ///< numpy's dtype descr: "|u1", "<f4", ">i8" ...
  bool fortran_order = false;
  uint64_t data_offset = 0;  ///< bytes of magic and header before the data
};

/// Reads and checks the header of the .npy file `file` as readNpy does (the data size against
/// the file's size) without reading its data. Throws Error(Data, file) as readNpy.
NpyLayout readNpyLayout(const std::string& file);

/// The array `name` (without ".npy") of the .npz file `file`; throws Error(Data, file) as
/// readNpy, and naming the arrays the file holds when `name` is not one of them.
at::Tensor readNpzArray(const std::string& file, const std::string& name);

/// The names of the arrays of the .npz file `file` (without ".npy"), in archive order.
std::vector<std::string> npzArrayNames(const std::string& file);

/// Parses the .npy bytes `bytes` (`what` names them in messages: "a.npz's x").
at::Tensor parseNpy(const std::vector<char>& bytes, const std::string& file,
                    const std::string& what);

}  // namespace trainscope
