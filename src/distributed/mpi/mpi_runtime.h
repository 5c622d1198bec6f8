#pragma once
// MPI process state and the mapping of brasa types onto MPI's: initialise once, error strings,
// datatypes and reduction ops. Internal (includes mpi.h).

#include <mpi.h>

#include <string>

#include "brasa/core/dtype.h"
#include "brasa/distributed/process_group.h"

namespace brasa::distributed::mpi {

/// MPI_Init_thread(MPI_THREAD_MULTIPLE) once per process (MPI_Finalize registered with atexit);
/// when MPI was initialised by someone else, checks it provides MPI_THREAD_MULTIPLE.
void init_once();
/// MPI has been finalized (no MPI call is allowed any more).
bool finalized();
/// Throws DistributedError "<where>: <call> failed: <MPI error string>" unless rc is MPI_SUCCESS.
void check(int rc, const std::string& where, const char* call);
/// The MPI datatype of a reducible dtype (float32/64, int8..int64, uint8); throws TypeError naming
/// `where` otherwise.
MPI_Datatype reduce_datatype(ScalarType dtype, const std::string& where);
/// MPI_SUM/PROD/MIN/MAX; AVG maps to MPI_SUM (the caller divides).
MPI_Op reduce_op(ReduceOp::RedOpType op);
/// An element count as MPI's int; throws DistributedError naming `where` when it does not fit.
int to_count(int64_t n, const std::string& where);

}  // namespace brasa::distributed::mpi
