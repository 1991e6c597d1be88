// detail::gemm, detail::batch_gemm and detail::fused_gemm: check, map the row-major operands onto
// one column-major BLAS call, order it across streams (memory/stream_order.h), run it on the
// operands' place, and write C back when it went through a temporary.
#include "tensorx/blas/compiled_gemm.h"

#include <cstdint>
#include <utility>

#include "blas/blas_operand.h"
#include "blas/gemm_call.h"
#include "blas/gemm_checks.h"
#include "tensorx/core/stats.h"
#include "tensorx/memory/stream_order.h"

namespace tensorx {
namespace detail {
namespace {

// One checked request mapped onto one column-major BLAS call, with the dense copies the call
// reads or writes kept alive until it has run.
struct PlannedGemm {
  GemmCall call;
  PreparedOperand a;
  PreparedOperand b;
  PreparedOperand out;
  ZeroOperands zeros;
};

// Maps a checked, non-empty request onto the call. beta != 0 makes the call read C.
PlannedGemm plan_gemm(GemmRequest& request, double alpha, double beta) {
  const MatrixRef& c = request.c.matrix;
  PlannedGemm plan;

  // An empty inner extent leaves C = beta * C. BLAS libraries have disagreed on K = 0 (rocBLAS
  // once returned without scaling C; PyTorch steps around cuBLAS there), so such a product runs as
  // a K = 1 product of zeros with alpha = 0, which every BLAS gets right, beta = 0 included.
  if (inner_extent(request) == 0) {
    plan.zeros = zero_operands(c.type, c.place, c.rows, c.cols);
    request.a = plan.zeros.a;
    request.b = plan.zeros.b;
    request.trans_a = request.trans_b = Trans::kNo;
    alpha = 0;
  }

  plan.a = prepare_input(request.a);
  plan.b = prepare_input(request.b);
  plan.out = prepare_output(request.c, request.a, request.b, beta != 0);
  const PreparedOperand& a = plan.a;
  const PreparedOperand& b = plan.b;

  // op(X) is the matrix the BLAS reads, transposed once for the view (PreparedOperand::transposed)
  // and once more when the caller asked for X^T.
  const bool flip_a = a.transposed != (request.trans_a == Trans::kYes);
  const bool flip_b = b.transposed != (request.trans_b == Trans::kYes);

  GemmCall& call = plan.call;
  call.type = c.type;
  call.place = c.place;
  call.k = inner_extent(request);
  call.batch = request.c.count;
  call.alpha = alpha;
  call.beta = beta;
  call.c = plan.out.blas;
  if (plan.out.transposed) {
    // The BLAS sees C^T = op(B)^T * op(A)^T: swap the operands and flip both flags.
    call.m = c.cols;
    call.n = c.rows;
    call.a = b.blas;
    call.transpose_a = !flip_b;
    call.b = a.blas;
    call.transpose_b = !flip_a;
  } else {
    call.m = c.rows;
    call.n = c.cols;
    call.a = a.blas;
    call.transpose_a = flip_a;
    call.b = b.blas;
    call.transpose_b = flip_b;
  }
  return plan;
}

bool is_empty_output(const GemmRequest& request) {
  const MatrixRef& c = request.c.matrix;
  return c.rows == 0 || c.cols == 0 || request.c.count == 0;
}

// Sets the stream of a GPU call: the current one of its device, ordered after the earlier uses of
// what the call reads (A, B, the bias) and writes (C, whose earlier values beta may read).
void order_call(GemmCall& call, Allocation* bias) {
  if (is_cpu_place(call.place)) return;
  StreamOrder order(device_of(call.place));
  order.read(call.a.buffer);
  order.read(call.b.buffer);
  order.read(bias);
  order.write(call.c.buffer);
  call.stream = order.stream();
}

// Runs a planned call on its place and writes C back from its temporary, if it has one.
void run_planned(PlannedGemm& plan, const GemmRequest& request) {
  if (is_cpu_place(plan.call.place)) {
    cpu_gemm(plan.call);
  } else {
    order_call(plan.call, nullptr);
    gpu_gemm(plan.call);
  }
  stats::record_gemm();
  write_back(plan.out, request.c);
}

void run_gemm(GemmRequest request, double alpha, double beta) {
  check_gemm(request);
  if (is_empty_output(request)) return;
  PlannedGemm plan = plan_gemm(request, alpha, beta);
  run_planned(plan, request);
}

GemmRequest single_request(Trans trans_a, Trans trans_b, const MatrixRef& a, const MatrixRef& b,
                           const MatrixRef& c) {
  GemmRequest request;
  request.trans_a = trans_a;
  request.trans_b = trans_b;
  request.a.matrix = a;
  request.b.matrix = b;
  request.c.matrix = c;
  return request;
}

}  // namespace

void gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixRef& a, const MatrixRef& b,
          double beta, const MatrixRef& c) {
  run_gemm(single_request(trans_a, trans_b, a, b, c), alpha, beta);
}

bool fused_gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixRef& a, const MatrixRef& b,
                const BiasRef& bias, GemmActivation activation, const MatrixRef& c) {
  GemmRequest request = single_request(trans_a, trans_b, a, b, c);
  check_gemm(request);
  if (is_empty_output(request)) return true;
  // K = 0 runs on zero operands with alpha = 0, whose epilogue the caller's pass applies just as
  // well. The epilogue may read the bias in 16-byte vectors, and cuBLASLt's heuristic has no
  // alignment preference for it: a bias view at an odd offset takes the caller's pass too.
  const bool may_fuse = is_gpu_place(c.place) && inner_extent(request) != 0 &&
                        reinterpret_cast<std::uintptr_t>(bias.data) % 16 == 0;
  PlannedGemm plan = plan_gemm(request, alpha, 0.0);
  // The epilogue's bias runs along the rows of the BLAS's column-major D, which are C's columns
  // only when the BLAS writes C^T, i.e. C (or its dense stand-in) is row-major.
  if (!may_fuse || !plan.out.transposed) {
    run_planned(plan, request);
    return false;
  }
  order_call(plan.call, bias.buffer);
  // Where cuBLASLt declines, the plain call runs from the same prepared operands: no operand is
  // copied twice.
  const bool fused = gpu_fused_gemm(plan.call, bias.data, activation);
  if (!fused) gpu_gemm(plan.call);
  stats::record_gemm();
  write_back(plan.out, request.c);
  return fused;
}

void batch_gemm(Trans trans_a, Trans trans_b, double alpha, const MatrixBatchRef& a,
                const MatrixBatchRef& b, double beta, const MatrixBatchRef& c) {
  GemmRequest request;
  request.batched = true;
  request.trans_a = trans_a;
  request.trans_b = trans_b;
  request.a = a;
  request.b = b;
  request.c = c;
  run_gemm(std::move(request), alpha, beta);
}

}  // namespace detail
}  // namespace tensorx
