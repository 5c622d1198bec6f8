#pragma once
// The random family's dispatched ops (Note [Op declarations]): in-place fills in random_ops.cpp,
// randperm in random_factories.cpp, exponential_, geometric_ and multinomial in sampling_ops.cpp.
// Their kernel interface is random.h.

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "brasa/dispatch/dispatcher.h"

namespace brasa::ops {

// random_ops.cpp
BRASA_DECLARE_OP(
    uniform_op, "uniform_",
    "uniform_(Tensor(a!) self, float from, float to, Generator? generator) -> Tensor(a!)",
    Tensor(const Tensor&, double, double, std::optional<Generator>));
BRASA_DECLARE_OP(
    normal_op, "normal_",
    "normal_(Tensor(a!) self, float mean, float std, Generator? generator) -> Tensor(a!)",
    Tensor(const Tensor&, double, double, std::optional<Generator>));
BRASA_DECLARE_OP(bernoulli_op, "bernoulli_",
                 "bernoulli_.float(Tensor(a!) self, float p, Generator? generator) -> Tensor(a!)",
                 Tensor(const Tensor&, double, std::optional<Generator>));
BRASA_DECLARE_OP(bernoulli_tensor_op, "bernoulli_.Tensor",
                 "bernoulli_.Tensor(Tensor(a!) self, Tensor p, Generator? generator) -> Tensor(a!)",
                 Tensor(const Tensor&, const Tensor&, std::optional<Generator>));
BRASA_DECLARE_OP(
    random_op, "random_",
    "random_.from(Tensor(a!) self, int from, int to, Generator? generator) -> Tensor(a!)",
    Tensor(const Tensor&, int64_t, int64_t, std::optional<Generator>));
BRASA_ATEN(random_op, "random_.from(self, from, int? to, generator)");

// random_factories.cpp
BRASA_DECLARE_OP(
    randperm_op, "randperm",
    "randperm.generator(int n, Generator? generator, ScalarType dtype, Device device) -> Tensor",
    Tensor(int64_t, std::optional<Generator>, ScalarType, Device));
BRASA_ATEN(randperm_op, "factory");

// sampling_ops.cpp
BRASA_DECLARE_OP(exponential_op, "exponential_",
                 "exponential_(Tensor(a!) self, float lambd, Generator? generator) -> Tensor(a!)",
                 Tensor(const Tensor&, double, std::optional<Generator>));
BRASA_DECLARE_OP(geometric_op, "geometric_",
                 "geometric_(Tensor(a!) self, float p, Generator? generator) -> Tensor(a!)",
                 Tensor(const Tensor&, double, std::optional<Generator>));
BRASA_DECLARE_OP(
    multinomial_op, "multinomial",
    "multinomial(Tensor self, int num_samples, bool replacement, Generator? generator) -> Tensor",
    Tensor(const Tensor&, int64_t, bool, std::optional<Generator>));

// distribution_ops.cpp: draws of new tensors (Note [Rejection samplers]).
BRASA_DECLARE_OP(poisson_op, "poisson", "poisson(Tensor self, Generator? generator) -> Tensor",
                 Tensor(const Tensor&, std::optional<Generator>));
BRASA_DECLARE_OP(binomial_op, "binomial",
                 "binomial(Tensor count, Tensor prob, Generator? generator) -> Tensor",
                 Tensor(const Tensor&, const Tensor&, std::optional<Generator>));
BRASA_DECLARE_OP(normal_functional_op, "normal_functional",
                 "normal_functional(Tensor self, float mean, float std, Generator? generator) -> "
                 "Tensor",
                 Tensor(const Tensor&, double, double, std::optional<Generator>));

}  // namespace brasa::ops
