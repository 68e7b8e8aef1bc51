#include "tfsift/config/load_counters.hpp"

namespace tfsift::config {

LoadCounters& load_counters() {
    static LoadCounters counters;
    return counters;
}

}  // namespace tfsift::config
