#pragma once

#include "c10/util/Half.h"
