// Checks JSON text for well-formedness only. nlohmann's parser rejects numbers
// beyond a double's range (error 406), while the parse dump prints such
// constants exactly (1e400 is 401 digits), so long digit runs outside strings
// are shortened to one digit before nlohmann looks at the text.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tfsift::testing {

inline bool is_json_syntax(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    bool in_string = false;
    bool escaped = false;
    std::size_t run = 0;
    for (char c : text) {
        if (in_string) {
            out.push_back(c);
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') in_string = true;
        run = (c >= '0' && c <= '9') ? run + 1 : 0;
        if (run <= 1) out.push_back(c);
    }
    return nlohmann::json::accept(out);
}

}  // namespace tfsift::testing
