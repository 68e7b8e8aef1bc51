// Go-like JSON decoding of response bodies.
#include "tfsift/net/json_body.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

namespace tfsift::net {

namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

}  // namespace

std::optional<nlohmann::json> decode_json_body(std::string_view body, std::string& error) {
    std::istringstream in{std::string(body)};
    nlohmann::json value;
    try {
        in >> value;  // reads one value; what follows it is not looked at
    } catch (const nlohmann::json::exception& e) {
        error = e.what();
        // nlohmann prefixes "[json.exception.parse_error.101] "; the rest is the useful part.
        if (const auto close = error.find("] "); error.front() == '[' && close != std::string::npos) {
            error.erase(0, close + 2);
        }
        return std::nullopt;
    }
    return value;
}

const nlohmann::json* json_field(const nlohmann::json& object, std::string_view name) {
    if (!object.is_object()) return nullptr;
    if (auto it = object.find(name); it != object.end()) return &*it;
    for (const auto& [key, value] : object.items()) {
        if (iequals(key, name)) return &value;
    }
    return nullptr;
}

bool is_json_media_type(std::string_view content_type) {
    auto media = content_type.substr(0, content_type.find(';'));
    while (!media.empty() && std::isspace(static_cast<unsigned char>(media.back())) != 0) media.remove_suffix(1);
    while (!media.empty() && std::isspace(static_cast<unsigned char>(media.front())) != 0) media.remove_prefix(1);
    return iequals(media, "application/json");
}

}  // namespace tfsift::net
