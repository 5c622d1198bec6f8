#pragma once
// <torch/torch.h> for programs written against libtorch; see docs/compat.md for what is covered.

// Standard headers that libtorch's <torch/torch.h> brings in and that libtorch programs use after
// including only it (std::cout, std::isnan, std::setprecision, std::accumulate, ...). <complex>
// and <shared_mutex> are left out: they are rare in such programs and cost compile time.
#include <bitset>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <list>
#include <numeric>
#include <queue>
#include <set>
#include <stack>
#include <typeindex>

#include "torch/all.h"
#include "torch/nn/functional.h"
#include "torch/optim.h"
