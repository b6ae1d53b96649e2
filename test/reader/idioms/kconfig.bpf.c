/* .kconfig externs of every type libbpf fills (enum libbpf_tristate is bpf_helpers.h's): bool, tristate, char,
 * integers of each size, a string, weak ones a config may lack, and
 * LINUX_KERNEL_VERSION / LINUX_HAS_SYSCALL_WRAPPER. */
#include "idiom.h"


extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern _Bool LINUX_HAS_SYSCALL_WRAPPER __kconfig __weak;
extern _Bool CONFIG_BPF_SYSCALL __kconfig;
extern enum libbpf_tristate CONFIG_IPV6 __kconfig __weak;
extern char CONFIG_DEFAULT_HOSTNAME[64] __kconfig __weak;
extern int CONFIG_HZ __kconfig __weak;
extern unsigned long CONFIG_NR_CPUS __kconfig __weak;
extern __u64 CONFIG_NO_SUCH_OPTION_AT_ALL __kconfig __weak;
extern short CONFIG_LOG_BUF_SHIFT __kconfig __weak;
extern char CONFIG_BASE_SMALL __kconfig __weak;
__u64 out[8];

SEC("raw_tp/sys_enter")
int kconfig(void *ctx)
{
	out[0] = LINUX_KERNEL_VERSION;
	out[1] = LINUX_HAS_SYSCALL_WRAPPER + CONFIG_BPF_SYSCALL;
	out[2] = CONFIG_IPV6;
	out[3] = CONFIG_DEFAULT_HOSTNAME[0];
	out[4] = CONFIG_HZ + CONFIG_NR_CPUS;
	out[5] = CONFIG_NO_SUCH_OPTION_AT_ALL;
	out[6] = CONFIG_LOG_BUF_SHIFT + CONFIG_BASE_SMALL;
	return 0;
}
