// Hashing the names a module declares and refers to (variables, local
// values, module calls): short identifiers, looked up once for every
// reference, tens of thousands of times in a module tree.
//
// NameHash mixes every byte, eight at a time, inline, where std::hash calls
// out. It starts from a seed drawn once per process, so that a repository
// cannot be written to make its names collide (a table probed through a
// long run of colliding names turns a lint quadratic). The tables that use
// it only look names up, so the seed changes no output.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace tfsift::lint {

// A random value, drawn once per process (name_hash.cpp).
std::uint64_t draw_name_hash_seed();
inline const std::uint64_t name_hash_seed = draw_name_hash_seed();

struct NameHash {
    std::size_t operator()(std::string_view s) const noexcept {
        std::uint64_t h = name_hash_seed ^ ((s.size() + 1) * 0x9E3779B97F4A7C15ULL);
        const char* p = s.data();
        std::size_t n = s.size();
        if (n >= 8) {
            // Whole words, then the last eight bytes (which may overlap the
            // last word taken).
            for (; n > 8; p += 8, n -= 8) {
                std::uint64_t word = 0;
                std::memcpy(&word, p, 8);
                h = (h ^ word) * 0xFF51AFD7ED558CCDULL;
                h ^= h >> 32;
            }
            std::uint64_t last = 0;
            std::memcpy(&last, s.data() + s.size() - 8, 8);
            h = (h ^ last) * 0xC4CEB9FE1A85EC53ULL;
        } else {
            for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ULL;
        }
        // Tables take the low bits: fold the high ones in.
        h ^= h >> 33;
        h *= 0xFF51AFD7ED558CCDULL;
        h ^= h >> 29;
        return static_cast<std::size_t>(h);
    }
};

// A set of names, in one array probed in order from each name's hash:
// adding a name present already allocates nothing, and a new one takes a
// slot rather than a node of its own. The names are views that must outlive
// the set.
class NameSet {
public:
    // Adds `name`; whether it was not there yet.
    bool insert(std::string_view name) {
        if ((size_ + 1) * 2 > slots_.size()) grow();
        std::string_view& slot = find_slot(name);
        if (slot.data() != nullptr) return false;
        slot = name.data() != nullptr ? name : std::string_view("", 0);
        ++size_;
        return true;
    }

    [[nodiscard]] bool contains(std::string_view name) const {
        if (slots_.empty()) return false;
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t at = hash(name) & mask;; at = (at + 1) & mask) {
            const std::string_view slot = slots_[at];
            if (slot.data() == nullptr) return false;
            if (slot == name) return true;
        }
    }

    [[nodiscard]] std::size_t size() const { return size_; }

    // Room for `count` names without growing (on an empty set).
    void reserve(std::size_t count) {
        if (size_ != 0) return;
        std::size_t slots = 16;
        while (slots < count * 2) slots *= 2;
        if (slots > slots_.size()) slots_.assign(slots, std::string_view());
    }

private:
    static std::size_t hash(std::string_view name) { return NameHash{}(name); }

    // The slot that holds `name`, or the free one where it would go (a
    // view with no data: no name is one).
    std::string_view& find_slot(std::string_view name) {
        const std::size_t mask = slots_.size() - 1;
        for (std::size_t at = hash(name) & mask;; at = (at + 1) & mask) {
            std::string_view& slot = slots_[at];
            if (slot.data() == nullptr || slot == name) return slot;
        }
    }

    void grow() {
        std::vector<std::string_view> old = std::move(slots_);
        slots_.assign(old.empty() ? 16 : old.size() * 2, std::string_view());
        for (const std::string_view name : old) {
            if (name.data() != nullptr) find_slot(name) = name;
        }
    }

    std::vector<std::string_view> slots_;  // a power of two long, at most half full
    std::size_t size_ = 0;
};

}  // namespace tfsift::lint
