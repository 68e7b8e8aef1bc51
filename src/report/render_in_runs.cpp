#include <algorithm>
#include <string>
#include <vector>

#include "report/report_common.hpp"
#include "tfsift/parallel_for.hpp"

namespace tfsift::report::detail {

void render_in_runs(std::size_t count, unsigned jobs, std::size_t run_size,
                    const std::function<void(std::size_t begin, std::size_t end, std::string& text)>& render,
                    const std::function<void(std::string_view text, std::size_t begin, std::size_t end)>& write) {
    run_size = std::max<std::size_t>(run_size, 1);
    jobs = std::max(1U, jobs);
    const std::size_t runs = (count + run_size - 1) / run_size;
    // A few runs per job at a time, so that the texts waiting to be written
    // stay small however many items there are.
    const std::size_t batch = std::size_t{4} * jobs;
    std::vector<std::string> texts(std::min(batch, runs));
    for (std::size_t first = 0; first < runs; first += batch) {
        const std::size_t in_batch = std::min(batch, runs - first);
        parallel_for(in_batch, jobs, [&](std::size_t k) {
            const std::size_t begin = (first + k) * run_size;
            render(begin, std::min(count, begin + run_size), texts[k]);
        });
        for (std::size_t k = 0; k < in_batch; ++k) {
            const std::size_t begin = (first + k) * run_size;
            write(texts[k], begin, std::min(count, begin + run_size));
            texts[k].clear();
        }
    }
}

void render_in_runs(std::size_t count, unsigned jobs, std::size_t run_size,
                    const std::function<void(std::size_t begin, std::size_t end, std::string& text)>& render,
                    std::ostream& out) {
    render_in_runs(count, jobs, run_size, render, [&](std::string_view text, std::size_t, std::size_t) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
}

void for_each_run(std::size_t count, unsigned jobs, std::size_t run_size,
                  const std::function<void(std::size_t begin, std::size_t end)>& each) {
    run_size = std::max<std::size_t>(run_size, 1);
    parallel_for((count + run_size - 1) / run_size, std::max(1U, jobs), [&](std::size_t r) {
        const std::size_t begin = r * run_size;
        each(begin, std::min(count, begin + run_size));
    });
}

}  // namespace tfsift::report::detail
