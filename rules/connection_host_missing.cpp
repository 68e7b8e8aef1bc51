// connection-host-missing: a provisioner runs with a `connection` block that
// does not set `host`, which both connection types (ssh and winrm) require.
#include <string_view>

#include <fmt/format.h>

#include "support/factories.hpp"
#include "support/loader_reports.hpp"

namespace tfsift::lint::rules {

namespace {

constexpr std::string_view rule_id = "connection-host-missing";

bool sets(const config::Body& body, std::string_view name) {
    if (body.find_argument(name) != nullptr) return true;
    for (const config::JsonProperty& p : body.undecided) {
        if (p.name == name) return true;
    }
    return false;
}

// The opening brace of the block whose keyword is at `origin` (hcl's
// MissingItemRange), or the keyword when none follows.
Range opening_brace(const config::Origin& origin) {
    if (origin.file == nullptr) return Range{origin.pos, origin.pos};
    const std::string_view text = origin.file->text();
    const std::size_t at = text.find('{', origin.pos.byte);
    if (at == std::string_view::npos) return Range{origin.pos, origin.pos};
    const Pos brace{static_cast<std::uint32_t>(at)};
    return Range{brace, Pos{brace.byte + 1}};
}

void check(const LintContext& ctx, FindingSink& sink) {
    if (ctx.tree == nullptr || ctx.tree->root == nullptr) return;
    const config::Module& m = *ctx.module().module;
    for (const auto& [key, r] : m.resources) {
        for (const config::Provisioner& p : r.provisioners) {
            // The provisioner's own block overrides the resource's argument by argument.
            const config::Connection* own = p.connection ? &*p.connection : nullptr;
            const config::Connection* shared = r.connection ? &*r.connection : nullptr;
            if (own == nullptr && shared == nullptr) continue;
            if ((own != nullptr && sets(own->config, "host")) || (shared != nullptr && sets(shared->config, "host"))) {
                continue;
            }
            // A connection type other than ssh and winrm is its own error.
            const config::Argument* type = own != nullptr ? own->config.find_argument("type") : nullptr;
            if (type == nullptr && shared != nullptr) type = shared->config.find_argument("type");
            if (type != nullptr) {
                const std::string text = type->expr.text();
                if (text != "\"ssh\"" && text != "\"winrm\"") continue;
            }
            const config::Origin& at = own != nullptr ? own->origin : shared->origin;
            const Range range = opening_brace(at);
            if (loader_reported_within(ctx, at.file, range)) continue;
            Finding f;
            f.rule_id = std::string(rule_id);
            f.severity = Severity::error;
            f.message = "Missing required argument: The argument \"host\" is required, but no definition was found.";
            f.file = ctx.shared_source(at.file);
            f.range = range;
            if (f.file) sink.report(std::move(f));
        }
    }
}

}  // namespace

Rule connection_host_missing() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.doc.summary = "A provisioner's connection does not set `host`.";
    r.doc.what =
        "A provisioner of a resource connects to the machine through the provisioner's own `connection` block, "
        "merged over the resource's `connection` block. Both connection types (`ssh`, the default, and `winrm`) "
        "require `host`; the rule reports a provisioner whose connection sets it in neither block, at the opening "
        "brace of the block it uses (Terraform's \"Missing required argument\"). Resources without provisioners "
        "are not checked: their connection block is never used.";
    r.doc.why = "Terraform rejects the configuration in `validate`, `plan` and `apply`.";
    r.doc.failing_example = R"hcl(resource "aws_instance" "web" {
  connection {
    user = "admin"
  }

  provisioner "remote-exec" {
    inline = ["uptime"]
  }
}
)hcl";
    r.doc.passing_example = R"hcl(resource "aws_instance" "web" {
  connection {
    user = "admin"
    host = self.public_ip
  }

  provisioner "remote-exec" {
    inline = ["uptime"]
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable: which address to connect to is the author's decision.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
