#include "autograd/function_node.h"

#include "brasa/ops/factory.h"

namespace brasa::autograd {

void materialize_grads(const Node& node, variable_list& grads) {
  for (size_t i = 0; i < grads.size() && i < node.num_inputs(); ++i) {
    if (grads[i].defined()) continue;
    const InputMetadata& m = node.input_metadata(i);
    grads[i] = zeros(m.sizes, TensorOptions(m.dtype).device(m.device));
  }
}

void throw_released(const Node& node) {
  BRASA_THROW(ValueError,
              "Trying to backward through the graph a second time (or directly access "
              "saved tensors after they have already been freed): the saved tensors of ",
              node.name(), " (forward op '", node.forward_op(),
              "') were freed by the previous backward; pass retain_graph=true to the first "
              "backward if you need to backward through the graph again");
}

void throw_out_with_grad(const char* op) {
  BRASA_THROW(ValueError, op,
              ": functions with out=... arguments don't support automatic "
              "differentiation, but one of the arguments requires grad");
}

Tensor clone_for_save(const Tensor& t) {
  // Recorded (when t has history), so a double backward still reaches t's old value.
  return t.clone();
}

}  // namespace brasa::autograd
