#!/usr/bin/env python3
"""Runs `tfsift server` under a real Neovim, headless, configured with the
Neovim 0.7 snippet of docs/editors.md exactly as the page shows it (read from
the page, so the documentation cannot drift from what works):

  * a `.tf`, a `.tofu` and a `.tf.json` file of one module each get their
    diagnostics (the snippet maps the last two to the terraform filetype);
  * with the cursor at column 0 of a finding's line and the line's
    diagnostics passed in the request's context, as Neovim's code action
    menu does, the finding's quick fix is offered; applied to the buffer,
    it gives the expected text, and nothing is written to disk.

Skips (exit 77) when `nvim` is not installed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAIN = """\
terraform {
  required_version = ">= 1.5.0"
}

variable "names" {
  type = list(string)
}

output "count" {
  value = "${length(var.names)}"
}
"""

TOFU = 'variable "size" {\n}\n'
JSON = '{\n  "variable": {\n    "region": {}\n  }\n}\n'

DRIVER = r"""
local out = {}
local function wait_codes(buf, code)
  return vim.wait(30000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if d.code == code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == code) then return true end
    end
    return false
  end, 50)
end
local function codes(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, d.user_data and d.user_data.lsp and d.user_data.lsp.code or d.code)
  end
  table.sort(list)
  return list
end

local main = vim.api.nvim_get_current_buf()
out.main_filetype = vim.bo[main].filetype
out.main_ready = wait_codes(main, "deprecated-interpolation")
out.main_codes = codes(main)

vim.cmd("edit " .. vim.fn.fnameescape(OTHER_TOFU))
local tofu = vim.api.nvim_get_current_buf()
out.tofu_filetype = vim.bo[tofu].filetype
out.tofu_ready = wait_codes(tofu, "variable-type-missing")
out.tofu_codes = codes(tofu)

vim.cmd("edit " .. vim.fn.fnameescape(OTHER_JSON))
local tfjson = vim.api.nvim_get_current_buf()
out.json_filetype = vim.bo[tfjson].filetype
out.json_ready = wait_codes(tfjson, "variable-type-missing")
out.json_codes = codes(tfjson)

vim.cmd("buffer " .. main)
local finding_line = nil
for _, d in ipairs(vim.diagnostic.get(main)) do
  local lsp = d.user_data and d.user_data.lsp
  if (lsp and lsp.code or d.code) == "deprecated-interpolation" then finding_line = d.lnum end
end
out.actions = {}
if finding_line then
  -- What vim.lsp.buf.code_action() sends: the cursor's position as the
  -- range, the diagnostics of the cursor's line as the context.
  vim.api.nvim_win_set_cursor(0, { finding_line + 1, 0 })
  local params = vim.lsp.util.make_range_params()
  params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(main) }
  local responses = vim.lsp.buf_request_sync(main, "textDocument/codeAction", params, 20000) or {}
  for _, response in pairs(responses) do
    for _, action in ipairs(response.result or {}) do
      table.insert(out.actions, action.title)
      if action.kind == "quickfix" and action.isPreferred and action.edit and not out.applied then
        vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
        out.applied = action.title
      end
    end
  end
end
out.text = table.concat(vim.api.nvim_buf_get_lines(main, 0, -1, false), "\n") .. "\n"
local f = io.open(RESULT, "w")
f:write(vim.fn.json_encode(out))
f:close()
vim.cmd("qa!")
"""


def snippet(editors_md):
    with open(editors_md, encoding="utf-8") as f:
        text = f.read()
    marker = text.find("<!-- editors-neovim-0.7")
    if marker < 0:
        raise SystemExit("docs/editors.md has no editors-neovim-0.7 marker")
    m = re.compile(r"```lua\n(.*?)```", re.S).search(text, marker)
    if not m:
        raise SystemExit("docs/editors.md has no lua block after the editors-neovim-0.7 marker")
    return m.group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tfsift", required=True)
    ap.add_argument("--docs", required=True, help="docs/editors.md")
    args = ap.parse_args()
    nvim = shutil.which("nvim")
    if not nvim:
        print("nvim is not installed: skipped")
        return 77
    failures = []

    def check(condition, what):
        print(("ok    " if condition else "FAIL  ") + what)
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory(prefix="tfsift-nvim-") as tmp:
        tmp = os.path.realpath(tmp)
        os.makedirs(os.path.join(tmp, "repo", ".git"))
        module = os.path.join(tmp, "repo", "module")
        os.makedirs(module)
        paths = {"main.tf": MAIN, "variables.tofu": TOFU, "region.tf.json": JSON}
        for name, text in paths.items():
            with open(os.path.join(module, name), "w", encoding="utf-8") as f:
                f.write(text)
        bindir = os.path.join(tmp, "bin")
        os.makedirs(bindir)
        os.symlink(os.path.abspath(args.tfsift), os.path.join(bindir, "tfsift"))
        config = os.path.join(tmp, "init.lua")
        with open(config, "w", encoding="utf-8") as f:
            f.write(snippet(args.docs))
        result = os.path.join(tmp, "result.json")
        driver = os.path.join(tmp, "driver.lua")
        with open(driver, "w", encoding="utf-8") as f:
            f.write("OTHER_TOFU = %s\nOTHER_JSON = %s\nRESULT = %s\n" % (
                json.dumps(os.path.join(module, "variables.tofu")), json.dumps(os.path.join(module, "region.tf.json")),
                json.dumps(result)))
            f.write(DRIVER)
        env = dict(os.environ)
        env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
        env["HOME"] = os.path.join(tmp, "home")
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "VIMINIT", "MYVIMRC"):
            env.pop(name, None)
        try:
            run = subprocess.run([nvim, "--headless", "-i", "NONE", "-u", config, "-c", "luafile " + driver,
                                  os.path.join(module, "main.tf")], cwd=os.path.join(tmp, "repo"), env=env,
                                 stdin=subprocess.DEVNULL, capture_output=True, timeout=180)
        except subprocess.TimeoutExpired:
            print("FAIL  Neovim did not finish within 180 s")
            return 1
        if not os.path.exists(result):
            print("FAIL  Neovim wrote no result (exit %d)\n%s\n%s" % (run.returncode, run.stdout.decode(errors="replace"),
                                                                     run.stderr.decode(errors="replace")))
            return 1
        with open(result, encoding="utf-8") as f:
            out = json.load(f)
        print("      %s" % json.dumps({k: v for k, v in out.items() if k != "text"}))
        check(out["main_filetype"] == "terraform" and out["main_ready"],
              "main.tf: terraform filetype, deprecated-interpolation published")
        check(out["tofu_filetype"] == "terraform" and out["tofu_ready"],
              "variables.tofu: mapped to terraform, variable-type-missing published")
        check(out["json_filetype"] == "terraform" and out["json_ready"],
              "region.tf.json: mapped to terraform, variable-type-missing published")
        check(out.get("applied") is not None,
              "code actions at column 0 of the finding's line, its diagnostic in the context: the quick fix offered")
        expected = MAIN.replace('"${length(var.names)}"', "length(var.names)")
        check(out["text"] == expected, "the quick fix applied to the buffer gives the expected text")
        with open(os.path.join(module, "main.tf"), encoding="utf-8") as f:
            check(f.read() == MAIN, "nothing written to disk")
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
