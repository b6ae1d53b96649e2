// Target BTF of the fuzzer's seeds: the types the seed programs relocate
// against, laid out differently (members moved, sizes changed, bitfields
// placed elsewhere, enum values changed) and one type missing.
#include "common.h"

struct inner { char pad[4]; unsigned int b; int a; char name[32]; };
struct bits { long long wide:40; unsigned short hi:5; short mid:7; unsigned short lo:4; };
struct outer {
	long pad;
	struct inner in[4];
	int x;
	union { unsigned short u; short s; };
	struct { long l; char c; } anon;
	struct inner *next;
	struct bits bf;
	char tail[];
};
struct task { long flags; int pid; struct task *parent; };
union un { long i; double f; };
typedef struct task task_t;
typedef int (*cb_t)(struct task *t, long x);
enum state { ST_RUN = 5, ST_IDLE = 6, ST_GONE = 9, ST_NEW = 10 };
enum big { BIG_A = 0x7654321, BIG_B = 0xffffffffffULL };
struct shape { int w, h; enum state st; char name[8]; };

struct outer g_outer;
struct task g_task;
union un g_un;
task_t g_task_t;
cb_t g_cb;
enum state g_state;
enum big g_big;
struct shape g_shape;
