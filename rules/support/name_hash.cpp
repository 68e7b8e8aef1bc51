#include "name_hash.hpp"

#include <random>

namespace tfsift::lint {

std::uint64_t draw_name_hash_seed() {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

}  // namespace tfsift::lint
