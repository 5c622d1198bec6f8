// MPI process state: init/finalize once, error strings, dtype and op mapping.

#include "distributed/mpi/mpi_runtime.h"

#include <cstdlib>
#include <limits>
#include <mutex>

namespace brasa::distributed::mpi {
namespace {

void finalize_at_exit() {
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

}  // namespace

void init_once() {
  static std::once_flag flag;
  std::call_once(flag, [] {
    int initialized = 0;
    MPI_Initialized(&initialized);
    int provided = MPI_THREAD_SINGLE;
    if (initialized) {
      MPI_Query_thread(&provided);
    } else {
      int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
      if (rc != MPI_SUCCESS) {
        BRASA_THROW(distributed::DistributedError,
                    "ProcessGroupMPI: MPI_Init_thread failed with code ", rc);
      }
      std::atexit(finalize_at_exit);
      // Errors on MPI_COMM_WORLD (comm creation) come back as codes instead of aborting the job.
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    }
    if (provided < MPI_THREAD_MULTIPLE) {
      BRASA_THROW(distributed::DistributedError,
                  "ProcessGroupMPI: the MPI library provides thread level ", provided,
                  " but MPI_THREAD_MULTIPLE (", MPI_THREAD_MULTIPLE, ") is required");
    }
  });
}

bool finalized() {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

void check(int rc, const std::string& where, const char* call) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) len = 0;
  BRASA_THROW(distributed::DistributedError, where, ": ", call, " failed: ",
              len > 0 ? std::string(text, static_cast<size_t>(len)) : "unknown MPI error",
              " (code ", rc, ")");
}

MPI_Datatype reduce_datatype(ScalarType dtype, const std::string& where) {
  switch (dtype) {
    case ScalarType::Float: return MPI_FLOAT;
    case ScalarType::Double: return MPI_DOUBLE;
    case ScalarType::Char: return MPI_INT8_T;
    case ScalarType::Short: return MPI_INT16_T;
    case ScalarType::Int: return MPI_INT32_T;
    case ScalarType::Long: return MPI_INT64_T;
    case ScalarType::Byte: return MPI_UINT8_T;
    default: break;
  }
  BRASA_THROW(TypeError, where, ": dtype ", dtype,
              " cannot be reduced (supported: float32, float64, float16, bfloat16, int8, int16, "
              "int32, int64, uint8)");
}

MPI_Op reduce_op(ReduceOp::RedOpType op) {
  switch (op) {
    case ReduceOp::SUM:
    case ReduceOp::AVG: return MPI_SUM;
    case ReduceOp::PRODUCT: return MPI_PROD;
    case ReduceOp::MIN: return MPI_MIN;
    case ReduceOp::MAX: return MPI_MAX;
  }
  return MPI_SUM;
}

int to_count(int64_t n, const std::string& where) {
  if (n < 0 || n > std::numeric_limits<int>::max()) {
    BRASA_THROW(distributed::DistributedError, where, ": ", n,
                " elements exceed MPI's int count limit");
  }
  return static_cast<int>(n);
}

}  // namespace brasa::distributed::mpi
