#include "tfsift/providers/lock_diff.hpp"

#include <algorithm>
#include <iterator>
#include <set>

namespace tfsift::providers {

std::string_view to_string(LockChange change) {
    switch (change) {
        case LockChange::added: return "added";
        case LockChange::removed: return "removed";
        case LockChange::upgraded: return "upgraded";
        case LockChange::downgraded: return "downgraded";
        case LockChange::hashes: return "hashes";
        case LockChange::constraints: return "constraints";
    }
    return "hashes";
}

namespace {

std::vector<std::string> sorted_unique(const std::vector<std::string>& hashes) {
    std::vector<std::string> out = hashes;
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

ProviderLockChange compare_entries(const Provider& provider, const ProviderLock* before, const ProviderLock* after) {
    ProviderLockChange c;
    c.provider = provider;
    const auto old_hashes = before != nullptr ? sorted_unique(before->hashes) : std::vector<std::string>{};
    const auto new_hashes = after != nullptr ? sorted_unique(after->hashes) : std::vector<std::string>{};
    std::set_difference(new_hashes.begin(), new_hashes.end(), old_hashes.begin(), old_hashes.end(),
                        std::back_inserter(c.added_hashes));
    std::set_difference(old_hashes.begin(), old_hashes.end(), new_hashes.begin(), new_hashes.end(),
                        std::back_inserter(c.removed_hashes));
    std::set_intersection(old_hashes.begin(), old_hashes.end(), new_hashes.begin(), new_hashes.end(),
                          std::back_inserter(c.kept_hashes));
    if (before != nullptr) {
        c.from = before->version;
        c.constraints_from = render_constraints(before->constraints);
    }
    if (after != nullptr) {
        c.to = after->version;
        c.constraints_to = render_constraints(after->constraints);
    }
    if (before == nullptr) {
        c.change = LockChange::added;
    } else if (after == nullptr) {
        c.change = LockChange::removed;
    } else {
        const int order = compare_precedence(before->version, after->version);
        if (order < 0) {
            c.change = LockChange::upgraded;
        } else if (order > 0) {
            c.change = LockChange::downgraded;
        } else if (!c.added_hashes.empty() || !c.removed_hashes.empty() || before->version != after->version) {
            c.change = LockChange::hashes;  // also a change of build metadata only
        } else {
            c.change = LockChange::constraints;
        }
    }
    return c;
}

bool entry_changed(const ProviderLockChange& c) {
    return c.change != LockChange::constraints || c.constraints_from != c.constraints_to;
}

}  // namespace

LockDiff diff_lock_files(const LockFile& before, const LockFile& after) {
    LockDiff diff;
    std::set<Provider> all;
    for (const auto& [p, _] : before.providers) all.insert(p);
    for (const auto& [p, _] : after.providers) all.insert(p);
    for (const auto& provider : all) {
        auto c = compare_entries(provider, before.find(provider), after.find(provider));
        if (entry_changed(c)) diff.providers.push_back(std::move(c));
    }
    // A removed provider whose type reappears under another host or
    // namespace moved there; each removed one explains one added one.
    std::set<Provider> matched;
    for (auto& c : diff.providers) {
        if (c.change != LockChange::added) continue;
        for (const auto& other : diff.providers) {
            if (other.change != LockChange::removed || other.provider.type != c.provider.type) continue;
            if (matched.count(other.provider) != 0) continue;
            matched.insert(other.provider);
            c.moved_from = other.provider;
            break;
        }
    }
    return diff;
}

std::vector<std::string> platforms_lost(const std::vector<std::string>& before, const std::vector<std::string>& after) {
    std::vector<std::string> out;
    std::set_difference(before.begin(), before.end(), after.begin(), after.end(), std::back_inserter(out));
    return out;
}

}  // namespace tfsift::providers
