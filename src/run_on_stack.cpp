#include "tfsift/run_on_stack.hpp"

#include <pthread.h>

namespace tfsift {

namespace {

struct Job {
    const std::function<int()>* work = nullptr;
    int result = 0;
};

void* job_main(void* arg) {
    auto* job = static_cast<Job*>(arg);
    job->result = (*job->work)();
    return nullptr;
}

}  // namespace

int run_on_stack(std::size_t bytes, const std::function<int()>& work) {
    Job job{&work, 0};
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) return work();
    pthread_t thread{};
    const bool started =
        pthread_attr_setstacksize(&attr, bytes) == 0 && pthread_create(&thread, &attr, job_main, &job) == 0;
    pthread_attr_destroy(&attr);
    if (!started) return work();
    pthread_join(thread, nullptr);
    return job.result;
}

}  // namespace tfsift
