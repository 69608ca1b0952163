#pragma once
/// TensorBoard's event file (events.out.tfevents.<seconds>.<host>), written the way
/// torch.utils.tensorboard.SummaryWriter.add_scalar writes it: a TFRecord file (each record:
/// uint64 length, masked CRC-32C of the length, the bytes, masked CRC-32C of the bytes) of
/// tensorflow.Event protocol buffers; the first record carries file_version "brain.Event:2",
/// the others one Summary.Value {tag, simple_value (float32)} at a step. Torch-free and
/// Qt-free; records are appended whole (io/line_file.h), so a killed run leaves a file that
/// TensorBoard reads to its last scalar.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace trainscope {

class LineFile;

/// CRC-32C (Castagnoli, polynomial 0x82F63B78, reflected), as TFRecord uses; crc32c("123456789")
/// = 0xE3069283.
uint32_t crc32c(const std::string& bytes);
/// TFRecord's masked CRC: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
uint32_t maskedCrc32c(const std::string& bytes);

/// Protocol buffer wire format, enough for the messages TensorBoard reads and ONNX's ModelProto
/// (core/export/onnx_export.h) (fields in any order;
/// each call appends one field). https://protobuf.dev/programming-guides/encoding/
struct ProtoMessage {
  std::string bytes;
  ProtoMessage& varint(int field, uint64_t value);
  ProtoMessage& doubleField(int field, double value);  ///< wire type 1 (fixed64)
  ProtoMessage& floatField(int field, float value);    ///< wire type 5 (fixed32)
  ProtoMessage& bytesField(int field, const std::string& value);
  ProtoMessage& message(int field, const ProtoMessage& value) {
    return bytesField(field, value.bytes);
  }
};

/// TensorBoard's HistogramProto (tensorflow/core/framework/summary.proto): bucket i counts the
/// values up to bucket_limit[i] (above bucket_limit[i-1]).
struct HistogramValues {
  double min = 0, max = 0, num = 0, sum = 0, sum_squares = 0;
  std::vector<double> bucket_limit, bucket;
};

class TensorBoardWriter {
 public:
  /// Creates <dir>/events.out.tfevents.<unix seconds>.<host name> (a new file: a name that
  /// exists gets a numeric suffix) and writes the file-version record. Throws Error(Io, path).
  explicit TensorBoardWriter(const std::filesystem::path& dir);
  ~TensorBoardWriter();
  TensorBoardWriter(const TensorBoardWriter&) = delete;
  TensorBoardWriter& operator=(const TensorBoardWriter&) = delete;

  /// One scalar (SummaryWriter.add_scalar(tag, value, step, walltime)); `wall_time` in Unix
  /// seconds. Non-finite values are written as they are (TensorBoard shows NaN / inf). Throws
  /// Error(Io, path) when the disk is full.
  void addScalar(const std::string& tag, double value, int64_t step, double wall_time);
  /// Several scalars of one step in one event (one Summary with a Value per tag, one write):
  /// what TensorBoard shows is the same as one addScalar per tag.
  void addScalars(const std::vector<std::pair<std::string, double>>& values, int64_t step,
                  double wall_time);
  /// A plugin's summary (summary.proto Summary.Value {tag, metadata {plugin_data {plugin_name,
  /// content}}, tensor}) as TensorBoard's own plugins write them; the tensor is their null
  /// tensor (a float32 scalar 0), e.g. the hparams plugin's tensorboard/plugins/hparams/
  /// summary.py. Throws Error(Io, path).
  void addPluginSummary(const std::string& tag, const std::string& plugin_name,
                        const std::string& content, int64_t step, double wall_time);
  /// A plugin's summary whose tensor holds data: float32 `values` (row-major) of `shape` (e.g.
  /// the pr_curves plugin's [6, num_thresholds]; tensor_shape dims and packed float_val as
  /// tensorflow's TensorProto). Throws Error(Io, path).
  void addPluginTensor(const std::string& tag, const std::string& plugin_name,
                       const std::string& content, const std::vector<int64_t>& shape,
                       const std::vector<float>& values, int64_t step, double wall_time);
  /// Histograms of one step in one event (SummaryWriter.add_histogram's Summary.Value {tag,
  /// histo}, one per tag): TensorBoard's Histograms and Distributions dashboards. Throws
  /// Error(Io, path).
  void addHistograms(const std::vector<std::pair<std::string, HistogramValues>>& histograms,
                     int64_t step, double wall_time);
  const std::filesystem::path& path() const { return path_; }

 private:
  void writeRecord(const std::string& event);
  std::filesystem::path path_;
  std::unique_ptr<LineFile> file_;
};

}  // namespace trainscope
