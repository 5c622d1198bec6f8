#pragma once
// Distributed training: stores, process groups (Gloo, MPI), the default group and
// DistributedDataParallel. Not part of brasa/brasa.h (it pulls in threads and sockets).

#include "brasa/distributed/ddp.h"
#include "brasa/distributed/device_mesh.h"
#include "brasa/distributed/dtensor.h"
#include "brasa/distributed/file_store.h"
#include "brasa/distributed/fsdp.h"
#include "brasa/distributed/hash_store.h"
#include "brasa/distributed/init.h"
#include "brasa/distributed/prefix_store.h"
#include "brasa/distributed/process_group.h"
#include "brasa/distributed/process_group_gloo.h"
#include "brasa/distributed/process_group_mpi.h"
#include "brasa/distributed/store.h"
#include "brasa/distributed/tcp_store.h"
#include "brasa/distributed/tensor_parallel.h"
#include "brasa/distributed/tensor_parallel_random.h"
