#pragma once
// The backend extension point in one include: registering a device (backend/backend.h), its
// kernels (backend/library.h, or <torch/library.h>), the CPU fallback and its report
// (backend/fallback.h) and the device-agnostic accelerator API (backend/accelerator.h).

#include "brasa/backend/accelerator.h"
#include "brasa/backend/aten.h"
#include "brasa/backend/backend.h"
#include "brasa/backend/fallback.h"
#include "brasa/backend/library.h"
