#pragma once
// An owning device allocation of `count` elements of T, with copies to and from the host.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

#include "cuda_check.hpp"

namespace embedlab::cuda {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ == 0) return;
    void* p = nullptr;
    check_cuda(cudaMalloc(&p, bytes()), "cudaMalloc of " + std::to_string(bytes()) + " bytes");
    data_ = static_cast<T*>(p);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  ~DeviceBuffer() { cudaFree(data_); }  // errors here cannot be reported: a destructor

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  // Copies size() elements; the host side must hold at least that many.
  void upload(const T* host, cudaStream_t stream) {
    if (count_ == 0) return;
    check_cuda(cudaMemcpyAsync(data_, host, bytes(), cudaMemcpyHostToDevice, stream),
               "copying to the device");
  }
  void download(T* host, cudaStream_t stream) const {
    if (count_ == 0) return;
    check_cuda(cudaMemcpyAsync(host, data_, bytes(), cudaMemcpyDeviceToHost, stream),
               "copying from the device");
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace embedlab::cuda
