// `file://` URIs, as editors name documents, and the paths they stand for.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tfsift::server {

// The absolute path of a `file:` URI (`file:///a/b%20c.tf` -> `/a/b c.tf`,
// an empty or `localhost` authority only); none for any other URI.
std::optional<std::string> path_of_uri(std::string_view uri);

// The `file:` URI of an absolute path, percent-encoding every byte outside
// the unreserved characters and `/`.
std::string uri_of_path(std::string_view path);

}  // namespace tfsift::server
