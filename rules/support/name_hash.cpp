#include "name_hash.hpp"

#include <chrono>
#include <random>

namespace tfsift::lint {

std::uint64_t draw_name_hash_seed() {
    // The clock and an address when the system gives no random bytes (a
    // sandbox without getrandom or /dev/urandom): still unknown to whoever
    // wrote the repository, and never a reason to stop.
    std::uint64_t seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                         reinterpret_cast<std::uintptr_t>(&seed);
    try {
        std::random_device device;
        seed ^= (static_cast<std::uint64_t>(device()) << 32) ^ device();
    } catch (...) {
    }
    return seed;
}

}  // namespace tfsift::lint
