#include "embedlab/torch_sort.hpp"

#include <utility>

namespace embedlab {
namespace {

struct Keyed {
  Index key;
  Index position;
};

// Introsort over items, comparing keys only, with libstdc++'s steps (so its moves and swaps):
// each function below is one of std::sort's stages.
class Introsort {
 public:
  explicit Introsort(std::vector<Keyed>& items) : a_(items) {}

  void run() {
    const Index n = size();
    if (n == 0) return;
    Index depth = 0;
    for (Index m = n; m > 1; m >>= 1) ++depth;  // floor(log2(n))
    quicksort(0, n, 2 * depth);
    if (n > kRun) {
      insertion_sort(0, kRun);
      for (Index i = kRun; i < n; ++i) linear_insert(i);  // a smaller key sits to the left
    } else {
      insertion_sort(0, n);
    }
  }

 private:
  static constexpr Index kRun = 16;  // runs this short are left to the insertion sort

  Index size() const { return static_cast<Index>(a_.size()); }
  Keyed& at(Index i) { return a_[static_cast<std::size_t>(i)]; }
  bool less(Index i, Index j) { return at(i).key < at(j).key; }
  void swap(Index i, Index j) { std::swap(at(i), at(j)); }

  void quicksort(Index first, Index last, Index depth) {
    while (last - first > kRun) {
      if (depth == 0) {
        heapsort(first, last);
        return;
      }
      --depth;
      const Index cut = partition_around_median(first, last);
      quicksort(cut, last, depth);
      last = cut;
    }
  }

  // The median of items first + 1, middle and last - 1 moves to first, the pivot; then the
  // unguarded Hoare partition of [first + 1, last) around it.
  Index partition_around_median(Index first, Index last) {
    const Index a = first + 1, b = first + (last - first) / 2, c = last - 1;
    if (less(a, b)) {
      if (less(b, c))
        swap(first, b);
      else if (less(a, c))
        swap(first, c);
      else
        swap(first, a);
    } else if (less(a, c)) {
      swap(first, a);
    } else if (less(b, c)) {
      swap(first, c);
    } else {
      swap(first, b);
    }
    Index lo = first + 1, hi = last;
    while (true) {
      while (less(lo, first)) ++lo;
      --hi;
      while (less(first, hi)) --hi;
      if (!(lo < hi)) return lo;
      swap(lo, hi);
      ++lo;
    }
  }

  // Item i moves left past every larger key; a key no larger than it must lie somewhere left.
  void linear_insert(Index i) {
    const Keyed value = at(i);
    Index next = i - 1;
    while (value.key < at(next).key) {
      at(i) = at(next);
      i = next;
      --next;
    }
    at(i) = value;
  }

  void insertion_sort(Index first, Index last) {
    for (Index i = first + 1; i < last; ++i) {
      if (less(i, first)) {
        const Keyed value = at(i);
        for (Index j = i; j > first; --j) at(j) = at(j - 1);
        at(first) = value;
      } else {
        linear_insert(i);
      }
    }
  }

  // The hole at `hole` of the heap [first, first + length) sinks to a leaf along the larger
  // children, then value rises from there.
  void adjust_heap(Index first, Index hole, Index length, Keyed value) {
    const Index top = hole;
    Index child = hole;
    while (child < (length - 1) / 2) {
      child = 2 * (child + 1);
      if (less(first + child, first + child - 1)) --child;
      at(first + hole) = at(first + child);
      hole = child;
    }
    if ((length & 1) == 0 && child == (length - 2) / 2) {
      child = 2 * (child + 1);
      at(first + hole) = at(first + child - 1);
      hole = child - 1;
    }
    Index parent = (hole - 1) / 2;
    while (hole > top && at(first + parent).key < value.key) {
      at(first + hole) = at(first + parent);
      hole = parent;
      parent = (hole - 1) / 2;
    }
    at(first + hole) = value;
  }

  void heapsort(Index first, Index last) {
    const Index length = last - first;
    if (length >= 2) {
      for (Index parent = (length - 2) / 2;; --parent) {
        adjust_heap(first, parent, length, at(first + parent));
        if (parent == 0) break;
      }
    }
    while (last - first > 1) {
      --last;
      const Keyed value = at(last);
      at(last) = at(first);
      adjust_heap(first, 0, last - first, value);
    }
  }

  std::vector<Keyed>& a_;
};

}  // namespace

std::vector<Index> torch_sort_permutation(const std::vector<Index>& keys) {
  std::vector<Keyed> items(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) items[i] = {keys[i], static_cast<Index>(i)};
  Introsort(items).run();
  std::vector<Index> order(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) order[i] = items[i].position;
  return order;
}

}  // namespace embedlab
