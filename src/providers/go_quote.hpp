// Go's strconv.Quote, because Terraform's messages quote user input with
// `%q` and tfsift reproduces those messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tfsift::providers {

// Double-quoted Go string literal: printable runes (Go's unicode.IsPrint)
// stay as they are, others become \a \b \f \n \r \t \v, \xNN, \uNNNN or
// \UNNNNNNNN; invalid UTF-8 bytes become \xNN.
[[nodiscard]] std::string go_quote(std::string_view s);

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the
// ASCII space; every other space, control, format or unassigned rune is not.
[[nodiscard]] bool go_is_print(std::int32_t rune);

}  // namespace tfsift::providers
