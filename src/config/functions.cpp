// The function table. Facts (names, parameter names, variadic parameters,
// the releases that added them) were collected from the Terraform and
// OpenTofu function documentation and changelogs; tests/unit/
// config_functions_test.cpp compares them with the signature table of
// ../shared/conformance/validate/functions.json.
#include "tfsift/config/functions.hpp"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "tfsift/providers/core_version.hpp"

namespace tfsift::config {

namespace {

using Where = BuiltinFunction::Where;

// name, fixed parameters, variadic parameter, Terraform since, OpenTofu since.
// Terraform releases before 1.0 are written as "1.0.0". OpenTofu's first
// release (1.6.0) had every function Terraform 1.5 had; "1.12.0" marks what
// OpenTofu's main branch has and no release has shipped yet.
const std::vector<BuiltinFunction>& table() {
    static const std::vector<BuiltinFunction> functions = {
        {"abs", {"num"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"abspath", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"alltrue", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"anytrue", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"assumeequal", {"actual_value", "expected_value"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumelistlength", {"value", "min_length", "max_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumelistlengthmax", {"value", "max_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumelistlengthmin", {"value", "min_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumemaplength", {"value", "min_length", "max_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumemaplengthmax", {"value", "max_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumemaplengthmin", {"value", "min_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumenotnull", {"value"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumesetlength", {"value", "min_length", "max_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumesetlengthmax", {"value", "max_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumesetlengthmin", {"value", "min_length"}, "", nullptr, "1.12.0", Where::configuration},
        {"assumestringprefix", {"value", "prefix"}, "", nullptr, "1.12.0", Where::configuration},
        {"base64decode", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"base64encode", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"base64gunzip", {"str"}, "", nullptr, "1.7.0", Where::configuration},
        {"base64gzip", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"base64sha256", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"base64sha512", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"basename", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"bcrypt", {"str"}, "cost", "1.0.0", "1.6.0", Where::configuration},
        {"can", {"expression"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"ceil", {"num"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"chomp", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"chunklist", {"list", "size"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"cidrcontains", {"containing_prefix", "contained_ip_or_prefix"}, "", nullptr, "1.7.0", Where::configuration},
        {"cidrhost", {"prefix", "hostnum"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"cidrnetmask", {"prefix"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"cidrsubnet", {"prefix", "newbits", "netnum"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"cidrsubnets", {"prefix"}, "newbits", "1.0.0", "1.6.0", Where::configuration},
        {"coalesce", {}, "vals", "1.0.0", "1.6.0", Where::configuration},
        {"coalescelist", {}, "vals", "1.0.0", "1.6.0", Where::configuration},
        {"compact", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"concat", {}, "seqs", "1.0.0", "1.6.0", Where::configuration},
        {"contains", {"list", "value"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"convert", {"value", "type"}, "", "1.15.0", "1.12.0", Where::configuration},
        {"csvdecode", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"dirname", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"distinct", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"element", {"list", "index"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"endswith", {"str", "suffix"}, "", "1.3.0", "1.6.0", Where::configuration},
        {"ephemeralasnull", {"value"}, "", "1.10.0", "1.11.0", Where::configuration},
        {"file", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"filebase64", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"filebase64sha256", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"filebase64sha512", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"fileexists", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"filemd5", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"fileset", {"path", "pattern"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"filesha1", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"filesha256", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"filesha512", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"flatten", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"floor", {"num"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"format", {"format"}, "args", "1.0.0", "1.6.0", Where::configuration},
        {"formatdate", {"format", "time"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"formatlist", {"format"}, "args", "1.0.0", "1.6.0", Where::configuration},
        {"indent", {"spaces", "str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"index", {"list", "value"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"issensitive", {"value"}, "", "1.8.0", "1.7.0", Where::configuration},
        {"join", {"separator"}, "lists", "1.0.0", "1.6.0", Where::configuration},
        {"jsondecode", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"jsonencode", {"val"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"keys", {"inputMap"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"length", {"value"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"list", {}, "vals", "1.0.0", "1.6.0", Where::configuration},
        {"log", {"num", "base"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"lookup", {"inputMap", "key"}, "default", "1.0.0", "1.6.0", Where::configuration},
        {"lower", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"map", {}, "vals", "1.0.0", "1.6.0", Where::configuration},
        {"matchkeys", {"values", "keys", "searchset"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"max", {}, "numbers", "1.0.0", "1.6.0", Where::configuration},
        {"md5", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"merge", {}, "maps", "1.0.0", "1.6.0", Where::configuration},
        {"min", {}, "numbers", "1.0.0", "1.6.0", Where::configuration},
        {"nonsensitive", {"value"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"one", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"parseint", {"number", "base"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"pathexpand", {"path"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"plantimestamp", {}, "", "1.5.0", "1.6.0", Where::configuration},
        {"pow", {"num", "power"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"range", {}, "params", "1.0.0", "1.6.0", Where::configuration},
        {"regex", {"pattern", "string"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"regexall", {"pattern", "string"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"replace", {"str", "substr", "replace"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"reverse", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"rsadecrypt", {"ciphertext", "privatekey"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"sensitive", {"value"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"setintersection", {"first_set"}, "other_sets", "1.0.0", "1.6.0", Where::configuration},
        {"setproduct", {}, "sets", "1.0.0", "1.6.0", Where::configuration},
        {"setsubtract", {"a", "b"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"setunion", {"first_set"}, "other_sets", "1.0.0", "1.6.0", Where::configuration},
        {"sha1", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"sha256", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"sha512", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"signum", {"num"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"slice", {"list", "start_index", "end_index"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"sort", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"split", {"separator", "str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"startswith", {"str", "prefix"}, "", "1.3.0", "1.6.0", Where::configuration},
        {"strcontains", {"str", "substr"}, "", "1.5.0", "1.6.0", Where::configuration},
        {"strrev", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"substr", {"str", "offset", "length"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"sum", {"list"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"templatefile", {"path", "vars"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"templatestring", {"data", "vars"}, "", "1.9.0", "1.7.0", Where::configuration},
        {"textdecodebase64", {"source", "encoding"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"textencodebase64", {"string", "encoding"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"timeadd", {"timestamp", "duration"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"timecmp", {"timestamp_a", "timestamp_b"}, "", "1.3.0", "1.6.0", Where::configuration},
        {"timestamp", {}, "", "1.0.0", "1.6.0", Where::configuration},
        {"title", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"tobool", {"v"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"tolist", {"v"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"tomap", {"v"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"tonumber", {"v"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"toset", {"v"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"tostring", {"v"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"transpose", {"values"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"trim", {"str", "cutset"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"trimprefix", {"str", "prefix"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"trimspace", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"trimsuffix", {"str", "suffix"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"try", {}, "expressions", "1.0.0", "1.6.0", Where::configuration},
        {"type", {"value"}, "", "1.0.0", "1.6.0", Where::console_only},
        {"upper", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"urldecode", {"str"}, "", nullptr, "1.7.0", Where::configuration},
        {"urlencode", {"str"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"uuid", {}, "", "1.0.0", "1.6.0", Where::configuration},
        {"uuidv5", {"namespace", "name"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"values", {"mapping"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"yamldecode", {"src"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"yamlencode", {"value"}, "", "1.0.0", "1.6.0", Where::configuration},
        {"zipmap", {"keys", "values"}, "", "1.0.0", "1.6.0", Where::configuration},
    };
    return functions;
}

// Terraform names templatestring's first parameter `template`.
constexpr std::array<std::string_view, 2> terraform_templatestring_params = {"template", "vars"};

}  // namespace

std::span<const std::string_view> BuiltinFunction::params_for(Engine engine) const {
    if (engine == Engine::terraform && name == "templatestring") return terraform_templatestring_params;
    return params;
}

std::span<const BuiltinFunction> builtin_functions() { return table(); }

const BuiltinFunction* find_builtin_function(std::string_view name) {
    // Rules ask this of every call they see: one hash lookup rather than a
    // binary search of string comparisons.
    static const std::unordered_map<std::string_view, const BuiltinFunction*> by_name = [] {
        std::unordered_map<std::string_view, const BuiltinFunction*> m;
        for (const BuiltinFunction& f : table()) m.emplace(f.name, &f);
        return m;
    }();
    auto it = by_name.find(name);
    return it != by_name.end() ? it->second : nullptr;
}

bool function_available(const BuiltinFunction& fn, Engine engine, std::optional<std::string_view> version) {
    if (fn.where != Where::configuration) return false;
    const char* since = fn.since(engine);
    if (since == nullptr) return false;
    if (!version) return true;
    auto have = providers::parse_core_version(*version);
    auto need = providers::parse_core_version(since);
    if (!have || !need) return true;
    // A prerelease of the adding release (1.9.0-beta1) already has it.
    return !std::lexicographical_compare(have->segments.begin(), have->segments.end(), need->segments.begin(),
                                         need->segments.end());
}

}  // namespace tfsift::config
