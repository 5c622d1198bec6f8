#pragma once
// A table of libtorch spellings, each with the PyTorch expression that means the same, checked
// against live PyTorch: values, shapes and dtypes of every output. `prelude` is the Python that
// defines the inputs the expressions use; each row's C++ builds the same inputs itself.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <functional>
#include <string>
#include <vector>

#include "support/torch_oracle.h"

namespace brasa::testing_oracle {

struct OracleRow {
  const char* cpp;     // the libtorch spelling, for messages
  const char* python;  // the same meaning in PyTorch
  std::function<std::vector<torch::Tensor>()> run;
};

inline std::string oracle_rows_body(const std::string& prelude,
                                    const std::vector<OracleRow>& rows) {
  std::string body = prelude + R"PY(
CODES = {torch.uint8: 0, torch.int8: 1, torch.int16: 2, torch.int32: 3, torch.int64: 4,
         torch.float16: 5, torch.float32: 6, torch.float64: 7, torch.bool: 11, torch.bfloat16: 15}
def row(k, r):
    for i, t in enumerate(flat(r)):
        print('%s.%d' % (k, i), ' '.join(repr(float(v)) for v in t.reshape(-1).tolist()))
        print('%s.%d:shape' % (k, i), ' '.join(str(s) for s in t.shape))
        print('%s.%d:dtype' % (k, i), CODES[t.dtype])
    print('%s:count' % k, len(flat(r)))
)PY";
  for (size_t i = 0; i < rows.size(); ++i) {
    body += "row('r" + std::to_string(i) + "', " + rows[i].python + ")\n";
  }
  return body;
}

/// Runs row `index` of `rows` and compares it with PyTorch's answer (one Python run per table).
inline void expect_row_matches_torch(const std::string& prelude, const std::vector<OracleRow>& rows,
                                     size_t index, double tol) {
  const OracleRow& row = rows[index];
  SCOPED_TRACE(std::string(row.cpp) + "  vs PyTorch  " + row.python);
  const auto& ref = run_python_shared(oracle_rows_body(prelude, rows));
  const std::string key = "r" + std::to_string(index);
  const std::vector<torch::Tensor> outs = row.run();
  ASSERT_TRUE(ref.count(key + ":count")) << "PyTorch did not run this row";
  ASSERT_EQ(outs.size(), static_cast<size_t>(ref.at(key + ":count").at(0)));
  for (size_t i = 0; i < outs.size(); ++i) {
    const std::string k = key + "." + std::to_string(i);
    const std::vector<double>& shape = ref.at(k + ":shape");
    ASSERT_EQ(outs[i].sizes().vec(), std::vector<int64_t>(shape.begin(), shape.end())) << k;
    EXPECT_EQ(static_cast<int>(outs[i].scalar_type()), static_cast<int>(ref.at(k + ":dtype").at(0)))
        << k << ": brasa gives " << outs[i].scalar_type();
    expect_close(k, outs[i], ref, tol);
  }
}

}  // namespace brasa::testing_oracle
