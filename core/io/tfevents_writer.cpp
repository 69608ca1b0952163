// TensorBoard event files (see tfevents_writer.h). The protocol buffers are written by hand:
// three fixed messages of tensorflow/core/util/event.proto and summary.proto, fields
//   Event   { double wall_time = 1; int64 step = 2; string file_version = 3; Summary summary = 5; }
//   Summary { repeated Value value = 1; }   Value { string tag = 1; float simple_value = 2; }
#include "core/io/tfevents_writer.h"

#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>

#include "core/errors.h"
#include "core/io/line_file.h"

namespace trainscope {
namespace {

const std::array<uint32_t, 256>& crcTable() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  return table;
}

void putVarint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7F) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

template <class T>
void putFixed(std::string& out, T v) {  // little-endian, as protobuf's fixed32/64 (x86, ARM)
  char bytes[sizeof(T)];
  std::memcpy(bytes, &v, sizeof(T));
  out.append(bytes, sizeof(T));
}

void putBytesField(std::string& out, int field, const std::string& bytes) {
  putVarint(out, (static_cast<uint64_t>(field) << 3) | 2);
  putVarint(out, bytes.size());
  out += bytes;
}

std::string eventHeader(double wall_time, int64_t step) {
  std::string e;
  e += static_cast<char>((1 << 3) | 1);  // wall_time, fixed64
  putFixed(e, wall_time);
  if (step != 0) {
    e += static_cast<char>((2 << 3) | 0);  // step, varint (two's complement for negatives)
    putVarint(e, static_cast<uint64_t>(step));
  }
  return e;
}

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string hostName() {
  char buf[256] = {0};
  if (::gethostname(buf, sizeof(buf) - 1) != 0 || buf[0] == 0) return "localhost";
  return buf;
}

}  // namespace

uint32_t crc32c(const std::string& bytes) {
  const auto& t = crcTable();
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char b : bytes) c = t[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

uint32_t maskedCrc32c(const std::string& bytes) {
  const uint32_t c = crc32c(bytes);
  return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

TensorBoardWriter::TensorBoardWriter(const std::filesystem::path& dir) {
  const double now = nowSeconds();
  const std::string base =
      "events.out.tfevents." + std::to_string(static_cast<int64_t>(now)) + "." + hostName();
  path_ = dir / base;
  for (int i = 1; std::filesystem::exists(path_); ++i)
    path_ = dir / (base + "." + std::to_string(i));
  file_ = std::make_unique<LineFile>(path_);
  std::string e = eventHeader(now, 0);
  putBytesField(e, 3, "brain.Event:2");
  writeRecord(e);
}

TensorBoardWriter::~TensorBoardWriter() = default;

void TensorBoardWriter::addScalar(const std::string& tag, double value, int64_t step,
                                  double wall_time) {
  addScalars({{tag, value}}, step, wall_time);
}

void TensorBoardWriter::addScalars(const std::vector<std::pair<std::string, double>>& values,
                                   int64_t step, double wall_time) {
  std::string summary;
  for (const auto& [tag, value] : values) {
    std::string v;
    putBytesField(v, 1, tag);
    v += static_cast<char>((2 << 3) | 5);  // simple_value, fixed32
    putFixed(v, static_cast<float>(value));
    putBytesField(summary, 1, v);
  }
  std::string e = eventHeader(wall_time, step);
  putBytesField(e, 5, summary);
  writeRecord(e);
}

ProtoMessage& ProtoMessage::varint(int field, uint64_t value) {
  putVarint(bytes, static_cast<uint64_t>(field) << 3);
  putVarint(bytes, value);
  return *this;
}

ProtoMessage& ProtoMessage::doubleField(int field, double value) {
  putVarint(bytes, (static_cast<uint64_t>(field) << 3) | 1);
  putFixed(bytes, value);
  return *this;
}

ProtoMessage& ProtoMessage::floatField(int field, float value) {
  putVarint(bytes, (static_cast<uint64_t>(field) << 3) | 5);
  putFixed(bytes, value);
  return *this;
}

ProtoMessage& ProtoMessage::bytesField(int field, const std::string& value) {
  putBytesField(bytes, field, value);
  return *this;
}

void TensorBoardWriter::addPluginSummary(const std::string& tag, const std::string& plugin_name,
                                         const std::string& content, int64_t step,
                                         double wall_time) {
  addPluginTensor(tag, plugin_name, content, {}, {0.0f}, step, wall_time);
}

void TensorBoardWriter::addPluginTensor(const std::string& tag, const std::string& plugin_name,
                                        const std::string& content,
                                        const std::vector<int64_t>& shape,
                                        const std::vector<float>& values, int64_t step,
                                        double wall_time) {
  ProtoMessage plugin_data;  // SummaryMetadata.PluginData
  plugin_data.bytesField(1, plugin_name).bytesField(2, content);
  ProtoMessage metadata;  // SummaryMetadata
  metadata.message(1, plugin_data);
  ProtoMessage dims;  // TensorShapeProto { repeated Dim dim = 2; }  Dim { int64 size = 1; }
  for (int64_t d : shape) dims.message(2, ProtoMessage().varint(1, static_cast<uint64_t>(d)));
  std::string packed;
  for (float v : values) putFixed(packed, v);
  ProtoMessage tensor;  // TensorProto {dtype DT_FLOAT, tensor_shape, float_val (packed)}
  tensor.varint(1, 1).message(2, dims).bytesField(5, packed);
  ProtoMessage value;  // Summary.Value
  value.bytesField(1, tag).message(9, metadata).message(8, tensor);
  ProtoMessage summary;
  summary.message(1, value);
  std::string e = eventHeader(wall_time, step);
  putBytesField(e, 5, summary.bytes);
  writeRecord(e);
}

void TensorBoardWriter::addHistograms(
    const std::vector<std::pair<std::string, HistogramValues>>& histograms, int64_t step,
    double wall_time) {
  ProtoMessage summary;
  for (const auto& [tag, h] : histograms) {
    std::string limits, counts;  // packed repeated double
    for (double v : h.bucket_limit) putFixed(limits, v);
    for (double v : h.bucket) putFixed(counts, v);
    ProtoMessage histo;  // HistogramProto
    histo.doubleField(1, h.min).doubleField(2, h.max).doubleField(3, h.num).doubleField(4, h.sum);
    histo.doubleField(5, h.sum_squares).bytesField(6, limits).bytesField(7, counts);
    ProtoMessage value;  // Summary.Value {tag = 1, histo = 5}
    value.bytesField(1, tag).message(5, histo);
    summary.message(1, value);
  }
  std::string e = eventHeader(wall_time, step);
  putBytesField(e, 5, summary.bytes);
  writeRecord(e);
}

void TensorBoardWriter::writeRecord(const std::string& event) {
  std::string length;
  putFixed(length, static_cast<uint64_t>(event.size()));
  std::string record = length;
  putFixed(record, maskedCrc32c(length));
  record += event;
  putFixed(record, maskedCrc32c(event));
  file_->appendRecord(record);
}

}  // namespace trainscope
