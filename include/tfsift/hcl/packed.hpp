// Twelve-byte string and sequence views for syntax-tree nodes. A kept tree
// holds hundreds of thousands of names and child lists; std::string_view and
// std::span take 16 bytes and 8-byte alignment each, these take 12 bytes and
// 4-byte alignment, so they pack against the 4-byte fields of Range.
#pragma once

#include <compare>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

namespace tfsift::hcl {

// A read-only view of at most 4 GiB of characters, read like a string_view
// (it converts to one implicitly).
class PackedString {
public:
    PackedString() = default;
    PackedString(std::string_view s) : size_(static_cast<std::uint32_t>(s.size())) {  // NOLINT(google-explicit-constructor)
        const char* p = s.data();
        std::memcpy(data_, &p, sizeof data_);
    }
    PackedString(const char* s) : PackedString(std::string_view(s)) {}  // NOLINT(google-explicit-constructor)

    operator std::string_view() const { return view(); }  // NOLINT(google-explicit-constructor)
    [[nodiscard]] std::string_view view() const { return {data(), size_}; }

    [[nodiscard]] const char* data() const {
        const char* p = nullptr;
        std::memcpy(&p, data_, sizeof data_);  // the pointer is only 4-byte aligned
        return p;
    }
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

    friend bool operator==(const PackedString& a, std::string_view b) { return a.view() == b; }
    friend std::strong_ordering operator<=>(const PackedString& a, std::string_view b) { return a.view() <=> b; }

private:
    unsigned char data_[sizeof(const char*)] = {};
    std::uint32_t size_ = 0;
};

// A read-only view of at most 2^32 - 1 elements, read like a std::span of
// const T (it converts to one implicitly).
template <class T>
class PackedSpan {
public:
    PackedSpan() = default;
    PackedSpan(std::span<const T> s) : size_(static_cast<std::uint32_t>(s.size())) {  // NOLINT(google-explicit-constructor)
        const T* p = s.data();
        std::memcpy(data_, &p, sizeof data_);
    }
    PackedSpan(std::span<T> s) : PackedSpan(std::span<const T>(s.data(), s.size())) {}  // NOLINT(google-explicit-constructor)

    operator std::span<const T>() const { return {data(), size_}; }  // NOLINT(google-explicit-constructor)

    [[nodiscard]] const T* data() const {
        const T* p = nullptr;
        std::memcpy(&p, data_, sizeof data_);  // the pointer is only 4-byte aligned
        return p;
    }
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
    unsigned char data_[sizeof(const T*)] = {};
    std::uint32_t size_ = 0;
};

}  // namespace tfsift::hcl
