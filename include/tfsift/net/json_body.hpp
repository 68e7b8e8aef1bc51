// Decoding JSON response bodies the way Go's encoding/json does for the
// registry protocols: one value is read and anything after it ignored, and
// object fields match their names case-insensitively (an exact match
// first). Pure.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace tfsift::net {

// The first JSON value of `body`, or nullopt with `error` set.
[[nodiscard]] std::optional<nlohmann::json> decode_json_body(std::string_view body, std::string& error);

// The field `name` of an object, matched as Go matches struct fields;
// nullptr when absent or when `object` is not an object.
[[nodiscard]] const nlohmann::json* json_field(const nlohmann::json& object, std::string_view name);

// Whether a Content-Type header's media type is application/json
// (parameters such as charset allowed, case-insensitive).
[[nodiscard]] bool is_json_media_type(std::string_view content_type);

}  // namespace tfsift::net
