// What several rules derive from the module they check (an index of its
// expressions, for example), computed by the first rule that asks and shared
// with the others while lint_module checks that module. A rule asks through
// `memoised`; lint_module holds a ModuleMemo while its rules run.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "tfsift/lint/context.hpp"

namespace tfsift::lint {

// Scopes the answers of `memoised` on the calling thread: each context and
// kind of answer is computed once while the memo lives. Not copyable; the
// innermost one on a thread answers.
class ModuleMemo {
public:
    ModuleMemo();
    ~ModuleMemo();
    ModuleMemo(const ModuleMemo&) = delete;
    ModuleMemo& operator=(const ModuleMemo&) = delete;
    ModuleMemo(ModuleMemo&&) = delete;
    ModuleMemo& operator=(ModuleMemo&&) = delete;

    // The innermost memo of the calling thread, or null.
    [[nodiscard]] static ModuleMemo* active();

    // The answer stored for `ctx` under `tag`, or null.
    [[nodiscard]] std::shared_ptr<const void> find(const LintContext& ctx, const void* tag) const;
    void store(const LintContext& ctx, const void* tag, std::shared_ptr<const void> answer);

    // One T for whatever the rules share beyond one context (a cache keyed
    // by syntax nodes, say), made empty on first use, living as long as the
    // memo.
    template <class T>
    T& shared();

private:
    std::shared_ptr<void>& slot(const void* tag);

    struct Entry {
        const LintContext* context;
        const void* tag;
        std::shared_ptr<const void> answer;
    };
    ModuleMemo* outer_;
    std::vector<Entry> entries_;
    std::vector<std::pair<const void*, std::shared_ptr<void>>> slots_;
};

namespace detail {
// One address per kind of answer.
template <class T>
inline const char memo_tag = 0;
}  // namespace detail

// `make(ctx)` (a T), once per context and T while a ModuleMemo lives on the
// thread; without one, computed on every call. The caller shares ownership,
// so the answer outlives the memo if the caller keeps it.
template <class T>
T& ModuleMemo::shared() {
    std::shared_ptr<void>& s = slot(&detail::memo_tag<T>);
    if (s == nullptr) s = std::make_shared<T>();
    return *static_cast<T*>(s.get());
}

template <class T, class Make>
std::shared_ptr<const T> memoised(const LintContext& ctx, Make&& make) {
    const void* tag = &detail::memo_tag<T>;
    ModuleMemo* memo = ModuleMemo::active();
    if (memo != nullptr) {
        if (auto found = memo->find(ctx, tag)) return std::static_pointer_cast<const T>(std::move(found));
    }
    auto answer = std::make_shared<const T>(std::forward<Make>(make)(ctx));
    if (memo != nullptr) memo->store(ctx, tag, answer);
    return answer;
}

}  // namespace tfsift::lint
