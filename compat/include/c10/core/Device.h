#pragma once
// c10::Device, c10::DeviceType, c10::kCPU, ... are brasa's.

#include "brasa/core/device.h"
#include "c10/brasa_namespaces.h"
