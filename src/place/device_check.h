// Private to the compiled layer: the check shared by every operation that needs some GPU but no
// particular one (querying the current device), next to the public cuda::check_device.
#pragma once

namespace tensorx {
namespace detail {

/// Throws DeviceError "cannot <action>: <why>" unless at least one CUDA device is usable.
void require_any_device(const char* action);

}  // namespace detail
}  // namespace tensorx
