/* Two BPF objects embedded with .incbin (OBJ1, OBJ2: their paths, as
 * -DOBJ1='"path"'), each under a label, as a tool's data. */
	.section .rodata
	.balign 8
	.globl first_obj
first_obj:
	.incbin OBJ1
	.byte 0x7f, 'E', 'L', 'F'	/* an ELF magic that is no BPF header */
	.balign 8
	.globl second_obj
second_obj:
	.incbin OBJ2
	.section .note.GNU-stack,"",@progbits
