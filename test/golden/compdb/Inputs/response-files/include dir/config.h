#define STRIDE 32
