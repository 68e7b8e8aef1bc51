// At most a fixed number of diagnostics of one kind for one file.
//
// A hostile or broken file can give a diagnostic per block, argument or
// byte: a 10 MB file of `a{}` lines gives 2.6 million "Unsupported block
// type" errors, each a few hundred bytes. The loader reports the first
// max_diagnostics_per_kind of each kind (file and summary) and one "Too many
// diagnostics" saying how many more there were; decoding applies the same
// limit as it goes, so that what it holds stays near the size of the text.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "tfsift/diagnostic.hpp"

namespace tfsift::config {

// The most diagnostics of one kind (summary) reported for one file; the
// rest are counted in one "Too many diagnostics" diagnostic. A zero-filled
// or binary file would otherwise give one per byte.
inline constexpr std::size_t max_diagnostics_per_kind = 100;

// The diagnostics of one kind that decoding left out: the first of them
// (where the loader's "Too many diagnostics" points) and how many there were.
struct LeftOutDiagnostics {
    Diagnostic first;
    std::size_t count = 0;
};

// Counts diagnostics by kind in the order they arise, keeping the first
// max_diagnostics_per_kind of each.
class DiagnosticLimit {
public:
    // Whether `d` is kept; when not, it is counted, and moved from when it
    // is the first of its kind left out (that one is kept here).
    bool admit(Diagnostic& d);

    // Applies admit to `diags` from index `from` on, removing those left
    // out.
    void trim(Diagnostics& diags, std::size_t from);

    // What was left out, one entry per kind, in the order the kinds first
    // went over the limit.
    [[nodiscard]] std::vector<LeftOutDiagnostics> take_left_out();

private:
    struct Count {
        std::size_t seen = 0;
        std::size_t left_out = 0;  // index into left_out_ + 1; 0: none yet
    };
    std::map<std::pair<std::string, std::string>, Count> counts_;  // by (file, summary)
    std::vector<LeftOutDiagnostics> left_out_;
};

}  // namespace tfsift::config
