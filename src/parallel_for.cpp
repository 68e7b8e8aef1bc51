#include "tfsift/parallel_for.hpp"
#include "tfsift/run_on_stack.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace tfsift {

namespace {

// Stack of each extra thread: the one the command itself runs on.
constexpr std::size_t worker_stack_bytes = command_stack_bytes;

struct Shared {
    std::size_t count = 0;
    const std::function<void(std::size_t)>* work = nullptr;
    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> errors;  // by index
};

void drain(Shared& s) {
    for (;;) {
        std::size_t i = s.next.fetch_add(1);
        if (i >= s.count) return;
        try {
            (*s.work)(i);
        } catch (...) {
            s.errors[i] = std::current_exception();
        }
    }
}

void* worker_main(void* arg) {
    drain(*static_cast<Shared*>(arg));
    return nullptr;
}

}  // namespace

void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work) {
    Shared shared;
    shared.count = count;
    shared.work = &work;
    shared.errors.resize(count);
    std::size_t extra = std::min<std::size_t>(threads > 0 ? threads - 1 : 0, count > 0 ? count - 1 : 0);
    std::vector<pthread_t> started;
    started.reserve(extra);
    pthread_attr_t attr;
    if (extra > 0 && pthread_attr_init(&attr) == 0) {
        pthread_attr_setstacksize(&attr, worker_stack_bytes);
        for (std::size_t t = 0; t < extra; ++t) {
            pthread_t id{};
            // A thread that cannot be started leaves its share to the others.
            if (pthread_create(&id, &attr, worker_main, &shared) != 0) break;
            started.push_back(id);
        }
        pthread_attr_destroy(&attr);
    }
    drain(shared);
    for (pthread_t id : started) pthread_join(id, nullptr);
    for (const auto& e : shared.errors) {
        if (e) std::rethrow_exception(e);
    }
}

unsigned available_processors() {
#ifdef __linux__
    // The processors this process is allowed on (taskset, container limits).
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0) return static_cast<unsigned>(n);
    }
#endif
    return std::max(1U, std::thread::hardware_concurrency());
}

}  // namespace tfsift
