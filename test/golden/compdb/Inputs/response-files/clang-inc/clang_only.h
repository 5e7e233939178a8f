#define PITCH 2
