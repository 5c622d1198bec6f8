// state_dict / load_state_dict of the LR schedulers (PyTorch's keys).

#include "brasa/archive/error.h"
#include "brasa/optim/schedulers/lr_scheduler.h"
#include "brasa/optim/schedulers/reduce_on_plateau_scheduler.h"
#include "brasa/optim/schedulers/sequential_lr.h"

namespace brasa::optim {
namespace {

IValue doubles(const std::vector<double>& v) {
  return IValue(std::vector<IValue>(v.begin(), v.end()));
}

const IValue& field(const GenericDict& d, const char* key, const char* who) {
  auto it = d.find(IValue(key));
  BRASA_CHECK_TYPED(SerializationError, it != d.end(), who, "::load_state_dict: no key '", key,
                    "'");
  return it->value();
}

GenericDict as_dict(const IValue& v, const char* who) {
  BRASA_CHECK_TYPED(SerializationError, v.isGenericDict(), who,
                    "::load_state_dict: expected a dict, got a ", v.tagKind());
  return v.toGenericDict();
}

int64_t int_field(const GenericDict& d, const char* key, const char* who) {
  const IValue& v = field(d, key, who);
  BRASA_CHECK_TYPED(SerializationError, v.isInt(), who, "::load_state_dict: '", key, "' is a ",
                    v.tagKind(), ", expected an int");
  return v.toInt();
}

double double_field(const GenericDict& d, const char* key, const char* who) {
  const IValue& v = field(d, key, who);
  BRASA_CHECK_TYPED(SerializationError, v.isDouble() || v.isInt(), who, "::load_state_dict: '", key,
                    "' is a ", v.tagKind(), ", expected a number");
  return v.isDouble() ? v.toDouble() : static_cast<double>(v.toInt());
}

std::vector<double> doubles_field(const GenericDict& d, const char* key, size_t n,
                                  const char* who) {
  const IValue& v = field(d, key, who);
  BRASA_CHECK_TYPED(SerializationError, v.isList(), who, "::load_state_dict: '", key, "' is a ",
                    v.tagKind(), ", expected a list of numbers");
  std::vector<double> out;
  for (const auto& x : v.toListRef()) {
    BRASA_CHECK_TYPED(SerializationError, x.isDouble() || x.isInt(), who, "::load_state_dict: '",
                      key, "' holds a ", x.tagKind(), ", expected numbers");
    out.push_back(x.isDouble() ? x.toDouble() : static_cast<double>(x.toInt()));
  }
  BRASA_CHECK_TYPED(SerializationError, out.size() == n, who, "::load_state_dict: '", key, "' has ",
                    out.size(), " entries but the optimizer has ", n, " parameter groups");
  return out;
}

IValue children_state(const std::vector<std::shared_ptr<LRScheduler>>& schedulers) {
  std::vector<IValue> out;
  for (const auto& s : schedulers) out.push_back(s->state_dict());
  return IValue(std::move(out));
}

void load_children(const IValue& state, std::vector<std::shared_ptr<LRScheduler>>& schedulers,
                   const char* who) {
  const IValue& list = field(as_dict(state, who), "_schedulers", who);
  BRASA_CHECK_TYPED(SerializationError,
                    list.isList() && list.toListRef().size() == schedulers.size(), who,
                    "::load_state_dict: '_schedulers' must be a list of ", schedulers.size(),
                    " scheduler states");
  for (size_t i = 0; i < schedulers.size(); ++i)
    schedulers[i]->load_state_dict(list.toListRef()[i]);
}

}  // namespace

IValue LRScheduler::state_dict() const {
  GenericDict d;
  d.insert(IValue("last_epoch"), IValue(last_epoch_));
  d.insert(IValue("_step_count"), IValue(static_cast<int64_t>(step_count_)));
  d.insert(IValue("base_lrs"), doubles(base_lrs_));
  d.insert(IValue("_last_lr"), doubles(last_lr_));
  return IValue(d);
}

void LRScheduler::load_state_dict(const IValue& state) {
  const char* who = "LRScheduler";
  const GenericDict d = as_dict(state, who);
  const size_t groups = optimizer_.param_groups().size();
  const int64_t last_epoch = int_field(d, "last_epoch", who);
  const int64_t step_count = int_field(d, "_step_count", who);
  BRASA_CHECK_TYPED(SerializationError, last_epoch >= -1 && step_count >= 0, who,
                    "::load_state_dict: negative last_epoch or _step_count");
  base_lrs_ = doubles_field(d, "base_lrs", groups, who);
  last_lr_ = doubles_field(d, "_last_lr", groups, who);
  last_epoch_ = last_epoch;
  step_count_ = static_cast<unsigned>(step_count);
}

IValue SequentialLR::state_dict() const {
  IValue state = LRScheduler::state_dict();
  state.toGenericDict().insert(IValue("_schedulers"), children_state(schedulers_));
  return state;
}

void SequentialLR::load_state_dict(const IValue& state) {
  LRScheduler::load_state_dict(state);
  load_children(state, schedulers_, "SequentialLR");
}

IValue ChainedScheduler::state_dict() const {
  IValue state = LRScheduler::state_dict();
  state.toGenericDict().insert(IValue("_schedulers"), children_state(schedulers_));
  return state;
}

void ChainedScheduler::load_state_dict(const IValue& state) {
  LRScheduler::load_state_dict(state);
  load_children(state, schedulers_, "ChainedScheduler");
}

IValue ReduceLROnPlateauScheduler::state_dict() const {
  GenericDict d;
  d.insert(IValue("best"), IValue(best_));
  d.insert(IValue("num_bad_epochs"), IValue(num_bad_epochs_));
  d.insert(IValue("cooldown_counter"), IValue(cooldown_counter_));
  d.insert(IValue("last_epoch"), IValue(last_epoch_));
  d.insert(IValue("_last_lr"), doubles(last_lr_));
  return IValue(d);
}

void ReduceLROnPlateauScheduler::load_state_dict(const IValue& state) {
  const char* who = "ReduceLROnPlateauScheduler";
  const GenericDict d = as_dict(state, who);
  const double best = double_field(d, "best", who);
  const int64_t bad = int_field(d, "num_bad_epochs", who);
  const int64_t cooldown = int_field(d, "cooldown_counter", who);
  const int64_t last_epoch = int_field(d, "last_epoch", who);
  last_lr_ = doubles_field(d, "_last_lr", optimizer_.param_groups().size(), who);
  best_ = best;
  num_bad_epochs_ = bad;
  cooldown_counter_ = cooldown;
  last_epoch_ = last_epoch;
}

}  // namespace brasa::optim
