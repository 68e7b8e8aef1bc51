// test-reference-invalid: references in test files that `terraform test`
// cannot resolve.
#include <fmt/core.h>

#include <optional>
#include <set>

#include "support/factories.hpp"
#include "support/name_suggestion.hpp"
#include "support/reference_names.hpp"
#include "tfsift/config/decode.hpp"
#include "tfsift/config/module_tree.hpp"
#include "tfsift/config/test_file.hpp"
#include "tfsift/hcl/references.hpp"
#include "tfsift/lint/context.hpp"

namespace tfsift::lint::rules {
namespace {

constexpr std::string_view rule_id = "test-reference-invalid";

// What the expressions of one test file may refer to.
class TestFileReferences {
public:
    TestFileReferences(const LintContext& ctx, const config::LoadedTestFile& file, FindingSink& sink)
        : ctx_(ctx), file_(*file.decoded), source_(file.parsed->source), sink_(sink) {
        for (const auto& a : file_.variables) test_variables_.insert(a.name);
        for (const auto& v : file_.variable_blocks) test_variables_.insert(v.name);
        test_variables_.insert(ctx.tree->test_variable_file_names.begin(), ctx.tree->test_variable_file_names.end());
        for (const auto& [name, v] : ctx.module().module->variables) module_variables_.insert(name);
        for (const auto& [source, m] : ctx.tree->test_modules) {
            if (m == nullptr) continue;
            for (const auto& [name, v] : m->variables) module_variables_.insert(name);
        }
        for (const auto& run : file_.runs) run_names_.push_back(run.name);
    }

    void check() {
        for (const auto& a : file_.variables) check_expression(a.expr, nullptr, std::nullopt);
        for (std::size_t i = 0; i < file_.runs.size(); ++i) {
            const config::TestRun& run = file_.runs[i];
            const config::Module* module = module_of(run);
            for (const auto& a : run.variables) check_expression(a.expr, nullptr, i);
            for (const auto& c : run.asserts) {
                if (c.condition) check_expression(*c.condition, module, i);
                if (c.error_message) check_expression(*c.error_message, module, i);
            }
            if (module != nullptr) {
                for (const auto& t : run.expect_failures) check_expected_failure(t, *module);
            }
        }
    }

private:
    // The configuration a run executes, null when it is not known here.
    const config::Module* module_of(const config::TestRun& run) const {
        if (!run.module) return ctx_.module().module.get();
        if (!run.module->local || !run.module->source) return nullptr;
        auto it = ctx_.tree->test_modules.find(*run.module->source);
        return it == ctx_.tree->test_modules.end() ? nullptr : it->second.get();
    }

    void report(Range range, std::string message) {
        Finding f;
        f.rule_id = std::string(rule_id);
        f.severity = Severity::error;
        f.message = std::move(message);
        f.file = source_;
        f.range = range;
        sink_.report(std::move(f));
    }

    // `module`: the configuration an assertion is evaluated in (null for the
    // test file's own scope: its variables and a run's inputs). `run`: the
    // run the expression belongs to, if any.
    void check_expression(const config::Expression& e, const config::Module* module, std::optional<std::size_t> run) {
        if (e.native != nullptr) check_native(*e.native, module, run);
        if (e.json != nullptr) check_json(*e.json, module, run);
    }

    // In a JSON test file every string of an expression's value is a
    // template (`"${run.setup.id != \"\"}"`), as in `.tf.json` files.
    void check_json(const json::Value& v, const config::Module* module, std::optional<std::size_t> run) {
        if (v.is_array()) {
            for (const json::Value& item : v.items) check_json(item, module, run);
        } else if (v.is_object()) {
            for (const json::Member& m : v.members) check_json(m.value, module, run);
        } else if (v.is_string()) {
            if (v.text.find("${") == std::string::npos && v.text.find("%{") == std::string::npos) return;
            const auto parsed = shared_json_string(v, true);
            if (parsed->expr == nullptr) return;  // the loader reports what does not parse
            json_string_ = &v;
            json_text_ = parsed->source.get();
            check_native(*parsed->expr, module, run);
            json_string_ = nullptr;
            json_text_ = nullptr;
        }
    }

    // `range` of the expression being checked, in the test file.
    [[nodiscard]] Range in_file(Range range) const {
        return json_string_ == nullptr ? range : json_string_file_range(*json_string_, json_text_, range);
    }

    void check_native(const hcl::Expr& e, const config::Module* module, std::optional<std::size_t> run) {
        for (const hcl::ScopeTraversalExpr* t : hcl::referenced_traversals(e)) {
            if (t->steps.empty() || t->steps[0].kind != hcl::StepKind::attr) continue;
            const std::string name(t->steps[0].name);
            const Range through_name = in_file(Range{t->range.start, t->steps[0].range.end});
            if (t->root == "run") {
                check_run_reference(*t, name, through_name, run);
            } else if (t->root == "var") {
                const bool known = test_variables_.count(name) != 0 || module_variables_.count(name) != 0;
                if (known) continue;
                if (module != nullptr) {
                    report(through_name, fmt::format("Reference to undeclared input variable: An input variable "
                                                     "with the name \"{}\" has not been declared.",
                                                     name));
                } else {
                    report(through_name,
                           fmt::format("Reference to unavailable variable: The input variable \"{}\" does not exist "
                                       "within this test file, nor in the module under test.",
                                       name));
                }
            } else if (t->root == "output" && module != nullptr && module->outputs.count(name) == 0) {
                report(through_name, fmt::format("Reference to undeclared output value: An output value with the "
                                                 "name \"{}\" has not been declared.",
                                                 name));
            }
        }
    }

    void check_run_reference(const hcl::ScopeTraversalExpr& t, const std::string& name, Range through_name,
                             std::optional<std::size_t> run) {
        std::size_t index = 0;
        while (index < file_.runs.size() && file_.runs[index].name != name) ++index;
        if (index == file_.runs.size()) {
            std::vector<std::string_view> candidates(run_names_.begin(), run_names_.end());
            std::string suggestion = name_suggestion(name, candidates);
            if (!suggestion.empty()) suggestion = fmt::format(" Did you mean \"{}\"?", suggestion);
            report(through_name,
                   fmt::format("Reference to undeclared run block: There is no run \"{}\" declared in this test "
                               "file.{}",
                               name, suggestion));
            return;
        }
        if (run && index >= *run) {
            report(through_name, fmt::format("Reference to unevaluated run block: The run \"{}\" block has not yet "
                                             "been evaluated, so its results are not available here.",
                                             name));
            return;
        }
        if (t.steps.size() < 2 || t.steps[1].kind != hcl::StepKind::attr) return;
        const config::Module* module = module_of(file_.runs[index]);
        const std::string output(t.steps[1].name);
        if (module == nullptr || module->outputs.count(output) != 0) return;
        report(in_file(t.steps[1].range),
               fmt::format("Unsupported attribute: The run \"{}\" has no output named \"{}\": the "
                           "module it runs does not declare it.",
                           name, output));
    }

    // An `expect_failures` item must name an object of the configuration
    // the run executes.
    void check_expected_failure(const config::Traversal& t, const config::Module& module) {
        std::vector<std::string> names;
        std::string_view text = t.text;
        while (!text.empty()) {
            const auto end = text.find_first_of(".[");
            names.emplace_back(text.substr(0, end));
            if (end == std::string_view::npos) break;
            if (text[end] == '[') {
                const auto close = text.find(']', end);
                if (close == std::string_view::npos) break;
                text.remove_prefix(close + 1);
                if (!text.empty() && text.front() == '.') text.remove_prefix(1);
                continue;
            }
            text.remove_prefix(end + 1);
        }
        if (names.size() < 2) return;
        if (names[0] == "var") {
            if (module.variables.count(names[1]) == 0) {
                report(t.range, fmt::format("Reference to undeclared input variable: expect_failures names "
                                            "var.{}, which the module under test does not declare.",
                                            names[1]));
            }
        } else if (names[0] == "output") {
            if (module.outputs.count(names[1]) == 0) {
                report(t.range, fmt::format("Reference to undeclared output value: expect_failures names output.{}, "
                                            "which the module under test does not declare.",
                                            names[1]));
            }
        } else if (names[0] == "data") {
            if (names.size() >= 3 && module.data.count(names[1] + "." + names[2]) == 0) {
                report(t.range, fmt::format("Reference to undeclared resource: expect_failures names data.{}.{}, "
                                            "which the module under test does not declare.",
                                            names[1], names[2]));
            }
        } else if (names[0] != "check" && module.resources.count(names[0] + "." + names[1]) == 0) {
            report(t.range, fmt::format("Reference to undeclared resource: expect_failures names {}.{}, which the "
                                        "module under test does not declare.",
                                        names[0], names[1]));
        }
    }

    const LintContext& ctx_;
    const config::TestFile& file_;
    std::shared_ptr<const SourceFile> source_;
    FindingSink& sink_;
    std::set<std::string> test_variables_;
    std::set<std::string> module_variables_;
    std::vector<std::string> run_names_;
    // While a string of a JSON test file is checked: the string, and the
    // text its expression was parsed from.
    const json::Value* json_string_ = nullptr;
    const SourceFile* json_text_ = nullptr;
};

void check(const LintContext& ctx, FindingSink& sink) {
    for (const auto& file : ctx.tree->test_files) TestFileReferences(ctx, file, sink).check();
}

}  // namespace

Rule test_reference_invalid() {
    Rule r;
    r.id = std::string(rule_id);
    r.default_severity = Severity::error;
    r.enabled_by_default = true;
    r.fixable = false;
    r.precision = RulePrecision::high;
    r.doc.summary = "A test file refers to a run, variable, output or object that `terraform test` cannot find.";
    r.doc.what =
        "Checks the references of the module's test files (`*.tftest.hcl` in the module directory and in its "
        "test directory, `tests` or the `test_directory` setting): `run.NAME` must name a run block of the same file that runs earlier, and "
        "`run.NAME.OUTPUT` an output of the module that run executes (the module under test, or the local module "
        "of its `module` block); `var.NAME` must be a variable of the module under test, of a run's module, of "
        "the test file's `variables` or `variable` blocks, or of a `terraform.tfvars` / `*.auto.tfvars` file "
        "beside the tests; in an `assert`, `output.NAME` must be an output of the module the run executes; each "
        "`expect_failures` item must name a variable, output, resource or data source that module declares. "
        "In test files in JSON syntax (`.tftest.json`) the templates of the same places are checked "
        "(`\"condition\": \"${run.setup.id != \\\"\\\"}\"`). Variables given on the command line (`-var`, "
        "`TF_VAR_`) are not known to tfsift.";
    r.doc.why =
        "`terraform test` reports these only when it reaches the run, after applying the runs before it; a "
        "misspelt run or output name costs a full test cycle in CI.";
    r.doc.failing_example = R"hcl(run "create" {}

run "check" {
  assert {
    condition     = run.craete.id != ""
    error_message = "No id."
  }
}
)hcl";
    r.doc.passing_example = R"hcl(run "create" {}

run "check" {
  assert {
    condition     = run.create.id != ""
    error_message = "No id."
  }
}
)hcl";
    r.doc.fix_safety = "Not fixable.";
    r.check = check;
    return r;
}

}  // namespace tfsift::lint::rules
