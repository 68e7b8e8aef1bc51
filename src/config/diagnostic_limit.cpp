#include "tfsift/config/diagnostic_limit.hpp"

namespace tfsift::config {

bool DiagnosticLimit::admit(Diagnostic& d) {
    Count& count = counts_[std::make_pair(d.filename, d.summary)];
    if (++count.seen <= max_diagnostics_per_kind) return true;
    if (count.left_out == 0) {
        left_out_.push_back(LeftOutDiagnostics{std::move(d), 0});
        count.left_out = left_out_.size();
    }
    ++left_out_[count.left_out - 1].count;
    return false;
}

void DiagnosticLimit::trim(Diagnostics& diags, std::size_t from) {
    std::size_t to = from;
    for (std::size_t i = from; i < diags.size(); ++i) {
        if (!admit(diags[i])) continue;
        if (to != i) diags[to] = std::move(diags[i]);
        ++to;
    }
    diags.resize(to);
}

std::vector<LeftOutDiagnostics> DiagnosticLimit::take_left_out() {
    counts_.clear();
    return std::move(left_out_);
}

}  // namespace tfsift::config
