// Op map of the nnlayers family (cases_nnlayers.py): libtorch's named convolution kernels, the
// recurrent cells and layers, the upsamplers, max unpooling, the affine grid generator, grid
// sampling and fractional max pooling, with libtorch's positional arguments.

#include <vector>

#include "brasa/nn/resample_functions.h"
#include "brasa/nn/rnn_functions.h"
#include "brasa/ops/conv_variants.h"
#include "registry.h"

namespace brasa::conformance {
namespace {

std::vector<int64_t> ints_or(const Args& a, size_t i, std::vector<int64_t> d) {
  return given(a, i) ? a.ints(i) : d;
}
std::optional<double> real_opt(const Args& a, size_t i) {
  return given(a, i) ? std::optional<double>(a.real(i)) : std::nullopt;
}
std::vector<double> reals(const Args& a, size_t i) {
  std::vector<double> r;
  for (const Value& v : a.at(i).list)
    r.push_back(v.tag == Tag::Int ? static_cast<double>(v.i) : v.f);
  return r;
}

/// The cells' hx: a tensor, or a list of tensors for lstm_cell.
std::vector<Tensor> states(const Args& a, size_t i) {
  if (a.is_tensor(i)) return {a.tensor(i)};
  std::vector<Tensor> r;
  for (const Value& v : a.at(i).list) r.push_back(v.tensor);
  return r;
}

template <class Cell>
Value cell(const Args& a, Cell fn) {
  return fn(a.tensor(0), a.tensor(1), a.tensor(2), a.tensor(3), opt(a, 4), opt(a, 5));
}

Value tensors(const std::tuple<Tensor, Tensor>& t) {
  return Value::of_tensors({std::get<0>(t), std::get<1>(t)});
}

std::vector<Tensor> tensor_list(const Args& a, size_t i) {
  std::vector<Tensor> r;
  for (const Value& v : a.at(i).list) r.push_back(v.tensor);
  return r;
}

template <class Fn>
Value sequence(const Args& a, Fn fn) {
  return tensors(fn(a.tensor(0), a.tensor(1), tensor_list(a, 2), flag(a, 3), a.integer(4),
                    a.real(5), flag(a, 6), flag(a, 7), flag(a, 8)));
}

template <class Fn>
Value sampler(const Args& a, Fn fn) {
  return fn(a.tensor(0), a.tensor(1), a.integer(2), a.integer(3), flag(a, 4));
}

const OpTable kNNLayers(
    "nnlayers",
    {
        // ---- named convolution kernels ----
        {"thnn_conv2d",
         [](const Args& a) -> Value {
           return thnn_conv2d(a.tensor(0), a.tensor(1), a.ints(2), opt(a, 3), ints_or(a, 4, {1}),
                              ints_or(a, 5, {0}));
         }},
        {"slow_conv3d",
         [](const Args& a) -> Value {
           return slow_conv3d(a.tensor(0), a.tensor(1), a.ints(2), opt(a, 3), ints_or(a, 4, {1}),
                              ints_or(a, 5, {0}));
         }},
        {"slow_conv3d_forward",
         [](const Args& a) -> Value {
           return slow_conv3d_forward(a.tensor(0), a.tensor(1), a.ints(2), opt(a, 3), a.ints(4),
                                      a.ints(5));
         }},
        {"slow_conv_dilated2d",
         [](const Args& a) -> Value {
           return slow_conv_dilated2d(a.tensor(0), a.tensor(1), a.ints(2), opt(a, 3),
                                      ints_or(a, 4, {1}), ints_or(a, 5, {0}), ints_or(a, 6, {1}));
         }},
        {"slow_conv_dilated3d",
         [](const Args& a) -> Value {
           return slow_conv_dilated3d(a.tensor(0), a.tensor(1), a.ints(2), opt(a, 3),
                                      ints_or(a, 4, {1}), ints_or(a, 5, {0}), ints_or(a, 6, {1}));
         }},
        {"slow_conv_transpose2d",
         [](const Args& a) -> Value {
           return slow_conv_transpose2d(a.tensor(0), a.tensor(1), a.ints(2), opt(a, 3),
                                        ints_or(a, 4, {1}), ints_or(a, 5, {0}), ints_or(a, 6, {0}),
                                        ints_or(a, 7, {1}));
         }},
        {"slow_conv_transpose3d",
         [](const Args& a) -> Value {
           return slow_conv_transpose3d(a.tensor(0), a.tensor(1), a.ints(2), opt(a, 3),
                                        ints_or(a, 4, {1}), ints_or(a, 5, {0}), ints_or(a, 6, {0}),
                                        ints_or(a, 7, {1}));
         }},
        {"conv_tbc",
         [](const Args& a) -> Value {
           return conv_tbc(a.tensor(0), a.tensor(1), a.tensor(2), given(a, 3) ? a.integer(3) : 0);
         }},
        // ---- recurrent cells ----
        {"lstm_cell",
         [](const Args& a) -> Value {
           return tensors(lstm_cell(a.tensor(0), states(a, 1), a.tensor(2), a.tensor(3), opt(a, 4),
                                    opt(a, 5)));
         }},
        {"gru_cell", [](const Args& a) -> Value { return cell(a, gru_cell); }},
        {"rnn_tanh_cell", [](const Args& a) -> Value { return cell(a, rnn_tanh_cell); }},
        {"rnn_relu_cell", [](const Args& a) -> Value { return cell(a, rnn_relu_cell); }},
        // ---- whole sequences: (input, hx, params, has_biases, num_layers, dropout, train,
        // bidirectional, batch_first) ----
        {"lstm",
         [](const Args& a) -> Value {
           auto [out, h, c] = lstm(a.tensor(0), states(a, 1), tensor_list(a, 2), flag(a, 3),
                                   a.integer(4), a.real(5), flag(a, 6), flag(a, 7), flag(a, 8));
           return Value::of_tensors({out, h, c});
         }},
        {"gru", [](const Args& a) -> Value { return sequence(a, gru); }},
        {"rnn_tanh", [](const Args& a) -> Value { return sequence(a, rnn_tanh); }},
        {"rnn_relu", [](const Args& a) -> Value { return sequence(a, rnn_relu); }},
        // ---- grid sampling, fractional max pooling ----
        {"grid_sampler_2d", [](const Args& a) -> Value { return sampler(a, grid_sampler_2d); }},
        {"grid_sampler_3d", [](const Args& a) -> Value { return sampler(a, grid_sampler_3d); }},
        {"grid_sampler", [](const Args& a) -> Value { return sampler(a, grid_sampler); }},
        {"fractional_max_pool2d",
         [](const Args& a) -> Value {
           return tensors(fractional_max_pool2d(a.tensor(0), a.ints(1), a.ints(2), a.tensor(3)));
         }},
        {"fractional_max_pool3d",
         [](const Args& a) -> Value {
           return tensors(fractional_max_pool3d(a.tensor(0), a.ints(1), a.ints(2), a.tensor(3)));
         }},
        // ---- upsampling ----
        {"upsample_linear1d",
         [](const Args& a) -> Value {
           return upsample_linear1d(a.tensor(0), IntArrayRef(a.ints(1)), a.scalar(2).to<bool>(),
                                    real_opt(a, 3));
         }},
        {"upsample_bicubic2d",
         [](const Args& a) -> Value {
           return upsample_bicubic2d(a.tensor(0), IntArrayRef(a.ints(1)), a.scalar(2).to<bool>(),
                                     real_opt(a, 3), real_opt(a, 4));
         }},
        {"upsample_trilinear3d",
         [](const Args& a) -> Value {
           return upsample_trilinear3d(a.tensor(0), IntArrayRef(a.ints(1)), a.scalar(2).to<bool>(),
                                       real_opt(a, 3), real_opt(a, 4), real_opt(a, 5));
         }},
        {"upsample_linear1d.vec",
         [](const Args& a) -> Value {
           std::vector<int64_t> size = given(a, 1) ? a.ints(1) : std::vector<int64_t>{};
           std::vector<double> scales = given(a, 3) ? reals(a, 3) : std::vector<double>{};
           return upsample_linear1d(a.tensor(0),
                                    given(a, 1) ? OptionalIntArrayRef(size) : std::nullopt,
                                    a.scalar(2).to<bool>(),
                                    given(a, 3) ? OptionalArrayRef<double>(scales) : std::nullopt);
         }},
        {"upsample_bicubic2d.vec",
         [](const Args& a) -> Value {
           std::vector<int64_t> size = given(a, 1) ? a.ints(1) : std::vector<int64_t>{};
           std::vector<double> scales = given(a, 3) ? reals(a, 3) : std::vector<double>{};
           return upsample_bicubic2d(a.tensor(0),
                                     given(a, 1) ? OptionalIntArrayRef(size) : std::nullopt,
                                     a.scalar(2).to<bool>(),
                                     given(a, 3) ? OptionalArrayRef<double>(scales) : std::nullopt);
         }},
        {"upsample_trilinear3d.vec",
         [](const Args& a) -> Value {
           std::vector<int64_t> size = given(a, 1) ? a.ints(1) : std::vector<int64_t>{};
           std::vector<double> scales = given(a, 3) ? reals(a, 3) : std::vector<double>{};
           return upsample_trilinear3d(
               a.tensor(0), given(a, 1) ? OptionalIntArrayRef(size) : std::nullopt,
               a.scalar(2).to<bool>(),
               given(a, 3) ? OptionalArrayRef<double>(scales) : std::nullopt);
         }},
        // ---- unpooling, affine grid ----
        {"max_unpool2d",
         [](const Args& a) -> Value { return max_unpool2d(a.tensor(0), a.tensor(1), a.ints(2)); }},
        {"max_unpool3d",
         [](const Args& a) -> Value {
           return max_unpool3d(a.tensor(0), a.tensor(1), a.ints(2), a.ints(3), a.ints(4));
         }},
        {"affine_grid_generator",
         [](const Args& a) -> Value {
           return affine_grid_generator(a.tensor(0), a.ints(1), a.scalar(2).to<bool>());
         }},
    });

}  // namespace
}  // namespace brasa::conformance
