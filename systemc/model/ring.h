// SPDX-License-Identifier: Apache-2.0
// A FIFO in one growing ring buffer: the model's queues (a port's class
// queues, a switch's waiting MMU requests and cycles in flight). Unlike
// std::deque it allocates nothing while its length stays under the largest
// it has had, and an empty one is three words: a switch port has eight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>

namespace dsh::net {

template <class T>
class Ring {
 public:
  bool empty() const { return n_ == 0; }
  size_t size() const { return n_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  const T& back() const { return buf_[(head_ + n_ - 1) & (cap_ - 1)]; }
  T& operator[](size_t i) { return buf_[(head_ + i) & (cap_ - 1)]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & (cap_ - 1)]; }
  void push_back(const T& x) {
    if (n_ == cap_) grow();
    buf_[(head_ + n_) & (cap_ - 1)] = x;
    ++n_;
  }
  void pop_front() {
    head_ = (head_ + 1) & (cap_ - 1);
    --n_;
  }
  // x before the element at index i (0 = the front); the rest move back.
  void insert(size_t i, const T& x) {
    push_back(x);
    for (size_t j = n_ - 1; j > i; --j) std::swap((*this)[j], (*this)[j - 1]);
  }

  class const_iterator {
   public:
    const_iterator(const Ring* r, size_t i) : r_(r), i_(i) {}
    const T& operator*() const { return (*r_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const Ring* r_;
    size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, n_}; }

 private:
  void grow() {
    const uint32_t cap = cap_ ? 2 * cap_ : 8;
    std::unique_ptr<T[]> b(new T[cap]);
    for (size_t i = 0; i < n_; ++i) b[i] = std::move((*this)[i]);
    buf_ = std::move(b);
    cap_ = cap;
    head_ = 0;
  }
  std::unique_ptr<T[]> buf_;
  uint32_t cap_ = 0, head_ = 0;
  size_t n_ = 0;
};

}  // namespace dsh::net
