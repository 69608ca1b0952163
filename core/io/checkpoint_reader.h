#pragma once
/// Typed reads from a checkpoint dict (core/io/checkpoint_file.h), shared by every part that
/// loads its own checkpoint keys (core/train/state/state_parts.h, core/optim's optimizer
/// families). Internal to core (torch types).
#include <ATen/core/Dict.h>
#include <ATen/core/ivalue.h>

#include <cstdint>
#include <filesystem>
#include <string>

namespace trainscope {

/// Reads values of checkpoint `file`'s dicts, checking each type. Every problem throws
/// Error(Checkpoint, file) "cannot load checkpoint <file>: <problem>", the problem naming the
/// key by its path (`where` is the path of the dict, e.g. "optimizer_state_dict.", or "").
struct CheckpointReader {
  const std::filesystem::path& file;

  [[noreturn]] void bad(const std::string& problem) const;
  /// The value at `key`; "missing key '<where><key>'" when absent.
  const c10::IValue& at(const c10::impl::GenericDict& d, const std::string& key,
                        const std::string& where) const;
  c10::impl::GenericDict dict(const c10::impl::GenericDict& d, const std::string& key,
                              const std::string& where) const;
  int64_t integer(const c10::impl::GenericDict& d, const std::string& key,
                  const std::string& where) const;
  /// A Python float or int.
  double number(const c10::impl::GenericDict& d, const std::string& key,
                const std::string& where) const;
  bool boolean(const c10::impl::GenericDict& d, const std::string& key,
               const std::string& where) const;
  at::Tensor tensor(const c10::impl::GenericDict& d, const std::string& key,
                    const std::string& where) const;
  /// The tensor at `key`, checked to have `like`'s shape and dtype ("'<key>' is [3] float64,
  /// the parameter [3] float32"), as a copy on `like`'s device.
  at::Tensor tensorLike(const c10::impl::GenericDict& d, const std::string& key,
                        const std::string& where, const at::Tensor& like) const;
};

}  // namespace trainscope
