// A list of model values that the copies of an object share until one of
// them changes it (copy on write), such as the arguments and nested blocks
// of a block's body.
//
// Every block is held twice: as its file decoded it (ConfigFile) and in the
// merged module, and merging changes few of them. Shared, the merged copy of
// a body costs a reference count instead of a copy of every argument and
// nested block, and freeing the two copies frees the contents once.
//
// It reads like a std::vector (and converts to one, for reading); only the
// operations the model needs are offered. Changing it (a non-const
// accessor) first copies the elements when another object shares them, so a
// reference obtained that way must not be used after the list is copied.
// Objects are changed only while they are decoded and merged, on one thread;
// the shared elements themselves are never changed.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace tfsift::config {

template <class T>
class SharedVector {
public:
    using value_type = T;
    using size_type = std::size_t;
    using reference = T&;
    using const_reference = const T&;
    using iterator = T*;
    using const_iterator = const T*;

    SharedVector() = default;
    SharedVector(std::initializer_list<T> items) { assign(std::vector<T>(items)); }
    SharedVector(std::vector<T> items) { assign(std::move(items)); }  // NOLINT(google-explicit-constructor)

    SharedVector& operator=(std::initializer_list<T> items) {
        assign(std::vector<T>(items));
        return *this;
    }
    SharedVector& operator=(std::vector<T> items) {
        assign(std::move(items));
        return *this;
    }

    // ---- reading ----
    [[nodiscard]] bool empty() const { return !items_ || items_->empty(); }
    [[nodiscard]] size_type size() const { return items_ ? items_->size() : 0; }
    [[nodiscard]] const T* begin() const { return items_ ? items_->data() : nullptr; }
    [[nodiscard]] const T* end() const { return items_ ? items_->data() + items_->size() : nullptr; }
    [[nodiscard]] const T* cbegin() const { return begin(); }
    [[nodiscard]] const T* cend() const { return end(); }
    [[nodiscard]] const T& operator[](size_type i) const { return (*items_)[i]; }
    [[nodiscard]] const T& front() const { return items_->front(); }
    [[nodiscard]] const T& back() const { return items_->back(); }
    // The elements as a vector, for code that takes one.
    [[nodiscard]] const std::vector<T>& vector() const { return items_ ? *items_ : none(); }
    operator const std::vector<T>&() const { return vector(); }  // NOLINT(google-explicit-constructor)

    // ---- changing (the elements are this object's own afterwards) ----
    T* begin() { return items_ ? own().data() : nullptr; }
    T* end() { return items_ ? own().data() + items_->size() : nullptr; }
    T& operator[](size_type i) { return own()[i]; }
    T& front() { return own().front(); }
    T& back() { return own().back(); }
    void push_back(const T& item) { own().push_back(item); }
    void push_back(T&& item) { own().push_back(std::move(item)); }
    template <class... Args>
    T& emplace_back(Args&&... args) {
        return own().emplace_back(std::forward<Args>(args)...);
    }
    void reserve(size_type n) {
        if (n > size()) own().reserve(n);
    }
    void clear() { items_.reset(); }
    // The elements, moved out when this object is their only holder.
    [[nodiscard]] std::vector<T> take() {
        std::vector<T> out;
        if (items_) out = items_.use_count() == 1 ? std::move(*items_) : *items_;
        items_.reset();
        return out;
    }

    friend bool operator==(const SharedVector& a, const SharedVector& b) { return a.vector() == b.vector(); }

private:
    void assign(std::vector<T>&& items) {
        if (items.empty()) {
            items_.reset();
        } else {
            items_ = std::make_shared<std::vector<T>>(std::move(items));
        }
    }
    std::vector<T>& own() {
        if (!items_) {
            items_ = std::make_shared<std::vector<T>>();
        } else if (items_.use_count() > 1) {
            items_ = std::make_shared<std::vector<T>>(*items_);
        }
        return *items_;
    }
    static const std::vector<T>& none() {
        static const std::vector<T> empty;
        return empty;
    }

    std::shared_ptr<std::vector<T>> items_;  // null when empty
};

}  // namespace tfsift::config
