// At most a fixed number of diagnostics of one kind per parse: a hostile
// file (binary, or a pattern such as "\x01x" repeated) would otherwise give
// millions, each a few hundred bytes, before any later stage could drop them.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "tfsift/diagnostic.hpp"

namespace tfsift::hcl::detail {

// The same limit as the loader's (config::max_diagnostics_per_kind).
inline constexpr std::size_t max_diagnostics_per_kind = 100;

class KindLimit {
public:
    // Counts a diagnostic of `summary` at `subject`; true while fewer than the
    // limit have been kept.
    bool admit(std::string_view summary, Range subject) {
        for (auto& [kind, count] : counts_) {
            if (kind != summary) continue;
            if (++count.seen <= max_diagnostics_per_kind) return true;
            if (count.seen == max_diagnostics_per_kind + 1) count.first_left_out = subject;
            return false;
        }
        counts_.emplace_back(std::string(summary), Count{1, {}});
        return true;
    }

    // One "Too many diagnostics" per kind that went over the limit, at the
    // first one left out.
    void append_left_out(Diagnostics& out, const std::string& filename) const {
        for (const auto& [kind, count] : counts_) {
            if (count.seen <= max_diagnostics_per_kind) continue;
            const std::size_t more = count.seen - max_diagnostics_per_kind;
            out.push_back(Diagnostic{
                Severity::error,
                "Too many diagnostics",
                fmt::format("{} more \"{}\" diagnostic{} in this file {} not shown: tfsift reports at most {} of one "
                            "kind per file.",
                            more, kind, more == 1 ? "" : "s", more == 1 ? "is" : "are", max_diagnostics_per_kind),
                filename,
                count.first_left_out,
                {}});
        }
    }

private:
    struct Count {
        std::size_t seen = 0;
        Range first_left_out;
    };
    // Few kinds: a list. The summaries are copied: some are made for one
    // diagnostic ("Unexpected endfor directive") and do not outlive it.
    std::vector<std::pair<std::string, Count>> counts_;
};

}  // namespace tfsift::hcl::detail
