// Test files, decoded as `terraform test` and `tofu test` load them. The two
// loaders differ: Terraform has a file-level `test` block, `variable` blocks,
// `state_key`, `parallel`, `skip_cleanup` and `backend` in runs (the last two
// only in experimental builds), and reports duplicate runs, providers and
// overrides; OpenTofu has provider `for_each` in mock providers and reports
// duplicated mocks and overrides with its own wording.
#include <map>
#include <set>

#include <fmt/core.h>

#include "decoder.hpp"
#include "override_target.hpp"
#include "tfsift/config/paths.hpp"
#include "tfsift/config/sources.hpp"
#include "tfsift/diagnostic_codes.hpp"
#include "tfsift/hcl/references.hpp"

namespace tfsift::config {

namespace {

// hcl's Range.String(): "file:line,col-col", or "file:line,col-line,col"
// when the range spans lines.
std::string range_string(const SourceFile* file, Range r) {
    if (file == nullptr) return {};
    const ResolvedPos a = file->resolve(r.start);
    const ResolvedPos b = file->resolve(r.end);
    if (a.line == b.line) return fmt::format("{}:{},{}-{}", file->path(), a.line, a.column, b.column);
    return fmt::format("{}:{},{}-{},{}", file->path(), a.line, a.column, b.line, b.column);
}

// The range of a whole argument, name to the end of its value (hcl's
// Attribute.Range).
Range attribute_range(const ContentAttr& a) { return Range{a.name_range.start, a.expr.range.end}; }

}  // namespace

std::string Decoder::test_range_string(Range r) const { return range_string(ctx_.file, r); }

void Decoder::decode_test_root(const BodyRef& body) {
    const bool terraform = engine_ == Engine::terraform;
    Content c =
        detail::body_content(ctx_, body, terraform ? schema::terraform_test_file : schema::opentofu_test_file, nullptr);
    if (terraform) {
        // The optional `test` block is read first: the runs take its
        // settings, and an error in it stops the loading of the file.
        const ContentBlock* first = nullptr;
        const std::size_t before = ctx_.diags->size();
        for (const auto& b : c.blocks) {
            if (b.type != "test") continue;
            if (first == nullptr) {
                first = &b;
                continue;
            }
            ctx_.error(code::multiple_test_blocks, "Multiple \"test\" blocks",
                       fmt::format("This test file already has a \"test\" block defined at {}.",
                                   test_range_string(first->def_range)),
                       b.def_range);
        }
        if (first != nullptr && ctx_.diags->size() == before) decode_test_config(*first);
        for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
            if ((*ctx_.diags)[i].severity == Severity::error) return;
        }
    }
    std::map<std::string, Range> run_names;
    std::map<std::string, std::pair<std::string, Range>> providers;  // key: the earlier block's name range
    std::map<std::string, std::string> backends;                     // state key: the run with its backend
    std::map<std::string, std::string> skip_cleanups;                // state key: the run that set skip_cleanup
    std::map<std::string, Range> variable_blocks;
    std::set<std::string> mock_keys;  // OpenTofu
    std::optional<Range> variables_block;
    std::vector<TestOverride> overrides;
    for (const auto& b : c.blocks) {
        if (b.type == "run") {
            const std::size_t before = ctx_.diags->size();
            TestRun run = decode_test_run(b);
            bool ok = true;
            for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
                ok = ok && (*ctx_.diags)[i].severity != Severity::error;
            }
            if (auto it = run_names.find(run.name); it != run_names.end()) {
                if (terraform) {
                    ctx_.error(code::duplicate_run_block_names, "Duplicate \"run\" block names",
                               fmt::format("This test file already has a run named {} block defined at {}.", run.name,
                                           test_range_string(it->second)),
                               run.name_range);
                }
            } else {
                run_names.emplace(run.name, run.def_range);
            }
            if (terraform) check_run_state(run, backends, skip_cleanups);
            // Terraform keeps only the runs that decoded without errors for
            // the checks of later runs' backends.
            if (ok) decoded_runs_.push_back(test_out_.runs.size());
            test_out_.runs.push_back(std::move(run));
        } else if (b.type == "variable") {
            // Terraform: a variable the test file declares itself.
            const std::size_t before = out_.variables.size();
            decode_variable(b);
            if (out_.variables.size() == before) continue;
            const Variable& v = out_.variables.back().first;
            TestVariable tv{v.name, v.default_expr, b.def_range};
            if (auto it = variable_blocks.find(tv.name); it != variable_blocks.end()) {
                ctx_.error(code::duplicate_test_variable, "Duplicate \"variable\" block names",
                           fmt::format("This test file already has a variable named {} defined at {}.", tv.name,
                                       test_range_string(it->second)),
                           b.def_range);
                continue;
            }
            variable_blocks.emplace(tv.name, b.def_range);
            for (const auto& a : test_out_.variables) {
                if (a.name != tv.name) continue;
                ctx_.error(code::duplicate_test_variable, "Duplicate \"variable\" block names",
                           fmt::format("This test file already has a variable named {} defined at {}.", tv.name,
                                       test_range_string(Range{a.name_range.start, a.expr.range.end})),
                           b.def_range);
            }
            test_out_.variable_blocks.push_back(std::move(tv));
        } else if (b.type == "variables") {
            if (variables_block) {
                ctx_.error(code::multiple_variables_blocks, "Multiple \"variables\" blocks",
                           fmt::format("This test file already has a variables block defined at {}.",
                                       test_range_string(*variables_block)),
                           b.def_range);
                continue;
            }
            variables_block = b.def_range;
            for (auto& a : just_attributes(b)) {
                if (terraform) {
                    if (auto it = variable_blocks.find(std::string(a.name)); it != variable_blocks.end()) {
                        ctx_.error(code::duplicate_test_variable, "Duplicate \"variable\" block names",
                                   fmt::format("This test file already has a variable named {} defined at {}.", a.name,
                                               test_range_string(attribute_range(a))),
                                   it->second);
                    }
                }
                test_out_.variables.push_back(Argument{std::string(a.name), a.name_range, a.expr});
            }
        } else if (b.type == "provider") {
            const std::size_t before = out_.providers.size();
            decode_provider(b);
            if (out_.providers.size() == before) continue;
            Provider& p = out_.providers.back().first;
            TestProvider tp;
            tp.name = p.name;
            tp.alias = p.alias;
            tp.config = std::move(p.config);
            tp.name_range = b.label_ranges[0];
            tp.def_range = b.def_range;
            add_test_provider(std::move(tp), providers);
        } else if (b.type == "mock_provider") {
            auto tp = decode_mock_provider(b);
            if (!tp) continue;
            if (!terraform) {
                if (!mock_keys.insert(tp->key()).second) {
                    ctx_.error(code::duplicate_mock_provider_block, "Duplicated `mock_provider` block",
                               fmt::format("It is not allowed to have multiple `mock_provider` blocks with the same "
                                           "address: `{}`.",
                                           tp->key()),
                               tp->def_range);
                    continue;
                }
                test_out_.providers.push_back(std::move(*tp));
                continue;
            }
            add_test_provider(std::move(*tp), providers);
        } else if (b.type == "override_resource" || b.type == "override_data" || b.type == "override_module") {
            if (auto o = decode_test_override(b)) overrides.push_back(std::move(*o));
        }
    }
    check_duplicate_overrides(overrides, "this test file");
    test_out_.overrides = std::move(overrides);
}

void Decoder::add_test_provider(TestProvider&& p, std::map<std::string, std::pair<std::string, Range>>& seen) {
    const std::string key = p.key();
    if (engine_ == Engine::terraform) {
        if (auto it = seen.find(key); it != seen.end()) {
            ctx_.error(
                code::duplicate_provider_block, "Duplicate provider block",
                fmt::format("A provider for {} is already defined at {}.", key, test_range_string(it->second.second)),
                p.def_range);
            return;
        }
        seen.emplace(key, std::make_pair(key, p.name_range));
    } else {
        // OpenTofu keeps the last `provider` block of a name.
        std::erase_if(test_out_.providers, [&](const TestProvider& q) { return !q.mock && q.key() == key; });
    }
    test_out_.providers.push_back(std::move(p));
}

void Decoder::decode_test_config(const ContentBlock& b) {
    Content c = detail::body_content(ctx_, b.body, schema::test_config, nullptr);
    if (const auto* a = c.attribute("parallel")) (void)decode_bool(*a);
    if (const auto* a = c.attribute("skip_cleanup")) {
        experimental_test_attribute(*a);
        if (auto v = decode_bool(*a)) test_skip_cleanup_ = v->value.get<bool>();
    }
}

void Decoder::experimental_test_attribute(const ContentAttr& a) {
    ctx_.error(code::experimental_test_feature, "Invalid attribute",
               fmt::format("The {} attribute is only available in experimental builds of Terraform.", a.name),
               a.name_range);
}

// The state a run works on and its backend: Terraform allows one backend per
// state, in the first apply run that uses the state, and warns about
// `skip_cleanup` given for a state more than once.
void Decoder::check_run_state(const TestRun& run, std::map<std::string, std::string>& backends,
                              std::map<std::string, std::string>& skip_cleanups) {
    const std::string key = run.state_key.value_or(run.module && run.module->source ? *run.module->source : "");
    if (run_skip_cleanup_range_) {
        if (auto it = backends.find(key); it != backends.end()) {
            ctx_.warning(
                code::duplicate_skip_cleanup, "Duplicate \"skip_cleanup\" block",
                fmt::format("The run \"{}\" has a skip_cleanup attribute set, but shares state with an earlier "
                            "run \"{}\" that has a backend defined. The later run takes precedence, but the "
                            "backend will still be used to manage this state.",
                            run.name, it->second),
                *run_skip_cleanup_range_);
        } else {
            if (auto it = skip_cleanups.find(key); it != skip_cleanups.end()) {
                ctx_.warning(code::duplicate_skip_cleanup, "Duplicate \"skip_cleanup\" block",
                             fmt::format("The run \"{}\" has a skip_cleanup attribute set, but shares state with an "
                                         "earlier run \"{}\" that also has skip_cleanup set. The later run takes "
                                         "precedence, and this attribute is ignored for the earlier run.",
                                         run.name, it->second),
                             *run_skip_cleanup_range_);
            }
            skip_cleanups[key] = run.name;
        }
    }
    if (!run.has_backend) return;
    if (auto it = backends.find(key); it != backends.end()) {
        ctx_.error(code::duplicate_backend_blocks, "Duplicate backend blocks",
                   fmt::format("The run \"{}\" already uses an internal state file that's loaded by a backend in the "
                               "run \"{}\". Please ensure that a backend block is only in the first apply run block "
                               "for a given internal state file.",
                               run.name, it->second),
                   run_backend_range_);
        return;
    }
    backends.emplace(key, run.name);
    for (const std::size_t i : decoded_runs_) {
        const TestRun& earlier = test_out_.runs[i];
        const std::string earlier_key =
            earlier.state_key.value_or(earlier.module && earlier.module->source ? *earlier.module->source : "");
        if (earlier_key != key || earlier.command != TestCommand::apply) continue;
        ctx_.error(code::invalid_test_backend_block, "Invalid backend block",
                   fmt::format("The run \"{}\" cannot load in state using a backend block, because internal state has "
                               "already been created by an apply command in run \"{}\". Backend blocks can only be "
                               "present in the first apply command for a given internal state.",
                               run.name, earlier.name),
                   run_backend_range_);
        break;
    }
}

TestRun Decoder::decode_test_run(const ContentBlock& b) {
    const bool terraform = engine_ == Engine::terraform;
    TestRun r;
    r.name = b.labels[0];
    r.name_range = b.label_ranges[0];
    r.def_range = b.def_range;
    run_skip_cleanup_range_.reset();
    Content c =
        detail::body_content(ctx_, b.body, terraform ? schema::terraform_test_run : schema::opentofu_test_run, nullptr);
    if (!detail::valid_identifier(r.name)) {
        ctx_.error(code::invalid_run_block_name, "Invalid run block name", bad_identifier_detail, r.name_range);
    }
    std::optional<Range> plan_options;
    std::optional<Range> variables;
    std::optional<Range> module;
    std::optional<Range> backend;
    std::vector<TestOverride> overrides;
    for (const auto& inner : c.blocks) {
        if (inner.type == "assert") {
            r.asserts.push_back(decode_check_rule(inner));
        } else if (inner.type == "plan_options") {
            if (plan_options) {
                ctx_.error(code::multiple_plan_options_blocks, "Multiple \"plan_options\" blocks",
                           fmt::format("This run block already has a plan_options block defined at {}.",
                                       test_range_string(*plan_options)),
                           inner.def_range);
                continue;
            }
            plan_options = inner.def_range;
            decode_plan_options(inner, r);
        } else if (inner.type == "variables") {
            if (variables) {
                ctx_.error(code::multiple_variables_blocks, "Multiple \"variables\" blocks",
                           fmt::format("This run block already has a variables block defined at {}.",
                                       test_range_string(*variables)),
                           inner.def_range);
                continue;
            }
            variables = inner.def_range;
            for (auto& a : just_attributes(inner)) {
                r.variables.push_back(Argument{std::string(a.name), a.name_range, a.expr});
            }
        } else if (inner.type == "module") {
            if (module) {
                ctx_.error(
                    code::multiple_module_blocks, "Multiple \"module\" blocks",
                    fmt::format("This run block already has a module block defined at {}.", test_range_string(*module)),
                    inner.def_range);
                if (!terraform) continue;
            }
            module = inner.def_range;
            if (auto m = decode_test_run_module(inner)) r.module = std::move(*m);
        } else if (inner.type == "override_resource" || inner.type == "override_data" ||
                   inner.type == "override_module") {
            if (auto o = decode_test_override(inner)) overrides.push_back(std::move(*o));
        } else if (inner.type == "backend") {
            ctx_.error(code::experimental_test_feature, "Invalid block",
                       "The backend block is only available within run blocks in experimental builds of Terraform.",
                       inner.def_range);
            (void)detail::body_content(ctx_, inner.body, schema::test_backend, nullptr);
            if (inner.labels[0] == "remote") {
                ctx_.error(code::invalid_test_backend_block, "Invalid backend block",
                           fmt::format("The \"remote\" backend type cannot be used in the backend block in run \"{}\" "
                                       "at {}. Only state storage backends can be used in a test run.",
                                       r.name, test_range_string(inner.def_range)),
                           inner.def_range);
                continue;
            }
            if (backend) {
                ctx_.error(code::duplicate_backend_blocks, "Duplicate backend blocks",
                           fmt::format("A backend block has already been defined inside the run \"{}\" at {}.", r.name,
                                       test_range_string(*backend)),
                           inner.def_range);
                continue;
            }
            backend = inner.def_range;
            r.has_backend = true;
        }
    }
    check_duplicate_overrides(overrides, "this run block");
    r.overrides = std::move(overrides);

    if (const auto* a = c.attribute("command")) {
        const std::string keyword = detail::expr_keyword(ctx_, a->expr);
        if (keyword == "plan") {
            r.command = TestCommand::plan;
        } else if (keyword != "apply") {
            ctx_.error(code::invalid_command_keyword, "Invalid \"command\" keyword",
                       "The \"command\" argument requires one of the following keywords without quotes: apply or plan.",
                       a->expr.range);
        }
    }
    if (const auto* a = c.attribute("providers")) r.providers = decode_passed_providers(*a);
    if (const auto* a = c.attribute("expect_failures")) {
        r.expect_failures = decode_depends_on(*a);
        for (const Traversal& t : r.expect_failures) check_expect_failure(t);
    }
    if (const auto* a = c.attribute("state_key")) {
        if (auto v = decode_string(*a)) r.state_key = v->value.get<std::string>();
    }
    if (const auto* a = c.attribute("parallel")) (void)decode_bool(*a);
    if (r.has_backend && r.command != TestCommand::apply) {
        ctx_.error(code::invalid_test_backend_block, "Invalid backend block",
                   "A backend block can only be used in the first apply run block for a given internal state file. It "
                   "cannot be included in a block to run a plan command.",
                   *backend);
    }
    bool skip_cleanup = test_skip_cleanup_ || r.has_backend;
    if (const auto* a = c.attribute("skip_cleanup")) {
        experimental_test_attribute(*a);
        if (auto v = decode_bool(*a)) skip_cleanup = v->value.get<bool>();
        // A run that keeps its cleanup (`skip_cleanup = false`) does not
        // count as a second skip_cleanup for its state.
        if (skip_cleanup) run_skip_cleanup_range_ = a->name_range;
        if (!skip_cleanup && r.has_backend) {
            ctx_.error(code::skip_cleanup_false_with_backend,
                       "Cannot use `skip_cleanup=false` in a run block that contains a backend block",
                       "Backend blocks are used in tests to allow reuse of long-lived resources. Due to this, cleanup "
                       "behavior is implicitly skipped and backend blocks are incompatible with setting "
                       "`skip_cleanup=false`",
                       a->name_range);
        }
    }
    if (backend) run_backend_range_ = *backend;
    return r;
}

// Terraform's TestRun.Validate: only checkable objects can be expected to
// fail.
void Decoder::check_expect_failure(const Traversal& t) {
    std::string_view text = t.text;
    const auto dot = text.find_first_of(".[");
    const std::string_view root = text.substr(0, dot);
    if (root == "var" || root == "output" || root == "check") return;
    static constexpr std::string_view not_checkable[] = {"local", "module", "path",     "terraform", "count", "each",
                                                         "self",  "run",    "resource", "ephemeral", "action"};
    bool checkable = true;
    for (auto n : not_checkable) checkable = checkable && root != n;
    if (checkable) return;
    // What Terraform names: the referenced object, without attributes.
    std::string subject(root);
    if (dot != std::string_view::npos && text[dot] == '.') {
        std::string_view rest = text.substr(dot + 1);
        subject += "." + std::string(rest.substr(0, rest.find_first_of(".[")));
    }
    ctx_.error(code::invalid_expect_failures_reference, "Invalid `expect_failures` reference",
               fmt::format("You cannot expect failures from {}. You can only expect failures from checkable objects "
                           "such as input variables, output values, check blocks, managed resources and data sources.",
                           subject),
               t.range);
}

void Decoder::decode_plan_options(const ContentBlock& b, TestRun& r) {
    Content c = detail::body_content(ctx_, b.body, schema::test_plan_options, nullptr);
    bool refresh_only = false;
    if (const auto* a = c.attribute("mode")) {
        const std::string keyword = detail::expr_keyword(ctx_, a->expr);
        if (keyword == "refresh-only") {
            refresh_only = true;
        } else if (keyword != "normal") {
            ctx_.error(code::invalid_mode_keyword, "Invalid \"mode\" keyword",
                       "The \"mode\" argument requires one of the following keywords without quotes: normal or "
                       "refresh-only",
                       a->expr.range);
        }
    }
    bool refresh = true;
    const ContentAttr* refresh_attr = c.attribute("refresh");
    if (refresh_attr != nullptr) {
        if (auto v = decode_bool(*refresh_attr)) refresh = v->value.get<bool>();
    }
    if (const auto* a = c.attribute("replace")) r.replace = decode_depends_on(*a);
    if (const auto* a = c.attribute("target")) r.target = decode_depends_on(*a);
    if (!refresh && refresh_only) {
        ctx_.error(code::incompatible_plan_options, "Incompatible plan options",
                   "The \"refresh\" option cannot be set to false when running a test in \"refresh-only\" mode.",
                   attribute_range(*refresh_attr));
    }
}

std::optional<TestRunModule> Decoder::decode_test_run_module(const ContentBlock& b) {
    Content c = detail::body_content(ctx_, b.body, schema::test_run_module, nullptr);
    const ContentAttr* version = c.attribute("version");
    if (version != nullptr) (void)decode_version_constraint(*version);
    const ContentAttr* source = c.attribute("source");
    if (source == nullptr) {
        ctx_.error(code::missing_source_attribute_for_module_block, "Missing \"source\" attribute for module block",
                   "You must specify a source attribute when executing alternate modules during test executions.",
                   b.def_range);
        return std::nullopt;
    }
    auto sv = decode_string(*source);
    if (!sv) return std::nullopt;
    TestRunModule m;
    m.source_as_written = sv->value.get<std::string>();
    m.source_origin = source->expr.origin();
    m.def_range = b.def_range;
    const bool has_version = version != nullptr;
    auto parsed = parse_module_source(m.source_as_written, has_version);
    if (!parsed.error.empty()) {
        if (parsed.maybe_relative) {
            ctx_.error(code::invalid_module_source_address, "Invalid module source address", parsed.error,
                       source->expr.range);
        } else if (has_version) {
            ctx_.error(code::invalid_registry_module_source_address, "Invalid registry module source address",
                       fmt::format("Failed to parse module registry address: {}.\n\n{} assumed that you intended a "
                                   "module registry source address because you also set the argument \"version\", "
                                   "which applies only to registry modules.",
                                   parsed.error, engine_ == Engine::terraform ? "Terraform" : "OpenTofu"),
                       source->expr.range);
        } else {
            ctx_.error(code::invalid_module_source_address, "Invalid module source address",
                       fmt::format("Failed to parse module source address: {}.", parsed.error), source->expr.range);
        }
        return std::nullopt;
    }
    m.source = parsed.normalized;
    m.local = is_local_module_source(parsed.normalized);
    if (!m.local && !has_version && engine_ == Engine::terraform) {
        ctx_.error(code::invalid_module_source_address, "Invalid module source address",
                   "Only local or registry module sources are currently supported from within test run blocks.",
                   source->expr.range);
        return std::nullopt;
    }
    return m;
}

namespace {

// `text`, a managed resource's address as written, without the `resource.`
// keyword that may follow its module calls (`module.a[0].resource.x.y`).
std::string without_resource_keyword(std::string text) {
    std::size_t i = 0;
    while (text.compare(i, 7, "module.") == 0) {
        i += 7;
        while (i < text.size() && text[i] != '.' && text[i] != '[') ++i;
        if (i < text.size() && text[i] == '[') {
            i = text.find(']', i);
            if (i == std::string::npos) return text;
            ++i;
        }
        if (i >= text.size() || text[i] != '.') return text;
        ++i;
    }
    if (text.compare(i, 9, "resource.") == 0) text.erase(i, 9);
    return text;
}

}  // namespace

std::optional<TestOverride> Decoder::decode_test_override(const ContentBlock& b) {
    const bool terraform = engine_ == Engine::terraform;
    const bool module = b.type == "override_module";
    const BodySchema& s = module
                              ? (terraform ? schema::terraform_override_module : schema::opentofu_override_module)
                              : (terraform ? schema::terraform_override_resource : schema::opentofu_override_resource);
    Content c = detail::body_content(ctx_, b.body, s, nullptr);
    TestOverride o;
    o.block_type = std::string(b.type);
    o.def_range = b.def_range;
    if (const auto* a = c.attribute("override_during")) decode_override_during(*a);
    if (!terraform) {
        if (const auto* a = c.attribute(module ? "outputs" : "values")) {
            const std::size_t before = ctx_.diags->size();
            cty::Value v = detail::static_value(ctx_, a->expr);
            bool failed = false;
            for (std::size_t i = before; i < ctx_.diags->size(); ++i) {
                failed = failed || (*ctx_.diags)[i].severity == Severity::error;
            }
            if (!failed && v.is_known() && !v.type().is_object()) {
                ctx_.error(code::object_expected, "Object expected",
                           fmt::format("The attribute `{}` must be an object.", a->name), attribute_range(*a));
            }
        }
    }
    const ContentAttr* target = c.attribute("target");
    if (target == nullptr) {
        if (terraform) {
            ctx_.error(code::missing_target_attribute, "Missing target attribute",
                       fmt::format("{} blocks must specify a target address.", b.type), b.def_range);
        }
        return std::nullopt;
    }
    const hcl::ScopeTraversalExpr* t = detail::traversal_for_expr(ctx_, target->expr, false, false, false);
    if (t == nullptr) return std::nullopt;
    o.target = detail::make_traversal(ctx_, *t, target->expr);
    OverrideTargetKind kind = OverrideTargetKind::module;
    if (terraform) {
        auto parsed = parse_override_target(*t);
        if (const auto* err = std::get_if<OverrideTargetError>(&parsed)) {
            ctx_.error(code::invalid_address, err->summary, err->detail, err->range);
            return std::nullopt;
        }
        OverrideTarget& target = std::get<OverrideTarget>(parsed);
        kind = target.kind;
        o.target_names = std::move(target.names);
    } else {
        // The target's names, instance keys left out; then its kind.
        o.target_names.emplace_back(t->root);
        for (const auto& step : t->steps) {
            if (step.kind == hcl::StepKind::attr) o.target_names.emplace_back(step.name);
        }
        std::size_t i = 0;
        while (i + 1 < o.target_names.size() && o.target_names[i] == "module") i += 2;
        const std::size_t rest = o.target_names.size() - i;
        if (rest == 0 || (rest == 1 && o.target_names[i] == "module")) {
            kind = OverrideTargetKind::module;
        } else if (rest == 3 && o.target_names[i] == "data") {
            kind = OverrideTargetKind::data;
        } else if (rest == 2 && o.target_names[i] != "data") {
            kind = OverrideTargetKind::managed;
        } else {
            ctx_.error(code::invalid_address, "Invalid address",
                       "The target must be the address of a module call, a resource or a data source.",
                       target->expr.range);
            return std::nullopt;
        }
    }
    o.key = o.target->text;
    if (terraform && kind == OverrideTargetKind::managed) o.key = without_resource_keyword(o.key);
    const bool is_module = kind == OverrideTargetKind::module;
    const bool is_data = kind == OverrideTargetKind::data;
    const bool is_managed = kind == OverrideTargetKind::managed;
    const std::string subject = o.target->text;
    if (module && !is_module) {
        ctx_.error(code::invalid_override_target, "Invalid override target",
                   fmt::format("You can only target modules from override_module blocks, not {}.", subject),
                   attribute_range(*target));
        return std::nullopt;
    }
    if (b.type == "override_resource" && !is_managed) {
        ctx_.error(code::invalid_override_target, "Invalid override target",
                   fmt::format("You can only target resources from override_resource blocks, not {}.", subject),
                   attribute_range(*target));
        return std::nullopt;
    }
    if (b.type == "override_data" && !is_data) {
        ctx_.error(code::invalid_override_target, "Invalid override target",
                   fmt::format("You can only target data sources from override_data blocks, not {}.", subject),
                   attribute_range(*target));
        return std::nullopt;
    }
    return o;
}

void Decoder::decode_override_during(const ContentAttr& a) {
    if (engine_ != Engine::terraform) return;
    const std::string keyword = detail::expr_keyword(ctx_, a.expr);
    if (keyword == "plan" || keyword == "apply") return;
    ctx_.error(code::invalid_override_during_value, "Invalid override_during value",
               "The override_during attribute must be a value of plan or apply.", attribute_range(a));
}

void Decoder::check_duplicate_overrides(std::vector<TestOverride>& overrides, std::string_view) {
    std::map<std::string, Range> seen;
    std::vector<TestOverride> kept;
    for (auto& o : overrides) {
        const std::string& key = o.key;
        auto it = seen.find(key);
        if (it == seen.end()) {
            seen.emplace(key, o.def_range);
            kept.push_back(std::move(o));
            continue;
        }
        if (engine_ == Engine::terraform) {
            ctx_.error(code::duplicate_override_block, fmt::format("Duplicate {} block", o.block_type),
                       fmt::format("An {} block targeting {} has already been defined at {}.", o.block_type, key,
                                   test_range_string(it->second)),
                       o.def_range);
        } else {
            ctx_.error(code::duplicate_override_block, fmt::format("Duplicated `{}` block", o.block_type),
                       fmt::format("It is not allowed to have multiple `{}` blocks with the same target: `{}`.",
                                   o.block_type, key),
                       o.target->range);
        }
    }
    overrides = std::move(kept);
}

std::optional<TestProvider> Decoder::decode_mock_provider(const ContentBlock& b) {
    const bool terraform = engine_ == Engine::terraform;
    Content c = detail::body_content(
        ctx_, b.body, terraform ? schema::terraform_mock_provider : schema::opentofu_mock_provider, nullptr);
    {
        const std::size_t before = ctx_.diags->size();
        check_provider_name_normalized(b.labels[0], b.def_range);
        if (ctx_.diags->size() != before) return std::nullopt;
    }
    TestProvider p;
    p.name = b.labels[0];
    p.mock = true;
    p.name_range = b.label_ranges[0];
    p.def_range = b.def_range;
    if (const auto* a = c.attribute("alias")) {
        if (auto v = decode_string(*a)) {
            p.alias = v->value.get<std::string>();
            if (!detail::valid_identifier(*p.alias)) {
                ctx_.error(
                    code::invalid_provider_configuration_alias,
                    terraform ? "Invalid provider configuration alias" : "Invalid mock provider configuration alias",
                    fmt::format("An alias must be a valid name. {}", bad_identifier_detail), a->expr.range);
            }
        }
    }
    if (const auto* a = c.attribute("for_each"); a != nullptr && !p.alias) {
        ctx_.error(code::alias_required_when_using_for_each, "Alias required when using \"for_each\"",
                   "The for_each argument is allowed only for provider configurations with an alias.", a->expr.range);
    }
    if (const auto* a = c.attribute("override_during")) decode_override_during(*a);
    if (const auto* a = c.attribute("source")) {
        if (auto v = decode_string(*a)) {
            p.source = v->value.get<std::string>();
            p.source_origin = a->expr.origin();
        }
    }
    std::map<std::string, Range> mocked_resources;
    std::map<std::string, Range> mocked_data;
    std::vector<TestOverride> overrides;
    for (const auto& inner : c.blocks) {
        if (inner.type == "mock_resource" || inner.type == "mock_data") {
            Content mc = detail::body_content(
                ctx_, inner.body, terraform ? schema::terraform_mock_resource : schema::opentofu_mock_resource,
                nullptr);
            if (const auto* a = mc.attribute("override_during")) decode_override_during(*a);
            TestMock m{std::string(inner.type), std::string(inner.labels[0]), inner.def_range, inner.label_ranges[0]};
            auto& seen = inner.type == "mock_resource" ? mocked_resources : mocked_data;
            if (auto it = seen.find(m.type); it != seen.end()) {
                if (terraform) {
                    ctx_.error(code::duplicate_mock_resource_block, fmt::format("Duplicate {} block", inner.type),
                               fmt::format("A {} block for {} has already been defined at {}.", inner.type, m.type,
                                           test_range_string(it->second)),
                               m.type_range);
                } else {
                    ctx_.error(code::duplicate_mock_resource_block, fmt::format("Duplicated `{}` block", inner.type),
                               fmt::format("`{}.{}` is already defined in `mock_provider` block.", inner.type, m.type),
                               inner.def_range);
                }
                continue;
            }
            seen.emplace(m.type, inner.def_range);
            p.mocks.push_back(std::move(m));
        } else {
            if (auto o = decode_test_override(inner)) overrides.push_back(std::move(*o));
        }
    }
    check_duplicate_overrides(overrides, "this mock provider");
    p.overrides = std::move(overrides);
    return p;
}

std::vector<ProviderPassing> Decoder::decode_passed_providers(const ContentAttr& a) {
    std::vector<ProviderPassing> out;
    auto pairs = detail::expr_map(ctx_, a.expr);
    if (!pairs) return out;
    std::map<std::string, Range> seen;
    for (const auto& pair : *pairs) {
        std::optional<std::string> key;
        if (pair.key.native) {
            key = decode_provider_ref(pair.key, "providers");
        } else {
            // A JSON key: the text between the quotes.
            Diagnostics d;
            json::Value fake;
            fake.kind = json::Kind::string;
            fake.range = pair.key.range;
            std::string_view raw = ctx_.file->text().substr(pair.key.range.start.byte + 1,
                                                            pair.key.range.end.byte - pair.key.range.start.byte - 2);
            fake.text = std::string(raw);
            const hcl::Expr* e = detail::json_string_expr(ctx_, fake, false, d);
            if (e && e->kind == hcl::ExprKind::scope_traversal) {
                key = hcl::render_traversal(hcl::as<hcl::ScopeTraversalExpr>(*e));
            } else {
                ctx_.error(
                    code::invalid_provider_configuration_reference, "Invalid provider configuration reference",
                    "The providers argument requires a provider type name, optionally followed by a period and then a configuration alias.",
                    pair.key.range);
            }
        }
        json::Value value_without_key;
        bool keyed = false;
        auto value = decode_provider_ref(without_instance_key(pair.value, value_without_key, keyed), "providers");
        if (!key || !value) continue;
        if (auto it = seen.find(*key); it != seen.end()) {
            ctx_.error(code::duplicate_provider_address, "Duplicate provider address",
                       fmt::format("A provider configuration was already passed to {} at {}:{}. Each child "
                                   "provider configuration can be assigned only once.",
                                   *key, ctx_.file->path(), ctx_.file->line(it->second.start)),
                       pair.key.range);
            continue;
        }
        seen.emplace(*key, pair.key.range);
        out.push_back(ProviderPassing{*key, *value, pair.key.origin(), pair.value.origin(), keyed});
    }
    return out;
}

TestFile Decoder::run_test_file() {
    test_out_.source = ctx_.file;
    test_file_ = true;
    for_each_root_body([this](const BodyRef& body) { decode_test_root(body); });
    return std::move(test_out_);
}

TestFile decode_test_file(ParsedFile& file, Diagnostics& diags, Engine engine) {
    Decoder d(file, false, diags, engine);
    return d.run_test_file();
}

}  // namespace tfsift::config
