#pragma once
// brasa::optim (torch::optim): optimizers and learning-rate schedulers.

#include "brasa/optim/adagrad.h"
#include "brasa/optim/adam.h"
#include "brasa/optim/adamw.h"
#include "brasa/optim/grad_scaler.h"
#include "brasa/optim/lbfgs.h"
#include "brasa/optim/optimizer.h"
#include "brasa/optim/rmsprop.h"
#include "brasa/optim/schedulers/annealing_lr.h"
#include "brasa/optim/schedulers/lr_scheduler.h"
#include "brasa/optim/schedulers/reduce_on_plateau_scheduler.h"
#include "brasa/optim/schedulers/sequential_lr.h"
#include "brasa/optim/schedulers/step_lr.h"
#include "brasa/optim/sgd.h"
#include "brasa/optim/state_ivalue.h"
