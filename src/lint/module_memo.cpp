#include "tfsift/lint/module_memo.hpp"

namespace tfsift::lint {

namespace {
thread_local ModuleMemo* innermost = nullptr;
}  // namespace

ModuleMemo::ModuleMemo() : outer_(innermost) { innermost = this; }

ModuleMemo::~ModuleMemo() { innermost = outer_; }

ModuleMemo* ModuleMemo::active() { return innermost; }

std::shared_ptr<const void> ModuleMemo::find(const LintContext& ctx, const void* tag) const {
    // A handful of entries per module: a linear search is the fastest.
    for (const Entry& e : entries_) {
        if (e.context == &ctx && e.tag == tag) return e.answer;
    }
    return nullptr;
}

std::shared_ptr<void>& ModuleMemo::slot(const void* tag) {
    for (auto& [t, s] : slots_) {
        if (t == tag) return s;
    }
    return slots_.emplace_back(tag, nullptr).second;
}

void ModuleMemo::store(const LintContext& ctx, const void* tag, std::shared_ptr<const void> answer) {
    entries_.push_back(Entry{&ctx, tag, std::move(answer)});
}

}  // namespace tfsift::lint
