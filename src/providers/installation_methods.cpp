// The installation methods in effect: the configured ones, or the implied
// configuration of spec 7.2.
#include "tfsift/providers/installation_methods.hpp"

#include <algorithm>

namespace tfsift::providers {

namespace fs = std::filesystem;

std::vector<InstallationMethod> installation_methods(const CliConfig& config, const Environment& env, Engine engine,
                                                     const fs::path& cwd) {
    if (config.provider_installation) return *config.provider_installation;
    std::vector<InstallationMethod> methods;
    InstallationMethod direct{InstallationMethod::Kind::direct, {}, {}, {}};
    for (const auto& dir : implied_mirror_directories(env, engine, cwd)) {
        methods.push_back(InstallationMethod{InstallationMethod::Kind::filesystem_mirror, dir.string(), {}, {}});
        for (const auto& package : scan_filesystem_mirror(dir, engine)) {
            const auto pattern = package.provider.to_string();
            if (std::find(direct.exclude.begin(), direct.exclude.end(), pattern) == direct.exclude.end()) {
                direct.exclude.push_back(pattern);
            }
        }
    }
    methods.push_back(std::move(direct));
    return methods;
}

}  // namespace tfsift::providers
