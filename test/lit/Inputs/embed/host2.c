/* A tool that carries two BPF objects (Inputs/embed/two.S, .incbin). */
#include <stdio.h>
extern const char first_obj[], second_obj[];
int main(void)
{
	printf("%p %p\n", (void *)first_obj, (void *)second_obj);
	return 0;
}
