#include "tfsift/lint/module_discovery.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

namespace fs = std::filesystem;

namespace tfsift::lint {
namespace {

bool ignored_name(const std::string& name) {
    return name.empty() || name[0] == '.' || name.back() == '~' || (name.front() == '#' && name.back() == '#');
}

bool has_suffix(const std::string& s, std::string_view suffix) {
    return s.size() > suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::vector<std::string> module_config_files(const std::string& dir, EngineFlavour engine, const Settings& settings) {
    std::error_code ec;
    std::vector<std::string> tf;
    std::set<std::string> tofu_stems;
    std::vector<std::string> tofu;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (!it->is_regular_file(ec)) continue;
        std::string name = it->path().filename().string();
        if (ignored_name(name)) continue;
        std::string path = (fs::path(dir) / name).string();
        if (settings.excluded(absolute_normal_path(path))) continue;
        if (has_suffix(name, ".tf")) {
            tf.push_back(path);
        } else if (has_suffix(name, ".tofu") && engine == EngineFlavour::opentofu) {
            tofu.push_back(path);
            tofu_stems.insert(name.substr(0, name.size() - 5));
        }
    }
    std::vector<std::string> out = tofu;
    for (auto& p : tf) {
        std::string name = fs::path(p).filename().string();
        if (!tofu_stems.count(name.substr(0, name.size() - 3))) out.push_back(p);
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> find_module_dirs(const std::string& root, const Settings& settings) {
    std::vector<std::string> out;
    std::error_code ec;
    if (!module_config_files(root, EngineFlavour::opentofu, settings).empty()) out.push_back(root);
    fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec);
    for (fs::recursive_directory_iterator end; !ec && it != end; it.increment(ec)) {
        if (!it->is_directory(ec) || it->is_symlink(ec)) continue;
        std::string name = it->path().filename().string();
        std::string path = it->path().string();
        if (name.empty() || name[0] == '.' || settings.excluded(absolute_normal_path(path))) {
            it.disable_recursion_pending();
            continue;
        }
        if (!module_config_files(path, EngineFlavour::opentofu, settings).empty()) out.push_back(path);
    }
    std::sort(out.begin(), out.end());
    return out;
}

EngineFlavour detect_engine(const std::string& dir) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (!ignored_name(name) && (has_suffix(name, ".tofu") || has_suffix(name, ".tofu.json"))) {
            return EngineFlavour::opentofu;
        }
    }
    std::ifstream lock(fs::path(dir) / ".terraform.lock.hcl");
    std::string first;
    if (lock && std::getline(lock, first) && first.find("tofu init") != std::string::npos) return EngineFlavour::opentofu;
    return EngineFlavour::terraform;
}

std::vector<std::string> local_module_calls(const hcl::File& file, const std::string& module_dir) {
    std::vector<std::string> out;
    if (file.body == nullptr) return out;
    for (const hcl::Block& b : file.body->blocks) {
        if (b.type != "module") continue;
        for (const hcl::Attribute& a : b.body.attributes) {
            if (a.name != "source" || a.expr->kind != hcl::ExprKind::template_) continue;
            std::string source;
            bool literal = true;
            for (const hcl::Expr* part : hcl::as<hcl::TemplateExpr>(*a.expr).parts) {
                if (part->kind != hcl::ExprKind::literal) {
                    literal = false;
                    break;
                }
                source += hcl::as<hcl::LiteralExpr>(*part).text;
            }
            if (literal && (source.rfind("./", 0) == 0 || source.rfind("../", 0) == 0)) {
                out.push_back(absolute_normal_path((fs::path(module_dir) / source).string()));
            }
        }
    }
    return out;
}

}  // namespace tfsift::lint
