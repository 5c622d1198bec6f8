// pipeline_split: the modules of a Sequential that one pipeline stage runs.

#include "brasa/brasa.h"
#include "brasa/distributed/pipelining.h"

namespace brasa::distributed::pipelining {

nn::Sequential pipeline_split(const nn::Sequential& model, int64_t stage, int64_t num_stages,
                              const std::vector<int64_t>& boundaries) {
  const int64_t n = static_cast<int64_t>(model->size());
  BRASA_CHECK(num_stages >= 1 && stage >= 0 && stage < num_stages, "pipeline_split: stage ", stage,
              " of ", num_stages, " stages");
  BRASA_CHECK(n >= num_stages, "pipeline_split: ", n, " modules cannot make ", num_stages,
              " stages (each needs at least one)");
  std::vector<int64_t> cuts{0};
  if (boundaries.empty()) {
    for (int64_t s = 0; s < num_stages; ++s) {
      cuts.push_back(cuts.back() + n / num_stages + (s < n % num_stages ? 1 : 0));
    }
  } else {
    BRASA_CHECK(static_cast<int64_t>(boundaries.size()) == num_stages - 1,
                "pipeline_split: ", num_stages, " stages need ", num_stages - 1,
                " boundaries, got ", boundaries.size());
    for (int64_t b : boundaries) {
      BRASA_CHECK(b > cuts.back() && b < n, "pipeline_split: boundaries ", IntArrayRef(boundaries),
                  " must increase strictly within (0, ", n, ")");
      cuts.push_back(b);
    }
    cuts.push_back(n);
  }
  nn::Sequential out;
  const auto children = model->named_children();
  for (int64_t i = cuts[static_cast<size_t>(stage)]; i < cuts[static_cast<size_t>(stage) + 1];
       ++i) {
    // The AnyModule itself (model[i] is a Module pointer, which has lost the forward's type).
    out->push_back(children[static_cast<size_t>(i)].key(), *(model->begin() + i));
  }
  return out;
}

}  // namespace brasa::distributed::pipelining
