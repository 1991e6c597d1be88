// check_gemm: types, then shapes, then places, each failure a message that shows the formula being
// computed and the shapes of A, B and C, so that the caller sees at once which operand is wrong.
#include "blas/gemm_checks.h"

#include <string>

#include "tensorx/core/error.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

const char* operation(const GemmRequest& request) {
  return request.batched ? "batch_gemm" : "gemm";
}

std::string shape_of(const GemmRequest& request, const MatrixBatchRef& x) {
  if (request.batched) {
    return message("(", x.count, ", ", x.matrix.rows, ", ", x.matrix.cols, ")");
  }
  return message("(", x.matrix.rows, ", ", x.matrix.cols, ")");
}

// "A^T" or "A", with "[i]" for one matrix of a batch.
std::string operand_name(const GemmRequest& request, char name, Trans trans) {
  return message(name, request.batched ? "[i]" : "", trans == Trans::kYes ? "^T" : "");
}

// "cannot compute C = alpha * A^T * B + beta * C with A of shape (2, 3), B of shape ... and C of
// shape ...": the start of every shape error.
std::string shape_context(const GemmRequest& request) {
  const std::string c = operand_name(request, 'C', Trans::kNo);
  return message("cannot compute ", c, " = alpha * ", operand_name(request, 'A', request.trans_a),
                 " * ", operand_name(request, 'B', request.trans_b), " + beta * ", c,
                 " with A of shape ", shape_of(request, request.a), ", B of shape ",
                 shape_of(request, request.b), " and C of shape ", shape_of(request, request.c));
}

bool is_blas_type(DataType type) {
  return type == DataType::kFloat32 || type == DataType::kFloat64 || type == DataType::kFloat16 ||
         type == DataType::kBFloat16;
}

void check_types(const GemmRequest& request) {
  const DataType a = request.a.matrix.type;
  const DataType b = request.b.matrix.type;
  const DataType c = request.c.matrix.type;
  if (a != b || a != c) {
    throw TypeError(message(operation(request), " needs A, B and C of one element type, but A is ",
                            a, ", B is ", b, " and C is ", c));
  }
  if (!is_blas_type(a)) {
    throw TypeError(message(operation(request),
                            " multiplies float32, float64, float16 or bfloat16 matrices, not ", a));
  }
}

bool has_negative_extent(const MatrixBatchRef& x) {
  return x.count < 0 || x.matrix.rows < 0 || x.matrix.cols < 0;
}

// The rows and columns of op(X).
index_t op_rows(const MatrixBatchRef& x, Trans trans) {
  return trans == Trans::kYes ? x.matrix.cols : x.matrix.rows;
}
index_t op_cols(const MatrixBatchRef& x, Trans trans) {
  return trans == Trans::kYes ? x.matrix.rows : x.matrix.cols;
}

void check_batch(const GemmRequest& request, const MatrixBatchRef& x, char name) {
  if (x.count != 1 && x.count != request.c.count) {
    throw ShapeError(message(shape_context(request), ": the batch extent of ", name, " (", x.count,
                             ") is neither 1 nor that of C (", request.c.count, ")"));
  }
}

void check_shapes(const GemmRequest& request) {
  const MatrixBatchRef& a = request.a;
  const MatrixBatchRef& b = request.b;
  const MatrixBatchRef& c = request.c;
  if (has_negative_extent(a) || has_negative_extent(b) || has_negative_extent(c)) {
    throw ShapeError(message(shape_context(request), ": extents must not be negative"));
  }
  if (op_cols(a, request.trans_a) != op_rows(b, request.trans_b)) {
    throw ShapeError(message(
        shape_context(request), ": ", operand_name(request, 'A', request.trans_a), " has ",
        op_cols(a, request.trans_a), " columns but ", operand_name(request, 'B', request.trans_b),
        " has ", op_rows(b, request.trans_b), " rows"));
  }
  const index_t m = op_rows(a, request.trans_a);
  const index_t n = op_cols(b, request.trans_b);
  if (m != c.matrix.rows || n != c.matrix.cols) {
    throw ShapeError(message(shape_context(request), ": the product has shape (", m, ", ", n,
                             ") but ", operand_name(request, 'C', Trans::kNo), " has shape (",
                             c.matrix.rows, ", ", c.matrix.cols, ")"));
  }
  check_batch(request, a, 'A');
  check_batch(request, b, 'B');
}

void check_places(const GemmRequest& request) {
  const Place& a = request.a.matrix.place;
  const Place& b = request.b.matrix.place;
  const Place& c = request.c.matrix.place;
  if (a != c || b != c) {
    throw PlaceError(message(operation(request), " needs A, B and C on one place, but A is on ", a,
                             ", B on ", b, " and C on ", c));
  }
  check_place(c);
}

}  // namespace

void check_gemm(const GemmRequest& request) {
  check_types(request);
  check_shapes(request);
  check_places(request);
}

index_t inner_extent(const GemmRequest& request) {
  return op_cols(request.a, request.trans_a);
}

}  // namespace detail
}  // namespace tensorx
