// Eight-byte string and sequence views and four-byte node references for
// syntax-tree nodes. A kept tree holds hundreds of thousands of names, child
// lists and child links; as std::string_view, std::span and pointers they
// would take 16, 16 and 8 bytes with 8-byte alignment. Here each is a 32-bit
// offset into the tree space (tfsift/tree_space.hpp), where every node and
// every source text lives, plus a 32-bit length where one is needed, so nodes
// pack on 4-byte boundaries.
#pragma once

#include <compare>
#include <cstdint>
#include <span>
#include <string_view>

#include "tfsift/tree_space.hpp"

namespace tfsift::hcl {

// A read-only view of characters in the tree space, read like a string_view
// (it converts to one implicitly). Only an empty view may point elsewhere.
class PackedString {
public:
    PackedString() = default;
    PackedString(std::string_view s)  // NOLINT(google-explicit-constructor)
        : offset_(s.empty() ? 0 : tree_space::offset_of(s.data())), size_(static_cast<std::uint32_t>(s.size())) {}

    operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
    [[nodiscard]] std::string_view view() const { return {data(), size_}; }

    [[nodiscard]] const char* data() const { return tree_space::at(offset_); }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] std::size_t length() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] const char* begin() const { return data(); }
    [[nodiscard]] const char* end() const { return data() + size_; }
    [[nodiscard]] char operator[](std::size_t i) const { return data()[i]; }
    [[nodiscard]] char front() const { return data()[0]; }
    [[nodiscard]] char back() const { return data()[size_ - 1]; }
    [[nodiscard]] std::string_view substr(std::size_t pos, std::size_t n = std::string_view::npos) const {
        return view().substr(pos, n);
    }
    [[nodiscard]] bool starts_with(std::string_view s) const { return view().starts_with(s); }
    [[nodiscard]] bool starts_with(char c) const { return view().starts_with(c); }
    [[nodiscard]] bool ends_with(std::string_view s) const { return view().ends_with(s); }
    [[nodiscard]] bool ends_with(char c) const { return view().ends_with(c); }
    [[nodiscard]] std::size_t find(std::string_view s, std::size_t pos = 0) const { return view().find(s, pos); }
    [[nodiscard]] std::size_t find(char c, std::size_t pos = 0) const { return view().find(c, pos); }

    // An empty view does not need its offset: a node may keep 32 bits of its
    // own there (see TraversalStep).
    static PackedString empty_holding(std::uint32_t bits) {
        PackedString s;
        s.offset_ = bits;
        return s;
    }
    [[nodiscard]] std::uint32_t held_bits() const { return offset_; }

    friend bool operator==(const PackedString& a, std::string_view b) { return a.view() == b; }
    friend std::strong_ordering operator<=>(const PackedString& a, std::string_view b) { return a.view() <=> b; }

private:
    std::uint32_t offset_ = 0;
    std::uint32_t size_ = 0;
};

// A read-only view of elements in the tree space, read like a std::span of
// const T (it converts to one implicitly). Only an empty view may point
// elsewhere.
template <class T>
class PackedSpan {
public:
    PackedSpan() = default;
    PackedSpan(std::span<const T> s)  // NOLINT(google-explicit-constructor)
        : offset_(s.empty() ? 0 : tree_space::offset_of(s.data())), size_(static_cast<std::uint32_t>(s.size())) {}
    PackedSpan(std::span<T> s)
        : PackedSpan(std::span<const T>(s.data(), s.size())) {}  // NOLINT(google-explicit-constructor)

    operator std::span<const T>() const { return {data(), size_}; }  // NOLINT(google-explicit-constructor)

    [[nodiscard]] const T* data() const { return reinterpret_cast<const T*>(tree_space::at(offset_)); }
    [[nodiscard]] std::size_t size() const { return size_; }
    [[nodiscard]] bool empty() const { return size_ == 0; }
    [[nodiscard]] const T* begin() const { return data(); }
    [[nodiscard]] const T* end() const { return data() + size_; }
    [[nodiscard]] const T& operator[](std::size_t i) const { return data()[i]; }
    [[nodiscard]] const T& front() const { return data()[0]; }
    [[nodiscard]] const T& back() const { return data()[size_ - 1]; }
    [[nodiscard]] std::span<const T> first(std::size_t n) const { return std::span<const T>(*this).first(n); }
    [[nodiscard]] std::span<const T> last(std::size_t n) const { return std::span<const T>(*this).last(n); }
    [[nodiscard]] std::span<const T> subspan(std::size_t offset, std::size_t n = std::dynamic_extent) const {
        return std::span<const T>(*this).subspan(offset, n);
    }

private:
    std::uint32_t offset_ = 0;
    std::uint32_t size_ = 0;
};

// A reference to a node in the tree space, or to none: used like a
// `const T*` (it converts to one implicitly).
template <class T>
class Ref {
public:
    Ref() = default;
    Ref(std::nullptr_t) {}                                                     // NOLINT(google-explicit-constructor)
    Ref(const T* p) : offset_(p == nullptr ? 0 : tree_space::offset_of(p)) {}  // NOLINT(google-explicit-constructor)

    [[nodiscard]] std::uint32_t offset() const { return offset_; }
    static Ref from_offset(std::uint32_t offset) {
        Ref r;
        r.offset_ = offset;
        return r;
    }

    [[nodiscard]] const T* get() const {
        return offset_ == 0 ? nullptr : reinterpret_cast<const T*>(tree_space::at(offset_));
    }
    operator const T*() const { return get(); }  // NOLINT(google-explicit-constructor)
    const T* operator->() const { return reinterpret_cast<const T*>(tree_space::at(offset_)); }
    const T& operator*() const { return *operator->(); }

private:
    std::uint32_t offset_ = 0;
};

}  // namespace tfsift::hcl
