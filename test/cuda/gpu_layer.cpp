// The GPU builds of the expression tests (test/<layer>/*.cpp compiled as CUDA with
// TENSORX_TEST_ON_GPU, see CMakeLists.txt): those sources do not mark their cases as needing a
// GPU, so this part of each program marks every top-level suite and case before any of them runs.
// Without a usable CUDA device they are all skipped and the program prints the skip line.
#include <boost/test/tree/traverse.hpp>
#include <boost/test/tree/visitor.hpp>
#include <boost/test/unit_test.hpp>

#include "support/cuda_test.h"

namespace tensorx {
namespace testing {
namespace {

namespace ut = boost::unit_test;

class MarkNeedsCuda : public ut::test_tree_visitor {
 public:
  using ut::test_tree_visitor::visit;
  void visit(const ut::test_case& test) override { mark(test.p_id); }
  bool test_suite_start(const ut::test_suite& suite) override {
    if (suite.p_id == ut::framework::master_test_suite().p_id) return true;
    mark(suite.p_id);
    return false;
  }

 private:
  static void mark(ut::test_unit_id id) {
    ut::framework::get(id, ut::TUT_ANY).add_precondition([](ut::test_unit_id) {
      boost::test_tools::assertion_result result(cuda::device_count() > 0);
      result.message() << "needs a CUDA device";
      return result;
    });
  }
};

// A global fixture is set up after the test tree is complete and before its first case runs.
struct EveryCaseNeedsCuda {
  EveryCaseNeedsCuda() {
    MarkNeedsCuda marker;
    ut::traverse_test_tree(ut::framework::master_test_suite(), marker, true);
  }
};

BOOST_TEST_GLOBAL_FIXTURE(EveryCaseNeedsCuda);

}  // namespace
}  // namespace testing
}  // namespace tensorx
