// Block shapes of the example's launches.
#pragma once
constexpr int kBlock = 256;
