#define SCALE 1.0f
