// Target BTF of test/badinput/run.sh: prog.c's types, laid out otherwise.
struct sk {
	long b;
	const struct sk *next;
	int a;
	unsigned int f:3;
};
enum mode { MODE_B = 7, MODE_A = 8 };
struct sk g_sk;
enum mode g_mode;
