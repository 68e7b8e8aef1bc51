// The override merge engine, over configuration files built directly in the
// model (the decoders have their own tests).
#include <catch2/catch.hpp>

#include <memory>

#include "tfsift/config/override_merger.hpp"
#include "tfsift/json/value.hpp"

using namespace tfsift;
using namespace tfsift::config;

namespace {

// A source file whose every line is `name = value`, so that expressions can
// point at real bytes.
struct Fixture {
    std::shared_ptr<const SourceFile> file;

    Fixture(std::string name, std::string text)
        : file(std::make_shared<const SourceFile>(std::move(name), std::move(text))) {}

    // The expression on the line that starts with `name =`.
    Expression expr(std::string_view name, int occurrence = 0) const {
        std::string_view t = file->text();
        std::size_t at = 0;
        std::string needle = std::string(name) + " = ";
        for (int i = 0; i <= occurrence; ++i) {
            at = t.find(needle, i == 0 ? 0 : at + 1);
            REQUIRE(at != std::string_view::npos);
        }
        auto start = static_cast<std::uint32_t>(at + needle.size());
        auto end = static_cast<std::uint32_t>(t.find('\n', start));
        return Expression{file.get(),
                          Range{Pos{static_cast<std::uint32_t>(start)}, Pos{static_cast<std::uint32_t>(end)}}};
    }
    Argument arg(std::string_view name, int occurrence = 0) const {
        return Argument{std::string(name), {}, expr(name, occurrence)};
    }
    // The start of 1-based line `n`.
    Origin line(std::uint32_t n) const {
        std::string_view t = file->text();
        std::size_t at = 0;
        for (std::uint32_t l = 1; l < n; ++l) {
            at = t.find('\n', at);
            REQUIRE(at != std::string_view::npos);
            ++at;
        }
        return Origin{file.get(), Pos{static_cast<std::uint32_t>(at)}};
    }
    ConfigFile config(bool is_override) const {
        ConfigFile f;
        f.source = file.get();
        f.is_override = is_override;
        return f;
    }
};

Resource resource(ResourceMode mode, std::string type, std::string name, Origin origin) {
    Resource r;
    r.mode = mode;
    r.type = std::move(type);
    r.name = std::move(name);
    r.origin = origin;
    return r;
}

NestedBlock block(std::string type, std::vector<std::string> labels, Origin origin, std::vector<Argument> args = {}) {
    NestedBlock b;
    b.type = std::move(type);
    b.labels = std::move(labels);
    b.origin = origin;
    b.body.arguments = std::move(args);
    return b;
}

std::vector<std::string> summaries(const Diagnostics& diags) {
    std::vector<std::string> out;
    for (const auto& d : diags) out.push_back(d.summary);
    return out;
}

}  // namespace

TEST_CASE("merge: arguments by name, nested blocks by type", "[config][merge]") {
    Fixture main("main.tf", "ami = \"a\"\ntype = \"t2\"\nsize = 10\nsize = 20\nport = 80\n");
    Fixture over("override.tf", "ami = \"b\"\nname = \"x\"\ndevice = \"/dev/sdc\"\n");
    Body base;
    base.arguments = {main.arg("ami"), main.arg("type")};
    base.blocks = {block("ebs", {}, main.line(3), {main.arg("size")}),
                   block("root", {}, main.line(4), {main.arg("size", 1)}),
                   block("dynamic", {"ingress"}, main.line(5), {main.arg("port")})};
    Body o;
    o.arguments = {over.arg("ami"), over.arg("name")};
    o.blocks = {block("ebs", {}, over.line(3), {over.arg("device")}), block("ingress", {}, over.line(3))};
    merge_body(base, o);

    REQUIRE(base.arguments.size() == 3);
    CHECK(base.arguments[0].expr.text() == "\"b\"");
    CHECK(base.arguments[0].expr.origin().to_string() == "override.tf:1");
    CHECK(base.arguments[1].expr.origin().to_string() == "main.tf:2");
    CHECK(base.arguments[2].name == "name");
    // The surviving base block first, then the override's blocks; the
    // override `ingress` hides the base `dynamic "ingress"`.
    REQUIRE(base.blocks.size() == 3);
    CHECK(base.blocks[0].type == "root");
    CHECK(base.blocks[1].type == "ebs");
    CHECK(base.blocks[1].origin.to_string() == "override.tf:3");
    CHECK(base.blocks[1].body.arguments.size() == 1);
    CHECK(base.blocks[2].type == "ingress");
}

TEST_CASE("merge: resources, lifecycle and meta-arguments", "[config][merge]") {
    Fixture main("main.tf", "count = 2\ntags = []\nreplace = [x]\n");
    Fixture over("override.tf", "for_each = toset([])\nreplace = [y]\n");
    auto base_file = main.config(false);
    auto r = resource(ResourceMode::managed, "aws_instance", "web", main.line(1));
    r.count = main.expr("count");
    r.lifecycle.edit().create_before_destroy = DecodedValue{true, main.line(2)};
    r.lifecycle.edit().ignore_changes = std::vector<Traversal>{Traversal{"tags", {}, main.file.get()}};
    r.lifecycle.edit().replace_triggered_by = {main.expr("replace")};
    r.provisioners.push_back(Provisioner{"local-exec"});
    base_file.resources.push_back({r, {}});

    auto over_file = over.config(true);
    auto o = resource(ResourceMode::managed, "aws_instance", "web", over.line(1));
    o.for_each = over.expr("for_each");
    o.lifecycle.edit().create_before_destroy = DecodedValue{false, over.line(1)};  // an explicit false replaces
    o.lifecycle.edit().ignore_changes = std::vector<Traversal>{};                  // an empty list changes nothing
    o.lifecycle.edit().replace_triggered_by = {over.expr("replace")};              // ignored
    over_file.resources.push_back({o, {}});
    // A managed resource is no base for a data resource of the same name.
    over_file.resources.push_back({resource(ResourceMode::data, "aws_instance", "web", over.line(2)), {}});

    OverrideMerger m;
    m.add_primary(base_file);
    m.apply_override(over_file);
    Module mod = m.finish();

    CHECK(summaries(m.diagnostics()) == std::vector<std::string>{"Missing data resource to override"});
    const Resource& w = mod.resources.at("aws_instance.web");
    REQUIRE(w.count.has_value());
    REQUIRE(w.for_each.has_value());  // base count plus override for_each: both stay
    CHECK(w.lifecycle->create_before_destroy->value == false);
    REQUIRE(w.lifecycle->ignore_changes.has_value());
    CHECK(w.lifecycle->ignore_changes->size() == 1);
    REQUIRE(w.lifecycle->replace_triggered_by.size() == 1);
    CHECK(w.lifecycle->replace_triggered_by[0].text() == "[x]");
    CHECK(w.provisioners.size() == 1);
    CHECK(w.provider->value == "aws");
    CHECK(w.provider->source == "registry.terraform.io/hashicorp/aws");
    CHECK_FALSE(w.provider->explicit_);
    CHECK(w.overridden_by.size() == 1);
    CHECK(mod.data.empty());
}

TEST_CASE("merge: duplicates across primary files keep the first resource, the last variable", "[config][merge]") {
    Fixture a("a.tf", "x = 1\n");
    Fixture b("b.tf", "x = 2\n");
    auto fa = a.config(false);
    auto fb = b.config(false);
    fa.resources.push_back({resource(ResourceMode::managed, "null_resource", "r", a.line(1)), {}});
    fb.resources.push_back({resource(ResourceMode::managed, "null_resource", "r", b.line(1)), {}});
    Variable va;
    va.name = "v";
    va.origin = a.line(1);
    Variable vb = va;
    vb.origin = b.line(1);
    fa.variables.push_back({va, {}});
    fb.variables.push_back({vb, {}});
    fa.locals.push_back({Local{"l", a.expr("x")}, {}});
    fb.locals.push_back({Local{"l", b.expr("x")}, {}});

    OverrideMerger m;
    m.add_primary(fa);
    m.add_primary(fb);
    Module mod = m.finish();
    CHECK(summaries(m.diagnostics()) == std::vector<std::string>{"Duplicate variable declaration",
                                                                 "Duplicate local value definition",
                                                                 "Duplicate resource \"null_resource\" configuration"});
    for (const auto& d : m.diagnostics()) CHECK(d.filename == "b.tf");
    CHECK(mod.resources.at("null_resource.r").origin.to_string() == "a.tf:1");
    CHECK(mod.variables.at("v").origin.to_string() == "b.tf:1");
    CHECK(mod.locals.at("l").expr.text() == "2");
}

TEST_CASE("merge: terraform settings", "[config][merge]") {
    // Origins below point at lines up to 10.
    std::string ten_lines;
    for (int i = 0; i < 10; ++i) ten_lines += "x = 1\n";
    Fixture main("main.tf", ten_lines);
    Fixture over("override.tf", ten_lines);
    auto base = main.config(false);
    TerraformBlock tb;
    tb.required_version = RequiredVersion{{">= 1.2"}, main.line(2)};
    RequiredProvidersBlock rp;
    rp.entries.push_back(
        RequiredProvider{"aws", "registry.terraform.io/hashicorp/aws", "hashicorp/aws", {"~> 4.0"}, {}, main.line(4)});
    rp.entries.push_back(
        RequiredProvider{"mycloud", "example.com/acme/mycloud", "example.com/acme/mycloud", {}, {}, main.line(5)});
    tb.required_providers.push_back(rp);
    tb.backends.push_back(Backend{"s3", {}, main.line(7)});
    tb.backend_ranges.emplace_back();
    base.terraform.push_back(tb);
    base.resources.push_back({resource(ResourceMode::managed, "mycloud_thing", "a", main.line(9)), {}});
    base.resources.push_back({resource(ResourceMode::managed, "aws_vpc", "b", main.line(10)), {}});

    auto o = over.config(true);
    TerraformBlock ot;
    ot.required_version = RequiredVersion{{">= 1.5"}, over.line(2)};
    RequiredProvidersBlock orp;
    // Only a version: the whole entry is replaced, so the source falls back.
    orp.entries.push_back(RequiredProvider{
        "mycloud", "registry.terraform.io/hashicorp/mycloud", std::nullopt, {"1.0"}, {}, over.line(4)});
    ot.required_providers.push_back(orp);
    ot.backends.push_back(Backend{"local", {}, over.line(6)});
    ot.backend_ranges.emplace_back();
    ot.clouds.push_back(Backend{"", {}, over.line(8)});  // one file with both: cloud wins
    ot.cloud_ranges.emplace_back();
    o.terraform.push_back(ot);

    OverrideMerger m;
    m.add_primary(base);
    m.apply_override(o);
    Module mod = m.finish();
    CHECK(m.diagnostics().empty());
    REQUIRE(mod.terraform.required_version.size() == 1);
    CHECK(mod.terraform.required_version[0].constraints == std::vector<std::string>{">= 1.5"});
    CHECK(mod.terraform.required_providers.at("aws").origin.to_string() == "main.tf:4");
    CHECK_FALSE(mod.terraform.required_providers.at("mycloud").source_as_written.has_value());
    CHECK(mod.resources.at("mycloud_thing.a").provider->source == "registry.terraform.io/hashicorp/mycloud");
    CHECK(mod.resources.at("aws_vpc.b").provider->source == "registry.terraform.io/hashicorp/aws");
    CHECK_FALSE(mod.terraform.backend.has_value());
    REQUIRE(mod.terraform.cloud.has_value());
    CHECK(mod.terraform.cloud->origin.to_string() == "override.tf:8");
}

TEST_CASE("merge: outputs, module calls, providers and missing bases", "[config][merge]") {
    Fixture main("main.tf", "value = 1\nsource = \"./a\"\n");
    Fixture over("override.tf", "value = 2\ndepends = x\n");
    auto base = main.config(false);
    Output out;
    out.name = "o";
    out.value = main.expr("value");
    out.description = DecodedValue{"base text", main.line(1)};
    out.origin = main.line(1);
    base.outputs.push_back({out, {}});
    ModuleCall mc;
    mc.name = "net";
    mc.origin = main.line(2);
    mc.providers = {ProviderPassing{"aws", "aws.west", main.line(2)},
                    ProviderPassing{"google", "google", main.line(2)}};
    base.module_calls.push_back({mc, {}});
    Provider p;
    p.name = "aws";
    p.alias = "west";
    p.origin = main.line(1);
    base.providers.push_back({p, {}});

    auto o = over.config(true);
    Output oo;
    oo.name = "o";
    oo.value = over.expr("value");
    oo.description = DecodedValue{"", over.line(1)};  // empty: does not override
    oo.depends_on.push_back(Traversal{"x", over.expr("depends").range, over.file.get()});
    o.outputs.push_back({oo, {}});
    ModuleCall om;
    om.name = "net";
    om.providers = {ProviderPassing{"aws", "aws", over.line(1)}};
    o.module_calls.push_back({om, {}});
    Provider def;
    def.name = "google";  // a default configuration may be introduced
    o.providers.push_back({def, {}});
    Provider typo;
    typo.name = "aws";
    typo.alias = "wset";
    o.providers.push_back({typo, {}});
    Variable v;
    v.name = "nope";
    o.variables.push_back({v, {}});

    OverrideMerger m;
    m.add_primary(base);
    m.apply_override(o);
    Module mod = m.finish();
    CHECK(summaries(m.diagnostics()) == std::vector<std::string>{"Missing base provider configuration for override",
                                                                 "Missing base variable declaration to override",
                                                                 "Unsupported override"});
    CHECK(over.file->line(m.diagnostics()[2].subject->start) == 2);
    CHECK(mod.outputs.at("o").value->text() == "2");
    CHECK(mod.outputs.at("o").description->value == "base text");
    REQUIRE(mod.module_calls.at("net").providers.size() == 1);  // replaced as a whole map
    CHECK(mod.module_calls.at("net").providers[0].parent_key == "aws");
    CHECK(mod.providers.count("google") == 1);
    CHECK(mod.providers.count("aws.west") == 1);
}

TEST_CASE("merge: JSON properties are blocks only where a native body of the merge has blocks", "[config][merge]") {
    Fixture main("main.tf", "size = 10\n");
    auto over = std::make_shared<const SourceFile>(
        "override.tf.json",
        "{\n \"//\": \"note\",\n \"ebs\": {\"device\": \"/dev/sdc\", \"inner\": {\"k\": 1}},\n \"tags\": {\"a\": \"b\"},\n"
        " \"dynamic\": {\"ingress\": {\"for_each\": \"${var.p}\", \"content\": {\"port\": 1}}},\n"
        " \"root\": [{\"x\": 1}, {\"x\": 2}]\n}\n");
    auto doc = json::parse(over);
    REQUIRE(doc.diagnostics.empty());
    Body base;
    base.blocks = {block("ebs", {}, main.line(1), {main.arg("size")}), block("root", {}, main.line(1))};
    Body o;
    o.from_json = true;
    for (const auto& m : doc.root.members)
        o.undecided.push_back(JsonProperty{m.name, m.name_range, &m.value, over.get()});
    merge_body(base, o);

    REQUIRE(base.arguments.size() == 1);
    CHECK(base.arguments[0].name == "tags");
    CHECK(base.arguments[0].expr.text() == "{\"a\": \"b\"}");
    CHECK(base.arguments[0].expr.origin().to_string() == "override.tf.json:4");
    REQUIRE(base.blocks.size() == 4);
    CHECK(base.blocks[0].type == "ebs");
    CHECK(base.blocks[0].origin.to_string() == "override.tf.json:3");
    // Inside a block from JSON, nested objects are arguments.
    REQUIRE(base.blocks[0].body.arguments.size() == 2);
    CHECK(base.blocks[0].body.arguments[1].name == "inner");
    CHECK(base.blocks[1].type == "dynamic");
    CHECK(base.blocks[1].labels == std::vector<std::string>{"ingress"});
    REQUIRE(base.blocks[1].body.blocks.size() == 1);
    CHECK(base.blocks[1].body.blocks[0].type == "content");
    CHECK(base.blocks[2].type == "root");
    CHECK(base.blocks[3].type == "root");
    CHECK(base.blocks[3].origin.to_string() == "override.tf.json:6");
}
