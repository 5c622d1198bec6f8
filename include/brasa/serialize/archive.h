#pragma once
// Moved to the archive layer, below nn (docs/contributing.md, "Layers"); this path stays for users.

#include "brasa/archive/archive.h"
